package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// resumeTable is a table of its own for the resume tests: 240 items of
// sizes from 100 B to about 3 KB (so that a page's item count under a cap
// is a guess the reads must correct), three partitions (P#1 holds 120),
// and a GSI over half of them.
func resumeTable(t *testing.T) (table, endpoint string, keys []string) {
	t.Helper()
	endpoint = dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.WithGSI(dynamotest.PKSK(), "ByG", "G", "S", "GS", "N", types.ProjectionTypeAll))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var batch []types.WriteRequest
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: batch}}); err != nil {
			t.Fatal(err)
		}
		batch = nil
	}
	for i := range 240 {
		pk := fmt.Sprintf("P#%d", []int{0, 1, 1, 2}[i%4])
		sk := fmt.Sprintf("ITEM#%04d", i)
		it := map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
			"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", 100+(i*337)%3000)},
		}
		if i%2 == 0 {
			it["G"] = &types.AttributeValueMemberS{Value: fmt.Sprintf("G#%d", i%3)}
			it["GS"] = &types.AttributeValueMemberN{Value: fmt.Sprint(i * 7 % 1000)}
		}
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		keys = append(keys, pk+"|"+sk)
		if len(batch) == 25 {
			flush()
		}
	}
	flush()
	return table, endpoint, keys
}

// goOnArgs takes the last line of stderr when it says how to go on, and
// has bash read the command in it, as a user's paste would be read: the
// words bash hands to dynascope are what the next run gets. ok is false
// when the read said nothing of going on.
func goOnArgs(t *testing.T, stderr string) (args []string, ok bool) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	_, cmd, found := strings.Cut(last, "to go on where it stopped, reading only the rest, run: ")
	for _, l := range lines[:len(lines)-1] {
		if strings.Contains(l, "run: dynascope") {
			t.Fatalf("a go-on line before the last line of stderr:\n%s", stderr)
		}
	}
	if !found {
		return nil, false
	}
	if !strings.HasPrefix(cmd, "dynascope ") {
		t.Fatalf("go-on line %q", last)
	}
	out, err := exec.Command("bash", "-c", `dynascope() { printf '%s\0' "$@"; }; `+cmd).Output()
	if err != nil {
		t.Fatalf("bash could not read %s: %v", cmd, err)
	}
	words := strings.Split(string(out), "\x00")
	return words[:len(words)-1], true
}

// bulkJSON is the part of scan's and partiql's JSON output the resume
// tests read.
type bulkJSON struct {
	Items        []map[string]any `json:"items"`
	Count        int              `json:"count"`
	ScannedCount *int             `json:"scannedCount"`
	Stop         string           `json:"stop"`
	Resume       json.RawMessage  `json:"resume"`
	Consumed     capacityJSONOut  `json:"consumedCapacity"`
	Requests     []struct {
		Count int `json:"count"`
	} `json:"requests"`
}

// pageCounts are the items of each page of a read, in the order they came.
func (b bulkJSON) pageCounts() []int {
	var out []int
	for _, r := range b.Requests {
		out = append(out, r.Count)
	}
	return out
}

// checkOverCap: a capped read spends past its cap only when a page held
// an item larger than every item of the pages before it (counts: the
// items of each page in the order they came), and says how far exactly
// when it did.
func checkOverCap(t *testing.T, cap string, spent float64, stderr string, items []map[string]any, counts []int, over *int) {
	t.Helper()
	max, _ := strconv.ParseFloat(cap, 64)
	said := strings.Contains(stderr, "over the --max-rcu cap")
	if spent > max {
		*over++
		if want := fmt.Sprintf("%g RCU over the --max-rcu cap: ", spent-max); !strings.Contains(stderr, want) {
			t.Errorf("cap %s, spent %g: stderr lacks %q:\n%s", cap, spent, want, stderr)
		}
		if !largerCame(items, counts) {
			t.Errorf("cap %s, spent %g: passed with no item larger than those of the pages before it (pages of %v items)", cap, spent, counts)
		}
	} else if said {
		t.Errorf("cap %s, spent %g: says it passed the cap:\n%s", cap, spent, stderr)
	}
}

