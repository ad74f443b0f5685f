package edit

// Typed input: a value as a user types it, with its type: S:OPEN, N:35.5,
// BOOL:true, NULL, SS:["a","b"], NS:[1,2], L:[{"S":"x"}], M:{"a":{"N":"1"}}.
// A value DynamoDB would refuse is one sentence here, before any request.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// Types lists the attribute types, in the order a form offers them.
var Types = []string{"S", "N", "BOOL", "NULL", "B", "SS", "NS", "BS", "L", "M"}

// ParseAssignment reads NAME=TYPE:VALUE (--set status=S:SHIPPED).
func ParseAssignment(s string) (string, types.AttributeValue, error) {
	name, typed, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return "", nil, fmt.Errorf("%q is not NAME=TYPE:VALUE (e.g. status=S:SHIPPED, total=N:35.5, tags=SS:[\"a\",\"b\"])", s)
	}
	typ, text, ok := strings.Cut(typed, ":")
	if !ok && typ != "NULL" {
		return "", nil, fmt.Errorf("%s: %q has no type; write TYPE:VALUE, e.g. %s=S:%s", name, typed, name, typed)
	}
	av, err := ParseValue(name, typ, text)
	return name, av, err
}

// ParseValue reads a value of the given type from its text. name is the
// attribute, for the sentence that says what is wrong.
func ParseValue(name, typ, text string) (types.AttributeValue, error) {
	var av types.AttributeValue
	switch typ {
	case "S":
		av = &types.AttributeValueMemberS{Value: text}
	case "N":
		av = &types.AttributeValueMemberN{Value: strings.TrimSpace(text)}
	case "B":
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("%s: B takes base64, and %q is not", name, text)
		}
		av = &types.AttributeValueMemberB{Value: b}
	case "BOOL":
		switch strings.TrimSpace(text) {
		case "true":
			av = &types.AttributeValueMemberBOOL{Value: true}
		case "false":
			av = &types.AttributeValueMemberBOOL{Value: false}
		default:
			return nil, fmt.Errorf("%s: BOOL is true or false, not %q", name, text)
		}
	case "NULL":
		if t := strings.TrimSpace(text); t != "" && t != "true" {
			return nil, fmt.Errorf("%s: NULL takes no value (NULL or NULL:true), not %q", name, text)
		}
		av = &types.AttributeValueMemberNULL{Value: true}
	case "SS", "NS", "BS":
		members, err := setMembers(name, typ, text)
		if err != nil {
			return nil, err
		}
		switch typ {
		case "SS":
			av = &types.AttributeValueMemberSS{Value: members}
		case "NS":
			av = &types.AttributeValueMemberNS{Value: members}
		default:
			bs := make([][]byte, len(members))
			for i, m := range members {
				b, err := base64.StdEncoding.DecodeString(m)
				if err != nil {
					return nil, fmt.Errorf("%s: BS member %d is not base64: %q", name, i+1, m)
				}
				bs[i] = b
			}
			av = &types.AttributeValueMemberBS{Value: bs}
		}
	case "L", "M":
		// The typed JSON reader of item files, on a one-attribute item.
		doc := fmt.Sprintf(`{%s:{%q:%s}}`, jsonString(name), typ, text)
		it, err := itemcodec.ParseDynamoJSON([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("%s: %s takes DynamoDB JSON (%s): %v", name, typ, example(typ), err)
		}
		av = it[name]
	default:
		return nil, fmt.Errorf("%s: unknown type %q; the types are %s", name, typ, strings.Join(Types, ", "))
	}
	if err := CheckValue(name, av); err != nil {
		return nil, err
	}
	return av, nil
}

func example(typ string) string {
	if typ == "L" {
		return `L:[{"S":"a"},{"N":"1"}]`
	}
	return `M:{"city":{"S":"Oslo"}}`
}

// setMembers reads a set's members: a JSON array of strings (numbers may
// be bare for NS).
func setMembers(name, typ, text string) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var raw []any
	if err := dec.Decode(&raw); err != nil || dec.More() {
		return nil, fmt.Errorf("%s: %s takes a JSON array such as %s:[\"a\",\"b\"], not %q", name, typ, typ, text)
	}
	out := make([]string, len(raw))
	for i, r := range raw {
		switch v := r.(type) {
		case string:
			out[i] = v
		case json.Number:
			if typ != "NS" {
				return nil, fmt.Errorf("%s: %s member %d must be a string, not %s", name, typ, i+1, v)
			}
			out[i] = v.String()
		default:
			return nil, fmt.Errorf("%s: %s member %d must be a string", name, typ, i+1)
		}
	}
	return out, nil
}

// ValueInput is a value as a user would type it back: its type and the
// text ParseValue reads, so a form can start from the value read.
func ValueInput(av types.AttributeValue) (typ, text string) {
	typ = itemcodec.AttributeTypeName(av)
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return typ, v.Value
	case *types.AttributeValueMemberN:
		return typ, v.Value
	case *types.AttributeValueMemberBOOL:
		return typ, fmt.Sprint(v.Value)
	case *types.AttributeValueMemberNULL:
		return typ, ""
	case *types.AttributeValueMemberB:
		return typ, base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberL, *types.AttributeValueMemberM:
		raw := string(itemcodec.MarshalDynamoValue(av))
		// {"L":[...]} → [...]: the type is given apart.
		return typ, strings.TrimSuffix(strings.TrimPrefix(raw, `{"`+typ+`":`), "}")
	}
	return typ, string(itemcodec.MarshalPlainValue(av))
}
