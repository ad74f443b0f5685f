package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// awsV2 is Debian's AWS CLI v2 (which reads binary values as base64; a
// v1 shim may come first on the PATH). Under CI=true a missing one fails.
func awsV2(t *testing.T) string {
	t.Helper()
	for _, bin := range []string{"/usr/bin/aws", "aws"} {
		if out, err := exec.Command(bin, "--version").CombinedOutput(); err == nil && strings.HasPrefix(string(out), "aws-cli/2.") {
			return bin
		}
	}
	dynamotest.Need(t, "an AWS CLI v2", "awscli")
	return ""
}

// awsEnv is the environment the AWS CLI runs in for the tests: DynamoDB
// Local's fake credentials, no pager, and no configuration of the user's.
func awsEnv(t *testing.T) []string {
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local",
		"AWS_DEFAULT_REGION=us-east-1", "AWS_PAGER=", "AWS_CONFIG_FILE=" + home + "/config", "AWS_SHARED_CREDENTIALS_FILE=" + home + "/credentials"}
	return env
}

// awsPage is what `aws dynamodb query|scan --output json` prints.
type awsPage struct {
	Items     []map[string]map[string]any `json:"Items"`
	NextToken string                      `json:"NextToken"`
}

// keys are the items' keys as "PK|SK" (binary as base64, as both print it).
func (p awsPage) keys() []string {
	var out []string
	for _, it := range p.Items {
		out = append(out, fmt.Sprint(it["PK"]["S"])+"|"+fmt.Sprint(it["SK"]["B"]))
	}
	return out
}

// runAWS runs the AWS CLI against ep.
func runAWS(t *testing.T, ep string, args ...string) awsPage {
	t.Helper()
	cmd := exec.Command(awsV2(t), append([]string{"--endpoint-url", ep, "--output", "json"}, args...)...)
	cmd.Env = awsEnv(t)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("aws %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	var p awsPage
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("aws %s printed %s: %v", strings.Join(args, " "), out, err)
	}
	return p
}

// ourPage is what dynascope query|scan --output json prints of its read.
type ourPage struct {
	Items     []map[string]any `json:"items"`
	Stop      string           `json:"stop"`
	NextToken string           `json:"nextToken"`
	LastKey   map[string]any   `json:"lastEvaluatedKey"`
	Requests  []struct {
		Count int `json:"count"`
	} `json:"requests"`
}

func (p ourPage) keys() []string {
	var out []string
	for _, it := range p.Items {
		out = append(out, fmt.Sprint(it["PK"])+"|"+fmt.Sprint(it["SK"]))
	}
	return out
}

func runOurs(t *testing.T, args ...string) (ourPage, string) {
	t.Helper()
	stdout, stderr, err := cli(t, append(args, "--output", "json")...)
	if err != nil {
		t.Fatalf("dynascope %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	var p ourPage
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatalf("dynascope %s printed %s: %v", strings.Join(args, " "), stdout, err)
	}
	return p, stderr
}

// tokenTable is a table of binary sort keys, {i, 0, 255} for i 1..30 in
// partition P (and 5 in Q), with a number n = i and a GSI ByG over G (S)
// and GN (N) (GN = 7i mod 100, all different).
func tokenTable(t *testing.T) (table, ep string) {
	t.Helper()
	ep = dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeB},
			{AttributeName: aws.String("G"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("GN"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("ByG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("GN"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		BillingMode: types.BillingModePayPerRequest,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var batch []types.WriteRequest
	for i := 1; i <= 35; i++ {
		pk := "P"
		if i > 30 {
			pk = "Q"
		}
		it := map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberB{Value: []byte{byte(i), 0, 255}},
			"n": &types.AttributeValueMemberN{Value: fmt.Sprint(i)},
			"G": &types.AttributeValueMemberS{Value: "G"}, "GN": &types.AttributeValueMemberN{Value: fmt.Sprint(i * 7 % 100)},
		}
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		if len(batch) == 25 || i == 35 {
			if _, err := api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: batch}}); err != nil {
				t.Fatal(err)
			}
			batch = nil
		}
	}
	return table, ep
}

