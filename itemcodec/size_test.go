package itemcodec_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// Constructors for attribute values, short enough to keep test tables legible.
func valS(s string) types.AttributeValue     { return &types.AttributeValueMemberS{Value: s} }
func valN(s string) types.AttributeValue     { return &types.AttributeValueMemberN{Value: s} }
func valB(b []byte) types.AttributeValue     { return &types.AttributeValueMemberB{Value: b} }
func valBool(b bool) types.AttributeValue    { return &types.AttributeValueMemberBOOL{Value: b} }
func valNull() types.AttributeValue          { return &types.AttributeValueMemberNULL{Value: true} }
func valSS(s ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: s} }
func valNS(s ...string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: s} }
func valBS(b ...[]byte) types.AttributeValue { return &types.AttributeValueMemberBS{Value: b} }
func valL(v ...types.AttributeValue) types.AttributeValue {
	if v == nil {
		v = []types.AttributeValue{}
	}
	return &types.AttributeValueMemberL{Value: v}
}

// valM takes name, value, name, value, ...
func valM(kv ...any) types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: m}
}

// The expected sizes below were measured on DynamoDB Local (padding an item
// until GetItem's consumed capacity steps over a 4 KB boundary);
// size_integration_test.go re-checks them against the server.
var numberSizeCases = []struct {
	in   string
	want int
}{
	{"0", 1},
	{"-0", 1},
	{"+0", 1},
	{"-0.000", 1},
	{"0e5", 1},
	{"-0.0e-5", 1},
	{"1", 2},
	{"+5", 2},
	{"007", 2},
	{"-1", 3},
	{"9", 2},
	{"10", 2},
	{"12", 2},
	{"99", 2},
	{"100", 2},
	{"101", 3},
	{"123", 3},
	{"1000", 2},
	{"1234", 3},
	{"12345", 4},
	{"-12", 3},
	{"-123", 4},
	{"1.5", 3},
	{"1.01", 3},
	{"10.1", 3},
	{"5.0", 2},
	{"5.", 2},
	{".5", 2},
	{"-.5", 3},
	{"0.5", 2},
	{"0.1", 2},
	{"0.01", 2},
	{"0.001", 2},
	{"0.12", 2},
	{"0.123", 3},
	{"-0.001", 3},
	{"00.100", 2},
	{"123.456", 5},
	{"1700000000000", 3},
	{"1.5E+10", 3},
	{"1.5e10", 3},
	{"-5.e3", 3},
	{"1e2", 2},
	{"1e3", 2},
	{"1E+1", 2},
	{"1E+0", 2},
	{"1e-0", 2},
	{"1e+05", 2},
	{"1e0005", 2},
	{"1e-130", 2},
	{"1E-130", 2},
	{"-1E-130", 3},
	{"1E+125", 2},
	{"9.9999999999999999999999999999999999999E+125", 20},
	{"-9.9999999999999999999999999999999999999E+125", 21},
	{"12345678901234567890123456789012345678", 20},
	{"1234567890123456789012345678901234567.8", 21},
	{"1234567890123456789012345678901234567800000", 21},
	{"0.000000000000000000000000000000000000000000001", 2},
}

