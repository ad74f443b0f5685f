package dynamo

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/number"
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
	root, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: more data after the item")
	}
	if root.kind != kindObject {
		return nil, fmt.Errorf("an item must be a JSON object, got %s", root.kind)
	}
	if isItemWrapper(root) {
		root = root.elems[0]
	}
	return parseAttributes(root, "")
}

func isItemWrapper(n jnode) bool {
	if len(n.keys) != 1 || n.keys[0] != "Item" || n.elems[0].kind != kindObject {
		return false
	}
	in := n.elems[0]
	return len(in.keys) != 1 || !isTypeKey(in.keys[0])
}

func isTypeKey(k string) bool {
	switch k {
	case "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS":
		return true
	}
	return false
}

// jnode is a JSON value read token by token, so that number text survives
// untouched and a repeated key is noticed (encoding/json keeps the last one
// silently).
type jnode struct {
	kind  jkind
	text  string // string value, or number text
	b     bool
	keys  []string // object keys, in order
	elems []jnode  // array elements, or object values matching keys
	dup   string   // the first key repeated in this object, if any
}

type jkind int

const (
	kindNull jkind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k jkind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

func readNode(dec *json.Decoder) (jnode, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		return jnode{}, io.ErrUnexpectedEOF
	}
	if err != nil {
		return jnode{}, err
	}
	switch v := tok.(type) {
	case nil:
		return jnode{kind: kindNull}, nil
	case bool:
		return jnode{kind: kindBool, b: v}, nil
	case json.Number:
		return jnode{kind: kindNumber, text: string(v)}, nil
	case string:
		return jnode{kind: kindString, text: v}, nil
	case json.Delim:
		if v == '[' {
			n := jnode{kind: kindArray}
			for dec.More() {
				e, err := readNode(dec)
				if err != nil {
					return jnode{}, err
				}
				n.elems = append(n.elems, e)
			}
			_, err := dec.Token() // ]
			return n, err
		}
		n := jnode{kind: kindObject}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return jnode{}, err
			}
			k := kt.(string) // the decoder only yields strings as object keys
			if seen[k] && n.dup == "" {
				n.dup = k
			}
			seen[k] = true
			e, err := readNode(dec)
			if err != nil {
				return jnode{}, err
			}
			n.keys = append(n.keys, k)
			n.elems = append(n.elems, e)
		}
		_, err := dec.Token() // }
		return n, err
	}
	return jnode{}, fmt.Errorf("unexpected token %v", tok)
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

// parseAttributes reads an object of attribute name -> typed value: the item
// itself, or the payload of an M.
func parseAttributes(n jnode, prefix string) (map[string]types.AttributeValue, error) {
	return attributesOf(n, prefix, parseValue)
}

// attributesOf reads an object's members with value, the one reader of
// attribute maps for typed (parseValue) and plain (plainValue) JSON.
func attributesOf(n jnode, prefix string, value func(jnode, string) (types.AttributeValue, error)) (map[string]types.AttributeValue, error) {
	if n.dup != "" {
		return nil, attrError(joinPath(prefix, n.dup), "appears twice")
	}
	m := make(map[string]types.AttributeValue, len(n.keys))
	for i, k := range n.keys {
		av, err := value(n.elems[i], joinPath(prefix, k))
		if err != nil {
			return nil, err
		}
		m[k] = av
	}
	return m, nil
}

func parseValue(n jnode, path string) (types.AttributeValue, error) {
	if n.kind != kindObject {
		return nil, attrError(path, `want a typed value such as {"S": "text"}, got %s`, n.kind)
	}
	if n.dup != "" {
		return nil, attrError(path, "type %s appears twice", n.dup)
	}
	switch len(n.keys) {
	case 0:
		return nil, attrError(path, `no type key; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS`)
	case 1:
	default:
		return nil, attrError(path, "more than one type key (%s); want exactly one", strings.Join(n.keys, ", "))
	}
	typ, v := n.keys[0], n.elems[0]
	switch typ {
	case "S":
		if v.kind != kindString {
			return nil, attrError(path, "S wants a string, got %s", v.kind)
		}
		return &types.AttributeValueMemberS{Value: v.text}, nil
	case "N":
		if v.kind != kindString {
			return nil, attrError(path, `N wants the number as a string ("42"), got %s`, v.kind)
		}
		if err := checkNumber(v.text); err != nil {
			return nil, attrError(path, "N %q: %v", v.text, err)
		}
		return &types.AttributeValueMemberN{Value: v.text}, nil
	case "B":
		if v.kind != kindString {
			return nil, attrError(path, "B wants a base64 string, got %s", v.kind)
		}
		b, err := base64.StdEncoding.DecodeString(v.text)
		if err != nil {
			return nil, attrError(path, "B is not valid base64: %v", err)
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case "BOOL":
		if v.kind != kindBool {
			return nil, attrError(path, "BOOL wants true or false, got %s", v.kind)
		}
		return &types.AttributeValueMemberBOOL{Value: v.b}, nil
	case "NULL":
		if v.kind != kindBool || !v.b {
			return nil, attrError(path, "NULL must be true")
		}
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case "SS", "NS", "BS":
		return parseSet(typ, v, path)
	case "L":
		if v.kind != kindArray {
			return nil, attrError(path, "L wants an array, got %s", v.kind)
		}
		l := make([]types.AttributeValue, len(v.elems))
		for i, e := range v.elems {
			av, err := parseValue(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case "M":
		if v.kind != kindObject {
			return nil, attrError(path, "M wants an object, got %s", v.kind)
		}
		m, err := parseAttributes(v, path)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, attrError(path, "unknown type %q; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS", typ)
}

// parseSet reads SS, NS or BS. DynamoDB refuses empty sets and duplicate
// members (numbers compare by value, so "1" and "1.0" are duplicates).
func parseSet(typ string, v jnode, path string) (types.AttributeValue, error) {
	if v.kind != kindArray {
		return nil, attrError(path, "%s wants an array of strings, got %s", typ, v.kind)
	}
	if len(v.elems) == 0 {
		return nil, attrError(path, "%s cannot be empty", typ)
	}
	seen := make(map[string]int, len(v.elems))
	var ss []string
	var bs [][]byte
	for i, e := range v.elems {
		if e.kind != kindString {
			return nil, attrError(path, "%s member %d wants a string, got %s", typ, i, e.kind)
		}
		key := e.text
		switch typ {
		case "SS":
			ss = append(ss, e.text)
		case "NS":
			d, err := number.Parse(e.text)
			if err != nil {
				return nil, attrError(path, "NS member %d %q: %v", i, e.text, err)
			}
			key = d.Key()
			ss = append(ss, e.text)
		case "BS":
			b, err := base64.StdEncoding.DecodeString(e.text)
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