// tokenCase is one read, as the AWS CLI and dynascope write it, and the
// paging flags both are given.
type tokenCase struct {
	name      string
	aws, ours []string
	paging    []string
}

func tokenCases(table, ep string) []tokenCase {
	kc := []string{"--key-condition-expression", "PK = :p", "--expression-attribute-values", `{":p": {"S": "P"}}`}
	q := func(extra ...string) []string {
		return append(append([]string{"dynamodb", "query", "--table-name", table}, kc...), extra...)
	}
	ours := func(extra ...string) []string {
		return append([]string{"--endpoint-url", ep, "query", "--table", table, "--pk", "P"}, extra...)
	}
	gsi := []string{"dynamodb", "query", "--table-name", table, "--index-name", "ByG", "--key-condition-expression", "G = :g",
		"--expression-attribute-values", `{":g": {"S": "G"}}`}
	filtered := []string{"dynamodb", "query", "--table-name", table, "--key-condition-expression", "PK = :p", "--filter-expression", "n > :two",
		"--expression-attribute-values", `{":p": {"S": "P"}, ":two": {"N": "2"}}`}
	inPage := []string{"--max-items", "7", "--page-size", "5"} // cuts inside the second page
	return []tokenCase{
		{"forward", q(), ours(), inPage},
		{"reverse", q("--no-scan-index-forward"), ours("--reverse"), inPage},
		// One page of DynamoDB's 1 MB: the AWS CLI cuts it, from no key.
		{"gsi", gsi, []string{"--endpoint-url", ep, "query", "--table", table, "--index", "ByG", "--pk", "G"}, []string{"--max-items", "10"}},
		// On a page's end: no truncate amount.
		{"gsi reverse", append(slices.Clone(gsi), "--no-scan-index-forward"), []string{"--endpoint-url", ep, "query", "--table", table, "--index", "ByG", "--pk", "G", "--reverse"},
			[]string{"--max-items", "5", "--page-size", "5"}},
		// A filter: dynascope too cuts inside a page.
		{"filter", filtered, ours("--filter", "n > 2"), inPage},
		{"scan", []string{"dynamodb", "scan", "--table-name", table}, []string{"--endpoint-url", ep, "scan", "--table", table, "--yes"}, inPage},
	}
}

// checkRest: first and rest together are want, each item once.
func checkRest(t *testing.T, what string, first, rest, want []string) {
	t.Helper()
	got := append(slices.Clone(first), rest...)
	if !slices.Equal(got, want) {
		t.Errorf("%s: %d items then %d, not the %d of a whole read in order:\nfirst %v\nrest  %v\nwant  %v", what, len(first), len(rest), len(want), first, rest, want)
	}
}

// The AWS CLI's NextToken resumes a dynascope read exactly, and
// dynascope's the AWS CLI's: binary and number keys, a cut inside a page
// (--page-size 5, --max-items 7) and on a page's end, reverse, a GSI, a
// filter, a Scan; each item once, in the whole read's order.
func TestNextTokensPasteAcrossTheAWSCLI(t *testing.T) {
	table, ep := tokenTable(t)
	for _, c := range tokenCases(table, ep) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tokenCaseRun(t, ep, c)
		})
	}
}

