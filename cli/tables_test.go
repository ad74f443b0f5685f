package cli

import "testing"

// Arguments become tables' options through runF, with no network.
func TestNewTablesCmd(t *testing.T) {
	checkOptions(t, newTablesCmd, func(o *tablesOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, []optionsCase[tablesOptions]{
		{args: nil, want: tablesOptions{Output: "table"}},
		{args: []string{"--output", "json"}, want: tablesOptions{Output: "json"}},
		{args: []string{"--table", "App", "--output", "table"}, want: tablesOptions{Table: "App", Output: "table"}},
		{args: []string{"--output", "csv"}, usage: "--output takes json, table, text or yaml"},
		{args: []string{"App"}, usage: "unexpected argument"},
		{args: []string{"--outptu", "json"}, usage: "outptu"},
	})
}
