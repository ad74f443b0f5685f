package cli

import (
	"testing"

	"dynascope/dynamo"
)

// Arguments become scan's options through runF, with no network; the cost
// gate (--yes or --max-rcu) is decided at run time, after DescribeTable.
func TestNewScanCmd(t *testing.T) {
	in := func(f func(*dynamo.ScanInput)) dynamo.ScanInput {
		s := dynamo.ScanInput{Table: "App", Segments: 1}
		if f != nil {
			f(&s)
		}
		return s
	}
	cases := []optionsCase[scanOptions]{
		{args: nil, want: scanOptions{In: in(nil), Output: "json"}},
		{args: []string{"--yes", "--output", "table"}, want: scanOptions{In: in(nil), Yes: true, Output: "table"}},
		{args: []string{"--max-rcu", "50", "--filter", `begins_with(SK, "ORDER#")`, "--project", "PK,SK,status", "--output", "jsonl", "--dynamodb-json"},
			want: scanOptions{In: in(func(s *dynamo.ScanInput) {
				s.MaxRCU, s.Filter, s.Project = 50, `begins_with(SK, "ORDER#")`, "PK,SK,status"
			}), Output: "jsonl", DDBJSON: true}},
		{args: []string{"--index", "GSI1", "--segments", "64", "--limit", "10", "--consistent", "--yes"},
			want: scanOptions{In: in(func(s *dynamo.ScanInput) { s.Index, s.Segments, s.Limit, s.Consistent = "GSI1", 64, 10, true }), Yes: true, Output: "json"}},
		{args: []string{"--segments", "0"}, usage: "--segments takes 1 to 64, not 0"},
		{args: []string{"--segments", "65"}, usage: "--segments takes 1 to 64, not 65"},
		{args: []string{"--limit", "-1"}, usage: "--limit takes a whole number"},
		{args: []string{"--output", "csv", "--dynamodb-json"}, usage: "--dynamodb-json does not go with --output csv"},
		{args: []string{"--output", "text"}, usage: "--output must be json, jsonl, table, csv or ddbjson-batch"},
		{args: []string{"--max-rcu", "lots"}, usage: "max-rcu"},
		{args: []string{"everything"}, usage: "unexpected argument"},
	}
	for i := range cases {
		cases[i].args = append([]string{"--table", "App"}, cases[i].args...)
	}
	checkOptions(t, newScanCmd, func(o *scanOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, cases)
	if _, _, err := cmdOptions(t, newScanCmd, "--yes"); err == nil || exitCode(false, err) != 2 {
		t.Errorf("scan without --table: %v, want a usage error", err)
	}
}

// Arguments become partiql's options through runF, with no network;
// anything but one SELECT is refused before runF.
func TestNewPartiQLCmd(t *testing.T) {
	const sel = `SELECT * FROM "App" WHERE PK = 'CUST#7'`
	checkOptions(t, newPartiQLCmd, func(o *partiqlOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, []optionsCase[partiqlOptions]{
		{args: []string{sel}, want: partiqlOptions{Statement: sel, Output: "json"}},
		{args: []string{`SELECT PK, total FROM "App" WHERE total > 1000`, "--max-rcu", "20", "--output", "table"},
			want: partiqlOptions{Statement: `SELECT PK, total FROM "App" WHERE total > 1000`, MaxRCU: 20, Output: "table"}},
		{args: []string{"--consistent", "--yes", "--output", "jsonl", "--dynamodb-json", sel},
			want: partiqlOptions{Statement: sel, Consistent: true, Yes: true, Output: "jsonl", DDBJSON: true}},
		{args: []string{`DELETE FROM "App" WHERE PK = 'CUST#7'`}, usage: "SELECT"},
		{args: []string{sel, "--output", "csv", "--dynamodb-json"}, usage: "--dynamodb-json does not go with --output csv"},
		{args: []string{sel, "--output", "yaml"}, usage: "--output must be json, jsonl, table, csv or ddbjson-batch"},
		{args: []string{sel, "--max-rcu", "x"}, usage: "max-rcu"},
	})
	for _, args := range [][]string{nil, {sel, sel}} {
		if got, _, err := cmdOptions(t, newPartiQLCmd, args...); got != nil || err == nil {
			t.Errorf("%q: ran %v, err %v; want one statement", args, got != nil, err)
		}
	}
}
