package itemcodec_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// everyTypeItem holds one attribute of each DynamoDB type.
func everyTypeItem() itemcodec.Item {
	return itemcodec.Item{
		"PK": valS("CUST#42"),
		"n":  valN("35"),
		"b":  valB([]byte("hi\x00\xff")),
		"ss": valSS("a", "b"),
		"ns": valNS("1", "2"),
		"bs": valBS([]byte{1}, []byte{2, 3}),
		"m":  valM("city", valS("Paris"), "zip", valN("75001")),
		"l":  valL(valS("x"), valN("1.5"), valBool(false)),
		"nu": valNull(),
		"bo": valBool(true),
	}
}

func TestPlainJSON(t *testing.T) {
	tests := []struct {
		name string
		item itemcodec.Item
		want string
	}{
		{"empty", itemcodec.Item{}, `{}`},
		{"every type", everyTypeItem(),
			`{"PK":"CUST#42","b":"aGkA/w==","bo":true,"bs":["AQ==","AgM="],"l":["x",1.5,false],` +
				`"m":{"city":"Paris","zip":75001},"n":35,"ns":[1,2],"nu":null,"ss":["a","b"]}`},
		{"no HTML escaping", itemcodec.Item{"a<b>": valS("<tag> & \"q\"")}, `{"a<b>":"<tag> & \"q\""}`},
		{"unicode kept", itemcodec.Item{"naïve": valS("日本 😀")}, `{"naïve":"日本 😀"}`},
		{"control characters escaped", itemcodec.Item{"a": valS("tab\there\nnl")}, `{"a":"tab\there\nnl"}`},
		{"empty string and binary", itemcodec.Item{"s": valS(""), "b": valB(nil)}, `{"b":"","s":""}`},
		{"empty list and map", itemcodec.Item{"l": valL(), "m": valM()}, `{"l":[],"m":{}}`},
		{"nested maps sorted", itemcodec.Item{"m": valM("z", valN("1"), "a", valM("y", valNull(), "b", valBool(false)))},
			`{"m":{"a":{"b":false,"y":null},"z":1}}`},
		{"sort by bytes", itemcodec.Item{"b": valN("1"), "B": valN("2"), "é": valN("3"), "a b": valN("4"), "a.b": valN("5")},
			`{"B":2,"a b":4,"a.b":5,"b":1,"é":3}`},
		{"invalid number text kept as a string", itemcodec.Item{"n": valN("not a number")}, `{"n":"not a number"}`},
		{"nil value", itemcodec.Item{"x": nil}, `{"x":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := itemcodec.PlainJSON(tt.item)
			if string(got) != tt.want {
				t.Errorf("PlainJSON =\n %s\nwant\n %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("PlainJSON produced invalid JSON: %s", got)
			}
		})
	}
}

func TestPlainJSONNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "-0"},
		{"35", "35"},
		{"-1.5", "-1.5"},
		{"+5", "5"},
		{"+0.5", "0.5"},
		{"007", "7"},
		{"-007.50", "-7.50"},
		{"00.100", "0.100"},
		{".5", "0.5"},
		{"-.5", "-0.5"},
		{"5.", "5"},
		{"-5.e3", "-5e3"},
		{"1E+125", "1E+125"},
		{"1e-130", "1e-130"},
		{"1e+05", "1e+05"},
		{"9.9999999999999999999999999999999999999E+125", "9.9999999999999999999999999999999999999E+125"},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
		{"-0.00000000000000000000000000000000000012345678901234567890123456789012345678",
			"-0.00000000000000000000000000000000000012345678901234567890123456789012345678"},
		{"1700000000000", "1700000000000"},
	}
	for _, tt := range tests {
		got := string(itemcodec.MarshalPlainValue(valN(tt.in)))
		if got != tt.want {
			t.Errorf("plain number %q = %s, want %s", tt.in, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("plain number %q gave invalid JSON %s", tt.in, got)
		}
		// Decoded as json.Number the digits must survive, which float64 would not.
		var n json.Number
		if err := json.Unmarshal([]byte(got), &n); err != nil || string(n) != tt.want {
			t.Errorf("plain number %q decodes to %q, %v", tt.in, n, err)
		}
	}
}

func TestDynamoJSON(t *testing.T) {
	got := string(itemcodec.DynamoJSON(everyTypeItem()))
	want := `{"PK":{"S":"CUST#42"},"b":{"B":"aGkA/w=="},"bo":{"BOOL":true},"bs":{"BS":["AQ==","AgM="]},` +
		`"l":{"L":[{"S":"x"},{"N":"1.5"},{"BOOL":false}]},"m":{"M":{"city":{"S":"Paris"},"zip":{"N":"75001"}}},` +
		`"n":{"N":"35"},"ns":{"NS":["1","2"]},"nu":{"NULL":true},"ss":{"SS":["a","b"]}}`
	if got != want {
		t.Errorf("DynamoJSON =\n %s\nwant\n %s", got, want)
	}
	if got := string(itemcodec.DynamoJSON(itemcodec.Item{"h": valS("<&>")})); got != `{"h":{"S":"<&>"}}` {
		t.Errorf("DynamoJSON escaped HTML: %s", got)
	}
	// Numbers stay exactly as written: DynamoDB JSON carries them as strings.
	if got := string(itemcodec.DynamoJSON(itemcodec.Item{"n": valN("+007")})); got != `{"n":{"N":"+007"}}` {
		t.Errorf("DynamoJSON changed number text: %s", got)
	}
}

func TestMarshalValueJSON(t *testing.T) {
	tests := []struct {
		av            types.AttributeValue
		plain, dynamo string
	}{
		{valS("a"), `"a"`, `{"S":"a"}`},
		{valN("1E+2"), `1E+2`, `{"N":"1E+2"}`},
		{valB([]byte("x")), `"eA=="`, `{"B":"eA=="}`},
		{valBool(false), `false`, `{"BOOL":false}`},
		{valNull(), `null`, `{"NULL":true}`},
		{valL(valNull()), `[null]`, `{"L":[{"NULL":true}]}`},
		{valM("k", valSS("v")), `{"k":["v"]}`, `{"M":{"k":{"SS":["v"]}}}`},
		{valNS("-1", ".5"), `[-1,0.5]`, `{"NS":["-1",".5"]}`},
		{nil, `null`, `null`},
	}
	for _, tt := range tests {
		if got := string(itemcodec.MarshalPlainValue(tt.av)); got != tt.plain {
			t.Errorf("MarshalPlainValue(%T) = %s, want %s", tt.av, got, tt.plain)
		}
		if got := string(itemcodec.MarshalDynamoValue(tt.av)); got != tt.dynamo {
			t.Errorf("MarshalDynamoValue(%T) = %s, want %s", tt.av, got, tt.dynamo)
		}
	}
}

func TestAttributeTypeNameForJSON(t *testing.T) {
	tests := []struct {
		av   types.AttributeValue
		want string
	}{
		{valS(""), "S"}, {valN("1"), "N"}, {valB(nil), "B"}, {valBool(true), "BOOL"},
		{valNull(), "NULL"}, {valM(), "M"}, {valL(), "L"}, {valSS("a"), "SS"},
		{valNS("1"), "NS"}, {valBS([]byte{1}), "BS"}, {nil, ""},
		{&types.UnknownUnionMember{Tag: "X"}, ""},
	}
	for _, tt := range tests {
		if got := itemcodec.AttributeTypeName(tt.av); got != tt.want {
			t.Errorf("AttributeTypeName(%T) = %q, want %q", tt.av, got, tt.want)
		}
	}
}

// nestedItem nests maps and lists alternately depth levels deep.
func nestedItem(depth int) itemcodec.Item {
	v := valS("bottom")
	for i := range depth {
		if i%2 == 0 {
			v = valM("level "+strconv.Itoa(i), v, "n", valN(strconv.Itoa(i)))
		} else {
			v = valL(v, valNull())
		}
	}
	return itemcodec.Item{"PK": valS("deep"), "top": v}
}

func roundTripItems() map[string]itemcodec.Item {
	return map[string]itemcodec.Item{
		"every type": everyTypeItem(),
		"empty item": {},
		"nested 30":  nestedItem(30),
		"38 digits":  {"a": valN("12345678901234567890123456789012345678"), "b": valN("-0.12345678901234567890123456789012345678")},
		"huge and tiny": {"big": valN("9.9999999999999999999999999999999999999E+125"), "tiny": valN("1E-130"), "neg": valN("-1e-130"),
			"ns": valNS("1E+125", "1e-130", "-2.5E+7")},
		"unusual number text": {"a": valN("+5"), "b": valN("007"), "c": valN(".5"), "d": valN("5."), "e": valN("-0"), "f": valN("1e+05")},
		"empty values":        {"s": valS(""), "b": valB([]byte{}), "l": valL(), "m": valM(), "ss": valSS("")},
		"names":               {"with space": valS("1"), "with.dot": valS("2"), "ünïcödé 日本": valS("3"), "emoji 😀": valS("4"), "": valS("5"), `quote"and\backslash`: valS("6")},
		"multi-byte values":   {"s": valS("é 日本 😀"), "ss": valSS("é", "日本", "😀"), "m": valM("日本", valS("😀"))},
		"binary":              {"b": valB([]byte{0, 0xff, 0x80, '<'}), "bs": valBS([]byte{}, []byte{0}, []byte{0, 0})},
		"html characters":     {"<a href>": valS("&amp; <b>")},
		"named Item":          {"Item": valS("an attribute called Item")},
		"named like a type":   {"S": valS("x"), "M": valM("N", valN("1"))},
		"large":               {"blob": valB(bytes.Repeat([]byte{7}, 300_000)), "text": valS(strings.Repeat("日本", 10_000))},
	}
}

func TestDynamoJSONRoundTrip(t *testing.T) {
	for name, it := range roundTripItems() {
		t.Run(name, func(t *testing.T) {
			b := itemcodec.DynamoJSON(it)
			if !json.Valid(b) {
				t.Fatalf("DynamoJSON produced invalid JSON: %s", b)
			}
			got, err := itemcodec.ParseDynamoJSON(b)
			if err != nil {
				t.Fatalf("ParseDynamoJSON(DynamoJSON(item)): %v\n%s", err, b)
			}
			if d := diffItems(it, got); d != "" {
				t.Errorf("round trip changed the item: %s", d)
			}
			if p := itemcodec.PlainJSON(it); !json.Valid(p) {
				t.Errorf("PlainJSON produced invalid JSON: %s", p)
			}
			// The same item wrapped as DynamoDB's S3 export writes it.
			if len(it) > 1 {
				wrapped := append(append([]byte(`{"Item":`), b...), '}')
				got, err := itemcodec.ParseDynamoJSON(wrapped)
				if err != nil {
					t.Fatalf("ParseDynamoJSON of the Item wrapper: %v", err)
				}
				if d := diffItems(it, got); d != "" {
					t.Errorf("wrapped round trip changed the item: %s", d)
				}
			}
		})
	}
}

func TestPlainJSONDeepNesting(t *testing.T) {
	got := itemcodec.PlainJSON(nestedItem(30))
	var v any
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("PlainJSON of a 30-deep item does not decode: %v", err)
	}
	depth := 0
	for cur := v.(map[string]any)["top"]; ; depth++ {
		switch c := cur.(type) {
		case map[string]any:
			cur = c["level "+strconv.Itoa(29-depth)]
			continue
		case []any:
			cur = c[0]
			continue
		case string:
			if c != "bottom" {
				t.Errorf("bottom value = %q", c)
			}
		}
		break
	}
	if depth != 30 {
		t.Errorf("decoded depth = %d, want 30", depth)
	}
}