func TestNumberSize(t *testing.T) {
	for _, c := range numberSizeCases {
		if got := itemcodec.NumberSize(c.in); got != c.want {
			t.Errorf("NumberSize(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestNumberSizeNotANumber(t *testing.T) {
	// DynamoDB refuses these, so any positive estimate will do; what matters
	// is that a size column on a hand-built item neither panics nor says 0.
	for _, s := range []string{"", "abc", "1e", "--5", "1.2.3", " 5", "NaN", "1e99999999999999999999999"} {
		if got := itemcodec.NumberSize(s); got < 1 {
			t.Errorf("NumberSize(%q) = %d, want a positive estimate", s, got)
		}
	}
}

func TestItemSize(t *testing.T) {
	tests := []struct {
		name string
		item itemcodec.Item
		want int
	}{
		{"empty item", itemcodec.Item{}, 0},
		{"string", itemcodec.Item{"a": valS("abc")}, 4},
		{"empty string", itemcodec.Item{"a": valS("")}, 1},
		{"two-byte rune", itemcodec.Item{"a": valS("é")}, 3},
		{"three-byte runes", itemcodec.Item{"a": valS("日本")}, 7},
		{"emoji", itemcodec.Item{"a": valS("😀")}, 5},
		{"multi-byte name", itemcodec.Item{"é": valS("")}, 2},
		{"name with space and dot", itemcodec.Item{"a b.c": valS("x")}, 6},
		{"number", itemcodec.Item{"n": valN("123.456")}, 6},
		{"binary", itemcodec.Item{"a": valB([]byte{1, 2, 3})}, 4},
		{"empty binary", itemcodec.Item{"a": valB([]byte{})}, 1},
		{"true", itemcodec.Item{"a": valBool(true)}, 2},
		{"false", itemcodec.Item{"a": valBool(false)}, 2},
		{"null", itemcodec.Item{"a": valNull()}, 2},
		{"string set", itemcodec.Item{"a": valSS("ab", "c")}, 4},
		{"number set", itemcodec.Item{"a": valNS("1", "-12", "1.5")}, 9},
		{"binary set", itemcodec.Item{"a": valBS([]byte{1, 2}, []byte{1, 2, 3})}, 6},
		{"empty list", itemcodec.Item{"a": valL()}, 4},
		{"list of one string", itemcodec.Item{"a": valL(valS("ab"))}, 7},
		{"list of numbers", itemcodec.Item{"a": valL(valN("1"), valN("2"), valN("3"))}, 13},
		{"list of null and bool", itemcodec.Item{"a": valL(valNull(), valBool(true))}, 8},
		{"empty map", itemcodec.Item{"a": valM()}, 4},
		{"map of one", itemcodec.Item{"a": valM("k", valS("ab"))}, 8},
		{"map of two", itemcodec.Item{"a": valM("kk", valS("ab"), "z", valN("1"))}, 13},
		{"nested map", itemcodec.Item{"a": valM("k", valM("k", valL()))}, 14},
		{"list of empty documents", itemcodec.Item{"a": valL(valL(), valM())}, 12},
		{"key attributes", itemcodec.Item{"PK": valS("CUST#42"), "SK": valS("PROFILE")}, 2 + 7 + 2 + 7},
		{"nil value", itemcodec.Item{"a": nil}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := itemcodec.ItemSize(tt.item); got != tt.want {
				t.Errorf("ItemSize = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestItemSizeDeepNesting(t *testing.T) {
	// Each level of {"m": {...}} adds 3 (document) + 1 (element) + 1 ("m").
	v := valS("x")
	for range 30 {
		v = valM("m", v)
	}
	if got, want := itemcodec.ItemSize(itemcodec.Item{"a": v}), 1+30*5+1; got != want {
		t.Errorf("ItemSize of 30 nested maps = %d, want %d", got, want)
	}
}

func TestItemSizeLarge(t *testing.T) {
	it := itemcodec.Item{"PK": valS("p"), "blob": valB(make([]byte, 400_000)), "text": valS(strings.Repeat("日", 1000))}
	if got, want := itemcodec.ItemSize(it), 2+1+4+400_000+4+3000; got != want {
		t.Errorf("ItemSize = %d, want %d", got, want)
	}
}

func TestAttributeSize(t *testing.T) {
	it := itemcodec.Item{"PK": valS("CUST#42"), "tags": valSS("a", "bc"), "n": valN("-1")}
	sum := 0
	for name, av := range it {
		sum += itemcodec.AttributeSize(name, av)
	}
	if got := itemcodec.ItemSize(it); sum != got {
		t.Errorf("attribute sizes add up to %d, ItemSize is %d", sum, got)
	}
	if got := itemcodec.AttributeSize("tags", valSS("a", "bc")); got != 7 {
		t.Errorf("AttributeSize(tags) = %d, want 7", got)
	}
}

func TestReadUnits(t *testing.T) {
	tests := []struct {
		bytes      int
		consistent float64
		eventual   float64
	}{
		{0, 1, 0.5}, // a GetItem of a missing item still costs a unit
		{1, 1, 0.5},
		{4095, 1, 0.5},
		{4096, 1, 0.5},
		{4097, 2, 1},
		{8192, 2, 1},
		{8193, 3, 1.5},
		{100 * 1024, 25, 12.5},
		{409600, 100, 50},
		{1 << 20, 256, 128},
	}
	for _, tt := range tests {
		if got := itemcodec.ReadUnits(tt.bytes, true); got != tt.consistent {
			t.Errorf("ReadUnits(%d, consistent) = %v, want %v", tt.bytes, got, tt.consistent)
		}
		if got := itemcodec.ReadUnits(tt.bytes, false); got != tt.eventual {
			t.Errorf("ReadUnits(%d, eventual) = %v, want %v", tt.bytes, got, tt.eventual)
		}
	}
}

// sizedItem returns an item of exactly n bytes (n >= 4).
func sizedItem(n int) itemcodec.Item {
	return itemcodec.Item{"PK": valS(strings.Repeat("x", n-2))}
}

func TestPageReadUnits(t *testing.T) {
	tests := []struct {
		name       string
		sizes      []int
		consistent float64
		eventual   float64
	}{
		{"empty page costs nothing on DynamoDB Local", nil, 0, 0},
		{"one small item", []int{10}, 1, 0.5},
		{"summed before rounding", []int{1500, 1500, 1096}, 1, 0.5},
		{"one byte over", []int{1500, 1500, 1097}, 2, 1},
		{"many tiny items", []int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, 1, 0.5},
		{"two 100 KB items", []int{100_000, 100_000}, 49, 24.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var items []itemcodec.Item
			for _, n := range tt.sizes {
				items = append(items, sizedItem(n))
			}
			if got := itemcodec.PageReadUnits(items, true); got != tt.consistent {
				t.Errorf("consistent = %v, want %v", got, tt.consistent)
			}
			if got := itemcodec.PageReadUnits(items, false); got != tt.eventual {
				t.Errorf("eventual = %v, want %v", got, tt.eventual)
			}
		})
	}
}
