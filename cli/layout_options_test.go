package cli

import (
	"errors"
	"strings"
	"testing"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/keys"
)

// Arguments become layout's options through runF, with no network; caps
// not given come from the settings (none here: the defaults).
func TestNewLayoutCmd(t *testing.T) {
	def := layoutOptions{Table: "App", MaxItems: dynamo.DefaultSampleItems, MaxRCU: dynamo.DefaultSampleRCU,
		Segments: dynamo.DefaultSampleSegments, Largest: keys.DefaultLargest, Output: "json"}
	with := func(f func(*layoutOptions)) layoutOptions { o := def; f(&o); return o }
	cases := []optionsCase[layoutOptions]{
		{args: nil, want: def},
		{args: []string{"--max-items", "5000", "--max-rcu", "50", "--output", "table"},
			want: with(func(o *layoutOptions) { o.MaxItems, o.MaxRCU, o.Output = 5000, 50, "table" })},
		{args: []string{"--index", "GSI1", "--segments", "1", "--item-sizes", "--largest", "3"},
			want: with(func(o *layoutOptions) { o.Index, o.Segments, o.ItemSizes, o.Largest = "GSI1", 1, true, 3 })},
		{args: []string{"--workbench-out", "app-model.json", "--index-map"},
			want: with(func(o *layoutOptions) { o.WorkbenchOut, o.IndexMap = "app-model.json", true })},
		{args: []string{"--output", "csv"}, usage: "--output takes json, table, text or yaml"},
		{args: []string{"--max-items", "0"}, usage: "--max-items must be a positive number, not 0"},
		{args: []string{"--max-rcu", "0.4"}, usage: "--max-rcu must be at least 0.5"},
		{args: []string{"--max-rcu", "NaN"}, usage: "--max-rcu must be at least 0.5"},
		{args: []string{"--segments", "0"}, usage: "--segments must be between 1 and"},
		{args: []string{"--index-map", "--index", "GSI1"}, usage: "--index-map maps every index of the table: drop --index."},
		{args: []string{"--largest", "0"}, usage: "--largest must be a positive number, not 0"},
		{args: []string{"--workbench-out", "m.json", "--index", "GSI1"}, usage: "--workbench-out models the table"},
		{args: []string{"App"}, usage: "unexpected argument"},
	}
	for i := range cases {
		cases[i].args = append([]string{"--table", "App"}, cases[i].args...)
	}
	checkOptions(t, newLayoutCmd, func(o *layoutOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, cases)
	if _, _, err := cmdOptions(t, newLayoutCmd); err == nil || exitCode(false, err) != 2 {
		t.Errorf("layout without --table: %v, want a usage error", err)
	}
}

// The settings' sampling caps replace the defaults, a flag replaces them,
// and a settings file that cannot be read stops layout before any request.
func TestNewLayoutCmdSettings(t *testing.T) {
	sampling := func(f *factory) {
		f.Settings = func() (config.Settings, error) {
			return config.Settings{Sampling: config.Sampling{MaxItems: 70, MaxRCU: 3, Segments: 2}}, nil
		}
	}
	got, _, err := cmdOptionsWith(t, newLayoutCmd, sampling, "--table", "App")
	if err != nil || got == nil || got.MaxItems != 70 || got.MaxRCU != 3 || got.Segments != 2 {
		t.Fatalf("settings' caps: %+v, %v; want 70 items, 3 RCU, 2 segments", got, err)
	}
	got, _, err = cmdOptionsWith(t, newLayoutCmd, sampling, "--table", "App", "--max-items", "5", "--max-rcu", "1", "--segments", "4")
	if err != nil || got == nil || got.MaxItems != 5 || got.MaxRCU != 1 || got.Segments != 4 {
		t.Fatalf("flags over settings: %+v, %v; want 5 items, 1 RCU, 4 segments", got, err)
	}
	broken := func(f *factory) {
		f.Settings = func() (config.Settings, error) { return config.Settings{}, errors.New("cannot read the settings file") }
	}
	if got, _, err := cmdOptionsWith(t, newLayoutCmd, broken, "--table", "App"); got != nil || err == nil || !strings.Contains(err.Error(), "settings file") {
		t.Errorf("a broken settings file: ran %v, err %v", got != nil, err)
	}
}
