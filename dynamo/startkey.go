package dynamo

// Start keys given back by a user: the lastEvaluatedKey a query printed,
// or one segment's key of a Scan's resume, read as plain JSON or DynamoDB
// JSON (told apart by shape) and typed by the key schema DescribeTable
// gave, so that every problem is one sentence before any request.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// StartKeyAttr is one attribute a start key must have: an index's key
// attributes and the table's, which DynamoDB's LastEvaluatedKey of an index
// holds both.
type StartKeyAttr struct {
	KeyAttr
	Role string // "the partition key PK of table App"
}

// StartKeyAttrs lists the attributes of a start key of the table or index.
func StartKeyAttrs(t Table, index string) ([]StartKeyAttr, error) {
	ks, err := t.Schema(index)
	if err != nil {
		return nil, err
	}
	var out []StartKeyAttr
	add := func(k *KeyAttr, role, of string) {
		if k == nil || slices.ContainsFunc(out, func(a StartKeyAttr) bool { return a.Name == k.Name }) {
			return
		}
		out = append(out, StartKeyAttr{KeyAttr: *k, Role: role + " " + k.Name + " of " + of})
	}
	if index != "" {
		add(&ks.PK, "the partition key", "index "+index)
		add(ks.SK, "the sort key", "index "+index)
	}
	add(&t.PK, "the partition key", "table "+t.Name)
	add(t.SK, "the sort key", "table "+t.Name)
	return out, nil
}

// ParseStartKeyNode reads text as one JSON value, or says why it is not
// JSON (what is "--start-key").
func ParseStartKeyNode(what, text string) (itemcodec.JSONNode, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	n, err := itemcodec.ReadJSONNode(dec)
	if err == nil {
		if _, end := dec.Token(); end != io.EOF {
			err = fmt.Errorf("more text after the first value")
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("it ends too soon")
	}
	if err != nil {
		return n, &UserError{Msg: fmt.Sprintf("%s is not JSON (%v); pass the key as dynascope printed it, such as '{\"PK\": \"CUST#42\", \"SK\": \"ORDER#1\"}'.", what, err)}
	}
	return n, nil
}

// StartKeyJSON reads a start key given as text.
func StartKeyJSON(t Table, index, what, text string) (Item, error) {
	n, err := ParseStartKeyNode(what, text)
	if err != nil {
		return nil, err
	}
	return StartKey(t, index, what, n)
}

// StartKey types a start key read as JSON by the key schema of the table or
// index. Plain JSON ({"PK": "CUST#42"}) and DynamoDB JSON ({"PK": {"S":
// "CUST#42"}}) are both taken: the key is DynamoDB JSON when every value is
// an object of one type key. It must hold every key attribute, each of its
// declared type, and nothing else.
func StartKey(t Table, index, what string, n itemcodec.JSONNode) (Item, error) {
	if n.Kind != itemcodec.JSONObject {
		return nil, &UserError{Msg: fmt.Sprintf("%s must be a JSON object of key attributes, such as '{\"PK\": \"CUST#42\", \"SK\": \"ORDER#1\"}', not %s.", what, n.Kind)}
	}
	if n.Dup != "" {
		return nil, &UserError{Msg: fmt.Sprintf("%s names %s twice.", what, n.Dup)}
	}
	attrs, err := StartKeyAttrs(t, index)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(attrs))
	for i, a := range attrs {
		names[i] = a.Name
	}
	typed := len(n.Keys) > 0
	for _, e := range n.Elems {
		if e.Kind != itemcodec.JSONObject || len(e.Keys) != 1 || !itemcodec.IsTypeKey(e.Keys[0]) {
			typed = false
		}
	}
	for _, k := range n.Keys {
		if !slices.Contains(names, k) {
			return nil, &UserError{Msg: fmt.Sprintf("%s has %s, which is not a key attribute of %s; a start key holds only %s.",
				what, quote(k), tableAndIndex(t.Name, index), strings.Join(names, ", "))}
		}
	}
	key := Item{}
	for _, a := range attrs {
		i := slices.Index(n.Keys, a.Name)
		if i < 0 {
			return nil, &UserError{Msg: fmt.Sprintf("%s lacks %s; a start key names every key attribute: %s.", what, a.Role, strings.Join(names, ", "))}
		}
		v := n.Elems[i]
		if typed {
			typ, val := n.Elems[i].Keys[0], n.Elems[i].Elems[0]
			if typ != a.Type {
				return nil, &UserError{Msg: fmt.Sprintf("%s gives %s as %s, but it is %s.", what, a.Role, typeWords(typ), typeWords(a.Type))}
			}
			if val.Kind != itemcodec.JSONString {
				return nil, &UserError{Msg: fmt.Sprintf("%s gives %s as {%q: %s}; DynamoDB JSON writes its value as a string, such as {%q: %q}.", what, a.Role, typ, val.Kind, typ, map[string]string{"S": "text", "N": "5", "B": "AAE="}[typ])}
			}
			v = val
		} else {
			got := map[itemcodec.JSONKind]string{itemcodec.JSONString: "S", itemcodec.JSONNumber: "N"}[v.Kind]
			want := a.Type
			if want == "B" {
				want = "S" // plain JSON writes binary as base64 text
			}
			if got != want {
				return nil, &UserError{Msg: fmt.Sprintf("%s gives %s as %s, but it is %s.", what, a.Role, v.Kind, typeWords(a.Type))}
			}
		}
		av, err := startValue(a, what, v.Text)
		if err != nil {
			return nil, err
		}
		key[a.Name] = av
	}
	return key, nil
}