// largerCame tells whether a page after the first held an item larger,
// by DynamoDB's measure, than every item of the pages before it.
func largerCame(items []map[string]any, counts []int) bool {
	largest, i := 0, 0
	for p, n := range counts {
		page := 0
		for _, it := range items[i:min(i+n, len(items))] {
			size := 0 // the resume table's attributes are strings and numbers
			for name, v := range it {
				if f, ok := v.(float64); ok {
					size += len(name) + itemcodec.NumberSize(strconv.FormatFloat(f, 'f', -1, 64))
				} else {
					size += len(name) + len(fmt.Sprint(v))
				}
			}
			page = max(page, size)
		}
		if p > 0 && page > largest {
			return true
		}
		largest, i = max(largest, page), i+n
	}
	return false
}

func itemKey(it map[string]any) string { return fmt.Sprint(it["PK"]) + "|" + fmt.Sprint(it["SK"]) }

// A Scan stopped by --max-rcu and resumed by the printed command, again
// and again until it is complete, reads exactly the items of one full
// Scan: none missing, none twice, and each item is read (and paid for)
// once, whatever the segments and the cap.
func TestScanResumedUntilComplete(t *testing.T) {
	table, ep, keys := resumeTable(t)
	want := slices.Sorted(slices.Values(keys))
	for _, segs := range []string{"1", "2", "4"} {
		for _, cap := range []string{"1.5", "4", "11"} {
			args := []string{"scan", "--endpoint-url", ep, "--table", table, "--segments", segs, "--max-rcu", cap}
			var got []string
			scanned, runs, over := 0, 0, 0
			for {
				runs++
				if runs > 200 {
					t.Fatalf("segments %s, cap %s: not complete after 200 runs", segs, cap)
				}
				out, errOut, err := cli(t, args...)
				if err != nil {
					t.Fatalf("segments %s, cap %s, run %d: %v\n%s", segs, cap, runs, err, errOut)
				}
				var res bulkJSON
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				for _, it := range res.Items {
					got = append(got, itemKey(it))
				}
				scanned += *res.ScannedCount
				checkOverCap(t, cap, res.Consumed.Total, errOut, res.Items, res.pageCounts(), &over)
				next, more := goOnArgs(t, errOut)
				if res.Stop == "complete" {
					if more {
						t.Fatalf("a complete scan says how to go on:\n%s", errOut)
					}
					break
				}
				if !more || res.Stop != "max-rcu" {
					t.Fatalf("stop %q with no go-on line:\n%s", res.Stop, errOut)
				}
				if runs > 1 && !strings.Contains(errOut, "going on from --resume with ") {
					t.Errorf("a resumed scan does not say its bound is for the whole table:\n%s", errOut)
				}
				args = next
			}
			t.Logf("segments %s, cap %s: %d runs, %d past the cap", segs, cap, runs, over)
			slices.Sort(got)
			if !slices.Equal(got, want) || scanned != len(want) {
				t.Errorf("segments %s, cap %s: %d runs read %d items (%d scanned), want the %d of one full scan, each once",
					segs, cap, runs, len(got), scanned, len(want))
			}
			if runs < 3 {
				t.Errorf("segments %s, cap %s: complete after %d runs: the cap did not stop it", segs, cap, runs)
			}
		}
	}
}

