package codegen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// awsCLI finds the AWS CLI. `make test` installs Debian's awscli when it is
// missing, so under CI=true a missing CLI fails the test instead of
// skipping what it exists to check.
func awsCLI(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("aws")
	if err != nil {
		need(t, "the AWS CLI (aws)", "awscli")
	}
	return path
}

// awsCLIv2Dir finds an AWS CLI v2, which reads binary values as base64 (v1
// would encode them again): the aws on the PATH, else Debian's. It returns
// the folder to put first on the PATH; "" for the PATH as it is.
func awsCLIv2Dir(t *testing.T) string {
	t.Helper()
	for _, dir := range []string{"", "/usr/bin"} {
		bin := "aws"
		if dir != "" {
			bin = filepath.Join(dir, bin)
		}
		if out, err := exec.Command(bin, "--version").CombinedOutput(); err == nil && strings.HasPrefix(string(out), "aws-cli/2.") {
			return dir
		}
	}
	need(t, "an AWS CLI v2 (binary values; v1 base64-encodes them a second time)", "awscli")
	return ""
}

// pythonWithBoto3 finds a python3 that imports boto3: the one on the PATH,
// else Debian's.
func pythonWithBoto3(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import boto3").Run() == nil {
			return py
		}
	}
	need(t, "python3 with boto3", "python3-boto3")
	return ""
}

// need is dynamotest.Need: under CI=true a missing tool fails the test.
func need(t *testing.T, what, pkg string) { t.Helper(); dynamotest.Need(t, what, pkg) }

// runShell runs generated code through sh, as a user pasting it would, with
// no AWS configuration of the user's in the way.
func runShell(t *testing.T, script string) []byte {
	t.Helper()
	return runShellIn(t, "", script)
}

// runShellIn is runShell with dir first on the PATH ("" for none).
func runShellIn(t *testing.T, dir, script string) []byte {
	t.Helper()
	path := os.Getenv("PATH")
	if dir != "" {
		path = dir + string(os.PathListSeparator) + path
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + path, "HOME=" + home, "AWS_CONFIG_FILE=" + filepath.Join(home, "none"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(home, "none"), "AWS_PAGER=", "AWS_EC2_METADATA_DISABLED=true",
		"PYENV_ROOT=" + os.Getenv("PYENV_ROOT"), "PYENV_VERSION=" + os.Getenv("PYENV_VERSION")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s\nstderr: %s", err, script, stderr.String())
	}
	return stdout.Bytes()
}

// cliOutput is what `aws dynamodb query` and `get-item` print.
type cliOutput struct {
	Items            []json.RawMessage
	Item             json.RawMessage
	Count            int32
	LastEvaluatedKey json.RawMessage
	ConsumedCapacity struct{ CapacityUnits float64 }
}

func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	it, err := itemcodec.ParseDynamoJSON(raw)
	if err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return string(itemcodec.DynamoJSON(it))
}

func cgS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func cgN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func cgPut(t *testing.T, api *dynamodb.Client, table string, items ...dynamo.Item) {
	t.Helper()
	for _, it := range items {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put: %v", err)
		}
	}
}

// codegenTables makes a single-table design table with a GSI, and a table
// keyed by numbers, with a few items each.
func codegenTables(t *testing.T) (api *dynamodb.Client, app, scores string) {
	api = dynamotest.SDK(t)
	app = dynamotest.Table(t, api, dynamotest.WithGSI(dynamotest.PKSK(), "GSI1", "GSI1PK", "S", "GSI1SK", "S", types.ProjectionTypeAll))
	cgPut(t, api, app,
		dynamo.Item{"PK": cgS("CUST#42"), "SK": cgS("PROFILE"), "name": cgS("Ann")},
		dynamo.Item{"PK": cgS("CUST#42"), "SK": cgS("ORDER#2025-01-09#A11"), "total": cgN("20")},
		dynamo.Item{"PK": cgS("CUST#42"), "SK": cgS("ORDER#2025-03-01#A17"), "total": cgN("35"),
			"GSI1PK": cgS("WH#1"), "GSI1SK": cgS("OPEN#2025-03-01#A17")},
		dynamo.Item{"PK": cgS("CUST#42"), "SK": cgS("ORDER#2025-04-01#O'Q \"x\""), "total": cgN("12345678901234567890.5"),
			"GSI1PK": cgS("WH#1"), "GSI1SK": cgS("OPEN#2025-04-01#O'Q")},
		dynamo.Item{"PK": cgS("ORDER#A17"), "SK": cgS("ITEM#1"), "name": cgS("Desk lamp")},
	)
	in := dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("player"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("at"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("player"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("at"), KeyType: types.KeyTypeRange}},
	}
	scores = dynamotest.Table(t, api, in)
	for _, at := range []string{"-1.5", "0", "7", "100", "1700000000000"} {
		cgPut(t, api, scores, dynamo.Item{"player": cgN("7"), "at": cgN(at), "score": cgN("3")})
	}
	return api, app, scores
}

