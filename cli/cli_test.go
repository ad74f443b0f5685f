package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/rogpeppe/go-internal/testscript"

	"dynascope/config"
	"dynascope/demodata"
	"dynascope/dynamo/dynamotest"
)

// cli runs dynascope in-process and returns what it printed.
func cli(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

// atTop makes the repository's top the working directory for the rest of
// the test, as for `make demo`: there dynascope.yaml, the demo's access
// patterns, is the default patterns file, and this package's files are
// under cli/. The test must not be parallel (t.Chdir panics if it is).
func atTop(t *testing.T) {
	t.Helper()
	t.Chdir("..")
}

var (
	demoOnce  sync.Once
	demoTable string
	demoErr   error
)

// seededDemo seeds the demo data once into a uniquely named table through
// the CLI itself, and removes the table when the tests are done.
func seededDemo(t *testing.T) (table, endpoint string) {
	t.Helper()
	ep := dynamotest.Endpoint(t)
	demoOnce.Do(func() {
		demoTable = dynamotest.UniqueName("cli-demo")
		var out, errb bytes.Buffer
		demoErr = run(context.Background(), []string{"seed", "--demo", "--table", demoTable, "--endpoint-url", ep}, &out, &errb)
	})
	if demoErr != nil {
		t.Fatalf("seed --demo: %v", demoErr)
	}
	return demoTable, ep
}

// TestMain removes the shared demo table after all tests of the package.
// The commands' schema cache goes to a directory of the run's own: it
// starts empty, and the tests' tables do not land in the user's cache.
// Under testscript.Main the test binary is also the dynascope command of
// the CLI scripts (script_test.go).
func TestMain(m *testing.M) {
	testscript.Main(packageTests{m}, map[string]func(){"dynascope": mainForScripts})
}

// mainForScripts is the dynascope command of the CLI scripts and of the
// signal tests: what main.go does, the signal context included.
func mainForScripts() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := Main(ctx, Build{}, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// packageTests runs the package's tests with their set-up and clean-up.
type packageTests struct{ m *testing.M }

func (p packageTests) Run() int {
	cache, err := os.MkdirTemp("", "dynascope-test-cache-")
	if err == nil {
		os.Setenv("XDG_CACHE_HOME", cache)
		// The journal of the write commands, likewise.
		os.Setenv("XDG_STATE_HOME", filepath.Join(cache, "state"))
	}
	// No settings file but the ones tests write: the user's own would change
	// what the commands do.
	os.Setenv(config.EnvSettings, config.NoConnection)
	code := p.m.Run()
	if demoTable != "" {
		deleteTables(demoTable)
	}
	if cache != "" {
		os.RemoveAll(cache)
	}
	return code
}

type capacityJSONOut struct {
	Total   float64            `json:"total"`
	Table   float64            `json:"table"`
	Indexes map[string]float64 `json:"indexes"`
}

type queryJSON struct {
	Table            string            `json:"table"`
	Index            *string           `json:"index"`
	KeyCondition     string            `json:"keyCondition"`
	ScanIndexForward bool              `json:"scanIndexForward"`
	Limit            *int              `json:"limit"`
	ConsistentRead   bool              `json:"consistentRead"`
	Items            []json.RawMessage `json:"items"`
	Count            int               `json:"count"`
	ScannedCount     int               `json:"scannedCount"`
	Pages            int               `json:"pages"`
	LastEvaluatedKey json.RawMessage   `json:"lastEvaluatedKey"`
	ConsumedCapacity capacityJSONOut   `json:"consumedCapacity"`
	Filter           *string           `json:"filter"`
	Projection       *string           `json:"projection"`
	Notes            []string          `json:"notes"`
	Requests         []struct {
		Operation        string          `json:"operation"`
		DurationMs       float64         `json:"durationMs"`
		Count            int             `json:"count"`
		ScannedCount     int             `json:"scannedCount"`
		ConsumedCapacity capacityJSONOut `json:"consumedCapacity"`
	} `json:"requests"`
}

func decodeQuery(t *testing.T, out string) queryJSON {
	t.Helper()
	var q queryJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		t.Fatalf("output is not the documented JSON: %v\n%s", err, out)
	}
	return q
}

func sortKeys(t *testing.T, items []json.RawMessage) []string {
	t.Helper()
	var sks []string
	for _, raw := range items {
		var it map[string]any
		if err := json.Unmarshal(raw, &it); err != nil {
			t.Fatal(err)
		}
		sks = append(sks, it["SK"].(string))
	}
	return sks
}

// The "done when": the pattern's example through the CLI.
func TestQueryCommandPatternExample(t *testing.T) {
	table, ep := seededDemo(t)
	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	q := decodeQuery(t, out)
	if got := strings.Join(sortKeys(t, q.Items), " "); got != "ORDER#2025-01-09#A11 ORDER#2025-03-01#A17 PROFILE" {
		t.Errorf("sort keys: %s", got)
	}
	if q.Table != table || q.Index != nil || q.KeyCondition != `PK = "CUST#42"` || !q.ScanIndexForward || q.Limit != nil ||
		q.Count != 3 || q.ScannedCount != 3 || q.Pages != 1 || string(q.LastEvaluatedKey) != "null" || len(q.Requests) != 1 {
		t.Errorf("query object: %+v", q)
	}

	out, _, err = cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--reverse", "--limit", "1")
	if err != nil {
		t.Fatal(err)
	}
	q = decodeQuery(t, out)
	if len(q.Items) != 1 || !strings.Contains(string(q.Items[0]), `"total":35`) && !strings.Contains(string(q.Items[0]), `"total": 35`) {
		t.Errorf("latest order: %s", q.Items)
	}
	if q.ConsumedCapacity.Total != 0.5 || q.ConsumedCapacity.Table != 0.5 || q.Requests[0].ConsumedCapacity.Total != 0.5 || q.Requests[0].Operation != "Query" {
		t.Errorf("capacity: %+v", q.ConsumedCapacity)
	}
	if q.KeyCondition != `PK = "CUST#42" AND begins_with(SK, "ORDER#")` || q.ScanIndexForward || q.Limit == nil || *q.Limit != 1 {
		t.Errorf("query object: %+v", q)
	}
	if !strings.Contains(string(q.LastEvaluatedKey), `"SK":"ORDER#2025-03-01#A17"`) && !strings.Contains(string(q.LastEvaluatedKey), `"SK": "ORDER#2025-03-01#A17"`) {
		t.Errorf("lastEvaluatedKey: %s", q.LastEvaluatedKey)
	}
}

// --all-pages follows LastEvaluatedKey and reports every page's request.
func TestQueryCommandAllPages(t *testing.T) {
	table, ep := seededDemo(t)
	out, stderr, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--limit", "1", "--all-pages")
	if err != nil {
		t.Fatal(err)
	}
	// A read that may go past one page says its upper bound first.
	if !strings.HasPrefix(stderr, "--all-pages reads every page of the result: at most the whole table "+table+", "+strconv.Itoa(len(demodata.Items()))+" items / 3.5 MiB → predicted ≤ ") {
		t.Errorf("no announcement of the bound: %q", stderr)
	}
	q := decodeQuery(t, out)
	// Limit 1 over 3 items: 3 pages of one, and a 4th that finds the end.
	if q.Count != 3 || q.Pages != len(q.Requests) || q.Pages < 3 || string(q.LastEvaluatedKey) != "null" {
		t.Errorf("pages=%d requests=%d count=%d lek=%s", q.Pages, len(q.Requests), q.Count, q.LastEvaluatedKey)
	}
	var sum float64
	for _, r := range q.Requests {
		sum += r.ConsumedCapacity.Total
	}
	if sum != q.ConsumedCapacity.Total {
		t.Errorf("total %v is not the sum of the pages %v", q.ConsumedCapacity.Total, sum)
	}
}

func TestQueryCommandFormats(t *testing.T) {
	table, ep := seededDemo(t)
	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--output", "jsonl", "--dynamodb-json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[2], `"SK":{"S":"PROFILE"}`) && !strings.Contains(lines[2], `"SK": {"S": "PROFILE"}`) {
		t.Errorf("jsonl with DynamoDB JSON:\n%s", out)
	}
	out, _, err = cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--output", "table")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "PK") || !strings.Contains(out, "ORDER#2025-03-01#A17") || !strings.Contains(out, "3 items (3 scanned) · 1 request · 0.5 RCU") {
		t.Errorf("table output:\n%s", out)
	}
	out, _, err = cli(t, "get", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--sk", "PROFILE")
	if err != nil {
		t.Fatal(err)
	}
	q := decodeQuery(t, out)
	if q.Count != 1 || q.Requests[0].Operation != "GetItem" || q.ConsumedCapacity.Total != 0.5 || q.KeyCondition != `PK = "CUST#42" AND SK = "PROFILE"` {
		t.Errorf("get: %+v", q)
	}
}

