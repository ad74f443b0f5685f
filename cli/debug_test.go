package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
)

// A request's line and its answer's: operation, table, attempt, endpoint;
// status, request id, latency, capacity.
var (
	debugRequest = regexp.MustCompile(`(?m)^debug: \d\d:\d\d:\d\d\.\d{3} request (\w+)(?: table=\S+)? attempt=(\d+)/\d+ endpoint=(\S+)( body=.*)?$`)
	debugAnswer  = regexp.MustCompile(`(?m)^debug: \d\d:\d\d:\d\d\.\d{3} answer (\w+)(?: table=\S+)? attempt=(\d+)/\d+ status=(\d+|none)(?: request-id=\S+)? latency=[0-9.]+ms(?: error="[^"]*")?(?: (?:rcu|wcu)=(?:[0-9.]+|unknown))?( body=.*)?$`)
)

// debugPairs checks that every line of stderr that --debug wrote is a
// request or an answer line, that each request has its answer, and returns
// the operations answered and how many lines had bodies.
func debugPairs(t *testing.T, where, stderr string) (ops []string, bodies int) {
	t.Helper()
	requests := map[string]int{}
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, "debug: ") {
			continue
		}
		if m := debugRequest.FindStringSubmatch(line); m != nil {
			requests[m[1]]++
			if m[4] != "" {
				bodies++
			}
			continue
		}
		m := debugAnswer.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s: a debug line neither a request nor an answer:\n%s", where, line)
			continue
		}
		requests[m[1]]--
		ops = append(ops, m[1])
		if m[4] != "" {
			bodies++
		}
	}
	for op, n := range requests {
		if n != 0 {
			t.Errorf("%s: %d %s requests without an answer line (or the other way round):\n%s", where, n, op, stderr)
		}
	}
	return ops, bodies
}