// The generated AWS CLI command, run with the AWS CLI against DynamoDB
// Local, returns what dynascope's own request returned: the same items in
// the same order, the same LastEvaluatedKey, the same RCUs.
func TestCodeCLIMatchesDynascope(t *testing.T) {
	awsCLI(t)
	_, app, scores := codegenTables(t)
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	to := codegen.CodeTarget{Region: c.Region(), Endpoint: c.Endpoint()}
	sk := func(op dynamo.SKOp, v ...string) dynamo.SKCond { return dynamo.SKCond{Op: op, Values: v} }
	queries := map[string]dynamo.QueryInput{
		"partition":        {Table: app, PK: "CUST#42"},
		"latest order":     {Table: app, PK: "CUST#42", SK: sk(dynamo.SKBeginsWith, "ORDER#"), Reverse: true, Limit: 1},
		"limit, more left": {Table: app, PK: "CUST#42", Limit: 2},
		"between":          {Table: app, PK: "CUST#42", SK: sk(dynamo.SKBetween, "ORDER#2025-02", "ORDER#2025-12"), Consistent: true},
		"quotes":           {Table: app, PK: "CUST#42", SK: sk(dynamo.SKEq, `ORDER#2025-04-01#O'Q "x"`)},
		"lt":               {Table: app, PK: "CUST#42", SK: sk(dynamo.SKLt, "ORDER#2025-03")},
		"gsi":              {Table: app, Index: "GSI1", PK: "WH#1", SK: sk(dynamo.SKBeginsWith, "OPEN#")},
		"count":            {Table: app, PK: "CUST#42", CountOnly: true},
		"numbers ge":       {Table: scores, PK: "7", SK: sk(dynamo.SKGe, "0"), Reverse: true},
		"numbers between":  {Table: scores, PK: "7.0", SK: sk(dynamo.SKBetween, "-2", "1e2")},
		"empty":            {Table: app, PK: "CUST#0"},
	}
	// The second page of a paged query, started from the first's key.
	first, err := c.Query(ctx, dynamo.QueryInput{Table: app, PK: "CUST#42", Limit: 2})
	if err != nil || first.LastEvaluatedKey == nil {
		t.Fatalf("first page: %v", err)
	}
	queries["second page"] = dynamo.QueryInput{Table: app, PK: "CUST#42", Limit: 2, StartKey: first.LastEvaluatedKey}

	for name, q := range queries {
		// One at a time: each AWS CLI run is a Python start-up, and in
		// parallel they only compete for the CPU.
		t.Run(name, func(t *testing.T) {
			tbl, err := c.DescribeTable(ctx, q.Table)
			if err != nil {
				t.Fatal(err)
			}
			ks, err := tbl.Schema(q.Index)
			if err != nil {
				t.Fatal(err)
			}
			page, err := c.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			cmd, err := codegen.QueryCode(codegen.LangCLI, ks, q, to)
			if err != nil {
				t.Fatal(err)
			}
			var got cliOutput
			if err := json.Unmarshal(runShell(t, cmd), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Items) != len(page.Items) || got.Count != page.Count {
				t.Fatalf("the CLI returned %d items (Count %d), dynascope %d (Count %d)\n%s", len(got.Items), got.Count, len(page.Items), page.Count, cmd)
			}
			for i, raw := range got.Items {
				if g, w := canonical(t, raw), string(itemcodec.DynamoJSON(page.Items[i])); g != w {
					t.Errorf("item %d: the CLI returned %s, dynascope %s", i, g, w)
				}
			}
			wantLEK := "null"
			if page.LastEvaluatedKey != nil {
				wantLEK = string(itemcodec.DynamoJSON(page.LastEvaluatedKey))
			}
			if g := string(got.LastEvaluatedKey); (g == "" && wantLEK != "null") || (g != "" && canonical(t, got.LastEvaluatedKey) != wantLEK) {
				t.Errorf("LastEvaluatedKey: the CLI returned %s, dynascope %s", g, wantLEK)
			}
			if got.ConsumedCapacity.CapacityUnits != page.Request.Capacity.Total {
				t.Errorf("RCU: the CLI reported %v, dynascope %v", got.ConsumedCapacity.CapacityUnits, page.Request.Capacity.Total)
			}
		})
	}

	for name, g := range map[string]dynamo.GetInput{
		"get":         {Table: app, PK: "ORDER#A17", SK: "ITEM#1", Consistent: true},
		"get missing": {Table: app, PK: "ORDER#A17", SK: "ITEM#9"},
	} {
		t.Run(name, func(t *testing.T) {
			tbl, err := c.DescribeTable(ctx, g.Table)
			if err != nil {
				t.Fatal(err)
			}
			page, err := c.GetItem(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			cmd, err := codegen.GetItemCode(codegen.LangCLI, tbl, g, to)
			if err != nil {
				t.Fatal(err)
			}
			var got cliOutput
			if err := json.Unmarshal(runShell(t, cmd), &got); err != nil {
				t.Fatal(err)
			}
			switch {
			case len(page.Items) == 0 && len(got.Item) != 0:
				t.Errorf("the CLI found %s, dynascope nothing", got.Item)
			case len(page.Items) == 1 && (len(got.Item) == 0 || canonical(t, got.Item) != string(itemcodec.DynamoJSON(page.Items[0]))):
				t.Errorf("the CLI returned %s, dynascope %s", got.Item, itemcodec.DynamoJSON(page.Items[0]))
			}
			if got.ConsumedCapacity.CapacityUnits != page.Request.Capacity.Total {
				t.Errorf("RCU: the CLI reported %v, dynascope %v", got.ConsumedCapacity.CapacityUnits, page.Request.Capacity.Total)
			}
		})
	}
}

// Binary keys reach the CLI as base64, which AWS CLI v2 (Debian's awscli)
// decodes; v1 would encode the text again, so this runs on v2 only.
func TestCodeCLIBinaryKeys(t *testing.T) {
	dir := awsCLIv2Dir(t)
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeB},
			{AttributeName: aws.String("part"), AttributeType: types.ScalarAttributeTypeB}},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("part"), KeyType: types.KeyTypeRange}},
	})
	for _, p := range [][]byte{{0x41, 0x01}, {0x41, 0x02}, {0x42}} {
		cgPut(t, api, table, dynamo.Item{"id": &types.AttributeValueMemberB{Value: []byte{1, 2}}, "part": &types.AttributeValueMemberB{Value: p}})
	}
	ks := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "id", Type: "B"}, SK: &dynamo.KeyAttr{Name: "part", Type: "B"}}
	q := dynamo.QueryInput{Table: table, PK: "AQI=", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"QQ=="}}}
	cmd, err := codegen.QueryCode(codegen.LangCLI, ks, q, codegen.CodeTarget{Region: "us-east-1", Endpoint: dynamotest.Endpoint(t)})
	if err != nil {
		t.Fatal(err)
	}
	var got cliOutput
	if err := json.Unmarshal(runShellIn(t, dir, cmd), &got); err != nil {
		t.Fatal(err)
	}
	if got.Count != 2 {
		t.Errorf("begins_with on a binary key: %d items\n%s", got.Count, cmd)
	}
}

