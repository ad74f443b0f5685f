package itemcodec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// JSON is written by hand rather than through encoding/json on an
// intermediate value: numbers must be copied as text (a float64 loses the
// 38 digits DynamoDB keeps), and keys must come out sorted at every depth.
// Strings are escaped as encoding/json escapes them (without its HTML
// escapes), and the code points a terminal would act on as \uXXXX, in the
// same pass (appendQuoted). Everything appends to a byte slice the caller
// keeps, so a page of items costs no allocation per item (ItemJSON).

// PlainJSON renders an item as plain JSON: numbers with their exact digits,
// binary as base64, sets as arrays, attributes in name order.
func PlainJSON(it Item) []byte {
	var e ItemJSON
	return e.Append(nil, it)
}

// DynamoJSON renders an item as DynamoDB JSON ({"S": "..."}), as the AWS CLI does.
func DynamoJSON(it Item) []byte {
	e := ItemJSON{Dynamo: true}
	return e.Append(nil, it)
}

// MarshalPlainValue renders one attribute value as PlainJSON does, for views
// that show an item attribute by attribute.
func MarshalPlainValue(av types.AttributeValue) []byte {
	var e ItemJSON
	return e.value(nil, av, -1)
}

// CellText is a value as one line of a table cell, as the CLI's table output
// and the UI's panes show it: strings and numbers as themselves, documents,
// sets and the rest as compact plain JSON. It is not sanitised: the caller
// makes it safe for its terminal.
func CellText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	return string(MarshalPlainValue(av))
}

// MarshalDynamoValue renders one attribute value as DynamoJSON does.
func MarshalDynamoValue(av types.AttributeValue) []byte {
	e := ItemJSON{Dynamo: true}
	return e.value(nil, av, -1)
}

// AttributeTypeName returns DynamoDB's name for the value's type ("S", "N",
// "B", "BOOL", "NULL", "M", "L", "SS", "NS" or "BS"), or "" for nil or a
// type this SDK version does not know.
func AttributeTypeName(av types.AttributeValue) string {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	}
	return ""
}

// QuoteJSON writes s as a JSON string the way the item encoders do: <, >
// and & raw, as the AWS CLI leaves them, and terminal controls escaped.
func QuoteJSON(s string) string { return string(AppendQuoted(nil, s)) }

// terminalRune tells the code points encoding/json leaves raw that a
// terminal would act on (DEL, the C1 controls, of which U+009B starts a CSI
// sequence) or that reorder the line (bidi marks, embeddings, overrides
// and isolates). JSON output goes to terminals too, so they are written as
// \uXXXX escapes: the same string to any JSON reader.
func terminalRune(r rune) bool {
	return r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x061c || r == 0x200e || r == 0x200f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// firstTerminalRune returns the offset of the first terminalRune in b, or -1.
func firstTerminalRune(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf && b[i] != 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if terminalRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// EscapeTerminalJSON rewrites every terminalRune in JSON text b as a \u
// escape; JSON holds them only inside strings, whose value stays the same.
// b is returned as it is when it holds none.
func EscapeTerminalJSON(b []byte) []byte {
	i := firstTerminalRune(b)
	if i < 0 {
		return b
	}
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if terminalRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// jsonNumber rewrites DynamoDB number text as valid JSON with the same
// value, changing as little as possible: a leading + goes, leading zeros of
// the integer part go (007 -> 7), a missing integer part becomes 0
// (.5 -> 0.5), and a point with no digits after it goes (5. -> 5). The
// digits and the exponent are kept as written.
func jsonNumber(s string) (string, bool) {
	t, ok := number.Scan(s)
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(s) + 1)
	if t.Neg {
		b.WriteByte('-')
	}
	ip := strings.TrimLeft(t.Int, "0")
	if ip == "" {
		ip = "0"
	}
	b.WriteString(ip)
	if t.Frac != "" {
		b.WriteByte('.')
		b.WriteString(t.Frac)
	}
	b.WriteString(t.ExpText)
	return b.String(), true
}
