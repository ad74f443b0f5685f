package dynamo_test

import (
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// botocoreTokens has botocore's own TokenEncoder write the token of each
// position (the key's names in the order given, binary as bytes).
func botocoreTokens(t *testing.T, positions []map[string]any) []string {
	t.Helper()
	const script = `
import base64, json, sys
from botocore.paginate import TokenEncoder
out = []
for p in json.load(sys.stdin):
    key = p["key"]
    if key is not None:
        key = {n: ({"B": base64.b64decode(v["B"])} if "B" in v else v) for n, v in key}
    tok = {"ExclusiveStartKey": key}
    if p["skip"]:
        tok["boto_truncate_amount"] = p["skip"]
    out.append(TokenEncoder().encode(tok))
json.dump(out, sys.stdout)
`
	var py string
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import botocore.paginate").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		dynamotest.Need(t, "python3 with botocore", "python3-botocore")
		return nil
	}
	in, _ := json.Marshal(positions)
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("botocore: %v", err)
	}
	var toks []string
	if err := json.Unmarshal(out, &toks); err != nil {
		t.Fatal(err)
	}
	return toks
}

// A position's NextToken is the one botocore's TokenEncoder writes, byte
// for byte (json.dumps's separators and \u escapes, binary values in
// boto_encoded_keys, the truncate amount), and reads back to the position.
func TestTokenIsBotocores(t *testing.T) {
	tab := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "B"},
		Indexes: []dynamo.Index{{Name: "ByN", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "G", Type: "S"}, SK: &dynamo.KeyAttr{Name: "N", Type: "N"}}}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	b := func(v ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} }
	cases := []struct {
		index string
		pos   dynamo.Position
	}{
		{"", dynamo.Position{Key: dynamo.Item{"PK": s("CUST#42"), "SK": b(1, 0, 255)}}},
		{"", dynamo.Position{Key: dynamo.Item{"PK": s("é \"q\" \\ \n\t\x01 \x7f 日本 👨‍👩‍👧 🇫🇷"), "SK": b(0)}, Skip: 3}},
		{"", dynamo.Position{Skip: 7}},
		{"ByN", dynamo.Position{Key: dynamo.Item{"G": s("g"), "N": &types.AttributeValueMemberN{Value: "-12.50"}, "PK": s("p"), "SK": b(9, 9)}, Skip: 1}},
	}
	var positions []map[string]any
	for _, c := range cases {
		p := map[string]any{"skip": c.pos.Skip, "key": nil}
		if c.pos.Key != nil {
			var key [][]any
			for _, n := range []string{"G", "N", "PK", "SK"} { // sorted, as Token writes them
				switch v := c.pos.Key[n].(type) {
				case *types.AttributeValueMemberS:
					key = append(key, []any{n, map[string]string{"S": v.Value}})
				case *types.AttributeValueMemberN:
					key = append(key, []any{n, map[string]string{"N": v.Value}})
				case *types.AttributeValueMemberB:
					key = append(key, []any{n, map[string]string{"B": base64.StdEncoding.EncodeToString(v.Value)}})
				}
			}
			p["key"] = key
		}
		positions = append(positions, p)
	}
	want := botocoreTokens(t, positions)
	for i, c := range cases {
		got := c.pos.Token()
		if got != want[i] {
			g, _ := base64.StdEncoding.DecodeString(got)
			w, _ := base64.StdEncoding.DecodeString(want[i])
			t.Errorf("case %d: token\n%s\nbotocore's\n%s", i, g, w)
		}
		back, err := dynamo.TokenPosition(tab, c.index, "--starting-token", want[i])
		if err != nil || !reflect.DeepEqual(back, c.pos) {
			t.Errorf("case %d: botocore's token reads as %+v, %v; want %+v", i, back, err, c.pos)
		}
	}
}

// A token that is not one is one sentence naming what it is instead.
func TestBadTokens(t *testing.T) {
	tab := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "B"}}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, c := range []struct{ token, want string }{
		{"", "it is not base64 text"},
		{"a b c", "it is not base64 text"},
		{b64("[1]"), "does not hold a JSON object"},
		{b64(`{"ExclusiveStartKey": null} {}`), "more than one JSON value"},
		{b64(`{"boto_truncate_amount": 3}`), "it holds no ExclusiveStartKey"},
		{b64(`{"ExclusiveStartKey": null, "boto_truncate_amount": -1}`), "its boto_truncate_amount is -1"},
		{b64(`{"ExclusiveStartKey": {"PK": "x"}}`), "not a key in DynamoDB JSON"},
		{b64(`{"ExclusiveStartKey": {"PK": {"S": "x"}, "SK": {"B": "AA=="}}, "boto_encoded_keys": [["Other", "SK", "B"]]}`), "not a binary key value"},
		{b64(`{"ExclusiveStartKey": {"PK": {"S": "x"}, "SK": {"S": "y"}}}`), "gives the sort key SK of table App as a string (S), but it is binary (B)"},
		{b64(`{"ExclusiveStartKey": {"PK": {"S": "x"}}}`), "lacks the sort key SK"},
	} {
		_, err := dynamo.TokenPosition(tab, "", "--starting-token", c.token)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("token %q: %v, want %q", c.token, err, c.want)
		}
	}
}