// The same for query --all-pages --max-rcu and --start-key, forward, in
// reverse, with a Limit, and through an index: the runs together return
// the full query's items in its order, each once.
func TestQueryResumedUntilComplete(t *testing.T) {
	table, ep, _ := resumeTable(t)
	for _, tc := range [][]string{
		{"--pk", "P#1"},
		{"--pk", "P#1", "--reverse"},
		{"--pk", "P#1", "--sk-gt", "ITEM#0050", "--limit", "7"},
		{"--index", "ByG", "--pk", "G#0"},
		{"--index", "ByG", "--pk", "G#1", "--reverse"},
	} {
		base := append([]string{"query", "--endpoint-url", ep, "--table", table, "--all-pages"}, tc...)
		full, _, err := cli(t, base...)
		if err != nil {
			t.Fatal(err)
		}
		want := sortKeysOf(t, decodeQuery(t, full).Items)
		for _, cap := range []string{"1", "3.5"} {
			args := append(slices.Clone(base), "--max-rcu", cap)
			var got []string
			runs, over := 0, 0
			for {
				runs++
				if runs > 200 {
					t.Fatalf("%q: not complete after 200 runs", args)
				}
				out, errOut, err := cli(t, args...)
				if err != nil {
					t.Fatalf("%q: %v\n%s", args, err, errOut)
				}
				q := decodeQuery(t, out)
				var items []map[string]any
				var counts []int
				for _, raw := range q.Items {
					var it map[string]any
					if err := json.Unmarshal(raw, &it); err != nil {
						t.Fatal(err)
					}
					items = append(items, it)
				}
				for _, r := range q.Requests {
					counts = append(counts, r.Count)
				}
				checkOverCap(t, cap, q.ConsumedCapacity.Total, errOut, items, counts, &over)
				got = append(got, sortKeysOf(t, q.Items)...)
				next, more := goOnArgs(t, errOut)
				if (string(q.LastEvaluatedKey) == "null") == more {
					t.Fatalf("lastEvaluatedKey %s, go-on line %v:\n%s", q.LastEvaluatedKey, more, errOut)
				}
				if !more {
					break
				}
				args = next
			}
			t.Logf("%q cap %s: %d runs, %d items, %d past the cap", tc, cap, runs, len(got), over)
			if !slices.Equal(got, want) || runs < 2 {
				t.Errorf("%q cap %s: %d runs read\n%q\nwant\n%q", tc, cap, runs, got, want)
			}
		}
	}
}

func sortKeysOf(t *testing.T, items []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, raw := range items {
		var it map[string]any
		if err := json.Unmarshal(raw, &it); err != nil {
			t.Fatal(err)
		}
		out = append(out, itemKey(it))
	}
	return out
}