// tokenCaseRun reads c whole, then cut by its paging flags and resumed
// by the other program's token, both ways.
func tokenCaseRun(t *testing.T, ep string, c tokenCase) {
	t.Helper()
	all := []string{"--all-pages"}
	if c.name == "scan" {
		all = nil // a scan reads every page
	}
	full, _ := runOurs(t, append(slices.Clone(c.ours), all...)...)
	want := full.keys()
	if len(want) < 20 {
		t.Fatalf("%s: the whole read has %d items", c.name, len(want))
	}
	paging, what := c.paging, c.name+" "+strings.Join(c.paging, " ")
	// The AWS CLI stops, dynascope goes on.
	a := runAWS(t, ep, append(slices.Clone(c.aws), paging...)...)
	if a.NextToken == "" || len(a.Items) != 5 && len(a.Items) != 7 && len(a.Items) != 10 {
		t.Fatalf("%s: the AWS CLI read %d items, token %q", what, len(a.Items), a.NextToken)
	}
	rest, _ := runOurs(t, append(append(slices.Clone(c.ours), "--starting-token", a.NextToken), all...)...)
	checkRest(t, what+": aws then dynascope", a.keys(), rest.keys(), want)

	// dynascope stops, the AWS CLI goes on.
	ours, stderr := runOurs(t, append(slices.Clone(c.ours), paging...)...)
	n := len(ours.Items)
	if ours.NextToken == "" || ours.Stop != "max-items" || (n != 5 && n != 7 && n != 10) {
		t.Fatalf("%s: dynascope read %d items, stop %q, token %q", what, n, ours.Stop, ours.NextToken)
	}
	if !strings.Contains(stderr, "stopped at --max-items") || !strings.Contains(stderr, "--starting-token "+ours.NextToken) {
		t.Errorf("%s: stderr does not say the stop and the token:\n%s", what, stderr)
	}
	rest2 := runAWS(t, ep, append(slices.Clone(c.aws), "--starting-token", ours.NextToken)...)
	checkRest(t, what+": dynascope then aws", ours.keys(), rest2.keys(), want)

	// dynascope's token resumes dynascope too, and its go-on line
	// is the command that does it: the next --max-items, as the
	// AWS CLI's next run with the token reads.
	goOn, ok := goOnArgs(t, stderr)
	if !ok {
		t.Fatalf("%s: no go-on line:\n%s", what, stderr)
	}
	next, _ := runOurs(t, goOn...)
	if len(next.Items) != n {
		t.Errorf("%s: the go-on line read %d items, not the next %d", what, len(next.Items), n)
	}
	checkRest(t, what+": dynascope then its go-on line", ours.keys(), next.keys(), want[:min(len(want), 2*n)])
}

// A filtered read cut inside a page gives botocore's truncate amount, and
// a chain of --max-items reads, each from the last one's token, reads the
// whole result once.
func TestNextTokenChainThroughCutPages(t *testing.T) {
	table, ep := tokenTable(t)
	base := []string{"--endpoint-url", ep, "query", "--table", table, "--pk", "P", "--filter", "n > 2", "--page-size", "4"}
	full, _ := runOurs(t, "--endpoint-url", ep, "query", "--table", table, "--pk", "P", "--filter", "n > 2", "--all-pages")
	var got []string
	token, cuts := "", 0
	for range 20 {
		args := append(slices.Clone(base), "--max-items", "3")
		if token != "" {
			args = append(args, "--starting-token", token)
		}
		p, _ := runOurs(t, args...)
		got = append(got, p.keys()...)
		if p.NextToken == "" {
			break
		}
		raw, _ := base64.StdEncoding.DecodeString(p.NextToken)
		if strings.Contains(string(raw), `"boto_truncate_amount": `) {
			cuts++
		}
		token = p.NextToken
	}
	if !slices.Equal(got, full.keys()) {
		t.Errorf("the chain read %v, the whole read %v", got, full.keys())
	}
	if cuts == 0 {
		t.Errorf("no read of the chain cut a page: the test does not test a cut")
	}
}

