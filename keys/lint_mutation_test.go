package keys

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lessNumber orders by value, then the wider text first ("07" before "7").
func TestLessNumberEdges(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"07", "7", true}, {"7", "07", false}, {"9", "10", true}, {"10", "9", false},
		{"12", "13", true}, {"13", "12", false}, {"7", "7", false}, {"007", "07", true},
	} {
		if got := lessNumber(tc.a, tc.b); got != tc.want {
			t.Errorf("lessNumber(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

// Two widths of unpadded numbers under one type are a finding, the pair
// out of order named; numbers of one width are not, nor ones past 40 digits.
func TestUnpaddedNumberFinding(t *testing.T) {
	lint := func(sks ...string) []Finding {
		var items []KeyItem
		for _, sk := range sks {
			items = append(items, KeyItem{PK: "CUST#1", SK: sk})
		}
		var out []Finding
		for _, f := range AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items}).Findings {
			if f.Rule == RuleUnpaddedNumber {
				out = append(out, f)
			}
		}
		return out
	}
	if f := lint("ORDER#9", "ORDER#10"); len(f) != 1 || !strings.Contains(f[0].Message, `1 to 2 digits without zero-padding, so "ORDER#10" sorts before "ORDER#9"`) {
		t.Errorf("9 and 10: %+v", f)
	}
	if f := lint("ORDER#10", "ORDER#11"); len(f) != 0 {
		t.Errorf("one width: %+v", f)
	}
	long := strings.Repeat("1", 40)
	if f := lint("ORDER#9", "ORDER#"+long); len(f) != 1 {
		t.Errorf("40 digits: %+v", f)
	}
	if f := lint("ORDER#9", "ORDER#"+long+"1"); len(f) != 0 {
		t.Errorf("41 digits: %+v", f)
	}
}

// An unpadded date is found only with plausible fields, at each edge.
func TestBadDateEdges(t *testing.T) {
	for k, bad := range map[string]bool{
		"1900-1-05": true, "2199-01-5": true, "1899-1-05": false, "2200-1-05": false,
		"2025-1-01": true, "2025-12-1": true, "2025-0-01": false, "2025-13-1": false,
		"2025-01-1": true, "2025-1-31": true, "2025-1-0": false, "2025-1-32": false,
	} {
		_, why := badDate(k)
		if (why == "is not zero-padded") != bad {
			t.Errorf("badDate(%q) = %q, want unpadded %v", k, why, bad)
		}
	}
}

// Of several numbered segments, the first by position, then by stem, is
// the one reported.
func TestUnpaddedNumberReportsFirstSlot(t *testing.T) {
	for _, tc := range []struct {
		sks  []string
		want string
	}{
		{[]string{"ORDER#A1#B10", "ORDER#A10#B1"}, `("ORDER#A1#B10", "ORDER#A10#B1")`},
		{[]string{"ORDER#B10", "ORDER#B1", "ORDER#A1", "ORDER#A10"}, `("ORDER#A1", "ORDER#A10")`},
		// By position first: the B of the first segment before the A of the second.
		{[]string{"ORDER#B1#A10", "ORDER#B10#A1"}, `("ORDER#B1#A10", "ORDER#B10#A1")`},
	} {
		var items []KeyItem
		for _, sk := range tc.sks {
			items = append(items, KeyItem{PK: "CUST#1", SK: sk})
		}
		var msgs []string
		for _, f := range AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items}).Findings {
			if f.Rule == RuleUnpaddedNumber {
				msgs = append(msgs, f.Message)
			}
		}
		if len(msgs) != 1 || !strings.Contains(msgs[0], tc.want) {
			t.Errorf("%q: %q, want one naming %s", tc.sks, msgs, tc.want)
		}
	}
}

// A day-month-year date is found only with fields a date can have, at each
// edge; "/" or a four-digit year makes it one.
func TestBadDateYearLastEdges(t *testing.T) {
	for k, bad := range map[string]bool{
		"1/1/2025": true, "31/12/2025": true, "12/31/2025": true, "0/1/2025": false, "1/0/2025": false,
		"32/1/2025": false, "1/32/2025": false, "13/13/2025": false, "13/12/2025": true, "12/13/2025": true,
		"01.02.2025": true, "01.02.25": false, "01/02/25": true, "01-02/2025": false,
	} {
		_, why := badDate(k)
		if (why == "puts the year last") != bad {
			t.Errorf("badDate(%q) = %q, want year-last %v", k, why, bad)
		}
	}
}

// Examples are the smallest item by sort key, then partition key.
func TestLessItem(t *testing.T) {
	for _, tc := range []struct {
		a, b KeyItem
		want bool
	}{
		{KeyItem{PK: "B", SK: "1"}, KeyItem{PK: "A", SK: "2"}, true},
		{KeyItem{PK: "A", SK: "2"}, KeyItem{PK: "B", SK: "1"}, false},
		{KeyItem{PK: "A", SK: "1"}, KeyItem{PK: "B", SK: "1"}, true},
		{KeyItem{PK: "B", SK: "1"}, KeyItem{PK: "A", SK: "1"}, false},
		{KeyItem{PK: "A", SK: "1"}, KeyItem{PK: "A", SK: "1"}, false},
	} {
		if got := lessItem(tc.a, tc.b); got != tc.want {
			t.Errorf("lessItem(%+v, %+v) = %v", tc.a, tc.b, got)
		}
	}
}

