package keys

import (
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
