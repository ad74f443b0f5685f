package codegen

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/filterexpr"
)

var (
	cgPKSK     = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	cgLatest   = dynamo.QueryInput{Table: "App", PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Reverse: true, Limit: 1}
	cgLocal    = CodeTarget{Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}
	cgNumbers  = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "player", Type: "N"}, SK: &dynamo.KeyAttr{Name: "at", Type: "N"}}
	cgBinaries = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "id", Type: "B"}, SK: &dynamo.KeyAttr{Name: "part", Type: "B"}}
)

func mustCode(t *testing.T, lang CodeLang, ks dynamo.KeySchema, q dynamo.QueryInput, to CodeTarget) string {
	t.Helper()
	code, err := QueryCode(lang, ks, q, to)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func wantContains(t *testing.T, code string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(code, p) {
			t.Errorf("missing %q in:\n%s", p, code)
		}
	}
}

// The single-table write-up's "latest order", in all three languages.
func TestCodeLatestOrder(t *testing.T) {
	cli := mustCode(t, LangCLI, cgPKSK, cgLatest, cgLocal)
	want := `AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb query \
  --table-name App \
  --key-condition-expression '#pk = :pk AND begins_with(#sk, :sk)' \
  --expression-attribute-names '{"#pk":"PK","#sk":"SK"}' \
  --expression-attribute-values '{":pk":{"S":"CUST#42"},":sk":{"S":"ORDER#"}}' \
  --no-scan-index-forward \
  --limit 1 \
  --return-consumed-capacity INDEXES \
  --no-paginate \
  --region us-east-1 \
  --endpoint-url http://127.0.0.1:8000
`
	if cli != want {
		t.Errorf("cli:\n%s\nwant:\n%s", cli, want)
	}

	py := mustCode(t, LangPython, cgPKSK, cgLatest, CodeTarget{Region: "eu-west-1"})
	want = `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb", region_name="eu-west-1").Table("App")
resp = table.query(KeyConditionExpression=Key("PK").eq("CUST#42") & Key("SK").begins_with("ORDER#"), ScanIndexForward=False, Limit=1)
for item in resp["Items"]:
    print(item)
`
	if py != want {
		t.Errorf("python:\n%s\nwant:\n%s", py, want)
	}

	goCode := mustCode(t, LangGo, cgPKSK, cgLatest, CodeTarget{})
	wantContains(t, goCode,
		`keyCond := expression.Key("PK").Equal(expression.Value("CUST#42")).`+"\n\t\tAnd(expression.Key(\"SK\").BeginsWith(\"ORDER#\"))",
		"\tout, err := client.Query(ctx, &dynamodb.QueryInput{\n\t\tTableName:                 aws.String(\"App\"),\n",
		"ScanIndexForward:          aws.Bool(false),\n",
		"Limit:                     aws.Int32(1),\n",
		"ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,\n",
		"cfg, err := config.LoadDefaultConfig(ctx)\n",
		"client := dynamodb.NewFromConfig(cfg)\n")
	if strings.Contains(goCode, "credentials") || strings.Contains(goCode, "BaseEndpoint") {
		t.Errorf("AWS code carries local settings:\n%s", goCode)
	}
}

// Every sort-key operator in each language's own words.
func TestCodeOperators(t *testing.T) {
	cases := []struct {
		op                dynamo.SKOp
		vals              []string
		cli, python, gofn string
	}{
		{dynamo.SKEq, []string{"A"}, `#sk = :sk`, `Key("SK").eq("A")`, `.Equal(expression.Value("A"))`},
		{dynamo.SKLt, []string{"A"}, `#sk < :sk`, `Key("SK").lt("A")`, `.LessThan(expression.Value("A"))`},
		{dynamo.SKLe, []string{"A"}, `#sk <= :sk`, `Key("SK").lte("A")`, `.LessThanEqual(expression.Value("A"))`},
		{dynamo.SKGt, []string{"A"}, `#sk > :sk`, `Key("SK").gt("A")`, `.GreaterThan(expression.Value("A"))`},
		{dynamo.SKGe, []string{"A"}, `#sk >= :sk`, `Key("SK").gte("A")`, `.GreaterThanEqual(expression.Value("A"))`},
		{dynamo.SKBetween, []string{"A", "B"}, `#sk BETWEEN :lo AND :hi`, `Key("SK").between("A", "B")`, `.Between(expression.Value("A"), expression.Value("B"))`},
		{dynamo.SKBeginsWith, []string{"A"}, `begins_with(#sk, :sk)`, `Key("SK").begins_with("A")`, `.BeginsWith("A")`},
	}
	for _, c := range cases {
		q := dynamo.QueryInput{Table: "App", PK: "P", SK: dynamo.SKCond{Op: c.op, Values: c.vals}}
		wantContains(t, mustCode(t, LangCLI, cgPKSK, q, CodeTarget{}), "'#pk = :pk AND "+c.cli+"'")
		wantContains(t, mustCode(t, LangPython, cgPKSK, q, CodeTarget{}), `Key("PK").eq("P") & `+c.python)
		wantContains(t, mustCode(t, LangGo, cgPKSK, q, CodeTarget{}), c.gofn)
	}
	between := mustCode(t, LangCLI, cgPKSK, dynamo.QueryInput{Table: "App", PK: "P", SK: dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"A", "B"}}}, CodeTarget{})
	wantContains(t, between, `'{":pk":{"S":"P"},":lo":{"S":"A"},":hi":{"S":"B"}}'`)
}

