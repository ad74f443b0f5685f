package itemcodec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// ParseDynamoJSON reads one item in DynamoDB JSON.
//
// It takes the item object itself ({"PK": {"S": "..."}}) or the {"Item":
// {...}} wrapper that `aws dynamodb get-item` prints and DynamoDB's S3 export
// writes on each line. The wrapper is recognised when "Item" is the only key
// and its value is not itself a typed value such as {"S": "..."}; an item
// whose only attribute is named Item therefore still parses as that item.
//
// It is strict because a file that seeds a table should fail here, naming
// the attribute, rather than halfway through a batch write: each value has
// exactly one type key, numbers must be numbers DynamoDB can store (their
// text is kept as written), binary must be standard base64, sets must be
// non-empty without duplicates, NULL must be true, and no key may repeat.
func ParseDynamoJSON(b []byte) (Item, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	root, err := ReadJSONNode(dec)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: more data after the item")
	}
	if root.Kind != JSONObject {
		return nil, fmt.Errorf("an item must be a JSON object, got %s", root.Kind)
	}
	if isItemWrapper(root) {
		root = root.Elems[0]
	}
	return ParseAttributes(root, "")
}

func isItemWrapper(n JSONNode) bool {
	if len(n.Keys) != 1 || n.Keys[0] != "Item" || n.Elems[0].Kind != JSONObject {
		return false
	}
	in := n.Elems[0]
	return len(in.Keys) != 1 || !IsTypeKey(in.Keys[0])
}

func IsTypeKey(k string) bool {
	switch k {
	case "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS":
		return true
	}
	return false
}

// JSONNode is a JSON value read token by token, so that number text survives
// untouched and a repeated key is noticed (encoding/json keeps the last one
// silently).
type JSONNode struct {
	Kind  JSONKind
	Text  string // string value, or number text
	Bool  bool
	Keys  []string   // object keys, in order
	Elems []JSONNode // array elements, or object values matching keys
	Dup   string     // the first key repeated in this object, if any
}

type JSONKind int

const (
	JSONNull JSONKind = iota
	JSONBool
	JSONNumber
	JSONString
	JSONArray
	JSONObject
)

func (k JSONKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

func ReadJSONNode(dec *json.Decoder) (JSONNode, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		return JSONNode{}, io.ErrUnexpectedEOF
	}
	if err != nil {
		return JSONNode{}, err
	}
	switch v := tok.(type) {
	case nil:
		return JSONNode{Kind: JSONNull}, nil
	case bool:
		return JSONNode{Kind: JSONBool, Bool: v}, nil
	case json.Number:
		return JSONNode{Kind: JSONNumber, Text: string(v)}, nil
	case string:
		return JSONNode{Kind: JSONString, Text: v}, nil
	case json.Delim:
		if v == '[' {
			n := JSONNode{Kind: JSONArray}
			for dec.More() {
				e, err := ReadJSONNode(dec)
				if err != nil {
					return JSONNode{}, err
				}
				n.Elems = append(n.Elems, e)
			}
			_, err := dec.Token() // ]
			return n, err
		}
		n := JSONNode{Kind: JSONObject}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return JSONNode{}, err
			}
			k := kt.(string) // the decoder only yields strings as object keys
			if seen[k] && n.Dup == "" {
				n.Dup = k
			}
			seen[k] = true
			e, err := ReadJSONNode(dec)
			if err != nil {
				return JSONNode{}, err
			}
			n.Keys = append(n.Keys, k)
			n.Elems = append(n.Elems, e)
		}
		_, err := dec.Token() // }
		return n, err
	}
	return JSONNode{}, fmt.Errorf("unexpected token %v", tok)
}

