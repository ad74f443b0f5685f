package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// memItems decodes every item in memory, in row order: for assertions.
func memItems(p itemsPane) []dynamo.Item {
	var out []dynamo.Item
	for r := range p.store.total {
		if it, ok := p.store.item(r); ok {
			out = append(out, it)
		}
	}
	return out
}

// everyType is an item with each attribute type, nested documents, empty
// values, and numbers at DynamoDB's 38 digits.
func everyType() dynamo.Item {
	return dynamo.Item{
		"PK":    &types.AttributeValueMemberS{Value: "CUST#42"},
		"SK":    &types.AttributeValueMemberS{Value: "ORDER#2025-03-01#A17"},
		"s":     &types.AttributeValueMemberS{Value: "naïve 日本 \x1b[31m\x00"},
		"empty": &types.AttributeValueMemberS{Value: ""},
		"n":     &types.AttributeValueMemberN{Value: "-12345678901234567890123456789012345678E-130"},
		"n38":   &types.AttributeValueMemberN{Value: "99999999999999999999999999999999999999"},
		"b":     &types.AttributeValueMemberB{Value: []byte{0, 1, 0xff, 0x80}},
		"t":     &types.AttributeValueMemberBOOL{Value: true},
		"f":     &types.AttributeValueMemberBOOL{Value: false},
		"null":  &types.AttributeValueMemberNULL{Value: true},
		"ss":    &types.AttributeValueMemberSS{Value: []string{"a", "ü", ""}},
		"ns":    &types.AttributeValueMemberNS{Value: []string{"1", "1.50", "-0.000000000000000000000000000000000000001"}},
		"bs":    &types.AttributeValueMemberBS{Value: [][]byte{{1}, {}, {0xfe, 0}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberN{Value: "1"},
			&types.AttributeValueMemberL{Value: []types.AttributeValue{}},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"deep": &types.AttributeValueMemberBOOL{Value: true}}},
		}},
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"":        &types.AttributeValueMemberS{Value: "empty key"},
			"nested":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
			"bin":     &types.AttributeValueMemberB{Value: []byte("x")},
			"numbers": &types.AttributeValueMemberNS{Value: []string{"3"}},
		}},
		"unknown": &types.UnknownUnionMember{Tag: "FUTURE", Value: []byte("?")},
	}
}

func roundTrip(t *testing.T, it dynamo.Item) {
	t.Helper()
	names := &nameTable{ids: map[string]uint32{}}
	b := encodeItem(names, it)
	got := decodeItem(names.names, b)
	if !reflect.DeepEqual(got, it) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", got, it)
	}
	// Each attribute alone decodes as itself too, by its name's id.
	for name, av := range it {
		if v, ok := decodeAttr(b, int(names.ids[name])); !ok || !reflect.DeepEqual(v, av) {
			t.Fatalf("attribute %q: got %#v, want %#v", name, v, av)
		}
	}
}

func TestItemStoreRoundTripEveryType(t *testing.T) {
	roundTrip(t, everyType())
	roundTrip(t, dynamo.Item{})
}

func TestItemStorePagesReleaseRestore(t *testing.T) {
	page := func(from, n int) []dynamo.Item {
		var out []dynamo.Item
		for i := from; i < from+n; i++ {
			out = append(out, dynamo.Item{"SK": s(fmt.Sprintf("ITEM#%03d", i)), "i": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}})
		}
		return out
	}
	var st itemStore
	st = st.add(page(0, 3), nil, 1, nil)
	st = st.add(page(3, 4), dynamo.Item{"SK": s("ITEM#002")}, 2, nil)
	st = st.add(page(7, 2), dynamo.Item{"SK": s("ITEM#006")}, 3, nil)
	if st.total != 9 || st.inMemory != 9 {
		t.Fatalf("total %d, in memory %d", st.total, st.inMemory)
	}
	for r := range 9 {
		it, ok := st.item(r)
		if !ok || keyOf(it, "SK") != fmt.Sprintf("ITEM#%03d", r) {
			t.Fatalf("row %d: %v %v", r, it, ok)
		}
	}
	kept := st
	st = st.release(1)
	if st.inMemory != 5 || st.total != 9 {
		t.Fatalf("after release: total %d, in memory %d", st.total, st.inMemory)
	}
	if _, ok := st.item(4); ok {
		t.Fatal("a released row still decodes")
	}
	if _, ok := kept.item(4); !ok {
		t.Fatal("releasing changed an earlier copy of the store")
	}
	if it, ok := st.item(7); !ok || keyOf(it, "SK") != "ITEM#007" {
		t.Fatalf("row after a released page: %v", it)
	}
	// Read again with one item fewer: the rows after it move up.
	st = st.restore(1, page(3, 3))
	if st.total != 8 || st.inMemory != 8 {
		t.Fatalf("after restore: total %d, in memory %d", st.total, st.inMemory)
	}
	if it, _ := st.item(6); keyOf(it, "SK") != "ITEM#007" {
		t.Fatalf("row 6 after restore: %v", it)
	}
}

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		hay, needle string
		want        bool
	}{
		{"SHIPPED", "hip", true},
		{"shipped", "HIP", true},
		{"ORDER#0000042", "r#00", true},
		{"abc", "", true},
		{"", "a", false},
		{"Straße", "SSE", false}, // ToLower does not expand ß
		{"Straße", "ße", true},
		{"ÅNGSTRÖM", "ström", true},
		{"\u212Aelvin", "kel", true}, // KELVIN SIGN lower-cases to k
		{"\u0130stanbul", "ist", true},
		{"bad\xffbyte", "\ufffdb", true},
		{"aaab", "aab", true},
		{"aab", "aaab", false},
	} {
		got := containsFold([]byte(c.hay), []rune(strings.ToLower(c.needle)))
		want := strings.Contains(strings.ToLower(c.hay), strings.ToLower(c.needle))
		if got != want || got != c.want {
			t.Errorf("containsFold(%q, %q) = %v, strings says %v, want %v", c.hay, c.needle, got, want, c.want)
		}
	}
}