func TestTablesCommand(t *testing.T) {
	table, ep := seededDemo(t)
	out, _, err := cli(t, "tables", "--endpoint-url", ep, "--table", table, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tables []struct {
			Name         string `json:"name"`
			PartitionKey struct{ Name, Type string }
			SortKey      struct{ Name, Type string }
			ItemCount    int64 `json:"itemCount"`
			Indexes      []struct {
				Name, Kind, Projection string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Tables) != 1 || got.Tables[0].Name != table || got.Tables[0].PartitionKey.Name != "PK" || got.Tables[0].SortKey.Type != "S" ||
		len(got.Tables[0].Indexes) != 1 || got.Tables[0].Indexes[0].Name != "GSI1" || got.Tables[0].Indexes[0].Kind != "GSI" {
		t.Errorf("tables: %+v", got)
	}
	out, _, err = cli(t, "tables", "--endpoint-url", ep)
	if err != nil || !strings.HasPrefix(out, "TABLE") || !strings.Contains(out, table) || !strings.Contains(out, "PK S / SK S") ||
		!strings.HasSuffix(out, "\nITEMS and SIZE are DynamoDB's figures, refreshed about every six hours: a table written since may show fewer, or 0.\n") {
		t.Errorf("tables text: %v\n%s", err, out)
	}
}

// Seeding refuses to write into a table that already holds items.
func TestSeedRefusesNonEmptyTable(t *testing.T) {
	table, ep := seededDemo(t)
	_, _, err := cli(t, "seed", "--demo", "--table", table, "--endpoint-url", ep)
	want := "table " + table + " already holds items; pass --force to write into it anyway."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// Command-line mistakes: one sentence each, before any request.
func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"; run 'dynascope help' for the commands.`},
		{[]string{"query", "--pk", "x"}, "query needs a table: pass --table NAME (list them with 'dynascope tables')"},
		{[]string{"query", "--table", "App"}, "query needs a partition key value: pass --pk VALUE."},
		{[]string{"query", "--table", "App", "--pk", "x", "--output", "xml"}, `--output takes json, jsonl, table, csv, ddbjson-batch, text or yaml, not "xml".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--sk-eq", "a", "--sk-begins-with", "b"}, "give at most one sort-key condition, not --sk-begins-with and --sk-eq."},
		{[]string{"query", "--table", "App", "--pk", "x", "--sk-between", "a"}, "--sk-between takes two values: --sk-between LOW HIGH"},
		{[]string{"query", "--table", "App", "--pk", "x", "--limit", "-1"}, "--limit takes a whole number from 1 to 2147483647 (leave it out for no Limit), not -1."},
		{[]string{"query", "--table", "App", "CUST#42"}, `unexpected argument "CUST#42"; values go after their flag (e.g. --pk 'CUST#42').`},
		{[]string{"seed", "--table", "App"}, "seed needs exactly one source: --demo, --file F.jsonl or --workbench MODEL.json."},
		{[]string{"--pk", "CUST#42"}, "--pk needs --table: the partition key belongs to one table."},
		{[]string{"--table", "App", "--max-loaded", "-5"}, "--max-loaded takes a number of items, or 0 for no cap."},
		{[]string{"demo", "--endpoint-url", "http://127.0.0.1:1"}, "demo runs its own DynamoDB Local; it takes no --endpoint-url, --profile or --region."},
	}
	for _, c := range cases {
		_, _, err := cli(t, c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got  %v\n want %s", c.args, err, c.want)
		}
		if _, ok := err.(usageError); !ok {
			t.Errorf("%v: %T is not a usage error (exit 2)", c.args, err)
		}
	}
}

// A value that does not fit the key's type is refused before any request.
func TestQueryWrongKeyType(t *testing.T) {
	_, ep := seededDemo(t)
	api := dynamotest.SDK(t)
	num := dynamotest.Table(t, api, numericTable())
	_, _, err := cli(t, "query", "--endpoint-url", ep, "--table", num, "--pk", "CUST#42")
	if err == nil || err.Error() != `the partition key id is a number (N); "CUST#42" is not a number.` {
		t.Errorf("got %v", err)
	}
}

func TestQueryMissingTable(t *testing.T) {
	_, ep := seededDemo(t)
	_, _, err := cli(t, "query", "--endpoint-url", ep, "--table", "nope", "--pk", "x")
	want := "describe table nope: the table or index does not exist at " + ep + "; check --table, --index and --region."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func numericTable() dynamodb.CreateTableInput {
	in := dynamotest.PKSK()
	in.AttributeDefinitions[0].AttributeName = aws.String("id")
	in.AttributeDefinitions[0].AttributeType = "N"
	in.KeySchema[0].AttributeName = aws.String("id")
	in.AttributeDefinitions = in.AttributeDefinitions[:1]
	in.KeySchema = in.KeySchema[:1]
	return in
}

// seed --file creates a missing table with the generic keys and loads the
// lines; a bad line is named by its number.
func TestSeedFile(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	dir := t.TempDir()
	good := dir + "/items.jsonl"
	lines := `{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"},"name":{"S":"Bo"},"n":{"N":"12345678901234567890123456789012345678"}}

{"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#2025-01-01#X1"},"total":{"N":"1.5"}}
`
	if err := os.WriteFile(good, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	table := dynamotest.UniqueName("cli-file")
	t.Cleanup(func() { deleteTables(table) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", good); err != nil {
		t.Fatal(err)
	}
	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#1", "--output", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"PK":"CUST#1","SK":"ORDER#2025-01-01#X1","total":1.5}` + "\n" +
		`{"PK":"CUST#1","SK":"PROFILE","n":12345678901234567890123456789012345678,"name":"Bo"}` + "\n"
	if out != want {
		t.Errorf("got\n%swant\n%s", out, want)
	}

	bad := dir + "/bad.jsonl"
	if err := os.WriteFile(bad, []byte(lines+`{"PK":{"X":"1"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", bad, "--force")
	if err == nil || !strings.HasPrefix(err.Error(), bad+": line 4: ") {
		t.Errorf("bad line: %v", err)
	}
}

func deleteTables(names ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	api := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(os.Getenv(dynamotest.EnvEndpoint)),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
	for _, n := range names {
		_, _ = api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(n)})
	}
}

// groups prints the documented JSON: the types of CUST#42 found by skip-scan.
func TestGroupsCommand(t *testing.T) {
	table, ep := seededDemo(t)
	out, _, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--count")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Table     string            `json:"table"`
		Index     *string           `json:"index"`
		Partition map[string]string `json:"partition"`
		Delimiter string            `json:"delimiter"`
		Groups    []struct {
			Entity, Prefix, Kind, First, Last string
			Count                             *int
		} `json:"groups"`
		Complete         bool            `json:"complete"`
		Continue         json.RawMessage `json:"continue"`
		Requests         int             `json:"requests"`
		ConsumedCapacity capacityJSONOut `json:"consumedCapacity"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Table != table || got.Index != nil || got.Partition["PK"] != "CUST#42" || got.Delimiter != "#" || len(got.Groups) != 2 ||
		!got.Complete || string(got.Continue) != "null" || got.Groups[0].Kind != "label" || got.Groups[1].Kind != "label" {
		t.Fatalf("groups: %+v", got)
	}
	o, p := got.Groups[0], got.Groups[1]
	if o.Entity != "ORDER" || o.Prefix != "ORDER#" || *o.Count != 2 || o.First != "ORDER#2025-01-09#A11" || o.Last != "ORDER#2025-03-01#A17" ||
		p.Entity != "PROFILE" || *p.Count != 1 {
		t.Errorf("groups: %+v", got.Groups)
	}
	// One page holds the partition: it is the one request, 0.5 RCU.
	if got.Requests != 1 || got.ConsumedCapacity.Total != 0.5 {
		t.Errorf("requests %d, capacity %+v", got.Requests, got.ConsumedCapacity)
	}
	out, _, err = cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42")
	if err != nil || !strings.Contains(out, `"count": null`) || !strings.Contains(out, `"requests": 1,`) {
		t.Errorf("count must be null unless asked, and one page is one request: %v\n%s", err, out)
	}
}

// --all-pages keeps the pages it read when a later page fails: they are
// printed, marked incomplete, and the failure is reported.
func TestQueryAllPagesKeepsPartialResults(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	// The first Query is page 1; the third fails for good.
	proxy.Inject(dynamotest.Rule{Op: "Query", From: 3, Fault: dynamotest.AccessDenied})
	out, _, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--limit", "1", "--all-pages", "--max-attempts", "1")
	if err == nil || !strings.Contains(err.Error(), "access denied") {
		t.Fatalf("error: %v", err)
	}
	q := decodeQuery(t, out)
	if q.Count != 2 || len(q.Items) != 2 || q.Pages != 2 || string(q.LastEvaluatedKey) == "null" {
		t.Errorf("partial result: count=%d pages=%d lek=%s", q.Count, q.Pages, q.LastEvaluatedKey)
	}
	if !strings.Contains(string(q.LastEvaluatedKey), "ORDER#2025-03-01#A17") {
		t.Errorf("lastEvaluatedKey must say where the failed page starts: %s", q.LastEvaluatedKey)
	}
}

// --max-loaded beats the settings' maxLoadedItems; 0 in either means no cap,
// which the UI's options write as a negative number.
func TestItemCap(t *testing.T) {
	s := config.DefaultSettings()
	cases := []struct{ flag, setting, want int }{
		{-1, config.DefaultMaxLoadedItems, config.DefaultMaxLoadedItems},
		{-1, 20_000, 20_000},
		{-1, 0, -1},
		{8_000, 20_000, 8_000},
		{0, 20_000, -1},
	}
	for _, c := range cases {
		s.MaxLoadedItems = c.setting
		if got := itemCap(c.flag, s); got != c.want {
			t.Errorf("flag %d, setting %d: got %d, want %d", c.flag, c.setting, got, c.want)
		}
	}
}

// A mistake in a flag is one sentence, with no dump of every flag; -h
// prints the flags.
func TestFlagMistakesAreOneSentence(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"query", "--table", "App", "--pk", "x", "--limit", "abc"}, `--limit takes a whole number, not "abc".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--timeout", "5"}, `--timeout takes a positive duration such as 15s or 2m, not "5".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--timeout", "0"}, `--timeout takes a positive duration such as 15s or 2m, not "0".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--timeout", "-1s"}, `--timeout takes a positive duration such as 15s or 2m, not "-1s".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--max-attempts", "0"}, `--max-attempts takes a whole number from 1 to 100, not "0".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--limit", "99999999999"}, `--limit takes a whole number from 1 to 2147483647 (leave it out for no Limit), not 99999999999.`},
		{[]string{"query", "--table", "App", "--pk", "x", "--region", "us east 1"}, `--region: region must be a name such as us-east-1 (letters, digits and dashes), not "us east 1".`},
		{[]string{"tables", "--endpoint-url", "http://[::1"}, `--endpoint-url: endpoint must be an http:// or https:// URL such as http://127.0.0.1:8000, not "http://[::1".`},
		{[]string{"tables", "--endpoint-url", "127.0.0.1:8899"}, `--endpoint-url: endpoint must be an http:// or https:// URL such as http://127.0.0.1:8000, not "127.0.0.1:8899".`},
		{[]string{"tables", "--endpoint-url", "ftp://127.0.0.1/x"}, `--endpoint-url: endpoint must be an http:// or https:// URL such as http://127.0.0.1:8000, not "ftp://127.0.0.1/x".`},
		{[]string{"tables", "--endpoint-url", "http://user:hunter2@[::1"}, `--endpoint-url: endpoint must be an http:// or https:// URL such as http://127.0.0.1:8000, not "http://user:xxxxx@[::1".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--consistent=maybe"}, `--consistent takes true or false, not "maybe".`},
		{[]string{"query", "--table", "App", "--pk", "x", "--limit", "99999999999999999999"}, `--limit: 99999999999999999999 is out of range.`},
		{[]string{"query", "--table", "App", "--pk"}, `--pk needs a value.`},
		{[]string{"groups", "--table", "App", "--nope"}, `unknown flag --nope; run 'dynascope groups -h' for the flags.`},
		{[]string{"--table", "App", "--max-loaded", "many"}, `--max-loaded takes a whole number, not "many".`},
		{[]string{"patterns", "run", "x", "--nope"}, `unknown flag --nope; run 'dynascope patterns run -h' for the flags.`},
	}
	for _, c := range cases {
		_, stderr, err := cli(t, c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got  %v\n want %s", c.args, err, c.want)
		}
		if _, ok := err.(usageError); !ok {
			t.Errorf("%v: %T is not a usage error (exit 2)", c.args, err)
		}
		if stderr != "" {
			t.Errorf("%v: stderr holds more than the sentence:\n%s", c.args, stderr)
		}
	}
	// -h and help print the command's help on stdout, GNU-style flags
	// included, and succeed.
	for _, args := range [][]string{{"query", "-h"}, {"-h"}, {"patterns", "run", "-h"}, {"help", "groups"}, {"tables", "--help"}} {
		stdout, _, err := cli(t, args...)
		if err != nil || !strings.Contains(stdout, "\n      --table NAME ") || !strings.Contains(stdout, "Examples:\n") {
			t.Errorf("%v: %v, the flags not printed:\n%s", args, err, stdout)
		}
	}
}

// A table deleted between ListTables and its DescribeTable (another client,
// or a test run beside this one) leaves the listing; it does not fail it.
// A table named with --table that does not exist is still an error.
func TestTablesSkipsATableDeletedWhileListing(t *testing.T) {
	table, ep := seededDemo(t)
	notFound := dynamotest.APIError(400, "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "Requested resource not found")
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Count: 1, Fault: notFound})
	out, stderr, err := cli(t, "tables", "--endpoint-url", proxy.URL, "--output", "json")
	if err != nil {
		t.Fatalf("tables failed on one vanished table: %v\n%s", err, stderr)
	}
	var got struct{ Tables []struct{ Name string } }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// Tests beside this one delete their tables too: every table DynamoDB
	// described is listed, the faulted one and any really gone are not.
	described, faulted := 0, 0
	for _, c := range proxy.Calls() {
		switch {
		case c.Op != "DescribeTable":
		case c.Fault != "":
			faulted++
		case c.Status == 200:
			described++
		}
	}
	if faulted != 1 || len(got.Tables) != described {
		t.Errorf("%d tables listed, %d described, %d faulted: want every described one listed", len(got.Tables), described, faulted)
	}
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Count: 1, Fault: notFound})
	if _, _, err := cli(t, "tables", "--endpoint-url", proxy.URL, "--table", table); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("--table of a missing table: %v, want the sentence", err)
	}
}
