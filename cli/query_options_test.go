package cli

import (
	"reflect"
	"testing"

	"dynascope/dynamo"
)

// Arguments become get's options through runF, with no network.
func TestNewGetCmd(t *testing.T) {
	key := func(pk, sk string, consistent bool) dynamo.GetInput {
		return dynamo.GetInput{Table: "App", PK: pk, SK: sk, Consistent: consistent}
	}
	for _, c := range []struct {
		args  []string
		want  getOptions
		usage string // the usage error expected; "" for none
	}{
		{args: []string{"--table", "App", "--pk", "CUST#42", "--sk", "PROFILE"},
			want: getOptions{In: key("CUST#42", "PROFILE", false), Output: "json"}},
		{args: []string{"--table", "App", "--pk", "7", "--consistent", "--output", "table", "--dynamodb-json"},
			want: getOptions{In: key("7", "", true), Output: "table", DDBJSON: true}},
		{args: []string{"--table", "App", "--pk", "A", "--sk", "B", "--output", "csv"},
			want: getOptions{In: key("A", "B", false), Output: "csv"}},
		{args: []string{"--table", "App", "--pk", "A", "--output", "ddbjson-batch"},
			want: getOptions{In: key("A", "", false), Output: "ddbjson-batch"}},
		{args: []string{"--pk", "CUST#42"}, usage: "--table"},
		{args: []string{"--table", "App", "--pk", "A", "--output", "xml"}, usage: "--output must be json, jsonl, table, csv or ddbjson-batch"},
		{args: []string{"--table", "App", "--pk", "A", "--output", "csv", "--dynamodb-json"}, usage: "--dynamodb-json does not go with --output csv"},
		{args: []string{"--table", "App", "CUST#42"}, usage: "unexpected argument"},
		{args: []string{"--table", "App", "--consistent=maybe"}, usage: "consistent"},
	} {
		got, _, err := cmdOptions(t, newGetCmd, c.args...)
		if c.usage != "" {
			wantUsage(t, c.args, got != nil, err, c.usage)
			continue
		}
		if err != nil || got == nil {
			t.Fatalf("%q: err %v, ran %v", c.args, err, got != nil)
		}
		if got.Connect == nil || got.Out == nil {
			t.Errorf("%q: no client or stdout in %+v", c.args, got)
		}
		got.Connect, got.Out = nil, nil
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%q: %+v, want %+v", c.args, *got, c.want)
		}
	}
}
