package cli

import (
	"testing"

	"dynascope/patterns"
)

// Arguments become the terminal UI's options through runF, with no
// network and without opening the patterns file.
func TestNewUICmd(t *testing.T) {
	def := uiOptions{Table: "App", PatternsFile: patterns.PatternsFile, MaxLoaded: -1, Color: "auto"}
	with := func(f func(*uiOptions)) uiOptions { o := def; f(&o); return o }
	checkOptions(t, newUICmd, func(o *uiOptions) bool {
		set := o.ConnectSettings != nil && o.ConnectWriter != nil && o.ConnectStreams != nil && o.WritesAllowed != nil &&
			o.DebugLog != nil && o.UIStarts != nil && o.Conn != nil
		o.ConnectSettings, o.ConnectWriter, o.ConnectStreams, o.WritesAllowed = nil, nil, nil, nil
		o.DebugLog, o.UIStarts, o.Conn = nil, nil, nil
		return set
	}, []optionsCase[uiOptions]{
		{args: []string{"--table", "App"}, want: def},
		{args: nil, want: with(func(o *uiOptions) { o.Table = "" })},
		{args: []string{"--table", "App", "--pk", "CUST#42", "--index", "GSI1", "--allow-writes"},
			want: with(func(o *uiOptions) { o.PK, o.Index, o.AllowWrites = "CUST#42", "GSI1", true })},
		{args: []string{"--table", "App", "--patterns", "p.yaml", "--max-loaded", "0"},
			want: with(func(o *uiOptions) { o.PatternsFile, o.PatternsGiven, o.MaxLoaded = "p.yaml", true, 0 })},
		{args: []string{"--table", "App", "--max-loaded", "5000"}, want: with(func(o *uiOptions) { o.MaxLoaded = 5000 })},
		{args: []string{"--pk", "CUST#42"}, usage: "--pk needs --table: the partition key belongs to one table."},
		{args: []string{"--max-loaded", "-1"}, usage: "--max-loaded takes a number of items, or 0 for no cap"},
		{args: []string{"--max-loaded", "many"}, usage: "--max-loaded takes a whole number"},
		{args: []string{"tabels"}, usage: "unknown command \"tabels\""},
	})
}
