package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/jmespath/go-jmespath"

	"dynascope/dynamo/dynamotest"
)

// big is a number of DynamoDB's full 38 digits: a float64 keeps 17.
const big = "12345678901234567890123456789012345678"

// documentTable is a table whose partition P holds items of every kind of
// value, two numbers among them that differ only past the 17th digit.
func documentTable(t *testing.T) (table, ep string) {
	t.Helper()
	ep = dynamotest.Endpoint(t)
	useFakeCredentials(t)
	t.Setenv("AWS_REGION", "us-east-1")
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.PKSK())
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	items := []map[string]types.AttributeValue{
		{"PK": s("P"), "SK": s("A"), "n": n(big), "price": n("1.5"), "ok": &types.AttributeValueMemberBOOL{Value: true},
			"tags": &types.AttributeValueMemberSS{Value: []string{"x", "y"}},
			"addr": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"zip": s("1000"), "city": s("Oslo")}}},
		{"PK": s("P"), "SK": s("B"), "n": n(big[:37] + "9"), "price": n("20"), "none": &types.AttributeValueMemberNULL{Value: true},
			"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("two")}}},
		{"PK": s("P"), "SK": s("C"), "n": n("3"), "price": n("0.25")},
	}
	for _, it := range items {
		if _, err := api.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return table, ep
}

// --query gives what the JMESPath library gives on the JSON output, and
// numbers keep every digit.
func TestQueryFlagMatchesTheLibrary(t *testing.T) {
	table, ep := documentTable(t)
	base := []string{"query", "--endpoint-url", ep, "--table", table, "--pk", "P"}
	plain, _, err := cli(t, base...)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal([]byte(plain), &doc); err != nil {
		t.Fatal(err)
	}
	for _, expr := range []string{
		"items[].SK", "consumedCapacity.total", "items[?price > `1`].SK", "items[0]", "length(items)",
		"sum(items[].price)", "items[].{k: SK, zip: addr.zip}", "items[?ok].tags", "items[].list[]", "count",
		"items[?SK == 'nothing']", "missing", "table", "sort_by(items, &price)[].SK", "max_by(items, &price).SK",
	} {
		want, err := jmespath.Search(expr, doc)
		if err != nil {
			t.Fatalf("%s: the library: %v", expr, err)
		}
		out, stderr, err := cli(t, append(base, "--query", expr)...)
		if err != nil {
			t.Fatalf("--query %s: %v\n%s", expr, err, stderr)
		}
		var got any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("--query %s printed no JSON: %v\n%s", expr, err, out)
		}
		wantJSON, _ := json.Marshal(want)
		var wantBack any
		_ = json.Unmarshal(wantJSON, &wantBack)
		if !reflect.DeepEqual(got, wantBack) {
			t.Errorf("--query %s = %s, the library says %s", expr, out, wantJSON)
		}
	}
	// The 38-digit numbers, one float64 apart at most, each keep their text,
	// through a filter too.
	out, _, err := cli(t, append(base, "--query", "items[?n > `100`].n")...)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[\n  " + big + ",\n  " + big[:37] + "9\n]\n"; out != want {
		t.Errorf("the big numbers lost digits:\n%s\nwant\n%s", out, want)
	}
	// A string is a JSON string, a missing value null, as the AWS CLI prints them.
	for expr, want := range map[string]string{"items[0].SK": "\"A\"\n", "missing": "null\n", "items[0].price": "1.5\n"} {
		if out, _, _ := cli(t, append(base, "--query", expr)...); out != want {
			t.Errorf("--query %s printed %q, want %q", expr, out, want)
		}
	}
}

// A bad expression is one sentence with its position, and no request is
// sent; --query on output that is no JSON document is refused the same way.
func TestBadQueryIsRefusedBeforeAnyRequest(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer srv.Close()
	useFakeCredentials(t)
	t.Setenv("AWS_REGION", "us-east-1")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"query", "--table", "T", "--pk", "P", "--query", "items[?"}, `--query "items[?" is not a JMESPath expression: incomplete expression at character 8.`},
		{[]string{"--query", "items[}", "scan", "--table", "T"}, `--query "items[}" is not a JMESPath expression: expected '*', received: '}' at character 7.`},
		{[]string{"query", "--table", "T", "--pk", "P", "--output", "jsonl", "--query", "items"}, "--query applies to --output json, text or yaml, not jsonl, which is not one JSON document: add --output json."},
		{[]string{"tail", "--table", "T", "--query", "items"}, "--query applies to a JSON document; dynascope tail prints none."},
	} {
		_, _, err := cli(t, append(c.args, "--endpoint-url", srv.URL)...)
		var ue usageError
		if !errors.As(err, &ue) || err.Error() != c.want {
			t.Errorf("%s: got %v, want the usage error %q", strings.Join(c.args, " "), err, c.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests were sent for refused command lines", n)
	}
}

// requireAWSCLI is the AWS CLI, for a test that compares with it: skipped
// without it, except under CI=true, where make test has installed it.
func requireAWSCLI(t *testing.T) string {
	t.Helper()
	aws := awsCLI(t)
	if aws == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("the AWS CLI is not on the PATH and CI=true: make test installs Debian's awscli")
		}
		t.Skip("the AWS CLI is not installed: run make test, which installs it")
	}
	return aws
}

// --output text of a query is what the AWS CLI prints for the same read:
// the same expression picks the same fields from both documents (the
// items as DynamoDB JSON, as the AWS CLI has them), and the two texts are
// the same, line by line and field by field.
func TestTextOutputIsTheAWSCLIs(t *testing.T) {
	aws := requireAWSCLI(t)
	table, ep := documentTable(t)
	t.Setenv("AWS_DEFAULT_REGION", "us-east-1") // the AWS CLI v1 reads no AWS_REGION
	const pick = "{Items: %s, Count: %s, ScannedCount: %s}"
	theirs, err := exec.Command(aws, "dynamodb", "query", "--endpoint-url", ep, "--table-name", table,
		"--key-condition-expression", "PK = :p", "--expression-attribute-values", `{":p": {"S": "P"}}`,
		"--output", "text", "--query", fmt.Sprintf(pick, "Items", "Count", "ScannedCount")).CombinedOutput()
	if err != nil {
		t.Fatalf("the AWS CLI: %v\n%s", err, theirs)
	}
	ours, stderr, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "P", "--dynamodb-json",
		"--output", "text", "--query", fmt.Sprintf(pick, "items", "count", "scannedCount"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(ours, big) || !strings.Contains(ours, "True") {
		t.Fatalf("the text lacks the 38-digit number or a boolean:\n%s", ours)
	}
	want, got := strings.Split(string(theirs), "\n"), strings.Split(ours, "\n")
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			t.Errorf("line %d: dynascope %q, the AWS CLI %q", i+1, strings.Split(g, "\t"), strings.Split(w, "\t"))
		}
	}
}
