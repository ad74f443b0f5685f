package cli

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// Arguments become scan's options through runF, with no network; the cost
// gate (--yes or --max-rcu) is decided at run time, after DescribeTable,
// but a --max-rcu that is no cap is refused before.
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
			want: scanOptions{In: in(func(s *dynamo.ScanInput) { s.Index, s.Segments, s.Limit, s.Consistent = "GSI1", 64, 10, true }), Yes: true, Output: "json", SegmentsSet: true}},
		{args: []string{"--max-rcu", "5", "--resume", `{"0": {"PK": "A", "SK": "B"}, "3": {}}`},
			want: scanOptions{In: in(func(s *dynamo.ScanInput) { s.MaxRCU = 5 }), Output: "json", Resume: `{"0": {"PK": "A", "SK": "B"}, "3": {}}`}},
		{args: []string{"--yes", "--resume", "@part1.json", "--segments", "4"},
			want: scanOptions{In: in(func(s *dynamo.ScanInput) { s.Segments = 4 }), Yes: true, Output: "json", Resume: "@part1.json", SegmentsSet: true}},
		{args: []string{"--yes", "--resume", "@-"}, want: scanOptions{In: in(nil), Yes: true, Output: "json", Resume: "@-"}},
		{args: []string{"--yes", "--resume", ""}, usage: "--resume takes the resume a stopped scan printed"},
		{args: []string{"--segments", "0"}, usage: "--segments takes 1 to 64, not 0"},
		{args: []string{"--segments", "65"}, usage: "--segments takes 1 to 64, not 65"},
		{args: []string{"--limit", "-1"}, usage: "--limit takes a whole number"},
		{args: []string{"--limit", "0", "--yes"}, usage: "--limit takes a whole number from 1 to 2147483647 (leave it out for no Limit), not 0."},
		{args: []string{"--output", "csv", "--dynamodb-json"}, usage: "--dynamodb-json does not go with --output csv"},
		{args: []string{"--output", "xml"}, usage: "--output takes json, jsonl, table, csv, ddbjson-batch, text or yaml"},
		{args: []string{"--max-rcu", "lots"}, usage: `--max-rcu takes a number, not "lots".`},
		{args: []string{"--max-rcu", "-1"}, usage: "--max-rcu takes a positive number of RCU, not -1."},
		{args: []string{"--max-rcu", "NaN"}, usage: "--max-rcu takes a positive number of RCU, not NaN."},
		{args: []string{"--max-rcu", "1e999"}, usage: "--max-rcu: 1e999 is out of range."},
		{args: []string{"everything"}, usage: "unexpected argument"},
	}
	for i := range cases {
		cases[i].args = append([]string{"--table", "App"}, cases[i].args...)
	}
	checkOptions(t, newScanCmd, func(o *scanOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil && o.Files.Open != nil && o.Files.Stdin != nil && len(o.Line) > 0
		// --go-on's default is dynascope's own go-on line; the cases
		// want it as the zero value.
		set = set && o.Paging.GoOn == "dynascope"
		o.Connect, o.Out, o.Err, o.Files, o.Line, o.Paging.GoOn = nil, nil, nil, resumeSource{}, nil, ""
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
		set := o.Connect != nil && o.Out != nil && o.Err != nil && o.Files.Open != nil && o.Files.Stdin != nil && len(o.Line) > 0
		o.Connect, o.Out, o.Err, o.Files, o.Line = nil, nil, nil, resumeSource{}, nil
		return set
	}, []optionsCase[partiqlOptions]{
		{args: []string{sel}, want: partiqlOptions{Statement: sel, Output: "json"}},
		{args: []string{`SELECT PK, total FROM "App" WHERE total > 1000`, "--max-rcu", "20", "--output", "table"},
			want: partiqlOptions{Statement: `SELECT PK, total FROM "App" WHERE total > 1000`, MaxRCU: 20, Output: "table"}},
		{args: []string{"--consistent", "--yes", "--output", "jsonl", "--dynamodb-json", sel},
			want: partiqlOptions{Statement: sel, Consistent: true, Yes: true, Output: "jsonl", DDBJSON: true}},
		{args: []string{`DELETE FROM "App" WHERE PK = 'CUST#7'`}, usage: "SELECT"},
		{args: []string{sel, "--output", "csv", "--dynamodb-json"}, usage: "--dynamodb-json does not go with --output csv"},
		{args: []string{sel, "--output", "xml"}, usage: "--output takes json, jsonl, table, csv, ddbjson-batch, text or yaml"},
		{args: []string{sel, "--max-rcu", "x"}, usage: "max-rcu"},
		{args: []string{sel, "--max-rcu", "-0.5"}, usage: "--max-rcu takes a positive number of RCU, not -0.5."},
		{args: []string{sel, "--next-token", "eyJ2IjoxfQ=="}, want: partiqlOptions{Statement: sel, Output: "json", NextToken: "eyJ2IjoxfQ=="}},
		{args: []string{sel, "--max-rcu", "2", "--next-token", "@part1.json"}, want: partiqlOptions{Statement: sel, MaxRCU: 2, Output: "json", NextToken: "@part1.json"}},
		{args: []string{sel, "--next-token", ""}, usage: "--next-token takes the nextToken a stopped run printed"},
	})
	for _, args := range [][]string{nil, {sel, sel}} {
		if got, _, err := cmdOptions(t, newPartiQLCmd, args...); got != nil || err == nil {
			t.Errorf("%q: ran %v, err %v; want one statement", args, got != nil, err)
		}
	}
}