func TestParseDynamoJSONForms(t *testing.T) {
	want := itemcodec.Item{"PK": valS("CUST#42"), "SK": valS("PROFILE"), "age": valN("35")}
	tests := []struct {
		name string
		in   string
	}{
		{"compact", `{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"},"age":{"N":"35"}}`},
		{"AWS CLI get-item output", `{
    "Item": {
        "PK": {
            "S": "CUST#42"
        },
        "SK": {
            "S": "PROFILE"
        },
        "age": {
            "N": "35"
        }
    }
}
`},
		{"S3 export line", `{"Item":{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"},"age":{"N":"35"}}}` + "\n"},
		{"spaces as the brief writes it", `{"PK": {"S": "CUST#42"}, "SK": {"S": "PROFILE"}, "age": {"N": "35"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := itemcodec.ParseDynamoJSON([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseDynamoJSON: %v", err)
			}
			if d := diffItems(want, got); d != "" {
				t.Error(d)
			}
		})
	}

	// An item whose only attribute is called Item is that item, not a wrapper.
	got, err := itemcodec.ParseDynamoJSON([]byte(`{"Item":{"S":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := diffItems(itemcodec.Item{"Item": valS("x")}, got); d != "" {
		t.Errorf("attribute named Item: %s", d)
	}
	// An empty export wrapper is an empty item.
	got, err = itemcodec.ParseDynamoJSON([]byte(`{"Item":{}}`))
	if err != nil || len(got) != 0 {
		t.Errorf(`{"Item":{}} = %v, %v; want an empty item`, got, err)
	}
}

func TestParseDynamoJSONErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `{"PK":`, "invalid JSON"},
		{"garbage", `hello`, "invalid JSON"},
		{"empty input", ``, "invalid JSON"},
		{"trailing data", `{"PK":{"S":"a"}} {}`, "more data after the item"},
		{"trailing comma", `{"PK":{"S":"a"},}`, "invalid JSON"},
		{"array", `[{"PK":{"S":"a"}}]`, "an item must be a JSON object, got an array"},
		{"null item", `null`, "an item must be a JSON object, got null"},
		{"untyped value", `{"PK":"CUST#42"}`, `attribute "PK": want a typed value such as {"S": "text"}, got a string`},
		{"null value", `{"PK":null}`, `attribute "PK": want a typed value`},
		{"no type key", `{"PK":{}}`, `attribute "PK": no type key`},
		{"two type keys", `{"PK":{"S":"a","N":"1"}}`, `attribute "PK": more than one type key (S, N)`},
		{"unknown type", `{"PK":{"STRING":"a"}}`, `attribute "PK": unknown type "STRING"`},
		{"lower-case type", `{"PK":{"s":"a"}}`, `attribute "PK": unknown type "s"`},
		{"duplicate attribute", `{"PK":{"S":"a"},"PK":{"S":"b"}}`, `attribute "PK": appears twice`},
		{"duplicate type key", `{"PK":{"S":"a","S":"b"}}`, `attribute "PK": type S appears twice`},
		{"S not a string", `{"a":{"S":5}}`, `attribute "a": S wants a string, got a number`},
		{"N as a JSON number", `{"a":{"N":5}}`, `attribute "a": N wants the number as a string ("42"), got a number`},
		{"N not a number", `{"a":{"N":"abc"}}`, `attribute "a": N "abc": not a number`},
		{"N empty", `{"a":{"N":""}}`, `attribute "a": N "": not a number`},
		{"N with space", `{"a":{"N":" 5"}}`, `not a number`},
		{"N NaN", `{"a":{"N":"NaN"}}`, `not a number`},
		{"N hex", `{"a":{"N":"0x10"}}`, `not a number`},
		{"N bare exponent", `{"a":{"N":"1e"}}`, `not a number`},
		{"N 39 digits", `{"a":{"N":"123456789012345678901234567890123456789"}}`, `more than 38 significant digits`},
		{"N too large", `{"a":{"N":"1E+126"}}`, `magnitude larger than 1E+126`},
		{"N too small", `{"a":{"N":"1E-131"}}`, `magnitude smaller than 1E-130`},
		{"B not base64", `{"a":{"B":"***"}}`, `attribute "a": B is not valid base64`},
		{"B not a string", `{"a":{"B":[1]}}`, `attribute "a": B wants a base64 string, got an array`},
		{"BOOL as a string", `{"a":{"BOOL":"true"}}`, `attribute "a": BOOL wants true or false, got a string`},
		{"NULL false", `{"a":{"NULL":false}}`, `attribute "a": NULL must be true`},
		{"NULL string", `{"a":{"NULL":"true"}}`, `attribute "a": NULL must be true`},
		{"empty SS", `{"a":{"SS":[]}}`, `attribute "a": SS cannot be empty`},
		{"SS not array", `{"a":{"SS":"x"}}`, `attribute "a": SS wants an array of strings, got a string`},
		{"SS member not string", `{"a":{"SS":["x",1]}}`, `attribute "a": SS member 1 wants a string, got a number`},
		{"SS duplicate", `{"a":{"SS":["x","y","x"]}}`, `attribute "a": SS members 0 and 2 are the same`},
		{"NS duplicate by value", `{"a":{"NS":["1","1.0","10E-1"]}}`, `attribute "a": NS members 0 and 1 are the same`},
		{"NS bad member", `{"a":{"NS":["1","x"]}}`, `attribute "a": NS member 1 "x": not a number`},
		{"BS duplicate", `{"a":{"BS":["AQ==","AQ=="]}}`, `attribute "a": BS members 0 and 1 are the same`},
		{"BS bad member", `{"a":{"BS":["AQ==","?"]}}`, `attribute "a": BS member 1 is not valid base64`},
		{"L not array", `{"a":{"L":{}}}`, `attribute "a": L wants an array, got an object`},
		{"M not object", `{"a":{"M":[]}}`, `attribute "a": M wants an object, got an array`},
		{"nested path", `{"address":{"M":{"city":{"S":1}}}}`, `attribute "address.city": S wants a string`},
		{"list path", `{"address":{"M":{"lines":{"L":[{"S":"a"},{"X":"b"}]}}}}`, `attribute "address.lines[1]": unknown type "X"`},
		{"nested duplicate", `{"m":{"M":{"k":{"S":"a"},"k":{"S":"b"}}}}`, `attribute "m.k": appears twice`},
		{"bad value inside wrapper", `{"Item":{"PK":{"S":"a"},"n":{"N":"x"}}}`, `attribute "n": N "x": not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it, err := itemcodec.ParseDynamoJSON([]byte(tt.in))
			if err == nil {
				t.Fatalf("ParseDynamoJSON(%s) = %v, want an error containing %q", tt.in, it, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// diffItems describes the first difference between two items, or "".
func diffItems(want, got itemcodec.Item) string {
	return diffValues("item", &types.AttributeValueMemberM{Value: want}, &types.AttributeValueMemberM{Value: got})
}

func diffValues(path string, want, got types.AttributeValue) string {
	if itemcodec.AttributeTypeName(want) != itemcodec.AttributeTypeName(got) {
		return fmt.Sprintf("%s: type %q, want %q", path, itemcodec.AttributeTypeName(got), itemcodec.AttributeTypeName(want))
	}
	mismatch := func(w, g any) string { return fmt.Sprintf("%s: got %#v, want %#v", path, g, w) }
	switch w := want.(type) {
	case *types.AttributeValueMemberS:
		if g := got.(*types.AttributeValueMemberS); g.Value != w.Value {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberN:
		if g := got.(*types.AttributeValueMemberN); g.Value != w.Value {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberB:
		if g := got.(*types.AttributeValueMemberB); !bytes.Equal(g.Value, w.Value) {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberBOOL:
		if g := got.(*types.AttributeValueMemberBOOL); g.Value != w.Value {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberNULL:
		if g := got.(*types.AttributeValueMemberNULL); g.Value != w.Value {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberSS:
		if g := got.(*types.AttributeValueMemberSS); !slices.Equal(g.Value, w.Value) {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberNS:
		if g := got.(*types.AttributeValueMemberNS); !slices.Equal(g.Value, w.Value) {
			return mismatch(w.Value, g.Value)
		}
	case *types.AttributeValueMemberBS:
		g := got.(*types.AttributeValueMemberBS)
		if len(g.Value) != len(w.Value) {
			return mismatch(w.Value, g.Value)
		}
		for i := range w.Value {
			if !bytes.Equal(g.Value[i], w.Value[i]) {
				return mismatch(w.Value, g.Value)
			}
		}
	case *types.AttributeValueMemberL:
		g := got.(*types.AttributeValueMemberL)
		if len(g.Value) != len(w.Value) {
			return fmt.Sprintf("%s: %d elements, want %d", path, len(g.Value), len(w.Value))
		}
		for i := range w.Value {
			if d := diffValues(fmt.Sprintf("%s[%d]", path, i), w.Value[i], g.Value[i]); d != "" {
				return d
			}
		}
	case *types.AttributeValueMemberM:
		g := got.(*types.AttributeValueMemberM)
		if len(g.Value) != len(w.Value) {
			return fmt.Sprintf("%s: %d attributes, want %d", path, len(g.Value), len(w.Value))
		}
		for k, wv := range w.Value {
			gv, ok := g.Value[k]
			if !ok {
				return fmt.Sprintf("%s: attribute %q missing", path, k)
			}
			if d := diffValues(path+"."+k, wv, gv); d != "" {
				return d
			}
		}
	}
	return ""
}

// fuzzSource turns fuzz bytes into decisions; it yields zeros when exhausted
// so every input builds some item.
type fuzzSource struct{ b []byte }

func (f *fuzzSource) next() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

func (f *fuzzSource) take(n int) []byte {
	n = min(n, len(f.b))
	out := append([]byte{}, f.b[:n]...)
	f.b = f.b[n:]
	return out
}

// text is valid UTF-8, as every DynamoDB string and attribute name is.
func (f *fuzzSource) text() string {
	s := string(f.take(int(f.next() % 24)))
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

func (f *fuzzSource) digits(n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte('0' + f.next()%10)
	}
	return b.String()
}

// number builds number text DynamoDB accepts in many spellings: signs,
// leading zeros, bare points, exponents. At most 38 digits and an exponent
// in [-90, 88] keep every magnitude inside 1E-130 .. 1E+126.
func (f *fuzzSource) number() string {
	var b strings.Builder
	b.WriteString([]string{"", "-", "+", ""}[f.next()%4])
	intDigits := int(f.next() % 20)
	fracDigits := int(f.next() % 19)
	if intDigits+fracDigits == 0 {
		intDigits = 1
	}
	b.WriteString(f.digits(intDigits))
	if fracDigits > 0 || f.next()%4 == 0 {
		b.WriteByte('.')
		b.WriteString(f.digits(fracDigits))
	}
	if c := f.next(); c%3 == 0 {
		b.WriteString([]string{"e", "E", "e+", "E-", "e-", "E+"}[c/3%6])
		b.WriteString(strconv.Itoa(int(f.next()) % 89))
	}
	return b.String()
}

func (f *fuzzSource) value(depth int) types.AttributeValue {
	kind := f.next() % 10
	if depth >= 32 {
		kind %= 5 // DynamoDB nests at most 32 levels
	}
	switch kind {
	case 0:
		return valS(f.text())
	case 1:
		return valN(f.number())
	case 2:
		return valB(f.take(int(f.next() % 16)))
	case 3:
		return valBool(f.next()%2 == 0)
	case 4:
		return valNull()
	case 5:
		n := 1 + int(f.next()%4)
		seen := map[string]bool{}
		var ss []string
		for range n {
			if s := f.text(); !seen[s] {
				seen[s] = true
				ss = append(ss, s)
			}
		}
		return valSS(ss...)
	case 6:
		// Distinct integer parts keep the members distinct by value.
		n := 1 + int(f.next()%4)
		var ns []string
		for i := range n {
			s := strconv.Itoa(i + 1)
			if d := f.digits(int(f.next() % 5)); d != "" {
				s += "." + d
			}
			ns = append(ns, s)
		}
		return valNS(ns...)
	case 7:
		n := 1 + int(f.next()%4)
		seen := map[string]bool{}
		var bs [][]byte
		for range n {
			if b := f.take(int(f.next() % 8)); !seen[string(b)] {
				seen[string(b)] = true
				bs = append(bs, b)
			}
		}
		return valBS(bs...)
	case 8:
		n := int(f.next() % 4)
		l := []types.AttributeValue{}
		for range n {
			l = append(l, f.value(depth+1))
		}
		return valL(l...)
	default:
		n := int(f.next() % 4)
		m := map[string]types.AttributeValue{}
		for range n {
			m[f.text()] = f.value(depth + 1)
		}
		return &types.AttributeValueMemberM{Value: m}
	}
}

func (f *fuzzSource) item() itemcodec.Item {
	it := itemcodec.Item{}
	for n := 1 + int(f.next()%6); n > 0; n-- {
		it[f.text()] = f.value(1)
	}
	return it
}

func FuzzDynamoJSONRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("PK\x00CUST#42"))
	f.Add([]byte{9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte("\x05\x01\x13\x12\x00\x99\x12\x34\x56\x78\x90\xff\xfe\x80"))
	f.Add(bytes.Repeat([]byte{9, 1, 'a'}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		it := (&fuzzSource{b: data}).item()
		b := itemcodec.DynamoJSON(it)
		got, err := itemcodec.ParseDynamoJSON(b)
		if err != nil {
			t.Fatalf("ParseDynamoJSON(DynamoJSON(item)): %v\n%s", err, b)
		}
		if d := diffItems(it, got); d != "" {
			t.Fatalf("round trip changed the item: %s\n%s", d, b)
		}
		if p := itemcodec.PlainJSON(it); !json.Valid(p) {
			t.Fatalf("PlainJSON produced invalid JSON: %s", p)
		}
	})
}

// FuzzParseDynamoJSON feeds arbitrary text: it must never panic, and what
// it accepts must survive a second trip through DynamoJSON unchanged.
func FuzzParseDynamoJSON(f *testing.F) {
	f.Add(`{"PK":{"S":"CUST#42"},"n":{"N":"35"}}`)
	f.Add(`{"Item":{"a":{"M":{"b":{"L":[{"NS":["1","2"]},{"BS":["AQ=="]}]}}}}}`)
	f.Add(`{"a":{"N":"-.5e+3"},"b":{"NULL":true},"c":{"BOOL":false},"d":{"SS":["x"]}}`)
	f.Add(`{"a":{"S":"x","S":"y"}}`)
	f.Fuzz(func(t *testing.T, in string) {
		it, err := itemcodec.ParseDynamoJSON([]byte(in))
		if err != nil {
			return
		}
		b := itemcodec.DynamoJSON(it)
		again, err := itemcodec.ParseDynamoJSON(b)
		if err != nil {
			t.Fatalf("accepted %q but not its re-encoding %s: %v", in, b, err)
		}
		if d := diffItems(it, again); d != "" {
			t.Fatalf("second round trip changed the item: %s", d)
		}
		if p := itemcodec.PlainJSON(it); !json.Valid(p) {
			t.Fatalf("PlainJSON produced invalid JSON: %s", p)
		}
	})
}