// --debug on every command that talks to DynamoDB: reads, the stream,
// seed's and guarded editing's writes, each request one line and each
// answer one line, the bodies only with --debug=body; and no credential
// in any output, though the bodies are there.
func TestDebugOnEveryCommand(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	useFakeCredentials(t)
	t.Setenv("AWS_REGION", "us-east-1")
	p := dynamotest.StartProxy(t, ep)
	conn := []string{"--endpoint-url", p.URL, "--table", table}
	streamed, _ := tailedTable(t)
	_, writable := orderTable(t)
	seeded := dynamotest.UniqueName("cli-debug-seed")
	t.Cleanup(func() { deleteTables(seeded) })
	items := filepath.Join(t.TempDir(), "items.jsonl")
	if err := os.WriteFile(items, []byte(`{"PK":{"S":"A"},"SK":{"S":"1"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the writes' journal
	runs := []struct {
		args []string
		ops  []string // operations that must be among the answers
	}{
		{[]string{"tables", "--endpoint-url", p.URL}, []string{"ListTables", "DescribeTable"}},
		{slices.Concat([]string{"query", "--pk", "CUST#42", "--limit", "2"}, conn), []string{"Query"}},
		{slices.Concat([]string{"get", "--pk", "CUST#42", "--sk", "PROFILE"}, conn), []string{"GetItem"}},
		{slices.Concat([]string{"groups", "--pk", "CUST#42"}, conn), []string{"Query"}},
		{slices.Concat([]string{"scan", "--max-rcu", "2", "--segments", "2"}, conn), []string{"Scan"}},
		{slices.Concat([]string{"partiql", `SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`}, conn), []string{"ExecuteStatement"}},
		{slices.Concat([]string{"layout", "--max-items", "50"}, conn), []string{"Scan"}},
		{slices.Concat([]string{"item", "--pk", "CUST#42", "--sk", "PROFILE"}, conn), []string{"GetItem"}},
		{slices.Concat([]string{"index", "try", "--pk-attr", "status", "--max-items", "50"}, conn), []string{"Scan"}},
		{slices.Concat([]string{"patterns", "run", "latest order", "--param", "customerId=42"}, conn), []string{"Query"}},
		{[]string{"tail", "--endpoint-url", p.URL, "--table", streamed, "--from", "trim-horizon", "--max-records", "1"}, []string{"DescribeStream", "GetShardIterator", "GetRecords"}},
		// --force: the second run loads the table the first created.
		{[]string{"seed", "--endpoint-url", p.URL, "--table", seeded, "--file", items, "--force"}, []string{"DescribeTable", "BatchWriteItem"}},
		// Each run changes the item (the second from the first's value).
		{[]string{"update", "--endpoint-url", p.URL, "--table", writable, "--pk", "CUST#42", "--sk", "ORDER#1", "--allow-writes"}, []string{"GetItem", "UpdateItem"}},
	}
	for _, r := range runs {
		for i, level := range []string{"--debug", "--debug=body"} {
			args := append(slices.Clone(r.args), level)
			if args[0] == "update" {
				args = append(args, "--set", "status=S:"+[]string{"PACKED", "SENT"}[i])
			}
			out, stderr, err := cli(t, args...)
			if err != nil {
				t.Errorf("%v: %v\n%s", args, err, stderr)
				continue
			}
			checkNoSecrets(t, strings.Join(args, " "), out+stderr)
			ops, bodies := debugPairs(t, strings.Join(args, " "), stderr)
			for _, op := range r.ops {
				if !slices.Contains(ops, op) {
					t.Errorf("%v: no answer line for %s; stderr:\n%s", args, op, stderr)
				}
			}
			if level == "--debug" && bodies > 0 || level == "--debug=body" && bodies == 0 {
				t.Errorf("%v: %d lines with bodies", args, bodies)
			}
		}
	}
	// Reads say what they consumed as DynamoDB sent it.
	_, stderr, err := cli(t, slices.Concat([]string{"query", "--pk", "CUST#42", "--sk-eq", "PROFILE", "--debug"}, conn)...)
	if err != nil || !regexp.MustCompile(`answer Query table=\S+ attempt=1/10 status=200 request-id=\S+ latency=[0-9.]+ms rcu=0\.5$`).MatchString(strings.TrimSpace(stderr)) {
		t.Errorf("query's answer line: %v\n%s", err, stderr)
	}
}

// Each attempt of a retried request has its lines; an answer a server
// echoes the session token into shows none of it, body or not.
func TestDebugAttemptsAndEchoedSecrets(t *testing.T) {
	table, ep := seededDemo(t)
	useFakeCredentials(t)
	t.Setenv("AWS_REGION", "us-east-1")
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.APIError(500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "try again")})
	_, stderr, err := cli(t, "query", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--limit", "1", "--debug")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`request Query table=` + table + ` attempt=1/10 endpoint=` + p.URL,
		`answer Query table=` + table + ` attempt=1/10 status=500`,
		`error="InternalServerError: try again"`,
		`request Query table=` + table + ` attempt=2/10 endpoint=` + p.URL,
		`answer Query table=` + table + ` attempt=2/10 status=200`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in:\n%s", want, stderr)
		}
	}
	debugPairs(t, "retried query", stderr)

	for _, fault := range echoFaults {
		p.ClearFaults()
		p.Inject(dynamotest.Rule{Op: "Query", Fault: fault})
		out, stderr, _ := cli(t, "query", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--max-attempts", "1", "--debug=body")
		checkNoSecrets(t, "--debug=body with "+fault.String(), out+stderr)
		if !strings.Contains(stderr, "answer Query") {
			t.Errorf("%s: no answer line:\n%s", fault, stderr)
		}
	}
}

// Item values in bodies are shown as on screen: an escape sequence or a
// bidi override stored in an item never reaches the terminal.
func TestDebugBodiesAreSanitised(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	useFakeCredentials(t)
	t.Setenv("AWS_REGION", "us-east-1")
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	hostile := "\x1b]52;c;aGk=\x07red\x1b[31m \u202egnp.exe"
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if _, err := api.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table),
		Item: map[string]types.AttributeValue{"PK": s("P"), "SK": s("S"), "note": s(hostile)}}); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := cli(t, "get", "--endpoint-url", ep, "--table", table, "--pk", "P", "--sk", "S", "--debug=body")
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(stderr, "\x1b\x07\u202e") {
		t.Errorf("a control or bidi character reached stderr: %q", stderr)
	}
	if !strings.Contains(stderr, `gnp.exe`) || !strings.Contains(stderr, `answer GetItem`) {
		t.Errorf("the item's body is not in the answer line:\n%s", stderr)
	}
}

// The UI writes its --debug lines to a file, named on stderr when it ends,
// never on the screen.
func TestUIDebugLogFile(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	var stderr bytes.Buffer
	conn := &config.Connection{Endpoint: ep, Region: "us-east-1", Debug: 1, DebugTo: &stderr}
	done, err := uiDebugLog(conn, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	client, err := connect(t.Context(), conn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.ListTables(t.Context()); err != nil {
		t.Fatal(err)
	}
	done()
	path := filepath.Join(state, "dynascope", "debug.log")
	if got, want := stderr.String(), "dynascope: the --debug lines of this session are in "+path+"\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	log, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if ops, _ := debugPairs(t, "the UI's log", string(log)); !slices.Equal(ops, []string{"ListTables"}) {
		t.Errorf("the log holds %v:\n%s", ops, log)
	}
}
