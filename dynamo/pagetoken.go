package dynamo

// The AWS CLI's NextToken for Query and Scan, as botocore's paginator
// writes it (botocore/paginate.py, TokenEncoder): base64 of Python's
// json.dumps of {"ExclusiveStartKey": <the key as DynamoDB JSON>}, with
// "boto_truncate_amount": N when --max-items cut a page (the token then
// holds the cut page's own start key, and a resumed read drops the first
// N items that page returns), and "boto_encoded_keys" listing the paths
// of binary values, which are themselves base64. A token dynascope prints
// is written byte for byte as json.dumps writes it (", " and ": ", every
// character past ASCII as \uXXXX), so the AWS CLI reads it as its own.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Position is where a read goes on: from Key (nil: from the start),
// dropping the first Skip items it returns.
type Position struct {
	Key  Item
	Skip int
}

// Token is the AWS CLI's NextToken of p.
func (p Position) Token() string {
	var b bytes.Buffer
	var encoded []string
	b.WriteString(`{"ExclusiveStartKey": `)
	if p.Key == nil {
		b.WriteString("null")
	} else {
		names := make([]string, 0, len(p.Key))
		for n := range p.Key {
			names = append(names, n)
		}
		slices.Sort(names)
		b.WriteByte('{')
		for i, n := range names {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pythonString(n))
			b.WriteString(": {")
			switch v := p.Key[n].(type) {
			case *types.AttributeValueMemberS:
				b.WriteString(`"S": `)
				b.WriteString(pythonString(v.Value))
			case *types.AttributeValueMemberN:
				b.WriteString(`"N": `)
				b.WriteString(pythonString(v.Value))
			case *types.AttributeValueMemberB:
				b.WriteString(`"B": `)
				b.WriteString(pythonString(base64.StdEncoding.EncodeToString(v.Value)))
				var path bytes.Buffer
				path.WriteString(`["ExclusiveStartKey", `)
				path.WriteString(pythonString(n))
				path.WriteString(`, "B"]`)
				encoded = append(encoded, path.String())
			}
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	if p.Skip > 0 {
		b.WriteString(`, "boto_truncate_amount": ` + strconv.Itoa(p.Skip))
	}
	if len(encoded) > 0 {
		b.WriteString(`, "boto_encoded_keys": [` + strings.Join(encoded, ", ") + "]")
	}
	b.WriteByte('}')
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TokenPosition reads a NextToken (of the AWS CLI or of dynascope) for a
// read of the table or index: its start key typed by the key schema as a
// --start-key is, and how many items to drop. flag names it in sentences.
// Every problem is one sentence, before any request.
func TokenPosition(t Table, index, flag, token string) (Position, error) {
	doc, err := decodeToken(flag, token)
	if err != nil {
		return Position{}, err
	}
	pos := Position{Skip: doc.skip}
	if doc.key == nil {
		return pos, nil
	}
	pos.Key, err = StartKeyJSON(t, index, flag+"'s key", doc.key.String())
	return pos, err
}

// CheckToken refuses, with no table at hand, a token that is no NextToken
// whatever the table: not base64, not JSON, not the shape botocore writes.
func CheckToken(flag, token string) error {
	_, err := decodeToken(flag, token)
	return err
}

// tokenDoc is a token read: its key as DynamoDB JSON text (binary values
// as base64), nil for none, and its truncate amount.
type tokenDoc struct {
	key  *bytes.Buffer
	skip int
}

func decodeToken(flag, token string) (tokenDoc, error) {
	bad := func(why string) error {
		return &UserError{Msg: fmt.Sprintf("%s is not a NextToken of a query or scan as the AWS CLI or dynascope prints it: %s.", flag, why)}
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token))
	if err != nil || len(raw) == 0 {
		return tokenDoc{}, bad("it is not base64 text")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var fields map[string]json.RawMessage
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return tokenDoc{}, bad("its base64 does not hold a JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return tokenDoc{}, bad("its base64 holds more than one JSON value")
	}
	for name := range fields {
		if name != "ExclusiveStartKey" && name != "boto_truncate_amount" && name != "boto_encoded_keys" {
			return tokenDoc{}, bad(fmt.Sprintf("it holds %s, which a Query's or Scan's token does not (a token of another command?)", strconv.Quote(name)))
		}
	}
	rawKey, ok := fields["ExclusiveStartKey"]
	if !ok {
		return tokenDoc{}, bad("it holds no ExclusiveStartKey")
	}
	var doc tokenDoc
	if amount, ok := fields["boto_truncate_amount"]; ok {
		n, err := strconv.Atoi(string(amount))
		if err != nil || n < 0 {
			return tokenDoc{}, bad(fmt.Sprintf("its boto_truncate_amount is %s, not a count of items", preview(amount)))
		}
		doc.skip = n
	}
	binary := map[string]bool{}
	if enc, ok := fields["boto_encoded_keys"]; ok {
		var paths [][]any
		if err := json.Unmarshal(enc, &paths); err != nil {
			return tokenDoc{}, bad("its boto_encoded_keys is not a list of paths")
		}
		for _, p := range paths {
			attr, _ := p[min(1, len(p)-1)].(string)
			if len(p) != 3 || p[0] != "ExclusiveStartKey" || p[2] != "B" || attr == "" {
				return tokenDoc{}, bad(fmt.Sprintf("its boto_encoded_keys names %v, not a binary key value", p))
			}
			binary[attr] = true
		}
	}
	if string(bytes.TrimSpace(rawKey)) == "null" {
		return doc, nil
	}
	var key map[string]map[string]string
	if err := json.Unmarshal(rawKey, &key); err != nil || len(key) == 0 {
		return tokenDoc{}, bad("its ExclusiveStartKey is not a key in DynamoDB JSON, such as {\"PK\": {\"S\": \"CUST#42\"}}")
	}
	out := map[string]map[string]string{}
	for name, v := range key {
		if len(v) != 1 {
			return tokenDoc{}, bad(fmt.Sprintf("its ExclusiveStartKey gives %s as %d typed values, not one", strconv.Quote(name), len(v)))
		}
		for typ, val := range v {
			if typ == "B" && !binary[name] {
				// botocore sends a text value of a binary parameter as its
				// UTF-8 bytes.
				val = base64.StdEncoding.EncodeToString([]byte(val))
			}
			out[name] = map[string]string{typ: val}
		}
	}
	for name := range binary {
		if _, ok := out[name]["B"]; !ok {
			return tokenDoc{}, bad(fmt.Sprintf("its boto_encoded_keys names %s, which its key has no binary value of", strconv.Quote(name)))
		}
	}
	b, _ := json.Marshal(out)
	doc.key = bytes.NewBuffer(b)
	return doc, nil
}
