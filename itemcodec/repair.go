package itemcodec

// Repairing DynamoDB JSON that published models get wrong in two ways
// (AWS's own NoSQL Workbench examples among them):
//
//   - a doubled type: {"M": {"M": {"HP": {"N": "50"}}}}, the map written
//     inside a second M (read plainly, "HP" is an unknown type);
//   - plain JSON inside an M or an L: {"M": {"is_enabled": true}}, the
//     members written untyped, as a document.
//
// A value is repaired only when it does not read as DynamoDB JSON: what
// reads stays exactly as written, so {"M": {"M": {"S": "x"}}} (a map with
// one attribute named M) is never "unwrapped". Every repair is listed, so
// that a caller can show them before anything is written.

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Repair is one value read other than as written.
type Repair struct {
	// Path is the attribute, a dotted path with list indexes
	// (cameras.front_camera_center, tags[0]).
	Path string
	// What says what was done: `a doubled {"M": {"M": …}} unwrapped`,
	// `plain JSON true read as BOOL`.
	What string
}

// String is the repair as a user reads it: "cameras: plain JSON true read
// as BOOL".
func (r Repair) String() string { return r.Path + ": " + r.What }

// RepairAttributes reads an object of attribute name -> typed value as
// ParseAttributes does, repairing the values that do not read (a doubled
// type, plain JSON inside an M or an L) and listing each repair, in the
// order of the attributes as written. Its error names the first value that
// no repair reads, in ParseAttributes's words.
func RepairAttributes(n JSONNode, prefix string) (map[string]types.AttributeValue, []Repair, error) {
	var repairs []Repair
	m, err := attributesOf(n, prefix, func(v JSONNode, path string) (types.AttributeValue, error) {
		return repairValue(v, path, false, &repairs)
	})
	if err != nil {
		return nil, nil, err
	}
	return m, repairs, nil
}

// repairValue reads one value: as written when it reads, else repaired.
// inside says the value is a member of an M or an L, where plain JSON is
// read as a document value.
func repairValue(n JSONNode, path string, inside bool, repairs *[]Repair) (types.AttributeValue, error) {
	av, err := parseValue(n, path)
	if err == nil {
		return av, nil
	}
	if typ, v, ok := typed(n); ok {
		if inner, ok := doubled(typ, v); ok {
			before := len(*repairs)
			*repairs = append(*repairs, Repair{Path: path, What: fmt.Sprintf(`a doubled {"%s": {"%s": …}} unwrapped`, typ, typ)})
			av, ierr := repairValue(inner, path, inside, repairs)
			if ierr != nil {
				*repairs = (*repairs)[:before]
				return nil, err
			}
			return av, nil
		}
		switch {
		case typ == "M" && v.Kind == JSONObject:
			m, merr := attributesOf(v, path, func(e JSONNode, p string) (types.AttributeValue, error) {
				return repairValue(e, p, true, repairs)
			})
			if merr != nil {
				return nil, merr
			}
			return &types.AttributeValueMemberM{Value: m}, nil
		case typ == "L" && v.Kind == JSONArray:
			l, lerr := repairList(v, path, repairs)
			if lerr != nil {
				return nil, lerr
			}
			return &types.AttributeValueMemberL{Value: l}, nil
		}
		// A typed value that is wrong in another way ({"N": 5}) is no
		// document: its type says what was meant.
		return nil, err
	}
	if !inside {
		return nil, err
	}
	return documentValue(n, path, repairs)
}

// typed splits a value written as one type key and its payload.
func typed(n JSONNode) (typ string, v JSONNode, ok bool) {
	if n.Kind != JSONObject || len(n.Keys) != 1 || n.Dup != "" || !IsTypeKey(n.Keys[0]) {
		return "", JSONNode{}, false
	}
	return n.Keys[0], n.Elems[0], true
}

// doubled finds the value inside a type written twice: {"M": {"M": x}}
// holds {"M": x}.
func doubled(typ string, v JSONNode) (JSONNode, bool) {
	if inner, _, ok := typed(v); ok && inner == typ {
		return v, true
	}
	return JSONNode{}, false
}

// repairList reads the elements of an L, each as a member.
func repairList(v JSONNode, path string, repairs *[]Repair) ([]types.AttributeValue, error) {
	l := make([]types.AttributeValue, len(v.Elems))
	for i, e := range v.Elems {
		av, err := repairValue(e, fmt.Sprintf("%s[%d]", path, i), true, repairs)
		if err != nil {
			return nil, err
		}
		l[i] = av
	}
	return l, nil
}

// documentValue reads plain JSON as a document value, as plain items are
// read (plainValue): a number as N with its digits as written, true and
// false as BOOL, null as NULL, an array as L, an object as M; an object's
// members and an array's elements may be typed again. One repair names the
// value where the plain JSON begins.
func documentValue(n JSONNode, path string, repairs *[]Repair) (types.AttributeValue, error) {
	at := len(*repairs)
	var av types.AttributeValue
	var err error
	switch n.Kind {
	case JSONArray:
		var l []types.AttributeValue
		if l, err = repairList(n, path, repairs); err == nil {
			av = &types.AttributeValueMemberL{Value: l}
		}
	case JSONObject:
		var m map[string]types.AttributeValue
		if m, err = attributesOf(n, path, func(e JSONNode, p string) (types.AttributeValue, error) {
			return repairValue(e, p, true, repairs)
		}); err == nil {
			av = &types.AttributeValueMemberM{Value: m}
		}
	default:
		av, err = plainValue(n, path)
	}
	if err != nil {
		return nil, err
	}
	// The members of a plain object or array are part of its repair.
	*repairs = append((*repairs)[:at], Repair{Path: path, What: "plain JSON " + plainText(n) + " read as " + AttributeTypeName(av)})
	return av, nil
}

// plainText names a plain JSON value for a repair: its text when it is
// short (true, 59, "beta"), else its kind.
func plainText(n JSONNode) string {
	switch n.Kind {
	case JSONNull:
		return "null"
	case JSONBool:
		return fmt.Sprint(n.Bool)
	case JSONNumber:
		return n.Text
	case JSONString:
		if len(n.Text) <= 20 && !strings.ContainsFunc(n.Text, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return fmt.Sprintf("%q", n.Text)
		}
	}
	return strings.TrimPrefix(strings.TrimPrefix(n.Kind.String(), "an "), "a ")
}