// Tokens that cannot go on are one sentence each, and no Query is sent.
func TestBadStartingTokens(t *testing.T) {
	table, ep := tokenTable(t)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	otherPartition := runAWS(t, ep, "dynamodb", "query", "--table-name", table, "--key-condition-expression", "PK = :p",
		"--expression-attribute-values", `{":p": {"S": "Q"}}`, "--max-items", "2", "--page-size", "2").NextToken
	gsiToken := runAWS(t, ep, "dynamodb", "query", "--table-name", table, "--index-name", "ByG", "--key-condition-expression", "G = :g",
		"--expression-attribute-values", `{":g": {"S": "G"}}`, "--max-items", "30", "--page-size", "10").NextToken
	for _, c := range []struct {
		name, token, want string
		extra             []string
	}{
		{"not base64", "%%not-base64%%", "it is not base64 text", nil},
		{"not JSON", b64("hello"), "does not hold a JSON object", nil},
		{"another command's", b64(`{"ExclusiveStartTableName": "x"}`), `it holds "ExclusiveStartTableName"`, nil},
		{"another table's key", b64(`{"ExclusiveStartKey": {"id": {"S": "x"}}}`), `has "id", which is not a key attribute of ` + table, nil},
		{"another partition", otherPartition, `is in the partition PK = "Q", not in "P"`, nil},
		{"an index's key on the table", gsiToken, `which is not a key attribute of ` + table, nil},
		{"outside the sort-key condition", gsiToken, "outside this query's condition G = \"G\" AND GN < 50", []string{"--index", "ByG", "--pk", "G", "--sk-lt", "50"}},
	} {
		if c.token == "" {
			t.Fatalf("%s: the AWS CLI printed no token", c.name)
		}
		args := []string{"--debug", "--endpoint-url", ep, "query", "--table", table}
		if c.extra == nil {
			args = append(args, "--pk", "P")
		}
		args = append(append(args, c.extra...), "--starting-token", c.token)
		_, stderr, err := cli(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
			continue
		}
		if msg := err.Error(); strings.Count(msg, ". ") > 0 || len(msg) > 300 {
			t.Errorf("%s: not one short sentence: %q", c.name, msg)
		}
		if strings.Contains(stderr, "request Query") {
			t.Errorf("%s: a Query was sent:\n%s", c.name, stderr)
		}
	}
	// A scan's token cannot go on in several segments at once.
	_, _, err := cli(t, "--endpoint-url", ep, "scan", "--table", table, "--yes", "--segments", "2", "--max-items", "3")
	if err == nil || !strings.Contains(err.Error(), "drop --segments") {
		t.Errorf("scan --segments 2 --max-items 3: %v", err)
	}
}

// --go-on aws prints the AWS CLI command that reads the same rest, and it
// runs as printed: bash runs the line with the AWS CLI v2, and what it
// reads follows what dynascope read, each item once (one page of a query,
// a filtered query cut by --max-items, a Scan cut by --max-items).
func TestGoOnAWSRunsTheRest(t *testing.T) {
	table, ep := tokenTable(t)
	bin := awsV2(t)
	q := []string{"--endpoint-url", ep, "query", "--table", table, "--pk", "P"}
	for _, c := range []struct {
		name      string
		ours, all []string
		next      int // how many the AWS CLI's command reads: the rest (0) or its --max-items
	}{
		{"one page", append(slices.Clone(q), "--limit", "5"), append(slices.Clone(q), "--all-pages"), 0},
		{"reverse cut", append(slices.Clone(q), "--reverse", "--filter", "n > 2", "--max-items", "7", "--page-size", "5"), append(slices.Clone(q), "--reverse", "--filter", "n > 2", "--all-pages"), 7},
		{"scan cut", []string{"--endpoint-url", ep, "scan", "--table", table, "--yes", "--max-items", "7", "--page-size", "5"}, []string{"--endpoint-url", ep, "scan", "--table", table, "--yes"}, 7},
	} {
		full, _ := runOurs(t, c.all...)
		want := full.keys()
		ours, stderr := runOurs(t, append(slices.Clone(c.ours), "--go-on", "aws")...)
		lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
		_, cmd, ok := strings.Cut(lines[len(lines)-1], "to go on where it stopped, reading only the rest, run: ")
		if !ok || !strings.Contains(cmd, " aws dynamodb ") || !strings.Contains(cmd, "--starting-token ") {
			t.Fatalf("%s: the last line is not the AWS CLI's go-on:\n%s", c.name, stderr)
		}
		sh := exec.Command("bash", "-c", cmd)
		sh.Env = append(awsEnv(t), "AWS_DEFAULT_OUTPUT=json", "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
		out, err := sh.Output()
		if err != nil {
			t.Fatalf("%s: bash ran %s: %v", c.name, cmd, err)
		}
		var rest awsPage
		if err := json.Unmarshal(out, &rest); err != nil {
			t.Fatalf("%s: the AWS CLI printed %s", c.name, out)
		}
		n := len(ours.Items)
		end := len(want)
		if c.next > 0 {
			end = min(end, n+c.next)
		}
		checkRest(t, c.name+": dynascope then its --go-on aws line", ours.keys(), rest.keys(), want[:end])
	}
}