// The example of dates that do not sort is the least key holding one, also
// when that is the sample's first item.
func TestUnsortableDateExampleIsTheLeastKey(t *testing.T) {
	items := []KeyItem{{PK: "CUST#1", SK: "ORDER#01-02-2025"}, {PK: "CUST#1", SK: "ORDER#05-02-2025"}, {PK: "CUST#1", SK: "ORDER#03-02-2025"}}
	var found []Finding
	for _, f := range AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items}).Findings {
		if f.Rule == RuleUnsortableDate {
			found = append(found, f)
		}
	}
	if len(found) != 1 || found[0].Example.SK != "ORDER#01-02-2025" {
		t.Errorf("findings %+v, want one with the example ORDER#01-02-2025", found)
	}
}

// findings returns the layout's findings of one rule.
func findings(in LayoutInput, rule string) []Finding {
	var out []Finding
	for _, f := range AnalyzeLayout(in).Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// Of two keys alike under the rarest delimiter, the example is the one of
// the smaller partition key; of two delimiters as rare, the later one of
// Delimiters gives it.
func TestMixedDelimitersExampleTies(t *testing.T) {
	for _, first := range []string{"CUST#2", "CUST#1"} {
		other := map[string]string{"CUST#1": "CUST#2", "CUST#2": "CUST#1"}[first]
		items := []KeyItem{{PK: first, SK: "a/1"}, {PK: other, SK: "a/1"}, {PK: "CUST#1", SK: "ORDER#1"}, {PK: "CUST#1", SK: "ORDER#2"}, {PK: "CUST#1", SK: "ORDER#3"}}
		f := findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleMixedDelimiters)
		if len(f) != 1 || f[0].Example != (KeyRef{PK: "CUST#1", SK: "a/1", HasSK: true}) {
			t.Errorf("%s first: findings %+v, want one with the example CUST#1 / a/1", first, f)
		}
	}
	items := []KeyItem{{PK: "CUST#1", SK: "ORDER#1"}, {PK: "CUST#1", SK: "a/1"}}
	f := findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleMixedDelimiters)
	if len(f) != 1 || f[0].Example.SK != "a/1" {
		t.Errorf("findings %+v, want one with the example a/1 (\"/\" comes after \"#\")", f)
	}
}

// Sort keys without an entity prefix (over maxExactTypes exact keys, one
// type) beside a typed key are a finding; alone they are not.
func TestNoEntityPrefixBesideTypedKeys(t *testing.T) {
	var items []KeyItem
	for i := range maxExactTypes + 1 {
		items = append(items, KeyItem{PK: "CUST#1", SK: fmt.Sprintf("SETTING%c", 'A'+i)})
	}
	if f := findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleNoSharedPrefix); len(f) != 0 {
		t.Errorf("exact keys alone: %+v", f)
	}
	items = append(items, KeyItem{PK: "CUST#1", SK: "ORDER#1"})
	f := findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleNoSharedPrefix)
	want := `21 sort keys under CUST#* carry no entity prefix (e.g. "SETTINGA") beside typed keys ("ORDER#"): begins_with cannot select them`
	if len(f) != 1 || f[0].Message != want || f[0].Example.SK != "SETTINGA" {
		t.Errorf("findings %+v, want one: %s", f, want)
	}
	// Three of the typed keys' prefixes are named, in key order.
	for _, sk := range []string{"D#1", "B#1", "A#1", "C#1"} {
		items = append(items, KeyItem{PK: "CUST#1", SK: sk})
	}
	f = findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleNoSharedPrefix)
	if len(f) != 1 || !strings.Contains(f[0].Message, `beside typed keys ("A#", "B#", "C#"):`) {
		t.Errorf("findings %+v, want one naming A#, B#, C#", f)
	}
	// A library entity spread over unrelated keys in the same family: its
	// finding comes after the one of the keys without a prefix, as found.
	lib := LibraryEntity{Library: DynamoDBToolbox, Entity: "Order"}
	items = append(items, KeyItem{PK: "CUST#1", SK: "ORDER#2", Library: lib}, KeyItem{PK: "CUST#1", SK: "PURCHASE#2", Library: lib})
	f = findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleNoSharedPrefix)
	if len(f) != 2 || !strings.Contains(f[0].Message, "carry no entity prefix") || !strings.Contains(f[1].Message, "items of "+lib.String()) {
		t.Errorf("findings %+v, want the keys without a prefix, then the library entity", f)
	}
}

