package itemcodec

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// everyType is an item with each attribute type, nested documents, empty
// values, and numbers at DynamoDB's 38 digits.
func everyType() Item {
	return Item{
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

func roundTrip(t *testing.T, it Item) {
	t.Helper()
	names := NewNames()
	b := EncodeItem(names, it)
	got := DecodeItem(names.List(), b)
	if !reflect.DeepEqual(got, it) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", got, it)
	}
	// Each attribute alone decodes as itself too, by its name's id.
	for name, av := range it {
		if v, ok := DecodeAttr(b, int(names.ID(name))); !ok || !reflect.DeepEqual(v, av) {
			t.Fatalf("attribute %q: got %#v, want %#v", name, v, av)
		}
	}
}

func TestBinaryRoundTripEveryType(t *testing.T) {
	roundTrip(t, everyType())
	roundTrip(t, Item{})
}

// FuzzBinaryRoundTrip builds an item of every attribute type from the
// fuzzer's bytes and checks that encoding and decoding give it back exactly.
func FuzzBinaryRoundTrip(f *testing.F) {
	f.Add([]byte("\x01\x02abc\x03\x04"), "ORDER#1", "-1.5e-10")
	f.Add([]byte{11, 12, 11, 12, 0, 1, 2, 3, 9, 10, 8}, "", "99999999999999999999999999999999999999")
	f.Fuzz(func(t *testing.T, shape []byte, str, num string) {
		g := &avGen{shape: shape, str: str, num: num}
		it := Item{}
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