// Numbers keep their digits and binary its bytes in every language.
func TestCodeNumbersAndBinary(t *testing.T) {
	q := dynamo.QueryInput{Table: "Scores", PK: "12345678901234567890.5", SK: dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"-1e3"}}}
	wantContains(t, mustCode(t, LangCLI, cgNumbers, q, CodeTarget{}), `'{":pk":{"N":"12345678901234567890.5"},":sk":{"N":"-1e3"}}'`)
	wantContains(t, mustCode(t, LangPython, cgNumbers, q, CodeTarget{}),
		"from decimal import Decimal\n", `Key("player").eq(Decimal("12345678901234567890.5")) & Key("at").gte(Decimal("-1e3"))`)
	wantContains(t, mustCode(t, LangGo, cgNumbers, q, CodeTarget{}),
		`expression.Value(attributevalue.Number("12345678901234567890.5"))`, `GreaterThanEqual(expression.Value(attributevalue.Number("-1e3")))`)

	// AQI= is the bytes 01 02; "Ab\"" is 41 62 22.
	q = dynamo.QueryInput{Table: "Blobs", PK: "AQI=", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"QWIi"}}}
	wantContains(t, mustCode(t, LangCLI, cgBinaries, q, CodeTarget{}), `'{":pk":{"B":"AQI="},":sk":{"B":"QWIi"}}'`)
	wantContains(t, mustCode(t, LangPython, cgBinaries, q, CodeTarget{}),
		"from boto3.dynamodb.types import Binary\n", `Key("id").eq(Binary(b"\x01\x02")) & Key("part").begins_with(Binary(b"Ab\""))`)
	// The expression package's BeginsWith takes a string only, so binary
	// begins_with is written by hand.
	goCode := mustCode(t, LangGo, cgBinaries, q, CodeTarget{})
	wantContains(t, goCode, `KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :sk)")`,
		`ExpressionAttributeNames: map[string]string{"#pk": "id", "#sk": "part"}`,
		`":pk": &types.AttributeValueMemberB{Value: []byte("\x01\x02")}`, `":sk": &types.AttributeValueMemberB{Value: []byte("Ab\"")}`)
	if strings.Contains(goCode, "expression.") {
		t.Errorf("binary begins_with uses the expression package:\n%s", goCode)
	}
}

// Index, consistency, count, the page's start key and the target all reach the code.
func TestCodeOptions(t *testing.T) {
	ks := dynamo.KeySchema{Index: "GSI1", PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}}
	q := dynamo.QueryInput{Table: "App", Index: "GSI1", PK: "WH#1", Consistent: true, CountOnly: true,
		StartKey: dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "CUST#7"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#1"},
			"GSI1PK": &types.AttributeValueMemberS{Value: "WH#1"}, "GSI1SK": &types.AttributeValueMemberS{Value: "OPEN#1"}}}
	to := CodeTarget{Region: "eu-central-1", Profile: "dev's"}
	wantContains(t, mustCode(t, LangCLI, ks, q, to), "--index-name GSI1 \\\n", "--consistent-read \\\n", "--select COUNT \\\n",
		`--exclusive-start-key '{"GSI1PK":{"S":"WH#1"},"GSI1SK":{"S":"OPEN#1"},"PK":{"S":"CUST#7"},"SK":{"S":"ORDER#1"}}'`,
		"--region eu-central-1 \\\n  --profile 'dev'\\''s'\n")
	wantContains(t, mustCode(t, LangPython, ks, q, to), `IndexName="GSI1"`, `ConsistentRead=True`, `Select="COUNT"`,
		`ExclusiveStartKey={"GSI1PK": "WH#1", "GSI1SK": "OPEN#1", "PK": "CUST#7", "SK": "ORDER#1"}`,
		`boto3.Session(profile_name="dev's").resource("dynamodb", region_name="eu-central-1")`, `print(resp["Count"])`)
	wantContains(t, mustCode(t, LangGo, ks, q, to), `IndexName:                 aws.String("GSI1"),`, `ConsistentRead:         aws.Bool(true),`,
		`Select:                    types.SelectCount,`, `"PK":     &types.AttributeValueMemberS{Value: "CUST#7"},`,
		`config.LoadDefaultConfig(ctx, config.WithRegion("eu-central-1"), config.WithSharedConfigProfile("dev's"))`)
}