// Findings come in the order of Rules, then by family.
func TestFindingsOrder(t *testing.T) {
	var items []KeyItem
	items = append(items, partition("ORG#1", "ITEM#9", "ITEM#10", "ITEM#11", "ITEM#12")...)
	items = append(items, partition("CUST#1", "ITEM#9", "ITEM#10", "ADDRESS|HOME")...)
	if got, want := rules(AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})), []string{
		"unpadded-number@CUST#*", "unpadded-number@ORG#*", "mixed-delimiters@CUST#*",
	}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// The common prefix of two keys, one a prefix of the other.
func TestCommonPrefixLen(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"ab", "abc", 2}, {"abc", "ab", 2}, {"ab", "ab", 2}, {"", "a", 0}, {"ab", "b", 0}} {
		if got := commonPrefixLen(tc.a, tc.b); got != tc.want {
			t.Errorf("commonPrefixLen(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// hot builds partitions of the given sizes: "HOT#0" first, then "P#1"...
func hot(sizes ...int) []KeyItem {
	var items []KeyItem
	for p, n := range sizes {
		pk := fmt.Sprintf("P#%d", p)
		if p == 0 {
			pk = "HOT#0"
		}
		for i := range n {
			items = append(items, KeyItem{PK: pk, SK: fmt.Sprintf("ORDER#%04d", i)})
		}
	}
	return items
}

// A hot partition at each edge: hotMinPartitions partitions are enough; a
// share of exactly hotShare and exactly hotMedian× the median are hot;
// 7.5× the median is not.
func TestHotPartitionEdges(t *testing.T) {
	hotOnes := func(items []KeyItem) int {
		return len(findings(LayoutInput{PKType: "S", SKType: "S", Items: items}, RuleHotPartition))
	}
	if n := hotOnes(hot(10, 1, 1, 1, 1)); n != 1 {
		t.Errorf("5 partitions, one 10× the median: %d findings, want 1", n)
	}
	if n := hotOnes(hot(10, 1, 1, 1)); n != 0 {
		t.Errorf("4 partitions: %d findings, want 0", n)
	}
	tenth := []int{10}
	for range 90 {
		tenth = append(tenth, 1)
	}
	if n := hotOnes(hot(tenth...)); n != 1 {
		t.Errorf("10 of 100 items: %d findings, want 1", n)
	}
	if n := hotOnes(hot(15, 2, 2, 2, 2)); n != 0 {
		t.Errorf("7.5× the median: %d findings, want 0", n)
	}
}

// An item of exactly NearSizeLimit bytes is near the limit; of two
// largest items of one size the example is the smaller key, whichever
// came first.
func TestNearSizeLimitEdgesAndTies(t *testing.T) {
	near := func(items []KeyItem, pages ...PageRead) []Finding {
		return findings(LayoutInput{PKType: "S", SKType: "S", Items: items, Pages: pages}, RuleNearSizeLimit)
	}
	if f := near([]KeyItem{{PK: "DOC#1", SK: "BODY", Size: NearSizeLimit}, {PK: "DOC#1", SK: "META", Size: 10}}); len(f) != 1 {
		t.Errorf("an item of NearSizeLimit bytes: %+v", f)
	}
	for _, items := range [][]KeyItem{
		{{PK: "DOC#1", SK: "A", Size: 350 * 1024}, {PK: "DOC#1", SK: "B", Size: 350 * 1024}},
		{{PK: "DOC#1", SK: "B", Size: 350 * 1024}, {PK: "DOC#1", SK: "A", Size: 350 * 1024}},
	} {
		if f := near(items); len(f) != 1 || f[0].Example.SK != "A" {
			t.Errorf("%+v: %+v, want the example A", items, f)
		}
	}

	// Unmeasured: a page of n items and B bytes proves an item of B/n.
	unmeasured := []KeyItem{{PK: "DOC#1", SK: "A"}, {PK: "DOC#1", SK: "B"}, {PK: "DOC#1", SK: "C"}}
	if f := near(unmeasured, PageRead{First: 0, Count: 1, MinBytes: NearSizeLimit}); len(f) != 1 {
		t.Errorf("a page proving exactly NearSizeLimit: %+v", f)
	}
	if f := near(unmeasured, PageRead{First: 2, Count: 1, MinBytes: 390 * 1024}); len(f) != 1 || f[0].Example.SK != "C" {
		t.Errorf("a page of the sample's last item: %+v", f)
	}
	if f := near(unmeasured, PageRead{First: 0, Count: 0, MinBytes: 390 * 1024}, PageRead{First: 0, Count: 4, MinBytes: 4 * 390 * 1024}); len(f) != 0 {
		t.Errorf("pages of no items, or past the sample: %+v", f)
	}
	// Two pages proving as much: the first one read is kept.
	f := near(unmeasured, PageRead{First: 1, Count: 1, MinBytes: 390 * 1024}, PageRead{First: 2, Count: 1, MinBytes: 390 * 1024})
	if len(f) != 1 || f[0].Example.SK != "B" {
		t.Errorf("two pages alike: %+v, want the example B", f)
	}
}
