package dynamo

import (
	"strings"
	"testing"
)

// An estimate stop names what stopped it: a read of far more items than
// DescribeTable counts (not "0.5 RCU, clearly more than 25 RCU"), pages
// that hold next to nothing (the endpoint, not stale size figures), or a
// spend past the bound (the size figures). Each is one sentence under 300
// characters.
func TestEstimateStopNamesItsCause(t *testing.T) {
	known := Estimate{Known: true, RCU: 25, Unit: 0.5, Items: 100}
	for _, tc := range []struct {
		name       string
		est        Estimate
		pages      []int // items each page scanned
		cost       float64
		want, lack string
	}{
		{"items", known, []int{1201}, 0.5, "stopped after reading 1201 items, far more than the 100 items DescribeTable counts: DescribeTable's size figures may be out of date", "clearly more than"},
		{"empty pages", Estimate{Known: true, RCU: 2, Unit: 0.5, Items: 100}, make([]int, 12), 0.5, "the endpoint sent 11 pages holding only 0 items between them, each charged DynamoDB's minimum", "size figures"},
		{"one item a page", Estimate{Known: true, RCU: 2, Unit: 0.5, Items: 100}, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 0.5, "the endpoint sent 11 pages holding only 11 items between them", "size figures"},
		{"spend", Estimate{Known: true, RCU: 2, Unit: 0.5, Items: 100}, []int{10, 10}, 4, "stopped after 8 RCU, clearly more than the 2 RCU announced: DescribeTable's size figures may be out of date", "the endpoint"},
	} {
		g := Guard{Est: tc.est}
		for _, n := range tc.pages {
			if g.Page(tc.cost, n) {
				break
			}
		}
		if !g.Over() {
			t.Fatalf("%s: not stopped: %+v", tc.name, g)
		}
		msg := g.Stop("query --all-pages").Error()
		if !strings.Contains(msg, tc.want) || strings.Contains(msg, tc.lack) {
			t.Errorf("%s: %s", tc.name, msg)
		}
		if len(msg) > 300 || strings.Count(msg, ". ") > 0 || !strings.HasSuffix(msg, ".") {
			t.Errorf("%s: not one sentence under 300 characters (%d): %s", tc.name, len(msg), msg)
		}
	}
}

// The endpoint's words in a sentence are cut to keep it at most
// MaxSentence characters, at a character's boundary.
func TestFitQuote(t *testing.T) {
	short := fitQuote("get X: ", "it failed", ".")
	if short != "get X: it failed." {
		t.Errorf("%q", short)
	}
	long := fitQuote("get X: DynamoDB rejected the request: ", strings.Repeat("é", 400), ".")
	if len(long) > MaxSentence || !strings.HasSuffix(long, "é….") {
		t.Errorf("%d bytes: %q", len(long), long)
	}
}