// The go-on line starts from the command as given: its command, its
// arguments and every flag set, --sk-between's two values included, less
// the flag the go-on line fills in anew.
func TestCommandLine(t *testing.T) {
	q, _, err := cmdOptions(t, newQueryCmd, "--table", "App", "--pk", "CUST#42", "--sk-between", "A", "B", "--reverse", "--max-rcu", "2.5", "--start-key", `{"PK":"CUST#42","SK":"A1"}`, "--endpoint-url", "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"query", "--endpoint-url=http://127.0.0.1:1", "--max-rcu=2.5", "--pk=CUST#42", "--reverse", "--sk-between", "A", "B", "--table=App"}
	if !reflect.DeepEqual(q.Line, want) {
		t.Errorf("query line %q, want %q", q.Line, want)
	}
	s, _, err := cmdOptions(t, newScanCmd, "--table", "App", "--segments", "4", "--resume", "@x.json", "--consistent=false", "--filter", `a = "b"`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"scan", "--consistent=false", `--filter=a = "b"`, "--table=App"}; !reflect.DeepEqual(s.Line, want) {
		t.Errorf("scan line %q, want %q", s.Line, want)
	}
	const sel = `SELECT * FROM "App"`
	p, _, err := cmdOptions(t, newPartiQLCmd, sel, "--next-token", "abc", "--yes")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"partiql", sel, "--yes"}; !reflect.DeepEqual(p.Line, want) {
		t.Errorf("partiql line %q, want %q", p.Line, want)
	}
}

// A go-on line pastes back into a shell as the same words: plain words
// bare, others single-quoted, and a word Sanitize would change (table
// data may hold an escape sequence) in $'...' byte by byte, so the line
// itself has nothing for Sanitize to change.
func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"--table=App", "--table=App"},
		{"CUST#42", "'CUST#42'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
		{"a\x1b[31mb", `$'a\x1b[31mb'`},
		{"tab\there 'q' \\", `$'tab\x09here \'q\' \\'`},
		{"bidi\u202eX", `$'bidi\xe2\x80\xaeX'`},
		{"bad\xffbyte", `$'bad\xffbyte'`},
		{"é ü", "'é ü'"},
	} {
		if got := shellQuote(tc.in); got != tc.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	line := goOnLine([]string{"query", "--pk=\x1b]0;x\x07"}, "--start-key", `{"PK":"\u001b"}`)
	if line != textfmt.Sanitize(line) || !strings.HasPrefix(line, `dynascope query $'--pk=\x1b]0;x\x07' --start-key`) {
		t.Errorf("go-on line %s", line)
	}
}

// Bash reads a go-on line back into the very words it was built from,
// whatever bytes they hold.
func TestGoOnLineThroughBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	words := []string{"query", "--pk=a\x1b[2Jb", "--filter=x = \"it's\"", "right\u202eleft", "bad\xffbyte", "tab\tnew\nline", "$HOME `id` \\ !x", "", "--table=App"}
	line := goOnLine(words)
	if line != textfmt.Sanitize(line) {
		t.Fatalf("the line has what Sanitize changes: %q", line)
	}
	out, err := exec.Command("bash", "-c", `dynascope() { printf '%s\0' "$@"; }; `+line).Output()
	if err != nil {
		t.Fatalf("bash: %v on %s", err, line)
	}
	got := strings.Split(string(out), "\x00")
	if got = got[:len(got)-1]; !reflect.DeepEqual(got, words) {
		t.Errorf("bash read %q from %s, want %q", got, line, words)
	}
}
