package cli

import (
	"testing"

	"dynascope/dynamo"
)

// Arguments become get's options through runF, with no network.
func TestNewGetCmd(t *testing.T) {
	key := func(pk, sk string, consistent bool) dynamo.GetInput {
		return dynamo.GetInput{Table: "App", PK: pk, SK: sk, Consistent: consistent}
	}
	cases := []optionsCase[getOptions]{
		{args: []string{"--table", "App", "--pk", "CUST#42", "--sk", "PROFILE"},
			want: getOptions{In: key("CUST#42", "PROFILE", false), Output: "json"}},
		{args: []string{"--table", "App", "--pk", "7", "--consistent", "--output", "table", "--dynamodb-json"},
			want: getOptions{In: key("7", "", true), Output: "table", DDBJSON: true}},
		{args: []string{"--table", "App", "--pk", "A", "--sk", "B", "--output", "csv"},
			want: getOptions{In: key("A", "B", false), Output: "csv"}},
		{args: []string{"--table", "App", "--pk", "A", "--output", "ddbjson-batch"},
			want: getOptions{In: key("A", "", false), Output: "ddbjson-batch"}},
		{args: []string{"--pk", "CUST#42"}, usage: "--table"},
		{args: []string{"--table", "App", "--pk", "A", "--output", "xml"}, usage: "--output takes json, jsonl, table, csv, ddbjson-batch, text or yaml"},
		{args: []string{"--table", "App", "--pk", "A", "--output", "csv", "--dynamodb-json"}, usage: "--dynamodb-json does not go with --output csv"},
		{args: []string{"--table", "App", "CUST#42"}, usage: "unexpected argument"},
		{args: []string{"--table", "App", "--consistent=maybe"}, usage: "consistent"},
	}
	checkOptions(t, newGetCmd, func(o *getOptions) bool {
		set := o.Connect != nil && o.Out != nil
		o.Connect, o.Out = nil, nil
		return set
	}, cases)
}

