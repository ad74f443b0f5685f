package itemcodec_test

// The item encoders as they were, on encoding/json: the oracle the
// append-based ItemJSON is held to (FuzzItemJSONAgreesWithOld), compact
// and, indented, against encoding/json's own re-indenting of the old
// compact form at every depth a document puts items at.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
	"dynascope/itemcodec/number"
)

type oldWriter struct {
	buf bytes.Buffer
	str bytes.Buffer
	enc *json.Encoder
}

func newOldWriter() *oldWriter {
	w := &oldWriter{}
	w.enc = json.NewEncoder(&w.str)
	w.enc.SetEscapeHTML(false)
	return w
}

func (w *oldWriter) string(s string) {
	w.str.Reset()
	_ = w.enc.Encode(s)
	w.buf.Write(itemcodec.EscapeTerminalJSON(bytes.TrimSuffix(w.str.Bytes(), []byte{'\n'})))
}

func (w *oldWriter) base64(b []byte) {
	w.buf.WriteByte('"')
	w.buf.WriteString(base64.StdEncoding.EncodeToString(b))
	w.buf.WriteByte('"')
}

func (w *oldWriter) number(s string) {
	if j, ok := oldJSONNumber(s); ok {
		w.buf.WriteString(j)
		return
	}
	w.string(s)
}

func oldJSONNumber(s string) (string, bool) {
	t, ok := number.Scan(s)
	if !ok {
		return "", false
	}
	var b strings.Builder
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

func (w *oldWriter) plain(av types.AttributeValue) {
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
		oldArray(w, v.Value, w.string)
	case *types.AttributeValueMemberNS:
		oldArray(w, v.Value, w.number)
	case *types.AttributeValueMemberBS:
		oldArray(w, v.Value, w.base64)
	case *types.AttributeValueMemberL:
		oldArray(w, v.Value, w.plain)
	case *types.AttributeValueMemberM:
		w.writeMap(v.Value, w.plain)
	default:
		w.buf.WriteString("null")
	}
}

// writeMap writes a map's attributes in name order, each value by each.
func (w *oldWriter) writeMap(m map[string]types.AttributeValue, each func(types.AttributeValue)) {
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

func (w *oldWriter) dynamo(av types.AttributeValue) {
	typ := itemcodec.AttributeTypeName(av)
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
		oldArray(w, v.Value, w.string)
	case *types.AttributeValueMemberNS:
		oldArray(w, v.Value, w.string)
	case *types.AttributeValueMemberBS:
		oldArray(w, v.Value, w.base64)
	case *types.AttributeValueMemberL:
		oldArray(w, v.Value, w.dynamo)
	case *types.AttributeValueMemberM:
		w.writeMap(v.Value, w.dynamo)
	}
	w.buf.WriteByte('}')
}

func oldArray[T any](w *oldWriter, xs []T, each func(T)) {
	w.buf.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		each(x)
	}
	w.buf.WriteByte(']')
}

func oldItem(it itemcodec.Item, dynamo bool) []byte {
	w := newOldWriter()
	if dynamo {
		w.writeMap(it, w.dynamo)
	} else {
		w.writeMap(it, w.plain)
	}
	return w.buf.Bytes()
}

// oldIndented is the old compact item as encoding/json re-indents a raw
// item inside a document, its braces at depth levels.
func oldIndented(it itemcodec.Item, dynamo bool, depth int) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, oldItem(it, dynamo), strings.Repeat("  ", depth), "  "); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// agreeWithOld holds ItemJSON to the old encoders on one item.
func agreeWithOld(t *testing.T, it itemcodec.Item) {
	t.Helper()
	for _, dynamo := range []bool{false, true} {
		e := itemcodec.ItemJSON{Dynamo: dynamo}
		if got, want := e.Append(nil, it), oldItem(it, dynamo); !bytes.Equal(got, want) {
			t.Fatalf("dynamo %v: %s\nthe old encoder: %s", dynamo, got, want)
		}
		for depth := range 4 {
			e := itemcodec.ItemJSON{Dynamo: dynamo, Indent: true, Depth: depth}
			if got, want := e.Append([]byte("x"), it), append([]byte("x"), oldIndented(it, dynamo, depth)...); !bytes.Equal(got, want) {
				t.Fatalf("dynamo %v, depth %d:\n%s\nencoding/json's indenting of the old:\n%s", dynamo, depth, got, want)
			}
		}
	}
}

func TestItemJSONAgreesWithOld(t *testing.T) {
	odd := itemcodec.Item{
		"s":     valS("<&> \"\\ \x00\x1f\x7f \u0085\u009b \u2028\u2029 \u200e\u202e\u2066 \xff\xfe é 😀"),
		"n":     valN("+007.50e-3"),
		"n2":    valN(".5"),
		"n3":    valN("5."),
		"bad":   valN("not a number"),
		"empty": valM(),
		"l0":    valL(),
		"deep":  valL(valM("a", valL(valL(valNS("1", "-0.0")), valSS(), valBS([]byte{0xff})))),
		"\x1b":  valNull(),
	}
	for _, it := range []itemcodec.Item{everyTypeItem(), odd, {}} {
		agreeWithOld(t, it)
	}
	if got := string(itemcodec.AppendQuoted(nil, "a\u009bb")); got != `"a\u009bb"` {
		t.Errorf("AppendQuoted: %s", got)
	}
	for _, s := range []string{"1", "-0", "1.50", "1e5", "1E+5", "-1.5e-3", "0.0"} {
		if j, _ := oldJSONNumber(s); j != s {
			t.Errorf("%s is JSON, yet the old rewrite makes it %s", s, j)
		}
	}
}

// FuzzItemJSONAgreesWithOld: any item, compact and indented, plain and
// typed, byte for byte what the old encoders wrote.
func FuzzItemJSONAgreesWithOld(f *testing.F) {
	f.Add([]byte("PK\x00CUST#42"))
	f.Add([]byte("\x05\x01\x13\x12\x00\x99\x12\x34\x56\x78\x90\xff\xfe\x80"))
	f.Add(bytes.Repeat([]byte{9, 1, 'a'}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		agreeWithOld(t, (&fuzzSource{b: data}).item())
	})
}

// FuzzQuotedAgreesWithOld: any string, as encoding/json and the terminal
// escapes wrote it.
func FuzzQuotedAgreesWithOld(f *testing.F) {
	f.Add("x\u009b\xff\u2028<>&")
	f.Fuzz(func(t *testing.T, s string) {
		w := newOldWriter()
		w.string(s)
		if got := itemcodec.AppendQuoted(nil, s); !bytes.Equal(got, w.buf.Bytes()) {
			t.Fatalf("%q: %s, the old: %s", s, got, w.buf.Bytes())
		}
	})
}
