package cli

import (
	"testing"

	"dynascope/dynamo"
)

// Arguments become groups' options through runF, with no network: the
// walk's flags, the grouping by attribute, and the usage errors.
func TestNewGroupsCmd(t *testing.T) {
	in := func(f func(*dynamo.DiscoverInput)) dynamo.DiscoverInput {
		d := dynamo.DiscoverInput{Table: "App", PK: "CUST#42"}
		if f != nil {
			f(&d)
		}
		return d
	}
	cases := []optionsCase[groupsOptions]{
		{args: nil, want: groupsOptions{In: in(nil), Output: "json"}},
		{args: []string{"--count", "--output", "table", "--reverse", "--consistent"},
			want: groupsOptions{In: in(func(d *dynamo.DiscoverInput) { d.Count, d.Reverse, d.Consistent = true, true, true }), Output: "table"}},
		{args: []string{"--index", "GSI1", "--delimiter", "|", "--max-requests", "7"},
			want: groupsOptions{In: in(func(d *dynamo.DiscoverInput) { d.Index, d.Delimiter = "GSI1", "|" }), MaxRequests: 7, Output: "json"}},
		{args: []string{"--by", "sk"}, want: groupsOptions{In: in(nil), Output: "json"}},
		{args: []string{"--by", "attribute:EntityType", "--output", "table"},
			want: groupsOptions{In: in(nil), ByAttribute: "EntityType", Output: "table"}},
		{args: []string{"--by", "attribute:"}, usage: "--by must be sk or attribute:NAME"},
		{args: []string{"--by", "type"}, usage: "--by must be sk or attribute:NAME"},
		{args: []string{"--by", "attribute:type", "--count"}, usage: "--count is for the sort-key grouping"},
		{args: []string{"--by", "attribute:type", "--delimiter", "#"}, usage: "--delimiter is for the sort-key grouping"},
		{args: []string{"--by", "attribute:type", "--max-requests", "3"}, usage: "--max-requests is for the sort-key grouping"},
		{args: []string{"--max-requests", "0"}, usage: "--max-requests must be 1 or more, not 0."},
		{args: []string{"--max-requests", "many"}, usage: "max-requests"},
		{args: []string{"--output", "csv"}, usage: "--output takes json, table, text or yaml"},
		{args: []string{"CUST#7"}, usage: "unexpected argument"},
	}
	for i := range cases {
		cases[i].args = append([]string{"--table", "App", "--pk", "CUST#42"}, cases[i].args...)
	}
	cases = append(cases,
		optionsCase[groupsOptions]{args: []string{"--pk", "CUST#42"}, usage: "--table"},
		optionsCase[groupsOptions]{args: []string{"--table", "App"}, usage: "groups needs a partition key value: pass --pk VALUE."},
	)
	checkOptions(t, newGroupsCmd, func(o *groupsOptions) bool {
		set := o.ConnectSettings != nil && o.Out != nil && o.Err != nil
		o.ConnectSettings, o.Out, o.Err = nil, nil, nil
		return set
	}, cases)
}