// PartiQL with --next-token: a Query plan and a Scan plan, stopped by the
// cap (DynamoDB Local sends no ConsumedCapacity for ExecuteStatement, so
// each page is sized by the cap), resumed until complete, token by
// printed command and token by @FILE in turn.
func TestPartiQLResumedUntilComplete(t *testing.T) {
	table, ep, keys := resumeTable(t)
	var p1 []string
	for _, k := range keys {
		if strings.HasPrefix(k, "P#1|") {
			p1 = append(p1, k)
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		stmt string
		want []string
	}{
		{`SELECT * FROM "` + table + `" WHERE PK = 'P#1'`, p1},
		{`SELECT PK, SK FROM "` + table + `"`, keys},
	} {
		args := []string{"partiql", tc.stmt, "--endpoint-url", ep, "--max-rcu", "3"}
		var got []string
		for runs := 1; ; runs++ {
			if runs > 200 {
				t.Fatalf("%s: not complete after 200 runs", tc.stmt)
			}
			out, errOut, err := cli(t, args...)
			if err != nil {
				t.Fatalf("%q: %v\n%s", args, err, errOut)
			}
			var res bulkJSON
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, it := range res.Items {
				got = append(got, itemKey(it))
			}
			next, more := goOnArgs(t, errOut)
			if res.Stop == "complete" {
				t.Logf("%s: %d runs", tc.stmt, runs)
				if more || runs < 3 {
					t.Errorf("%s: complete after %d runs, go-on line %v", tc.stmt, runs, more)
				}
				break
			}
			if !more || !strings.Contains(string(res.Resume), "nextToken") {
				t.Fatalf("stop %q, resume %s, no go-on line:\n%s", res.Stop, res.Resume, errOut)
			}
			args = next
			if runs%2 == 0 {
				// The same token through the file of the run that stopped.
				file := dir + "/part.json"
				writeFile(t, file, out)
				i := slices.Index(args, "--next-token")
				args = append(slices.Clone(args[:i]), "--next-token", "@"+file)
			}
		}
		slices.Sort(got)
		if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
			t.Errorf("%s: read %d items, want the %d of one full run, each once", tc.stmt, len(got), len(want))
		}
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every output format ends stderr with the go-on line when the read stops
// short: at the cap, and after an error mid-way, where the error's own
// sentence (main's last line) ends with it; the line then reads the rest.
func TestGoOnLineInEveryFormat(t *testing.T) {
	table, ep, keys := resumeTable(t)
	for _, output := range []string{"json", "jsonl", "table", "csv", "ddbjson-batch"} {
		for _, cmd := range [][]string{
			{"scan", "--table", table, "--max-rcu", "2", "--segments", "2"},
			{"query", "--table", table, "--pk", "P#1", "--all-pages", "--max-rcu", "2"},
			{"query", "--table", table, "--pk", "P#1", "--limit", "5"},
			{"partiql", `SELECT * FROM "` + table + `"`, "--max-rcu", "2"},
		} {
			_, errOut, err := cli(t, append(cmd, "--endpoint-url", ep, "--output", output)...)
			if err != nil {
				t.Fatalf("%q: %v", cmd, err)
			}
			next, ok := goOnArgs(t, errOut)
			if !ok || !slices.Contains(next, "--output="+output) {
				t.Errorf("%q --output %s: no go-on line keeping --output:\n%s", cmd, output, errOut)
			}
		}
	}
	// An error after some pages: AccessDenied is not retried.
	demo, _ := seededDemo(t)
	// Under a cap above the table's 451 RCU: a read that the bound it
	// announces would stop short of the end (each page DynamoDB Local
	// answers without ConsumedCapacity counts the most it could cost).
	demoAll, _, err := cli(t, "partiql", `SELECT PK, SK FROM "`+demo+`"`, "--max-rcu", "1000", "--output", "jsonl", "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		op   string
		from int
		args []string
	}{
		{"Scan", 3, []string{"scan", "--table", table, "--limit", "20", "--yes", "--output", "jsonl"}},
		{"Query", 3, []string{"query", "--table", table, "--pk", "P#1", "--limit", "20", "--all-pages", "--output", "jsonl"}},
		// The demo table: more than one 1 MB page.
		{"ExecuteStatement", 2, []string{"partiql", `SELECT PK, SK FROM "` + demo + `"`, "--max-rcu", "1000", "--output", "jsonl"}},
	} {
		proxy := dynamotest.StartProxy(t, ep)
		proxy.Inject(dynamotest.Rule{Op: tc.op, From: tc.from, Fault: dynamotest.AccessDenied})
		var stdout, stderr strings.Builder
		if code := Main(context.Background(), Build{}, append(tc.args, "--endpoint-url", proxy.URL), &stdout, &stderr); code != 1 {
			t.Fatalf("%s: exit code %d", tc.op, code)
		}
		out := stdout.String()
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		next, ok := goOnArgs(t, stderr.String())
		if !ok || len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-2], "dynascope: ") || !strings.Contains(lines[len(lines)-2], "access denied: these credentials may not call dynamodb:") {
			t.Fatalf("%s: the error is not followed by the go-on line:\n%s", tc.op, stderr.String())
		}
		proxy.ClearFaults()
		rest, errOut, err := cli(t, next...)
		if err != nil {
			t.Fatalf("%s: going on: %v\n%s", tc.op, err, errOut)
		}
		got := jsonlKeys(t, out+rest)
		want := keys
		switch tc.op {
		case "ExecuteStatement":
			want = jsonlKeys(t, demoAll)
		case "Query":
			want = nil
			for _, k := range keys {
				if strings.HasPrefix(k, "P#1|") {
					want = append(want, k)
				}
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			t.Errorf("%s: %d items before and after the error, want the %d of one read, each once", tc.op, len(got), len(want))
		}
	}
}

func jsonlKeys(t *testing.T, text string) []string {
	t.Helper()
	var items []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		items = append(items, json.RawMessage(line))
	}
	return sortKeysOf(t, items)
}

