package dynamo

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

var (
	strKey = KeySchema{PK: KeyAttr{"PK", "S"}, SK: &KeyAttr{"SK", "S"}}
	numKey = KeySchema{PK: KeyAttr{"id", "N"}, SK: &KeyAttr{"ts", "N"}}
	binKey = KeySchema{PK: KeyAttr{"h", "B"}, SK: &KeyAttr{"r", "B"}}
	pkOnly = KeySchema{PK: KeyAttr{"PK", "S"}}
)

func TestBuildQueryKeyConditionText(t *testing.T) {
	cases := []struct {
		name string
		ks   KeySchema
		q    QueryInput
		want string
	}{
		{"partition only", strKey, QueryInput{PK: "CUST#42"}, `PK = "CUST#42"`},
		{"begins_with", strKey, QueryInput{PK: "CUST#42", SK: SKCond{SKBeginsWith, []string{"ORDER#"}}}, `PK = "CUST#42" AND begins_with(SK, "ORDER#")`},
		{"eq", strKey, QueryInput{PK: "A", SK: SKCond{SKEq, []string{"PROFILE"}}}, `PK = "A" AND SK = "PROFILE"`},
		{"lt", strKey, QueryInput{PK: "A", SK: SKCond{SKLt, []string{"B"}}}, `PK = "A" AND SK < "B"`},
		{"le", strKey, QueryInput{PK: "A", SK: SKCond{SKLe, []string{"B"}}}, `PK = "A" AND SK <= "B"`},
		{"gt", strKey, QueryInput{PK: "A", SK: SKCond{SKGt, []string{"B"}}}, `PK = "A" AND SK > "B"`},
		{"ge", strKey, QueryInput{PK: "A", SK: SKCond{SKGe, []string{"ORDER$"}}}, `PK = "A" AND SK >= "ORDER$"`},
		{"between", strKey, QueryInput{PK: "A", SK: SKCond{SKBetween, []string{"ORDER#2025-01", "ORDER#2025-02"}}}, `PK = "A" AND SK BETWEEN "ORDER#2025-01" AND "ORDER#2025-02"`},
		{"quotes escaped", strKey, QueryInput{PK: `say "hi"`}, `PK = "say \"hi\""`},
		{"numbers bare", numKey, QueryInput{PK: "42", SK: SKCond{SKGt, []string{"1700000000000"}}}, `id = 42 AND ts > 1700000000000`},
		{"binary base64", binKey, QueryInput{PK: "AQID", SK: SKCond{SKBeginsWith, []string{"AQ=="}}}, `h = b"AQID" AND begins_with(r, b"AQ==")`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.q.Table = "App"
			b, err := BuildQuery(c.ks, c.q)
			if err != nil {
				t.Fatal(err)
			}
			if b.KeyCondition != c.want {
				t.Errorf("KeyCondition = %s, want %s", b.KeyCondition, c.want)
			}
			if b.Input.ReturnConsumedCapacity != types.ReturnConsumedCapacityIndexes {
				t.Errorf("ReturnConsumedCapacity = %s, want INDEXES", b.Input.ReturnConsumedCapacity)
			}
			if len(b.Input.ExpressionAttributeValues) == 0 || aws.ToString(b.Input.KeyConditionExpression) == "" {
				t.Errorf("no expression built: %+v", b.Input)
			}
		})
	}
}