// attrError names the attribute a problem sits in, as a dotted path with
// list indexes: attribute "address.lines[1]": ...
func attrError(path, format string, args ...any) error {
	return fmt.Errorf("attribute %q: %s", path, fmt.Sprintf(format, args...))
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// ParseAttributes reads an object of attribute name -> typed value: the item
// itself, or the payload of an M.
func ParseAttributes(n JSONNode, prefix string) (map[string]types.AttributeValue, error) {
	return attributesOf(n, prefix, parseValue)
}

// attributesOf reads an object's members with value, the one reader of
// attribute maps for typed (parseValue) and plain (plainValue) JSON.
func attributesOf(n JSONNode, prefix string, value func(JSONNode, string) (types.AttributeValue, error)) (map[string]types.AttributeValue, error) {
	if n.Dup != "" {
		return nil, attrError(joinPath(prefix, n.Dup), "appears twice")
	}
	m := make(map[string]types.AttributeValue, len(n.Keys))
	for i, k := range n.Keys {
		av, err := value(n.Elems[i], joinPath(prefix, k))
		if err != nil {
			return nil, err
		}
		m[k] = av
	}
	return m, nil
}

func parseValue(n JSONNode, path string) (types.AttributeValue, error) {
	if n.Kind != JSONObject {
		return nil, attrError(path, `want a typed value such as {"S": "text"}, got %s`, n.Kind)
	}
	if n.Dup != "" {
		return nil, attrError(path, "type %s appears twice", n.Dup)
	}
	switch len(n.Keys) {
	case 0:
		return nil, attrError(path, `no type key; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS`)
	case 1:
	default:
		return nil, attrError(path, "more than one type key (%s); want exactly one", strings.Join(n.Keys, ", "))
	}
	typ, v := n.Keys[0], n.Elems[0]
	switch typ {
	case "S":
		if v.Kind != JSONString {
			return nil, attrError(path, "S wants a string, got %s", v.Kind)
		}
		return &types.AttributeValueMemberS{Value: v.Text}, nil
	case "N":
		if v.Kind != JSONString {
			return nil, attrError(path, `N wants the number as a string ("42"), got %s`, v.Kind)
		}
		if err := checkNumber(v.Text); err != nil {
			return nil, attrError(path, "N %q: %v", v.Text, err)
		}
		return &types.AttributeValueMemberN{Value: v.Text}, nil
	case "B":
		if v.Kind != JSONString {
			return nil, attrError(path, "B wants a base64 string, got %s", v.Kind)
		}
		b, err := base64.StdEncoding.DecodeString(v.Text)
		if err != nil {
			return nil, attrError(path, "B is not valid base64: %v", err)
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case "BOOL":
		if v.Kind != JSONBool {
			return nil, attrError(path, "BOOL wants true or false, got %s", v.Kind)
		}
		return &types.AttributeValueMemberBOOL{Value: v.Bool}, nil
	case "NULL":
		if v.Kind != JSONBool || !v.Bool {
			return nil, attrError(path, "NULL must be true")
		}
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case "SS", "NS", "BS":
		return parseSet(typ, v, path)
	case "L":
		if v.Kind != JSONArray {
			return nil, attrError(path, "L wants an array, got %s", v.Kind)
		}
		l := make([]types.AttributeValue, len(v.Elems))
		for i, e := range v.Elems {
			av, err := parseValue(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case "M":
		if v.Kind != JSONObject {
			return nil, attrError(path, "M wants an object, got %s", v.Kind)
		}
		m, err := ParseAttributes(v, path)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, attrError(path, "unknown type %q; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS", typ)
}

// parseSet reads SS, NS or BS. DynamoDB refuses empty sets and duplicate
// members (numbers compare by value, so "1" and "1.0" are duplicates).
func parseSet(typ string, v JSONNode, path string) (types.AttributeValue, error) {
	if v.Kind != JSONArray {
		return nil, attrError(path, "%s wants an array of strings, got %s", typ, v.Kind)
	}
	if len(v.Elems) == 0 {
		return nil, attrError(path, "%s cannot be empty", typ)
	}
	seen := make(map[string]int, len(v.Elems))
	var ss []string
	var bs [][]byte
	for i, e := range v.Elems {
		if e.Kind != JSONString {
			return nil, attrError(path, "%s member %d wants a string, got %s", typ, i, e.Kind)
		}
		key := e.Text
		switch typ {
		case "SS":
			ss = append(ss, e.Text)
		case "NS":
			d, err := number.Parse(e.Text)
			if err != nil {
				return nil, attrError(path, "NS member %d %q: %v", i, e.Text, err)
			}
			key = d.Key()
			ss = append(ss, e.Text)
		case "BS":
			b, err := base64.StdEncoding.DecodeString(e.Text)
			if err != nil {
				return nil, attrError(path, "BS member %d is not valid base64: %v", i, err)
			}
			key = string(b)
			bs = append(bs, b)
		}
		if j, ok := seen[key]; ok {
			return nil, attrError(path, "%s members %d and %d are the same", typ, j, i)
		}
		seen[key] = i
	}
	switch typ {
	case "SS":
		return &types.AttributeValueMemberSS{Value: ss}, nil
	case "NS":
		return &types.AttributeValueMemberNS{Value: ss}, nil
	}
	return &types.AttributeValueMemberBS{Value: bs}, nil
}

// checkNumber accepts exactly the number text DynamoDB can store.
func checkNumber(s string) error {
	_, err := number.Parse(s)
	return err
}