// Every bad start key, resume and token is one sentence before any Query,
// Scan or ExecuteStatement is sent.
func TestBadResumeRefusedBeforeAnyRead(t *testing.T) {
	table, ep, _ := resumeTable(t)
	dir := t.TempDir()
	file := func(name string, args ...string) string {
		out, _, err := cli(t, append(args, "--endpoint-url", ep)...)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir+"/"+name, out)
		return "@" + dir + "/" + name
	}
	stopped := file("stopped.json", "scan", "--table", table, "--segments", "2", "--max-rcu", "2")
	complete := file("complete.json", "scan", "--table", table, "--yes")
	queryOut := file("query.json", "query", "--table", table, "--pk", "P#1")
	sel := `SELECT * FROM "` + table + `"`
	stoppedRun := file("run.json", "partiql", sel, "--max-rcu", "2")
	completeRun := file("runall.json", "partiql", sel, "--max-rcu", "1000") // one page: the bound it announces leaves no room for the rounding of more
	q := func(args ...string) []string {
		return append([]string{"query", "--table", table, "--pk", "P#1"}, args...)
	}
	s := func(args ...string) []string { return append([]string{"scan", "--table", table, "--yes"}, args...) }
	of := "table " + table
	for _, tc := range []struct {
		args []string
		want string
	}{
		{q("--start-key", `{"PK": "P#1"`), `--start-key is not JSON (it ends too soon); pass the key as dynascope printed it, such as '{"PK": "CUST#42", "SK": "ORDER#1"}'.`},
		{q("--start-key", `[1]`), `--start-key must be a JSON object of key attributes, such as '{"PK": "CUST#42", "SK": "ORDER#1"}', not an array.`},
		{q("--start-key", `{"PK": "P#1"}`), "--start-key lacks the sort key SK of " + of + "; a start key names every key attribute: PK, SK."},
		{q("--start-key", `{"PK": "P#1", "SK": 5}`), "--start-key gives the sort key SK of " + of + " as a number, but it is a string (S)."},
		{q("--start-key", `{"PK": {"S": "P#1"}, "SK": {"N": "5"}}`), "--start-key gives the sort key SK of " + of + " as a number (N), but it is a string (S)."},
		{q("--start-key", `{"PK": "P#1", "SK": "ITEM#0001", "pad": "x"}`), `--start-key has "pad", which is not a key attribute of ` + table + "; a start key holds only PK, SK."},
		{q("--start-key", `{"PK": "P#2", "SK": "ITEM#0003"}`), `--start-key is in the partition PK = "P#2", not in "P#1", the one --pk names: a start key goes on from the lastEvaluatedKey of the same query, so pass that query's --pk (or drop --start-key).`},
		{q("--start-key", `{"PK": "", "SK": "A"}`), "--start-key gives the partition key PK of " + of + ` as "": key attribute PK cannot be empty.`},
		{[]string{"query", "--table", table, "--index", "ByG", "--pk", "G#0", "--start-key", `{"G": "G#0", "GS": 14}`},
			"--start-key lacks the partition key PK of " + of + "; a start key names every key attribute: G, GS, PK, SK."},
		{[]string{"query", "--table", table, "--index", "ByG", "--pk", "G#0", "--start-key", `{"G": "G#0", "GS": "14", "PK": "P#0", "SK": "ITEM#0002"}`},
			"--start-key gives the sort key GS of index ByG as a string, but it is a number (N)."},
		{s("--resume", "nope"), "--resume is not JSON"},
		{s("--resume", "[]"), `--resume must be a resume as a stopped scan printed it, segment number → key, such as '{"0": {"PK": "CUST#42", "SK": "ORDER#1"}, "3": {}}', not an array.`},
		{s("--resume", "{}"), "not an empty object."},
		{s("--resume", `{"1": {}}`), "--resume names segment 1, outside the 1 of this scan (segment 0 only): pass the --segments of the scan that printed it."},
		{s("--resume", `{"4": {}}`, "--segments", "4"), "--resume names segment 4, outside the 4 of this scan (segments 0 to 3)"},
		{s("--resume", `{"x": {}}`), `--resume names the segment "x", which is not a segment number (0, 1, …).`},
		{s("--resume", `{"0": {"PK": "P#1"}}`), "--resume's key of segment 0 lacks the sort key SK of " + of},
		{s("--resume", `{"0": {"PK": "P#1", "SK": "A", "G": "x"}}`, "--index", "ByG"), "--resume's key of segment 0 lacks the sort key GS of index ByG"},
		{s("--resume", stopped, "--segments", "4"), " was read in 2 segments, not the 4 of --segments: a segment's key goes on only in the same split; drop --segments or pass --segments 2."},
		{s("--resume", stopped, "--index", "ByG"), " is a scan of the table itself, not of index ByG: a resume goes on only in what it read; drop --index."},
		{[]string{"scan", "--table", "Other", "--yes", "--resume", stopped}, " is a scan of table " + table + ", not of Other (--table): a resume goes on only in the table it came from."},
		{s("--resume", complete), " is a complete scan (its resume is null): nothing is left to read."},
		{s("--resume", queryOut), ` is not the JSON output of a scan (no "operation": "Scan" and "resume"); give the file 'dynascope scan --output json' printed.`},
		{s("--resume", "@"+dir+"/missing.json"), "--resume @" + dir + "/missing.json: cannot read it ("},
		{[]string{"partiql", sel + " WHERE PK = 'P#1'", "--next-token", stoppedRun}, ` ran another statement, "` + strings.ReplaceAll(sel, `"`, `\"`) + `": a NextToken goes on only with the statement that returned it; run that one.`},
		{[]string{"partiql", sel, "--yes", "--next-token", completeRun}, " is a complete run (its resume is null): nothing is left to read."},
		{[]string{"partiql", sel, "--yes", "--next-token", stopped}, ` is not the JSON output of a partiql run (no "operation": "ExecuteStatement" with its statement)`},
	} {
		proxy := dynamotest.StartProxy(t, ep)
		_, errOut, err := cli(t, append(tc.args, "--endpoint-url", proxy.URL)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n%v\nwant %s\n%s", tc.args, err, tc.want, errOut)
		}
		if strings.Count(err.Error(), ". ") > 0 && !strings.Contains(tc.want, ". ") {
			t.Errorf("%q: more than one sentence: %v", tc.args, err)
		}
		for _, op := range []string{"Query", "Scan", "ExecuteStatement"} {
			if n := proxy.Count(op); n > 0 {
				t.Errorf("%q: %d %s sent before the refusal", tc.args, n, op)
			}
		}
	}
}