// skRE pulls the sort keys out of what the Python and Go programs print.
var skRE = regexp.MustCompile(`["']SK["']: ?["']([^"']*)["']`)

// The generated Python (when boto3 is installed) and Go programs run and
// return the items dynascope returned.
func TestCodePythonAndGoRun(t *testing.T) {
	_, app, _ := codegenTables(t)
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	to := codegen.CodeTarget{Region: c.Region(), Endpoint: c.Endpoint()}
	ks := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	q := dynamo.QueryInput{Table: app, PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"ORDER#2025-01", "ORDER#2025-03-31"}}, Reverse: true, Limit: 2}
	page, err := c.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, it := range page.Items {
		want = append(want, itemcodec.KeyString(it["SK"]))
	}
	sks := func(out []byte) []string {
		var got []string
		for _, m := range skRE.FindAllSubmatch(out, -1) {
			got = append(got, string(m[1]))
		}
		return got
	}

	t.Run("go", func(t *testing.T) {
		t.Parallel()
		code, err := codegen.QueryCode(codegen.LangGo, ks, q, to)
		if err != nil {
			t.Fatal(err)
		}
		out, stderr := runGo(t, code)
		if got := sks(out); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("the Go program printed %v, dynascope returned %v", got, want)
		}
		if !strings.Contains(stderr, "2 items, 0.5 RCU") {
			t.Errorf("stderr: %s", stderr)
		}
	})
	t.Run("python", func(t *testing.T) {
		t.Parallel()
		py := pythonWithBoto3(t)
		code, err := codegen.QueryCode(codegen.LangPython, ks, q, to)
		if err != nil {
			t.Fatal(err)
		}
		out := runShell(t, py+" - <<'EOF'\n"+code+"EOF\n")
		if got := sks(out); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("the Python program printed %v, dynascope returned %v\n%s", got, want, out)
		}
	})
}

// runGo runs a generated Go program in a module of its own with this
// module's requirements, built offline from the module cache, and returns
// its stdout and stderr.
func runGo(t *testing.T, code string) ([]byte, string) {
	t.Helper()
	dir := t.TempDir()
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module generated"))
	for name, data := range map[string][]byte{"go.mod": mod, "go.sum": sum, "main.go": []byte(code)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stderr.String(), code)
	}
	return out, stderr.String()
}
