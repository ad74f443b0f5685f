package itemcodec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// JSON is written by hand rather than through encoding/json on an
// intermediate value: numbers must be copied as text (a float64 loses the
// 38 digits DynamoDB keeps), and keys must come out sorted at every depth.
// Strings still go through encoding/json so escaping is the standard one.

// PlainJSON renders an item as plain JSON: numbers with their exact digits,
// binary as base64, sets as arrays, attributes in name order.
func PlainJSON(it Item) []byte {
	w := newJSONWriter()
	w.writeMap(it, w.plain)
	return w.buf.Bytes()
}

// DynamoJSON renders an item as DynamoDB JSON ({"S": "..."}), as the AWS CLI does.
func DynamoJSON(it Item) []byte {
	w := newJSONWriter()
	w.writeMap(it, w.dynamo)
	return w.buf.Bytes()
}

// MarshalPlainValue renders one attribute value as PlainJSON does, for views
// that show an item attribute by attribute.
func MarshalPlainValue(av types.AttributeValue) []byte {
	w := newJSONWriter()
	w.plain(av)
	return w.buf.Bytes()
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
	w := newJSONWriter()
	w.dynamo(av)
	return w.buf.Bytes()
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

// jsonWriter accumulates JSON text; str and enc escape strings without
// turning <, > and & into \u003c and friends, as the AWS CLI leaves them.
type jsonWriter struct {
	buf bytes.Buffer
	str bytes.Buffer
	enc *json.Encoder
}

func newJSONWriter() *jsonWriter {
	w := &jsonWriter{}
	w.enc = json.NewEncoder(&w.str)
	w.enc.SetEscapeHTML(false)
	return w
}

// QuoteJSON writes s as a JSON string the way the item encoders do: <, >
// and & raw, as the AWS CLI leaves them, and terminal controls escaped.
func QuoteJSON(s string) string {
	w := newJSONWriter()
	w.string(s)
	return w.buf.String()
}

func (w *jsonWriter) string(s string) {
	w.str.Reset()
	_ = w.enc.Encode(s) // encoding a string cannot fail; invalid UTF-8 becomes U+FFFD
	w.buf.Write(EscapeTerminalJSON(bytes.TrimSuffix(w.str.Bytes(), []byte{'\n'})))
}

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

func (w *jsonWriter) base64(b []byte) {
	w.buf.WriteByte('"')
	w.buf.WriteString(base64.StdEncoding.EncodeToString(b))
	w.buf.WriteByte('"')
}

// number writes number text as a JSON number with the same value. Text that
// is no number at all (only a hand-built item can hold it) is written as a
// JSON string, so the output stays valid JSON and loses nothing.
func (w *jsonWriter) number(s string) {
	if j, ok := jsonNumber(s); ok {
		w.buf.WriteString(j)
		return
	}
	w.string(s)
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

func (w *jsonWriter) plain(av types.AttributeValue) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		w.string(v.Value)
	case *types.AttributeValueMemberN:
		w.number(v.Value)
	case *types.AttributeValueMemberB:
		w.base64(v.Value)
	case *types.AttributeValueMemberBOOL:
		w.buf.WriteString(strconv.FormatBool(v.Value))
	case *types.AttributeValueMemberNULL:
		w.buf.WriteString("null")
	case *types.AttributeValueMemberSS:
		writeArray(w, v.Value, w.string)
	case *types.AttributeValueMemberNS:
		writeArray(w, v.Value, w.number)
	case *types.AttributeValueMemberBS:
		writeArray(w, v.Value, w.base64)
	case *types.AttributeValueMemberL:
		writeArray(w, v.Value, w.plain)
	case *types.AttributeValueMemberM:
		w.writeMap(v.Value, w.plain)
	default:
		w.buf.WriteString("null")
	}
}

// writeMap writes a map's attributes in name order, each value by each.
func (w *jsonWriter) writeMap(m map[string]types.AttributeValue, each func(types.AttributeValue)) {
	w.buf.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.string(k)
		w.buf.WriteByte(':')
		each(m[k])
	}
	w.buf.WriteByte('}')
}

func (w *jsonWriter) dynamo(av types.AttributeValue) {
	typ := AttributeTypeName(av)
	if typ == "" {
		// Nothing truthful to say; ParseDynamoJSON refuses it, as DynamoDB would.
		w.buf.WriteString("null")
		return
	}
	w.buf.WriteString(`{"` + typ + `":`)
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		w.string(v.Value)
	case *types.AttributeValueMemberN:
		w.string(v.Value) // DynamoDB JSON keeps numbers as strings
	case *types.AttributeValueMemberB:
		w.base64(v.Value)
	case *types.AttributeValueMemberBOOL:
		w.buf.WriteString(strconv.FormatBool(v.Value))
	case *types.AttributeValueMemberNULL:
		w.buf.WriteString(strconv.FormatBool(v.Value))
	case *types.AttributeValueMemberSS:
		writeArray(w, v.Value, w.string)
	case *types.AttributeValueMemberNS:
		writeArray(w, v.Value, w.string)
	case *types.AttributeValueMemberBS:
		writeArray(w, v.Value, w.base64)
	case *types.AttributeValueMemberL:
		writeArray(w, v.Value, w.dynamo)
	case *types.AttributeValueMemberM:
		w.writeMap(v.Value, w.dynamo)
	}
	w.buf.WriteByte('}')
}

func writeArray[T any](w *jsonWriter, xs []T, each func(T)) {
	w.buf.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		each(x)
	}
	w.buf.WriteByte(']')
}
