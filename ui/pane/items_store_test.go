package pane

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/widget"
)

func TestItemStorePagesReleaseRestore(t *testing.T) {
	page := func(from, n int) []dynamo.Item {
		var out []dynamo.Item
		for i := from; i < from+n; i++ {
			out = append(out, dynamo.Item{"SK": s(fmt.Sprintf("ITEM#%03d", i)), "i": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}})
		}
		return out
	}
	var st ItemStore
	st = st.Add(page(0, 3), nil, 1, nil)
	st = st.Add(page(3, 4), dynamo.Item{"SK": s("ITEM#002")}, 2, nil)
	st = st.Add(page(7, 2), dynamo.Item{"SK": s("ITEM#006")}, 3, nil)
	if st.Total != 9 || st.InMemory != 9 {
		t.Fatalf("total %d, in memory %d", st.Total, st.InMemory)
	}
	for r := range 9 {
		it, ok := st.Item(r)
		if !ok || KeyOf(it, "SK") != fmt.Sprintf("ITEM#%03d", r) {
			t.Fatalf("row %d: %v %v", r, it, ok)
		}
	}
	kept := st
	st = st.Release(1)
	if st.InMemory != 5 || st.Total != 9 {
		t.Fatalf("after release: total %d, in memory %d", st.Total, st.InMemory)
	}
	if _, ok := st.Item(4); ok {
		t.Fatal("a released row still decodes")
	}
	if _, ok := kept.Item(4); !ok {
		t.Fatal("releasing changed an earlier copy of the store")
	}
	if it, ok := st.Item(7); !ok || KeyOf(it, "SK") != "ITEM#007" {
		t.Fatalf("row after a released page: %v", it)
	}
	// Read again with one item fewer: the rows after it move up.
	st = st.Restore(1, page(3, 3))
	if st.Total != 8 || st.InMemory != 8 {
		t.Fatalf("after restore: total %d, in memory %d", st.Total, st.InMemory)
	}
	if it, _ := st.Item(6); KeyOf(it, "SK") != "ITEM#007" {
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

func FuzzTextWidth(f *testing.F) {
	f.Add("plain ascii text of some length")
	f.Add("tab\there and DEL\x7f and esc\x1b[31m")
	f.Add("naïve 日本語 wide")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := textWidth(s), widget.Width(textfmt.Sanitize(s)); got != want {
			t.Fatalf("textWidth(%q) = %d, want %d", s, got, want)
		}
	})
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
