package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
	"dynascope/patterns"
)

// indexedPatterns read the KEYS_ONLY and INCLUDE indexes of indexedUITable.
const indexedPatterns = `table: Indexed
patterns:
  - name: customer with orders
    pk: "CUST#{customerId}"
    example: {customerId: "42"}
  - name: open queue with totals
    index: Queue
    pk: "WH#{wh}"
    attributes: [status, total]
    example: {wh: "1"}
  - name: delivered with a note
    index: ByStatus
    pk: DELIVERED
    filter: 'contains(note, "{word}")'
    example: {word: gift}
  - name: delivered above
    index: ByStatus
    pk: DELIVERED
    filter: 'total > {min}'
    attributes: [total]
    example: {min: "30"}
`

// indexedUITable has a KEYS_ONLY GSI and a GSI that includes total.
func indexedUITable() dynamo.Table {
	t := appTable()
	t.Name = "Indexed"
	t.Indexes = append(t.Indexes,
		dynamo.Index{Name: "Queue", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "KEYS_ONLY"},
		dynamo.Index{Name: "ByStatus", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "status", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, Projection: "INCLUDE", NonKeyAttr: []string{"total"}})
	return t
}

// openIndexed opens CUST#42 of the Indexed table with indexedPatterns.
func openIndexed(t *testing.T, w, h int, more ...canned) *harness {
	t.Helper()
	path := filepath.Join(t.TempDir(), patterns.PatternsFile)
	if err := os.WriteFile(path, []byte(indexedPatterns), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := patterns.LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	fs := &fakeStore{tables: map[string]dynamo.Table{"Indexed": indexedUITable()}, names: []string{"Indexed"}, disc: map[string]cannedDiscovery{}}
	fs.queue(append([]canned{{items: example(), cap: halfRCU()}}, more...)...)
	hs := newHarnessOn(t, Options{Table: "Indexed", PK: "CUST#42", Store: fs, Patterns: set, PatternsPath: path}, w, h)
	hs.store = fs
	return hs
}

// flat is the screen's text with the box borders and line breaks gone, so
// that a wrapped sentence reads as one.
func flat(screen string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ").Replace(screen)), " ")
}

// The patterns view shows patterns check's verdict beside each pattern its
// index does not serve, and the selected one's note, in check's words,
// from the DescribeTable the UI holds: no request; nothing is cut at either
// size.
func TestPatternsViewShowsTheProjectionVerdict(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		hs := openIndexed(t, sz[0], sz[1])
		sent := len(hs.store.queries())
		hs.keys("a")
		choosePattern(hs, "open queue with totals")
		got := flat(hs.screen())
		for _, want := range []string{
			"⚠ a GetItem per item: Queue does not project status, total",
			"⚠ not sent: DynamoDB refuses a filter on note, which ByStatus does not project",
			"Queue (KEYS_ONLY) does not project status, total: each item would need a GetItem on the base table, so the pattern is not one request.",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%dx%d: missing %q in\n%s", sz[0], sz[1], want, hs.screen())
			}
		}
		if strings.Contains(hs.screen(), "…") && sz[0] == 120 {
			t.Errorf("120x35: something is cut:\n%s", hs.screen())
		}
		// An index that gives the pattern what it needs: no verdict, and
		// the footer says so.
		choosePattern(hs, "delivered above")
		if l := hs.line("delivered above "); strings.Contains(l, "⚠") {
			t.Errorf("delivered above row = %q", l)
		}
		if got := flat(hs.screen()); !strings.Contains(got, "ByStatus (INCLUDE) projects every attribute the pattern needs.") {
			t.Errorf("%dx%d: no note for delivered above:\n%s", sz[0], sz[1], hs.screen())
		}
		if n := len(hs.store.queries()); n != sent {
			t.Errorf("the patterns view sent %d requests", n-sent)
		}
	}
}