// Arguments become query's options through runF, with no network: the
// key condition, paging and output flags, and the usage errors.
func TestNewQueryCmd(t *testing.T) {
	q := func(f func(*dynamo.QueryInput)) dynamo.QueryInput {
		in := dynamo.QueryInput{Table: "App", PK: "CUST#42"}
		if f != nil {
			f(&in)
		}
		return in
	}
	cases := []optionsCase[queryOptions]{
		{args: []string{"--pk", "CUST#42"}, want: queryOptions{Q: q(nil), Output: "json"}},
		{args: []string{"--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--reverse", "--limit", "1"},
			want: queryOptions{Q: q(func(in *dynamo.QueryInput) {
				in.SK, in.Reverse, in.Limit = dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, true, 1
			}), Output: "json"}},
		{args: []string{"--pk", "CUST#42", "--sk-between", "ORDER#2025-01", "ORDER#2025-03", "--output", "table"},
			want: queryOptions{Q: q(func(in *dynamo.QueryInput) {
				in.SK = dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"ORDER#2025-01", "ORDER#2025-03"}}
			}), Output: "table"}},
		{args: []string{"--pk", "CUST#42", "--sk-ge", "B", "--filter", "total > 1", "--project", "total,status", "--consistent"},
			want: queryOptions{Q: q(func(in *dynamo.QueryInput) {
				in.SK, in.Filter, in.Project, in.Consistent = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"B"}}, "total > 1", "total,status", true
			}), Output: "json"}},
		{args: []string{"--index", "GSI1", "--pk", "CUST#42", "--all-pages", "--output", "jsonl", "--dynamodb-json"},
			want: queryOptions{Q: q(func(in *dynamo.QueryInput) { in.Index = "GSI1" }), AllPages: true, Output: "jsonl", DDBJSON: true}},
		{args: []string{"--pk", ""}, want: queryOptions{Q: q(func(in *dynamo.QueryInput) { in.PK = "" }), Output: "json"}},
		{args: []string{"--pk", "CUST#42", "--all-pages", "--max-rcu", "5", "--start-key", `{"PK": "CUST#42", "SK": "ORDER#1"}`},
			want: queryOptions{Q: q(nil), AllPages: true, Output: "json", MaxRCU: 5, StartKey: `{"PK": "CUST#42", "SK": "ORDER#1"}`}},
		{args: []string{"--pk", "CUST#42", "--reverse", "--start-key", `{"PK": {"S": "CUST#42"}, "SK": {"S": "ORDER#1"}}`},
			want: queryOptions{Q: q(func(in *dynamo.QueryInput) { in.Reverse = true }), Output: "json", StartKey: `{"PK": {"S": "CUST#42"}, "SK": {"S": "ORDER#1"}}`}},
		{args: []string{"--pk", "A", "--start-key", `{"PK": "A"`}, usage: "--start-key is not JSON (it ends too soon); pass the key as dynascope printed it"},
		{args: []string{"--pk", "A", "--start-key", ""}, usage: "--start-key is not JSON"},
		{args: []string{"--pk", "A", "--start-key", `{"PK": "A"} x`}, usage: "--start-key is not JSON (more text after the first value)"},
		{args: []string{"--pk", "A", "--start-key", `["A", "B"]`}, usage: "--start-key must be a JSON object of key attributes, such as '{\"PK\": \"CUST#42\", \"SK\": \"ORDER#1\"}', not an array."},
		{args: []string{"--pk", "A", "--start-key", `"A"`}, usage: "--start-key must be a JSON object of key attributes"},
		{args: []string{"--pk", "A", "--max-rcu", "-1"}, usage: "--max-rcu takes a positive number of RCU, not -1."},
		{args: []string{"--pk", "A", "--max-rcu", "NaN"}, usage: "--max-rcu takes a positive number of RCU, not NaN."},
		{args: []string{"--sk-eq", "A"}, usage: "query needs a partition key value"},
		{args: []string{"--pk", "A", "--sk-eq", "A", "--sk-lt", "B"}, usage: "give at most one sort-key condition, not --sk-eq and --sk-lt"},
		{args: []string{"--pk", "A", "--sk-eq", "A", "--sk-between", "B", "C"}, usage: "give at most one sort-key condition"},
		{args: []string{"--pk", "A", "--sk-between", "B"}, usage: "sk-between"},
		{args: []string{"--pk", "A", "--limit", "-1"}, usage: "--limit takes a whole number from 1 to 2147483647"},
		// 0 is not "no Limit": DynamoDB's Limit starts at 1 (issue 37.13).
		{args: []string{"--pk", "A", "--limit", "0"}, usage: "--limit takes a whole number from 1 to 2147483647 (leave it out for no Limit), not 0."},
		{args: []string{"--pk", "A", "--limit", "2147483648"}, usage: "--limit takes a whole number"},
		{args: []string{"--pk", "A", "--output", "xml"}, usage: "--output takes json, jsonl, table, csv, ddbjson-batch, text or yaml"},
		{args: []string{"--pk", "A", "--limit", "ten"}, usage: "limit"},
		{args: []string{"--pk", "A", "B"}, usage: "unexpected argument"},
	}
	for i := range cases {
		cases[i].args = append([]string{"--table", "App"}, cases[i].args...)
	}
	checkOptions(t, newQueryCmd, func(o *queryOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil && len(o.Line) > 0
		// --go-on's default is dynascope's own go-on line; the cases
		// want it as the zero value.
		set = set && o.Paging.GoOn == "dynascope"
		o.Connect, o.Out, o.Err, o.Line, o.Paging.GoOn = nil, nil, nil, nil, ""
		return set
	}, cases)
	if _, _, err := cmdOptions(t, newQueryCmd, "--pk", "A"); err == nil || exitCode(false, err) != 2 {
		t.Errorf("query without --table: %v, want a usage error", err)
	}
}
