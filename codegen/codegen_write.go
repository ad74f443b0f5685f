package codegen

// boto3's client API for one write, which package edit's plans show beside
// their aws command: the client (not the resource) API, so that every
// value goes as the typed attribute value DynamoDB JSON holds, exactly as
// the aws command sends it, with no float or Decimal in between.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// PyArg is one keyword argument of a boto3 call: its name and its value
// as Python source (PyAttr, PyItem, PyString...).
type PyArg struct{ Name, Value string }

// PyClientCall writes a Python program that makes one call of boto3's
// DynamoDB client (method such as "update_item"), one argument a line,
// and prints the answer.
func PyClientCall(method string, args []PyArg, to CodeTarget) string {
	session, res := pySession(to)
	var b strings.Builder
	fmt.Fprintf(&b, "import boto3\n\nclient = %s.client(%s)\nresp = client.%s(\n", session, strings.Join(slices.Insert(res, 0, `"dynamodb"`), ", "), method)
	for _, a := range args {
		fmt.Fprintf(&b, "    %s=%s,\n", a.Name, a.Value)
	}
	b.WriteString(")\nprint(resp)\n")
	return b.String()
}

// PyString is a Python str literal of s.
func PyString(s string) string { return pyString(s) }

// PyItem is a map of attribute values as the client API takes it:
// {"name": {"S": "..."}, ...}, in name order.
func PyItem(it map[string]types.AttributeValue) string {
	parts := make([]string, 0, len(it))
	for _, k := range cgSortedNames(it) {
		parts = append(parts, pyString(k)+": "+PyAttr(it[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// PyStrings is a map of strings as a Python dict, in key order
// (ExpressionAttributeNames).
func PyStrings(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = pyString(k) + ": " + pyString(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// PyAttr is an attribute value as the client API takes it, DynamoDB JSON
// in Python: {"N": "35.50"} keeps a number's digits; binaries are bytes.
func PyAttr(av types.AttributeValue) string {
	list := func(items []string) string { return "[" + strings.Join(items, ", ") + "]" }
	strs := func(ss []string) string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = pyString(s)
		}
		return list(out)
	}
	var typ, v string
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		typ, v = "S", pyString(x.Value)
	case *types.AttributeValueMemberN:
		typ, v = "N", pyString(x.Value)
	case *types.AttributeValueMemberB:
		typ, v = "B", pyBytes(x.Value)
	case *types.AttributeValueMemberBOOL:
		typ, v = "BOOL", map[bool]string{true: "True", false: "False"}[x.Value]
	case *types.AttributeValueMemberNULL:
		typ, v = "NULL", "True"
	case *types.AttributeValueMemberSS:
		typ, v = "SS", strs(x.Value)
	case *types.AttributeValueMemberNS:
		typ, v = "NS", strs(x.Value)
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(x.Value))
		for i, b := range x.Value {
			bs[i] = pyBytes(b)
		}
		typ, v = "BS", list(bs)
	case *types.AttributeValueMemberL:
		items := make([]string, len(x.Value))
		for i, e := range x.Value {
			items[i] = PyAttr(e)
		}
		typ, v = "L", list(items)
	case *types.AttributeValueMemberM:
		typ, v = "M", PyItem(x.Value)
	default:
		return "None"
	}
	return "{" + pyString(typ) + ": " + v + "}"
}