// startValue is one attribute's value of its declared type.
func startValue(a StartKeyAttr, what, text string) (types.AttributeValue, error) {
	if a.Type == "B" {
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil || len(b) == 0 {
			return nil, &UserError{Msg: fmt.Sprintf("%s gives %s as %q, which is not base64 of a binary value.", what, a.Role, text)}
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	}
	av, err := KeyValue(a.KeyAttr, "key attribute", text)
	if err != nil {
		return nil, &UserError{Msg: fmt.Sprintf("%s gives %s as %q: %s", what, a.Role, text, strings.TrimPrefix(err.Error(), "the "))}
	}
	return av, nil
}

func typeWords(t string) string {
	switch t {
	case "S":
		return "a string (S)"
	case "N":
		return "a number (N)"
	case "B":
		return "binary (B)"
	}
	return "type " + t
}

// CheckStartPartition says when a query's start key is in another
// partition than the one the query names: DynamoDB refuses it with "The
// provided starting key does not match the range key predicate", which
// names neither the partition nor the flag.
func CheckStartPartition(ks KeySchema, pk string, key Item) error {
	return checkStartPartition(ks, pk, key, "--start-key")
}

func checkStartPartition(ks KeySchema, pk string, key Item, flag string) error {
	want, err := KeyValue(ks.PK, "partition key", pk)
	if err != nil {
		return err
	}
	got := key[ks.PK.Name]
	if got == nil || sameKeyValue(got, want) {
		return nil
	}
	return &UserError{Msg: fmt.Sprintf("%s is in the partition %s = %s, not in %s, the one --pk names: a start key goes on from the lastEvaluatedKey of the same query, so pass that query's --pk (or drop %s).",
		flag, ks.PK.Name, KeyText(got), KeyText(want), flag)}
}

// CheckStartInQuery says when a query's start key lies outside the query:
// in another partition than --pk's, or with a sort key that the query's
// sort-key condition does not hold (DynamoDB would refuse it: "The
// provided starting key does not match the range key predicate"). flag
// names the start key in the sentence.
func CheckStartInQuery(ks KeySchema, q QueryInput, key Item, flag string) error {
	if err := checkStartPartition(ks, q.PK, key, flag); err != nil {
		return err
	}
	if q.SK.Op == SKNone || ks.SK == nil {
		return nil
	}
	vals, err := skValues(ks, q)
	if err != nil {
		return err
	}
	got := key[ks.SK.Name]
	if got == nil {
		return nil // StartKey made sure it has every key attribute
	}
	if !skMatches(q.SK.Op, got, vals) {
		kc, _ := buildKeyCond(ks, q, key[ks.PK.Name])
		return &UserError{Msg: fmt.Sprintf("%s has the sort key %s = %s, outside this query's condition %s: pass the token of the same query, with the same sort-key condition.",
			flag, ks.SK.Name, KeyText(got), kc.text)}
	}
	return nil
}

func sameKeyValue(a, b types.AttributeValue) bool {
	c, ok := compareKey(a, b)
	return ok && c == 0
}
