package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// runPatterns runs `dynascope patterns ...` in-process.
func runPatterns(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), append([]string{"patterns"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

type checkJSON struct {
	Table    string `json:"table"`
	Patterns []struct {
		Name             string              `json:"name"`
		Operation        string              `json:"operation"`
		Index            *string             `json:"index"`
		KeyCondition     string              `json:"keyCondition"`
		Requests         int                 `json:"requests"`
		Pages            int                 `json:"pages"`
		Items            int                 `json:"items"`
		ConsumedCapacity capacityJSONOut     `json:"consumedCapacity"`
		OneRequest       bool                `json:"oneRequest"`
		Verdict          string              `json:"verdict"`
		Error            *string             `json:"error"`
		Projection       *checkProjectionOut `json:"projection"`
		DynamoDBPaging   *pagingOut          `json:"dynamoDBPaging"`
		Filter           *checkFilterOut     `json:"filter"`
	} `json:"patterns"`
	OneRequest bool `json:"oneRequest"`
}

// pagingOut is the documented "dynamoDBPaging" object, decoded apart
// from the writer's struct.
type pagingOut struct {
	Requests  int `json:"requests"`
	PagesOver []struct {
		Page         int     `json:"page"`
		ScannedCount int     `json:"scannedCount"`
		BytesRead    int64   `json:"bytesRead"`
		RCU          float64 `json:"consumedCapacity"`
		Stops        int     `json:"stops"`
		Exact        bool    `json:"exact"`
	} `json:"pagesOver"`
}

// checkFilterOut is the documented "filter" object of patterns check.
type checkFilterOut struct {
	Expression   string   `json:"expression"`
	Kept         int      `json:"kept"`
	ScannedCount int      `json:"scannedCount"`
	KeptShare    float64  `json:"keptShare"`
	RCUPerItem   *float64 `json:"rcuPerItem"`
	MinKept      float64  `json:"minKept"`
	Discards     bool     `json:"discards"`
}

func decodeCheck(t *testing.T, out string) checkJSON {
	t.Helper()
	var c checkJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("check output is not the documented JSON: %v\n%s", err, out)
	}
	return c
}

// localReads sends a pattern's request straight through the SDK, following
// pages as check does (until the end or the Limit), and returns what
// DynamoDB Local itself reported: pages and RCUs.
func localReads(t *testing.T, api *dynamodb.Client, tbl dynamo.Table, p patterns.Pattern) (pages int, rcu float64) {
	t.Helper()
	ctx := context.Background()
	r, err := p.Resolve(tbl, p.Example)
	if err != nil {
		t.Fatal(err)
	}
	if r.Get != nil {
		b, err := dynamo.BuildGetItem(tbl, *r.Get)
		if err != nil {
			t.Fatal(err)
		}
		out, err := api.GetItem(ctx, b.Input)
		if err != nil {
			t.Fatal(err)
		}
		return 1, aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
	}
	ks, err := tbl.Schema(r.Query.Index)
	if err != nil {
		t.Fatal(err)
	}
	b, err := dynamo.BuildQuery(ks, *r.Query)
	if err != nil {
		t.Fatal(err)
	}
	in, got := b.Input, 0
	for {
		out, err := api.Query(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got += int(out.Count)
		rcu += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
		if out.LastEvaluatedKey == nil || (r.Query.Limit > 0 && got >= int(r.Query.Limit)) {
			return pages, rcu
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
		if r.Query.Limit > 0 {
			in.Limit = aws.Int32(r.Query.Limit - int32(got))
		}
	}
}

// describeDemo returns the seeded demo table's description and the shipped
// patterns file.
func describeDemo(t *testing.T, table, ep string) (dynamo.Table, *patterns.PatternSet) {
	t.Helper()
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: ep})
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := c.DescribeTable(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	set, err := patterns.LoadPatterns(patterns.PatternsFile)
	if err != nil {
		t.Fatal(err)
	}
	return tbl, set
}

// The "done when": check on the demo table and the shipped file
// prints one line per pattern, all one request, with DynamoDB Local's RCUs.
func TestPatternsCheckDemo(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	tbl, set := describeDemo(t, table, ep)
	if set.Table != "App" || len(set.Patterns) < 5 {
		t.Fatalf("shipped file: table %q, %d patterns", set.Table, len(set.Patterns))
	}

	out, _, err := runPatterns(t, "check", "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// A header, one line per pattern, a blank line and the summary.
	if len(lines) != len(set.Patterns)+3 || !strings.HasPrefix(lines[0], "PATTERN") ||
		lines[len(lines)-1] != strings.TrimSpace(textfmt.Plural(len(set.Patterns), "pattern", "patterns"))+", each one request." {
		t.Fatalf("check output:\n%s", out)
	}
	for i, p := range set.Patterns {
		if l := lines[i+1]; !strings.HasPrefix(l, p.Name+" ") || !strings.HasSuffix(l, "one request") {
			t.Errorf("line for %q: %s", p.Name, l)
		}
	}

	out, _, err = runPatterns(t, "check", "--table", table, "--endpoint-url", ep, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	c := decodeCheck(t, out)
	if c.Table != table || !c.OneRequest || len(c.Patterns) != len(set.Patterns) {
		t.Fatalf("check JSON: %+v", c)
	}
	api := dynamotest.SDK(t)
	ops := map[string]string{}
	for i, p := range set.Patterns {
		got := c.Patterns[i]
		ops[got.Name] = got.Operation
		pages, rcu := localReads(t, api, tbl, p)
		// The demo's one index projects ALL: nothing to compare.
		if got.Name != p.Name || !got.OneRequest || got.Verdict != "one request" || got.Requests != 1 || got.Pages != 1 || got.Error != nil || got.Projection != nil {
			t.Errorf("%s: %+v", p.Name, got)
		}
		if pages != 1 || got.ConsumedCapacity.Total != rcu || rcu == 0 {
			t.Errorf("%s: check says %v RCU, DynamoDB Local %v RCU over %d pages", p.Name, got.ConsumedCapacity.Total, rcu, pages)
		}
		if !strings.Contains(lines[i+1], "  "+jsonFloat(rcu)+"  ") {
			t.Errorf("%s: the table line does not show %v RCU: %s", p.Name, rcu, lines[i+1])
		}
	}
	if ops["one line item"] != "GetItem" || ops["customer profile"] != "GetItem" || ops["latest order"] != "Query" || ops["open orders for a warehouse"] != "Query" {
		t.Errorf("operations: %v", ops)
	}
	if g := c.Patterns[3]; g.Index == nil || *g.Index != "GSI1" || g.ConsumedCapacity.Indexes["GSI1"] != g.ConsumedCapacity.Total {
		t.Errorf("the GSI pattern is charged to its index: %+v", g)
	}
}

// A pattern that needs several pages is reported with its page count, and
// check exits non-zero naming it.
func TestPatternsCheckMultiPage(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	tbl, _ := describeDemo(t, table, ep)
	const file = "cli/testdata/patterns-big-customer.yaml"
	set, err := patterns.LoadPatterns(file)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runPatterns(t, "check", "--patterns", file, "--table", table, "--endpoint-url", ep, "--output", "json")
	c := decodeCheck(t, out)
	if c.OneRequest || len(c.Patterns) != 3 || !c.Patterns[0].OneRequest {
		t.Fatalf("check JSON: %+v", c)
	}
	api := dynamotest.SDK(t)
	for i, got := range c.Patterns[1:] {
		pages, rcu := localReads(t, api, tbl, set.Patterns[i+1])
		if pages < 2 || got.Pages != pages || got.Requests != pages || got.OneRequest || got.ConsumedCapacity.Total != rcu {
			t.Errorf("%s: check says %d pages, %v RCU; DynamoDB Local %d pages, %v RCU", got.Name, got.Pages, got.ConsumedCapacity.Total, pages, rcu)
		}
	}
	all, limited := c.Patterns[1], c.Patterns[2]
	if all.Items != 4000 || all.Verdict != jsonInt(all.Pages)+" pages: the result is larger than the 1 MB one Query page returns" {
		t.Errorf("all orders: %+v", all)
	}
	if limited.Items != 3000 || limited.Verdict != jsonInt(limited.Pages)+" pages: 1 MB per page was reached before Limit 3000" {
		t.Errorf("3000 orders: %+v", limited)
	}
	want := "2 of 3 patterns are not one request: \"all orders of a big customer\" (" + jsonInt(all.Pages) + " pages), \"a big customer's first 3000 orders\" (" + jsonInt(limited.Pages) + " pages)."
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}

	out, _, err = runPatterns(t, "check", "--patterns", file, "--table", table, "--endpoint-url", ep)
	if err == nil || !strings.Contains(out, "all orders of a big customer") || !strings.Contains(out, jsonInt(all.Pages)+" pages: the result is larger than") ||
		strings.Contains(out, "each one request") {
		t.Errorf("check text: %v\n%s", err, out)
	}
}

func jsonInt(n int) string { return jsonFloat(float64(n)) }

// The "done when": the latest order of customer 42 is ORDER#2025-03-01#A17 at 0.5 RCU.
func TestPatternsRunLatestOrder(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	out, stderr, err := runPatterns(t, "run", "latest order", "--param", "customerId=42", "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	q := decodeQuery(t, out)
	if got := sortKeys(t, q.Items); len(got) != 1 || got[0] != "ORDER#2025-03-01#A17" {
		t.Errorf("items: %v", got)
	}
	if q.ConsumedCapacity.Total != 0.5 || q.Pages != 1 || q.KeyCondition != `PK = "CUST#42" AND begins_with(SK, "ORDER#")` || q.ScanIndexForward || q.Limit == nil || *q.Limit != 1 || stderr != "" {
		t.Errorf("run: %+v, stderr %q", q, stderr)
	}

	// Parameters default to the example; the name may follow the flags.
	out, _, err = runPatterns(t, "run", "--table", table, "--endpoint-url", ep, "--param", "customerId=7", "recent orders of a big customer", "--output", "table")
	if err != nil || !strings.Contains(out, "25 items (25 scanned) · 1 request · ") || !strings.Contains(out, `Query PK = "CUST#7" AND begins_with(SK, "ORDER#")`) {
		t.Errorf("run as a table: %v\n%s", err, out)
	}
	out, _, err = runPatterns(t, "run", "one line item", "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	q = decodeQuery(t, out)
	if len(q.Requests) != 1 || q.Requests[0].Operation != "GetItem" || q.KeyCondition != `PK = "ORDER#A17" AND SK = "ITEM#1"` || q.Count != 1 {
		t.Errorf("GetItem pattern: %+v", q)
	}

	// run says on stderr when a pattern is not one request.
	out, stderr, err = runPatterns(t, "run", "all orders of a big customer", "--patterns", "cli/testdata/patterns-big-customer.yaml",
		"--table", table, "--endpoint-url", ep, "--output", "jsonl")
	if err != nil || strings.Count(out, "\n") != 4000 || !strings.Contains(stderr, `pattern "all orders of a big customer" is not one request: `) {
		t.Errorf("run of a multi-page pattern: %v, %d lines, stderr %q", err, strings.Count(out, "\n"), stderr)
	}
}

// The boto3 code of "latest order" has the shape of the single-table
// write-up's: table.query(KeyConditionExpression=Key("PK").eq(...) & Key("SK").begins_with(...), ScanIndexForward=False, Limit=1).
func TestPatternsShow(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	out, _, err := runPatterns(t, "show", "latest order", "--lang", "python", "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	const writeUp = `table.query(KeyConditionExpression=Key("PK").eq("CUST#42") & Key("SK").begins_with("ORDER#"), ScanIndexForward=False, Limit=1)`
	if !strings.Contains(out, "from boto3.dynamodb.conditions import Key\n") || !strings.Contains(out, "resp = "+writeUp+"\n") ||
		!strings.Contains(out, `.Table("`+table+`")`) || strings.Contains(out, "# Python") {
		t.Errorf("python:\n%s", out)
	}
	out, _, err = runPatterns(t, "show", "latest order", "--param", "customerId=1001", "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# AWS CLI\n# parameters: customerId=\"1001\"\n", "aws dynamodb query \\\n", `'{":pk":{"S":"CUST#1001"},":sk":{"S":"ORDER#"}}'`, "--endpoint-url " + ep,
		"\n# Python (boto3)\n", `Key("PK").eq("CUST#1001")`, "\n// Go (AWS SDK for Go v2)\n// parameters: customerId=\"1001\"\npackage main\n", `expression.Key("PK").Equal(expression.Value("CUST#1001"))`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	out, _, err = runPatterns(t, "show", "one line item", "--lang", "cli", "--table", table, "--endpoint-url", ep)
	if err != nil || !strings.Contains(out, "aws dynamodb get-item \\\n") || !strings.Contains(out, `--key '{"PK":{"S":"ORDER#A17"},"SK":{"S":"ITEM#1"}}'`) {
		t.Errorf("GetItem pattern: %v\n%s", err, out)
	}
}

// Commands that need no request send none: a pattern name the file does
// not hold is said before connecting (even with no region), and the code of
// a pattern whose table's keys are cached is printed without a request.
func TestPatternsNeedNoRequest(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	_, _, err := runPatterns(t, "run", "lastest order", "--table", table, "--endpoint-url", proxy.URL)
	if err == nil || !strings.Contains(err.Error(), `no pattern "lastest order" (did you mean "latest order"?)`) {
		t.Errorf("run of a missing pattern: %v", err)
	}
	if n := len(proxy.Calls()); n != 0 {
		t.Errorf("a missing pattern sent %d requests: %v", n, proxy.Ops())
	}
	args := []string{"show", "latest order", "--lang", "cli", "--table", table, "--endpoint-url", proxy.URL, "--region", "us-east-1"}
	if _, _, err := runPatterns(t, args...); err != nil { // may describe the table: its keys are cached after
		t.Fatal(err)
	}
	before := len(proxy.Calls())
	out, _, err := runPatterns(t, args...)
	if err != nil || !strings.Contains(out, "aws dynamodb query") {
		t.Fatalf("show: %v\n%s", err, out)
	}
	if n := len(proxy.Calls()) - before; n != 0 {
		t.Errorf("show with the keys cached sent %d requests: %v", n, proxy.Ops()[before:])
	}
}

// Every shipped pattern's AWS CLI command, run with the AWS CLI against
// DynamoDB Local, returns the items dynascope's run returned.
func TestPatternsShowCLIMatchesRun(t *testing.T) {
	atTop(t)
	if _, err := exec.LookPath("aws"); err != nil {
		dynamotest.Need(t, "the AWS CLI (aws)", "awscli")
	}
	table, ep := seededDemo(t)
	_, set := describeDemo(t, table, ep)
	home := t.TempDir()
	for _, p := range set.Patterns {
		t.Run(p.Name, func(t *testing.T) {
			code, _, err := runPatterns(t, "show", p.Name, "--lang", "cli", "--table", table, "--endpoint-url", ep)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := runPatterns(t, "run", p.Name, "--table", table, "--endpoint-url", ep, "--output", "jsonl", "--dynamodb-json")
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSpace(out), "\n")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", code)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "AWS_CONFIG_FILE=" + filepath.Join(home, "none"),
				"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(home, "none"), "AWS_PAGER=", "AWS_EC2_METADATA_DISABLED=true",
				"PYENV_ROOT=" + os.Getenv("PYENV_ROOT"), "PYENV_VERSION=" + os.Getenv("PYENV_VERSION")}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			raw, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s\n%s", err, stderr.String(), code)
			}
			var got struct {
				Items []json.RawMessage
				Item  json.RawMessage
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.Item != nil {
				got.Items = append(got.Items, got.Item)
			}
			if len(got.Items) != len(want) {
				t.Fatalf("the AWS CLI returned %d items, dynascope %d\n%s", len(got.Items), len(want), code)
			}
			for i, r := range got.Items {
				it, err := itemcodec.ParseDynamoJSON(r)
				if err != nil {
					t.Fatal(err)
				}
				if g := string(itemcodec.DynamoJSON(it)); g != want[i] {
					t.Errorf("item %d: the AWS CLI returned %s, dynascope %s", i, g, want[i])
				}
			}
		})
	}
}

// list needs no connection: the file alone.
func TestPatternsList(t *testing.T) {
	atTop(t)
	out, _, err := runPatterns(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[0], "PATTERN") || !strings.HasPrefix(lines[2], "latest order ") ||
		!strings.Contains(lines[2], `pk = "CUST#{customerId}", sk begins_with "ORDER#", newest first, limit 1`) ||
		!strings.HasSuffix(lines[1], "one request returns the profile and every order") {
		t.Errorf("list:\n%s", out)
	}
	out, _, err = runPatterns(t, "list", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		File     string
		Table    string
		Patterns []struct {
			Name       string
			Index      *string
			Attributes []string
			Parameters []string
			Example    map[string]string
			Line       int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.File != "dynascope.yaml" || got.Table != "App" || got.Patterns[3].Index == nil || *got.Patterns[3].Index != "GSI1" ||
		strings.Join(got.Patterns[4].Parameters, ",") != "orderId,line" || got.Patterns[4].Example["line"] != "1" || got.Patterns[0].Line == 0 ||
		strings.Join(got.Patterns[3].Attributes, ",") != "status,total" || got.Patterns[0].Attributes == nil {
		t.Errorf("list JSON: %+v", got)
	}
}

// Mistakes give one sentence each; those in the command line exit with 2.
func TestPatternsErrors(t *testing.T) {
	atTop(t)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("table: App\npatterns:\n  - name: latest order\n    pk: \"CUST#{customerId}\"\n    revers: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noTable := filepath.Join(t.TempDir(), "notable.yaml")
	if err := os.WriteFile(noTable, []byte("patterns:\n  - name: x\n    pk: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args  []string
		want  string
		usage bool
	}{
		{nil, "patterns needs a subcommand: list, run NAME, check or show NAME.", true},
		{[]string{"frob"}, `unknown patterns subcommand "frob"; use list, run NAME, check or show NAME.`, true},
		{[]string{"run"}, "patterns run needs a pattern name: dynascope patterns run NAME (see 'dynascope patterns list').", true},
		{[]string{"run", "latest", "order"}, `unexpected argument "order"; quote a pattern name that has spaces: dynascope patterns run 'latest order'.`, true},
		{[]string{"run", "latest order", "--param", "customerId"}, `--param takes KEY=VALUE, not "customerId".`, true},
		{[]string{"run", "latest order", "--output", "xml"}, `--output takes json, jsonl, table, text or yaml, not "xml".`, true},
		{[]string{"show", "latest order", "--lang", "rust"}, `--lang must be cli, python or go, not "rust".`, true},
		{[]string{"check", "--output", "jsonl"}, `--output takes table, json, text or yaml, not "jsonl".`, true},
		{[]string{"list", "--patterns", bad}, bad + `:5: pattern "latest order": unknown field "revers" (did you mean "reverse"?).`, false},
		{[]string{"check", "--patterns", bad}, bad + `:5: pattern "latest order": unknown field "revers" (did you mean "reverse"?).`, false},
		{[]string{"list", "--patterns", "no-such.yaml"}, "there is no patterns file no-such.yaml; write one (dynascope.yaml in the dynascope repository is an example) or pass --patterns FILE.", false},
		{[]string{"check", "--patterns", noTable}, noTable + " has no table: line; add one or pass --table NAME.", true},
	}
	for _, c := range cases {
		_, _, err := runPatterns(t, c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got  %v\n want %s", c.args, err, c.want)
		}
		if _, ok := err.(usageError); ok != c.usage {
			t.Errorf("%q: usage error %v, want %v", c.args, ok, c.usage)
		}
	}

	// Mistakes that need the table.
	table, ep := seededDemo(t)
	conn := []string{"--table", table, "--endpoint-url", ep}
	for args, want := range map[string]string{
		"run|lastest order":                       `dynascope.yaml has no pattern "lastest order" (did you mean "latest order"?).`,
		"run|no such thing":                       `dynascope.yaml has no pattern "no such thing"; its patterns are "customer with orders", "latest order",`,
		"run|latest order|--param|custId=1":       `pattern "latest order": it has no parameter custId; its parameters are customerId.`,
		"show|customer profile|--param|x=1":       `pattern "customer profile": it has no parameter x; its parameters are customerId.`,
		"run|one line item|--param|orderId=A17 B": ``,
	} {
		_, _, err := runPatterns(t, append(strings.Split(args, "|"), conn...)...)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", args, err)
		case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("%s:\n got  %v\n want %s", args, err, want)
		}
	}
}

// With keys: in the patterns file, show prints code with no request at all:
// to an endpoint that records every call, and with no region, no
// credentials and no endpoint, where the code names no region, so the
// caller's own AWS configuration supplies it (issue 25's example).
func TestPatternsShowFromTheFilesKeys(t *testing.T) {
	atTop(t)
	_, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	for _, v := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB"} {
		t.Setenv(v, "")
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // nothing cached
	out, _, err := runPatterns(t, "show", "latest order", "--lang", "cli", "--endpoint-url", proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	// A local endpoint's region defaults as the client's does.
	if !strings.Contains(out, "aws dynamodb query") || !strings.Contains(out, "--table-name App") ||
		!strings.Contains(out, "--region us-east-1") || !strings.Contains(out, "--endpoint-url "+proxy.URL) {
		t.Errorf("code:\n%s", out)
	}
	if n := len(proxy.Calls()); n != 0 {
		t.Errorf("show with the file's keys sent %d requests: %v", n, proxy.Ops())
	}
	out, _, err = runPatterns(t, "show", "latest order", "--lang", "python")
	if err != nil {
		t.Fatalf("show with no region or credentials: %v", err)
	}
	if !strings.Contains(out, `boto3.resource("dynamodb").Table("App")`) || strings.Contains(out, "region_name") || strings.Contains(out, "endpoint_url") {
		t.Errorf("code for AWS with no region:\n%s", out)
	}
}

// run and check compare the file's keys with DescribeTable's: a file that
// says otherwise is one sentence, before any pattern's request.
func TestPatternsFileKeysDisagree(t *testing.T) {
	table, ep := seededDemo(t)
	file := filepath.Join(t.TempDir(), "p.yaml")
	src := "table: " + table + "\nkeys:\n  table: PK S / SK N\npatterns:\n  - name: p\n    pk: \"CUST#42\"\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	proxy := dynamotest.StartProxy(t, ep)
	want := file + ":3: keys: says table " + table + " is PK S / SK N, but DynamoDB says PK S / SK S; correct keys: (dynascope tables prints them)."
	for _, sub := range [][]string{{"run", "p"}, {"check"}} {
		_, _, err := runPatterns(t, append(sub, "--patterns", file, "--endpoint-url", proxy.URL)...)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got  %v\nwant %s", sub[0], err, want)
		}
	}
	if ops := proxy.Ops(); slices.ContainsFunc(ops, func(op string) bool { return op != "DescribeTable" }) {
		t.Errorf("requests beyond DescribeTable: %v", ops)
	}
}
