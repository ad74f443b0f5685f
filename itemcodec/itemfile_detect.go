package itemcodec

// Telling an item file's format from its first bytes, and reading plain
// JSON items into typed values.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/textfmt"
)

func firstByte(b []byte) (byte, int) {
	for i, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, i
		}
	}
	return 0, -1
}

// lineIsValue tells whether the first non-blank line of head is a whole
// JSON value: a file of lines, not one document spread over many.
func lineIsValue(head []byte) bool {
	_, i := firstByte(head)
	if i < 0 {
		return false
	}
	line := head[i:]
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	return json.Valid(bytes.TrimSpace(line))
}

// detectFormat tells the format from the start of a file: an array, lines
// or a document, and in them DynamoDB JSON or plain JSON by the first item.
func detectFormat(head []byte) (InputFormat, error) {
	c, i := firstByte(head)
	switch c {
	case '[':
		dec := json.NewDecoder(bytes.NewReader(head[i:]))
		dec.UseNumber()
		dec.Token()
		if !dec.More() {
			return FormatPlainArray, nil // empty: no items either way
		}
		n, err := ReadJSONNode(dec)
		if err == nil && n.Kind == JSONObject && looksDynamo(n) {
			return FormatDynamoArray, nil
		}
		return FormatPlainArray, nil
	case '{':
		dec := json.NewDecoder(bytes.NewReader(head[i:]))
		dec.UseNumber()
		n, err := ReadJSONNode(dec)
		if err == nil && isWorkbenchModel(n) || err != nil && bytes.Contains(head, []byte(`"DataModel"`)) && bytes.Contains(head, []byte(`"ModelName"`)) {
			return "", errWorkbenchModel
		}
		if err != nil && !lineIsValue(head) {
			// A first value larger than the peek: a document, and the
			// only large documents are batch-write-item ones.
			return FormatBatch, nil
		}
		if err != nil {
			return "", err
		}
		switch {
		case isBatchDoc(n):
			return FormatBatch, nil
		case !lineIsValue(head):
			return "", errors.New("a multi-line JSON object that is not a batch-write-item document")
		case looksDynamo(n):
			return FormatDynamoLines, nil
		}
		return FormatPlainLines, nil
	}
	return "", errors.New("not JSON")
}

// errWorkbenchModel is the sentence for a NoSQL Workbench model given as
// an item file: its items are inside, under the tables and facets.
var errWorkbenchModel = errors.New("is a NoSQL Workbench data model, not a file of items; load it with --workbench instead of --file")

// isWorkbenchModel tells a NoSQL Workbench model by its two required fields.
func isWorkbenchModel(n JSONNode) bool {
	has := func(k string) bool {
		for _, x := range n.Keys {
			if x == k {
				return true
			}
		}
		return false
	}
	return n.Kind == JSONObject && has("ModelName") && has("DataModel")
}

// looksDynamo tells whether an item object is in DynamoDB JSON: each value
// an object with one type key ({"S": ...}), or the {"Item": ...} wrapper.
func looksDynamo(n JSONNode) bool {
	if isItemWrapper(n) {
		n = n.Elems[0]
	}
	for _, v := range n.Elems {
		if v.Kind != JSONObject || len(v.Keys) != 1 || !IsTypeKey(v.Keys[0]) {
			return false
		}
	}
	return true
}

// isBatchDoc tells a batch-write-item document ({"Table": [requests]}, or
// the CLI's {"RequestItems": {...}} form) from an item: an item's values are
// typed objects, never arrays.
func isBatchDoc(n JSONNode) bool {
	if n.Kind != JSONObject || len(n.Keys) == 0 {
		return false
	}
	if len(n.Keys) == 1 && n.Keys[0] == "RequestItems" && n.Elems[0].Kind == JSONObject {
		return isBatchDoc(n.Elems[0])
	}
	for _, e := range n.Elems {
		if e.Kind != JSONArray {
			return false
		}
	}
	return true
}

// plainItem reads an item in plain JSON: strings are S, numbers N with
// their digits as written, booleans BOOL, null NULL, arrays L, objects M.
func plainItem(n JSONNode) (Item, error) {
	return attributesOf(n, "", plainValue)
}

func plainValue(n JSONNode, path string) (types.AttributeValue, error) {
	switch n.Kind {
	case JSONString:
		return &types.AttributeValueMemberS{Value: n.Text}, nil
	case JSONNumber:
		if err := checkNumber(n.Text); err != nil {
			return nil, attrError(path, "number %s: %v", n.Text, err)
		}
		return &types.AttributeValueMemberN{Value: n.Text}, nil
	case JSONBool:
		return &types.AttributeValueMemberBOOL{Value: n.Bool}, nil
	case JSONNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case JSONArray:
		l := make([]types.AttributeValue, len(n.Elems))
		for i, e := range n.Elems {
			av, err := plainValue(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	}
	m, err := attributesOf(n, path, plainValue)
	if err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberM{Value: m}, nil
}

// ParseFormat reads --format's value.
func ParseFormat(s string) (InputFormat, error) {
	for _, f := range InputFormats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(InputFormats))
	for i, f := range InputFormats {
		names[i] = string(f)
	}
	return "", &textfmt.UserError{Msg: fmt.Sprintf("--format %q is not one seed reads; use %s.", s, strings.Join(names, ", "))}
}

// ItemFileFormat tells whether a whole JSON document that is not a NoSQL
// Workbench model is a file of items seed --file reads, and in which
// format: a JSON array of item objects, or a batch-write-item document.
// It lets --workbench name --file for such a file, as --file names
// --workbench for a model (errWorkbenchModel). A lone object is not
// claimed, nor one with either of a model's fields: a model with a field
// missing is one too.
func ItemFileFormat(n JSONNode) (InputFormat, bool) {
	switch {
	case n.Kind == JSONObject && (slices.Contains(n.Keys, "ModelName") || slices.Contains(n.Keys, "DataModel")):
		return "", false // a model, if a broken one
	case n.Kind == JSONArray && len(n.Elems) > 0 && n.Elems[0].Kind == JSONObject:
		if looksDynamo(n.Elems[0]) {
			return FormatDynamoArray, true
		}
		return FormatPlainArray, true
	case isBatchDoc(n):
		return FormatBatch, true
	}
	return "", false
}