func TestCodeGetItem(t *testing.T) {
	table := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	g := dynamo.GetInput{Table: "App", PK: "ORDER#A17", SK: "ITEM#1"}
	cli, err := GetItemCode(LangCLI, table, g, CodeTarget{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "aws dynamodb get-item \\\n  --table-name App \\\n  --key '{\"PK\":{\"S\":\"ORDER#A17\"},\"SK\":{\"S\":\"ITEM#1\"}}' \\\n  --return-consumed-capacity INDEXES\n"; cli != want {
		t.Errorf("cli:\n%s\nwant:\n%s", cli, want)
	}
	py, _ := GetItemCode(LangPython, table, g, CodeTarget{})
	wantContains(t, py, `item = table.get_item(Key={"PK": "ORDER#A17", "SK": "ITEM#1"}).get("Item")`)
	goCode, _ := GetItemCode(LangGo, table, g, CodeTarget{})
	wantContains(t, goCode, "out, err := client.GetItem(ctx, &dynamodb.GetItemInput{", `"PK": &types.AttributeValueMemberS{Value: "ORDER#A17"},`)

	noSK := dynamo.Table{Name: "Users", PK: dynamo.KeyAttr{Name: "id", Type: "N"}}
	cli, _ = GetItemCode(LangCLI, noSK, dynamo.GetInput{Table: "Users", PK: "7", Consistent: true}, CodeTarget{})
	wantContains(t, cli, `--key '{"id":{"N":"7"}}'`, "--consistent-read")
	if _, err := GetItemCode(LangCLI, noSK, dynamo.GetInput{Table: "Users", PK: "seven"}, CodeTarget{}); err == nil || !strings.Contains(err.Error(), "is a number (N)") {
		t.Errorf("bad key: %v", err)
	}
	b, err := dynamo.BuildGetItem(table, g)
	if err != nil || b.KeyCondition != `PK = "ORDER#A17" AND SK = "ITEM#1"` || len(b.Input.Key) != 2 {
		t.Errorf("BuildGetItem: %+v %v", b, err)
	}
}

func TestCodeRefuses(t *testing.T) {
	if _, err := QueryCode(LangCLI, cgNumbers, dynamo.QueryInput{Table: "Scores", PK: "P#1"}, CodeTarget{}); err == nil || !strings.Contains(err.Error(), "is a number (N)") {
		t.Errorf("text for a number key: %v", err)
	}
	if _, err := QueryCode("rust", cgPKSK, cgLatest, CodeTarget{}); err == nil || err.Error() != `no code in "rust"; choose cli, python or go.` {
		t.Errorf("unknown language: %v", err)
	}
}

func TestCodeQuoting(t *testing.T) {
	for in, want := range map[string]string{
		"App":          "App",
		"my table":     "'my table'",
		"O'Brien":      `'O'\''Brien'`,
		"$HOME`x`":     "'$HOME`x`'",
		"":             "''",
		"http://h:1/x": "http://h:1/x",
	} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		`a"b\c`:      `"a\"b\\c"`,
		"line\nnext": `"line\nnext"`,
		"Müller":     `"Müller"`,
		"\x00\u2028": `"\x00\u2028"`,
	} {
		if got := pyString(in); got != want {
			t.Errorf("pyString(%q) = %s, want %s", in, got, want)
		}
	}
	q := dynamo.QueryInput{Table: "App", PK: "CUST#O'Brien \"x\""}
	wantContains(t, mustCode(t, LangCLI, cgPKSK, q, CodeTarget{}), `'{":pk":{"S":"CUST#O'\''Brien \"x\""}}'`)
}

// A pattern's filter parameter reaches the code as a value of the
// expression, quoted for each language: a value with quotes and OR in it
// stays one string, as the key values do.
func TestCodeFilterParameterIsOneValue(t *testing.T) {
	tpl, err := filterexpr.ParseTemplate(`total > {min} OR name = "{name}"`)
	if err != nil {
		t.Fatal(err)
	}
	e, err := tpl.Fill(map[string]string{"min": "30", "name": `x" OR size(PK) > 0 OR '`})
	if err != nil {
		t.Fatal(err)
	}
	q := dynamo.QueryInput{Table: "App", PK: "CUST#42", Filter: e.String()}
	wantContains(t, mustCode(t, LangCLI, cgPKSK, q, CodeTarget{}),
		`--filter-expression '(#0 > :0) OR (#1 = :1)'`,
		`--expression-attribute-values '{":pk":{"S":"CUST#42"},":0":{"N":"30"},":1":{"S":"x\" OR size(PK) > 0 OR '\''"}}'`)
	wantContains(t, mustCode(t, LangPython, cgPKSK, q, CodeTarget{}),
		`FilterExpression="(#0 > :0) OR (#1 = :1)"`, `ExpressionAttributeValues={":0": Decimal("30"), ":1": "x\" OR size(PK) > 0 OR '"}`)
	wantContains(t, mustCode(t, LangGo, cgPKSK, q, CodeTarget{}),
		`expression.GreaterThan(expression.Name("total"), expression.Value(attributevalue.Number("30")))`,
		`expression.Equal(expression.Name("name"), expression.Value("x\" OR size(PK) > 0 OR '"))`)
}

// A comment line is # in the shell and Python, // in Go.
func TestComment(t *testing.T) {
	for l, want := range map[CodeLang]string{LangCLI: "# x=1\n", LangPython: "# x=1\n", LangGo: "// x=1\n"} {
		if got := Comment(l, "x=1"); got != want {
			t.Errorf("Comment(%s) = %q, want %q", l, got, want)
		}
	}
}