// A pattern run from the UI keeps its index's note with its results, the
// item count in it as check gives it; a filter DynamoDB would refuse on
// what the index does not hold is not sent.
func TestPatternRunKeepsTheProjectionNote(t *testing.T) {
	queue := []dynamo.Item{
		{"GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-03-01#A17"), "PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")},
		{"GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-03-02#A18"), "PK": s("CUST#7"), "SK": s("ORDER#2025-03-02#A18")},
	}
	hs := openIndexed(t, 80, 24, canned{items: queue, cap: halfRCU()})
	hs.keys("a")
	choosePattern(hs, "open queue with totals")
	hs.keys("enter", "enter")
	calls := hs.store.queries()
	if len(calls) != 2 || calls[1].Index != "Queue" || calls[1].PK != "WH#1" {
		t.Fatalf("queries %+v", calls)
	}
	note := "Queue (KEYS_ONLY) does not project status, total: each item would need a GetItem on the base table (2 more requests here), so the pattern is not one request."
	if got := flat(hs.screen()); !strings.Contains(got, note) || !strings.Contains(got, "OPEN#2025-03-02#A18") {
		t.Errorf("no note with the results:\n%s", hs.screen())
	}
	// Moving on in the results keeps it; a hand-made request drops it.
	hs.keys("j")
	if !strings.Contains(flat(hs.screen()), note) {
		t.Errorf("the note went on j:\n%s", hs.screen())
	}
	hs.store.queue(canned{items: example(), cap: halfRCU()})
	m, cmd := hs.m.runQuery(dynamo.QueryInput{Table: "Indexed", PK: "CUST#42"})
	hs.m = m
	hs.run(cmd)
	if strings.Contains(flat(hs.screen()), "does not project") {
		t.Errorf("the note outlived its results:\n%s", hs.screen())
	}

	// The refused one: said, not sent, with or without its form.
	before := len(hs.store.queries())
	hs.keys("a")
	choosePattern(hs, "delivered with a note")
	hs.keys("enter")
	hs.contains("not sent: DynamoDB refuses a filter on note, which ByStatus does not")
	if n := len(hs.store.queries()); n != before {
		t.Errorf("a refused pattern sent %d requests", n-before)
	}
}

// A filter's parameters are asked for with the keys', previewed filled in
// (each value one value of the filter), and a bare one takes a number.
func TestPatternFilterParameters(t *testing.T) {
	hs := openIndexed(t, 120, 35, canned{items: example()[:2], cap: halfRCU()})
	hs.keys("a")
	choosePattern(hs, "delivered above")
	hs.keys("enter")
	hs.contains("min  › 30", `sends Query status = "DELIVERED" · fwd · no Limit · eventual · ByStatus · filter total > 30`,
		"ByStatus (INCLUDE) projects every attribute the pattern needs.")
	hs.keys("ctrl+u")
	hs.typeText("lots")
	hs.contains(`the filter compares {min} as a number (it is not in quotes), and "lots" is not a number`)
	before := len(hs.store.queries())
	hs.keys("enter")
	if n := len(hs.store.queries()); n != before {
		t.Fatalf("a refused value sent %d requests", n-before)
	}
	hs.keys("ctrl+u")
	hs.typeText("-2.5")
	hs.keys("enter")
	calls := hs.store.queries()
	if q := calls[len(calls)-1]; q.Filter != "total > -2.5" || q.Index != "ByStatus" {
		t.Errorf("sent %+v", q)
	}
}

// Snapshots of the patterns view with patterns check's verdicts, and of a
// pattern's results with its index's note, at the two usual sizes.
func TestGoldenPatternsProjection(t *testing.T) {
	queue := []dynamo.Item{
		{"GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-03-01#A17"), "PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")},
	}
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("list/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openIndexed(t, sz[0], sz[1])
			hs.keys("a")
			choosePattern(hs, "open queue with totals")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("run/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openIndexed(t, sz[0], sz[1], canned{items: queue, cap: halfRCU()})
			hs.keys("a")
			choosePattern(hs, "open queue with totals")
			hs.keys("enter", "enter")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
}