// A start key outside the sort-key condition is DynamoDB's to refuse (it
// depends on the condition's values and the key's type); its words, "does
// not match the range key predicate", become a sentence that names the
// flag and what to do. A good DynamoDB JSON key through an index reads on.
func TestStartKeyOutsideTheCondition(t *testing.T) {
	table, ep, _ := resumeTable(t)
	_, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "P#1", "--sk-begins-with", "ITEM#01", "--start-key", `{"PK": "P#1", "SK": "ITEM#0201"}`)
	if err == nil || !strings.Contains(err.Error(), "--start-key is outside this query's sort-key condition (DynamoDB: the provided starting key does not match the range key predicate): pass the lastEvaluatedKey of the same query, with the same sort-key condition and direction.") {
		t.Errorf("start key outside the condition: %v", err)
	}
	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--index", "ByG", "--pk", "G#0",
		"--start-key", `{"G": {"S": "G#0"}, "GS": {"N": "0"}, "PK": {"S": "P#0"}, "SK": {"S": "ITEM#0000"}}`, "--all-pages")
	if err != nil {
		t.Fatal(err)
	}
	if got := sortKeysOf(t, decodeQuery(t, out).Items); len(got) != 39 || slices.Contains(got, "P#0|ITEM#0000") {
		t.Errorf("from the first item of G#0: %d items %q", len(got), got)
	}
}

// A cap smaller than one item cannot hold: scan and query still read one
// item a run, go on, and say by how much they passed the cap.
func TestCapSmallerThanAnItemSaysSo(t *testing.T) {
	endpoint := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	for i := range 2 {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "P#0"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprint(i)},
			"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", 10000)}, // 3 units: 1.5 RCU
		}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"scan", "--endpoint-url", endpoint, "--table", table, "--max-rcu", "0.5"},
		{"query", "--endpoint-url", endpoint, "--table", table, "--pk", "P#0", "--all-pages", "--max-rcu", "0.5"},
	} {
		_, errOut, err := cli(t, args...)
		if err != nil {
			t.Fatalf("%q: %v\n%s", args, err, errOut)
		}
		if !strings.Contains(errOut, "1 RCU over the --max-rcu cap: DynamoDB charges a page by the bytes it read, known only after it") {
			t.Errorf("%q: stderr does not say it passed the cap:\n%s", args, errOut)
		}
		if _, more := goOnArgs(t, errOut); !more {
			t.Errorf("%q: stopped after one item with no go-on line:\n%s", args, errOut)
		}
	}
}
