package cli

import (
	"reflect"
	"testing"
)

// Arguments become tables' options through runF, with no network.
func TestNewTablesCmd(t *testing.T) {
	for _, c := range []struct {
		args  []string
		want  tablesOptions
		usage string // the usage error expected; "" for none
	}{
		{args: nil, want: tablesOptions{Output: "table"}},
		{args: []string{"--output", "json"}, want: tablesOptions{Output: "json"}},
		{args: []string{"--table", "App", "--output", "table"}, want: tablesOptions{Table: "App", Output: "table"}},
		{args: []string{"--output", "csv"}, usage: "--output must be json or table"},
		{args: []string{"App"}, usage: "unexpected argument"},
		{args: []string{"--outptu", "json"}, usage: "outptu"},
	} {
		got, _, err := cmdOptions(t, newTablesCmd, c.args...)
		if c.usage != "" {
			wantUsage(t, c.args, got != nil, err, c.usage)
			continue
		}
		if err != nil || got == nil {
			t.Fatalf("%q: err %v, ran %v", c.args, err, got != nil)
		}
		if got.Connect == nil || got.Out == nil || got.Err == nil {
			t.Errorf("%q: no client or streams in %+v", c.args, got)
		}
		got.Connect, got.Out, got.Err = nil, nil, nil
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%q: %+v, want %+v", c.args, *got, c.want)
		}
	}
}