func FuzzContainsFold(f *testing.F) {
	f.Add("SHIPPED", "hip")
	f.Add("\u212Aelvin", "k")
	f.Add("bad\xffbyte", "\xff")
	f.Fuzz(func(t *testing.T, hay, needle string) {
		got := containsFold([]byte(hay), []rune(strings.ToLower(needle)))
		if want := strings.Contains(strings.ToLower(hay), strings.ToLower(needle)); got != want {
			t.Fatalf("containsFold(%q, %q) = %v, want %v", hay, needle, got, want)
		}
	})
}

// FuzzItemStoreRoundTrip builds an item of every attribute type from the
// fuzzer's bytes and checks that encoding and decoding give it back exactly.
func FuzzItemStoreRoundTrip(f *testing.F) {
	f.Add([]byte("\x01\x02abc\x03\x04"), "ORDER#1", "-1.5e-10")
	f.Add([]byte{11, 12, 11, 12, 0, 1, 2, 3, 9, 10, 8}, "", "99999999999999999999999999999999999999")
	f.Fuzz(func(t *testing.T, shape []byte, str, num string) {
		g := &avGen{shape: shape, str: str, num: num}
		it := dynamo.Item{}
		for i := 0; len(g.shape) > 0 && i < 8; i++ {
			it[fmt.Sprintf("%s%d", str, i)] = g.value(0)
		}
		roundTrip(t, it)
	})
}

// avGen turns bytes into attribute values: each byte picks a type.
type avGen struct {
	shape    []byte
	str, num string
}

func (g *avGen) next() byte {
	if len(g.shape) == 0 {
		return 0
	}
	b := g.shape[0]
	g.shape = g.shape[1:]
	return b
}

func (g *avGen) value(depth int) types.AttributeValue {
	b := g.next()
	n := int(b>>4) % 4
	switch k := b % 12; {
	case k == 0:
		return &types.AttributeValueMemberS{Value: g.str}
	case k == 1:
		return &types.AttributeValueMemberN{Value: g.num}
	case k == 2:
		return &types.AttributeValueMemberB{Value: []byte(g.str)}
	case k == 3:
		return &types.AttributeValueMemberBOOL{Value: b&16 != 0}
	case k == 4:
		return &types.AttributeValueMemberNULL{Value: true}
	case k == 5:
		return &types.AttributeValueMemberSS{Value: strings.SplitN(g.str, "x", n+1)}
	case k == 6:
		return &types.AttributeValueMemberNS{Value: []string{g.num, g.num + "1"}[:n%2+1]}
	case k == 7:
		bs := [][]byte{}
		for i := range n {
			bs = append(bs, []byte(g.str[:min(i, len(g.str))]))
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case k == 8 && depth < 6:
		l := []types.AttributeValue{}
		for range n {
			l = append(l, g.value(depth+1))
		}
		return &types.AttributeValueMemberL{Value: l}
	case k == 9 && depth < 6:
		m := map[string]types.AttributeValue{}
		for i := range n {
			m[g.str[:min(i, len(g.str))]+fmt.Sprint(i)] = g.value(depth + 1)
		}
		return &types.AttributeValueMemberM{Value: m}
	case k == 10:
		return &types.UnknownUnionMember{Tag: g.num, Value: []byte(g.str)}
	}
	return &types.AttributeValueMemberS{Value: g.num + g.str}
}

func FuzzTextWidth(f *testing.F) {
	f.Add("plain ascii text of some length")
	f.Add("tab\there and DEL\x7f and esc\x1b[31m")
	f.Add("naïve 日本語 wide")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := textWidth(s), width(Sanitize(s)); got != want {
			t.Fatalf("textWidth(%q) = %d, want %d", s, got, want)
		}
	})
}
