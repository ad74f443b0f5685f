package dynamo_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// A start key is read by the key schema: plain JSON or DynamoDB JSON (by
// shape), numbers with their digits as written, binary from base64, an
// index's key with the table's; anything else is one sentence.
func TestStartKey(t *testing.T) {
	tab := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "n", Type: "N"},
		Indexes: []dynamo.Index{{Name: "ByB", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "b", Type: "B"}}}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	for _, tc := range []struct {
		index, text string
		want        dynamo.Item
		err         string
	}{
		{"", `{"PK": "CUST#42", "n": 12345678901234567890123456789012345678}`, dynamo.Item{"PK": s("CUST#42"), "n": n("12345678901234567890123456789012345678")}, ""},
		{"", `{"PK": {"S": "CUST#42"}, "n": {"N": "1.50"}}`, dynamo.Item{"PK": s("CUST#42"), "n": n("1.50")}, ""},
		{"ByB", `{"b": "AAE=", "PK": "x", "n": -3}`, dynamo.Item{"b": &types.AttributeValueMemberB{Value: []byte{0, 1}}, "PK": s("x"), "n": n("-3")}, ""},
		{"ByB", `{"b": {"B": "AAE="}, "PK": {"S": "x"}, "n": {"N": "0"}}`, dynamo.Item{"b": &types.AttributeValueMemberB{Value: []byte{0, 1}}, "PK": s("x"), "n": n("0")}, ""},
		{"", `{"PK": "x", "n": "5"}`, nil, `--start-key gives the sort key n of table App as a string, but it is a number (N).`},
		{"", `{"PK": {"S": "x"}, "n": {"S": "5"}}`, nil, `--start-key gives the sort key n of table App as a string (S), but it is a number (N).`},
		{"", `{"PK": {"S": "x"}, "n": {"N": 5}}`, nil, `--start-key gives the sort key n of table App as {"N": a number}; DynamoDB JSON writes its value as a string, such as {"N": "5"}.`},
		{"", `{"PK": "x", "n": 1e999}`, nil, `--start-key gives the sort key n of table App as "1e999": key attribute n is a number (N); "1e999" is outside DynamoDB's range`},
		{"", `{"PK": "x"}`, nil, `--start-key lacks the sort key n of table App; a start key names every key attribute: PK, n.`},
		{"", `{"PK": "x", "n": 1, "PK": "y"}`, nil, `--start-key names PK twice.`},
		{"", `{"PK": "x", "n": 1, "z": 2}`, nil, `--start-key has "z", which is not a key attribute of App; a start key holds only PK, n.`},
		{"ByB", `{"b": "not base64!", "PK": "x", "n": 1}`, nil, `--start-key gives the partition key b of index ByB as "not base64!", which is not base64 of a binary value.`},
		{"ByB", `{"PK": "x", "n": 1}`, nil, `--start-key lacks the partition key b of index ByB; a start key names every key attribute: b, PK, n.`},
		{"", `null`, nil, `--start-key must be a JSON object of key attributes`},
		{"Nope", `{}`, nil, `Nope`},
	} {
		got, err := dynamo.StartKeyJSON(tab, tc.index, "--start-key", tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, %v", tc.text, got, err)
		}
	}
	// A number partition key is the same partition however it is written.
	ks := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "id", Type: "N"}}
	if err := dynamo.CheckStartPartition(ks, "1.0", dynamo.Item{"id": n("1")}); err != nil {
		t.Errorf("1 and 1.0: %v", err)
	}
	if err := dynamo.CheckStartPartition(ks, "2", dynamo.Item{"id": n("1")}); err == nil || !strings.Contains(err.Error(), "--start-key is in the partition id = 1, not in 2, the one --pk names") {
		t.Errorf("1 and 2: %v", err)
	}
}