func TestBuildQueryKnobs(t *testing.T) {
	b, err := BuildQuery(strKey, QueryInput{Table: "App", Index: "GSI1", PK: "x", Reverse: true, Limit: 1, Consistent: true, CountOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	in := b.Input
	if aws.ToBool(in.ScanIndexForward) || aws.ToInt32(in.Limit) != 1 || !aws.ToBool(in.ConsistentRead) ||
		aws.ToString(in.IndexName) != "GSI1" || in.Select != types.SelectCount {
		t.Errorf("knobs not carried into the input: %+v", in)
	}
	b, _ = BuildQuery(strKey, QueryInput{Table: "App", PK: "x"})
	if !aws.ToBool(b.Input.ScanIndexForward) || b.Input.Limit != nil || b.Input.ConsistentRead != nil || b.Input.IndexName != nil {
		t.Errorf("defaults wrong: %+v", b.Input)
	}
}

// Every bad value is refused with a sentence before any request is built.
func TestBuildQueryRefusesBadValues(t *testing.T) {
	cases := []struct {
		name string
		ks   KeySchema
		q    QueryInput
		want string
	}{
		{"empty string pk", strKey, QueryInput{PK: ""}, "the partition key PK cannot be empty."},
		{"not a number", numKey, QueryInput{PK: "CUST#42"}, `the partition key id is a number (N); "CUST#42" is not a number.`},
		{"too many digits", numKey, QueryInput{PK: "123456789012345678901234567890123456789"}, "has 39 significant digits and DynamoDB keeps at most 38."},
		{"not base64", binKey, QueryInput{PK: "%%%"}, `the partition key h is binary (B); give its value as base64 ("%%%" is not base64).`},
		{"sk on table without sk", pkOnly, QueryInput{Table: "App", PK: "a", SK: SKCond{SKEq, []string{"b"}}}, "table App has no sort key, so a sort-key condition cannot be used."},
		{"between needs two", strKey, QueryInput{PK: "a", SK: SKCond{SKBetween, []string{"b"}}}, "the sort-key condition between takes 2 value(s), not 1."},
		{"begins_with on number", numKey, QueryInput{PK: "1", SK: SKCond{SKBeginsWith, []string{"1"}}}, "begins_with does not apply to the number sort key ts; use <, >, or between."},
		{"bad sort value", numKey, QueryInput{PK: "1", SK: SKCond{SKGt, []string{"abc"}}}, `the sort key ts is a number (N); "abc" is not a number.`},
		{"unknown op", strKey, QueryInput{PK: "a", SK: SKCond{"~", []string{"b"}}}, `unknown sort-key operator "~"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := BuildQuery(c.ks, c.q)
			if err == nil {
				t.Fatal("no error")
			}
			var ue *UserError
			if !errors.As(err, &ue) {
				t.Fatalf("error %T is not a UserError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %q, want it to contain %q", err.Error(), c.want)
			}
		})
	}
}

func TestKeyValueNumbers(t *testing.T) {
	for _, ok := range []string{"0", "-1", "1.5", "1e10", "+5", ".5", "5.", "12345678901234567890123456789012345678", "1.5E-130"} {
		if _, err := KeyValue(KeyAttr{"n", "N"}, "sort key", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "abc", "1e", "--1", "1.2.3", "0x10", "NaN", "Infinity"} {
		if _, err := KeyValue(KeyAttr{"n", "N"}, "sort key", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for ep, want := range map[string]bool{
		"http://127.0.0.1:8000":                    true,
		"http://localhost:8000":                    true,
		"http://[::1]:8000":                        true,
		"http://127.5.5.5":                         true,
		"https://dynamodb.us-east-1.amazonaws.com": false,
		"http://10.0.0.1:8000":                     false,
		"":                                         false,
		"not a url":                                false,
	} {
		if got := IsLoopback(ep); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", ep, got, want)
		}
	}
}

func TestCapacityOfFallsBackToTotal(t *testing.T) {
	tbl := Table{Name: "App", Indexes: []Index{{Name: "GSI1", Kind: GSI}, {Name: "LSI1", Kind: LSI}}}
	only := &types.ConsumedCapacity{CapacityUnits: aws.Float64(0.5)}
	if c := CapacityOf(only, tbl, ""); c.Total != 0.5 || c.Table != 0.5 || len(c.Indexes) != 0 {
		t.Errorf("table query: %+v", c)
	}
	if c := CapacityOf(only, tbl, "GSI1"); c.Total != 0.5 || c.Table != 0 || c.Indexes["GSI1"] != 0.5 {
		t.Errorf("GSI query: %+v", c)
	}
	if c := CapacityOf(only, tbl, "LSI1"); c.Table != 0.5 || len(c.Indexes) != 0 {
		t.Errorf("LSI query consumes the table's capacity: %+v", c)
	}
	parts := &types.ConsumedCapacity{
		CapacityUnits:          aws.Float64(3),
		Table:                  &types.Capacity{CapacityUnits: aws.Float64(1)},
		GlobalSecondaryIndexes: map[string]types.Capacity{"GSI1": {CapacityUnits: aws.Float64(2)}},
	}
	if c := CapacityOf(parts, tbl, "GSI1"); c.Total != 3 || c.Table != 1 || c.Indexes["GSI1"] != 2 {
		t.Errorf("parts reported: %+v", c)
	}
	if c := CapacityOf(nil, tbl, ""); c.Total != 0 {
		t.Errorf("nil: %+v", c)
	}
}

func TestCapacityAdd(t *testing.T) {
	a := Capacity{Total: 1, Table: 1}
	b := Capacity{Total: 2, Indexes: map[string]float64{"GSI1": 2}}
	s := a.Add(b).Add(b)
	if s.Total != 5 || s.Table != 1 || s.Indexes["GSI1"] != 4 {
		t.Errorf("sum = %+v", s)
	}
	if b.Indexes["GSI1"] != 2 {
		t.Error("Add changed its argument")
	}
}

// FuzzKeyValue: typed key parsing never panics, accepts exactly what fits the
// type, and keeps the value exactly.
func FuzzKeyValue(f *testing.F) {
	for _, s := range []string{"42", "-1.5e10", "CUST#42", "", "AQID", "1e126", "NaN", "1e200", "\x1b]52;c;AA==\x07", "12345678901234567890123456789012345678"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// Key input and item decoding read numbers by one grammar: what one
		// accepts, the other does (the grammar itself is fuzzed against
		// math/big in dynamo/number).
		n := strings.TrimSpace(text)
		_, keyErr := KeyValue(KeyAttr{Name: "k", Type: "N"}, "sort key", text)
		raw, _ := json.Marshal(map[string]map[string]string{"k": {"N": n}})
		_, itemErr := itemcodec.ParseDynamoJSON(raw)
		if (keyErr == nil) != (itemErr == nil) {
			t.Fatalf("N %q: key input says %v, item decoding says %v", n, keyErr, itemErr)
		}
		for _, typ := range []string{"S", "N", "B"} {
			av, err := KeyValue(KeyAttr{Name: "k", Type: typ}, "sort key", text)
			if err != nil {
				var ue *UserError
				if !errors.As(err, &ue) || strings.Contains(ue.Msg, "\n") {
					t.Fatalf("%s %q: error is not one sentence: %v", typ, text, err)
				}
				continue
			}
			switch v := av.(type) {
			case *types.AttributeValueMemberS:
				if typ != "S" || v.Value != text || text == "" {
					t.Fatalf("S %q became %q", text, v.Value)
				}
			case *types.AttributeValueMemberN:
				if typ != "N" || v.Value != strings.TrimSpace(text) {
					t.Fatalf("N %q became %q", text, v.Value)
				}
			case *types.AttributeValueMemberB:
				if typ != "B" || len(v.Value) == 0 || itemcodec.KeyString(v) != strings.TrimSpace(text) && itemcodec.KeyString(v) != text {
					// base64 may be given unpadded-equivalent only if it decodes; re-encoding must decode to the same bytes
					if b, err := KeyValue(KeyAttr{Name: "k", Type: "B"}, "sort key", itemcodec.KeyString(v)); err != nil || string(b.(*types.AttributeValueMemberB).Value) != string(v.Value) {
						t.Fatalf("B %q did not round-trip", text)
					}
				}
			default:
				t.Fatalf("%s %q: unexpected %T", typ, text, av)
			}
		}
	})
}
