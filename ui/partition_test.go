package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/ui/pane"
)

func openExample(t *testing.T, w, h int, more ...canned) *harness {
	t.Helper()
	pages := append([]canned{{items: example(), cap: halfRCU()}}, more...)
	return newHarness(t, Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}, w, h, pages...)
}

func TestOpenPartitionShowsEntityTypesAndItems(t *testing.T) {
	hs := openExample(t, 120, 35)
	calls := hs.store.queries()
	if len(calls) != 1 {
		t.Fatalf("opening a partition sent %d queries, want 1", len(calls))
	}
	if q := calls[0]; q.PK != "CUST#42" || q.SK.Op != dynamo.SKNone || q.Reverse || q.Limit != screenLimit(35) || q.StartKey != nil {
		t.Fatalf("first query = %+v, want the whole partition, forward, its first page sized to the screen", q)
	}
	// The first page is the whole partition: it tells every type and its
	// exact count, so no skip-scan is sent.
	if d := hs.store.discoveries(); len(d) != 0 {
		t.Fatalf("skip-scans = %+v, want none for a partition that fits one page", d)
	}
	hs.contains("Entity types · 2", "partition ", "ORDER#", "= PROFILE", "Items · 3 loaded",
		"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "Ann",
		`Query PK = "CUST#42"`, "ScanIndexForward=true", "READ-ONLY", "App", "base table", "us-east-1", "default profile",
		"1 page holds it all:", "no skip-scan needed")
	wantCount(t, hs, "partition", "3")
	wantCount(t, hs, "ORDER", "2")
	wantCount(t, hs, "PROFILE", "1")
	// One request, with its cost.
	hs.contains("Σ 0.5 RCU · 1 request ")
	hs.keys("L")
	if l := hs.line(`  1 Query`); !strings.Contains(l, "0.5 RCU table") || !strings.Contains(l, "3/3") || !strings.Contains(l, fmt.Sprintf("Limit %d", screenLimit(35))) {
		t.Errorf("request line = %q, want 3/3 items, the Limit of the screen and 0.5 RCU on the table", l)
	}
	// The types the page showed carry their first and last key.
	hs.keys("q", "j")
	hs.contains("from ORDER#2025-01-09#A11", "to   ORDER#2025-03-01#A17")
}

// The done-when flow of the issue: ORDER, reversed, Limit 1.
func TestBeginsWithReverseLimit(t *testing.T) {
	orders := example()[:2]
	hs := openExample(t, 120, 35,
		canned{items: orders, cap: halfRCU()},
		canned{items: []dynamo.Item{orders[1], orders[0]}, cap: halfRCU()},
		canned{items: orders[1:], last: dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}, cap: halfRCU()},
	)
	hs.keys("j", "enter")
	hs.contains(`PK = "CUST#42" AND begins_with(SK, "ORDER#")`)
	hs.keys("r")
	hs.keys("l", "1", "enter")

	calls := hs.store.queries()
	if len(calls) != 4 || len(hs.store.discoveries()) != 0 {
		t.Fatalf("%d queries and %d skip-scans, want 4 queries and no skip-scan", len(calls), len(hs.store.discoveries()))
	}
	want := dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}
	for i, q := range calls[1:] {
		if q.SK.Op != want.Op || len(q.SK.Values) != 1 || q.SK.Values[0] != "ORDER#" {
			t.Errorf("query %d condition = %+v, want %+v", i+2, q.SK, want)
		}
	}
	if calls[1].Reverse || !calls[2].Reverse || !calls[3].Reverse {
		t.Errorf("reverse flags = %v %v %v, want false true true", calls[1].Reverse, calls[2].Reverse, calls[3].Reverse)
	}
	if calls[3].Limit != 1 {
		t.Errorf("Limit = %d, want 1", calls[3].Limit)
	}
	hs.contains("ORDER#2025-03-01#A17", "ScanIndexForward=false  Limit=1", "Items · 1+ loaded")
	hs.lacks("ORDER#2025-01-09#A11  20")
	l := hs.line("  4 Query")
	if !strings.Contains(l, "rev") || !strings.Contains(l, "Limit 1") || !strings.Contains(l, "1/1") || !strings.Contains(l, "0.5 RCU") || !strings.Contains(l, "more") {
		t.Errorf("last request line = %q", l)
	}
	// The session total is the sum of the lines.
	sum := 0.0
	for _, r := range hs.m.log.Reqs {
		sum += r.Capacity.Total
	}
	hs.contains(fmt.Sprintf("Σ %s RCU · 4 requests", fmtRCU(sum)))
	if sum != 2 {
		t.Errorf("sum = %v, want 2 (four queries of 0.5 RCU)", sum)
	}
	// The latest order alone, for 0.5 RCU.
	if items := memItems(hs.m.items); len(items) != 1 || keyOf(items[0], "SK") != "ORDER#2025-03-01#A17" {
		t.Errorf("items = %v, want the latest order only", items)
	}
	if last := hs.m.log.Reqs[3]; last.Capacity.Total != 0.5 || last.Count != 1 {
		t.Errorf("last request = %+v, want 1 item for 0.5 RCU", last)
	}
	// The entity types keep describing the partition, ORDER marked as the current query.
	if hs.m.groups.active != 1 {
		t.Errorf("active group = %d, want 1 (ORDER)", hs.m.groups.active)
	}
	hs.contains("› ▌ ORDER")
}

func TestExactEntityTypeQueriesEquality(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example()[2:], cap: halfRCU()})
	hs.keys("G", "enter")
	q := hs.store.queries()[1]
	if q.SK.Op != dynamo.SKEq || q.SK.Values[0] != "PROFILE" {
		t.Fatalf("PROFILE ran %+v, want SK = PROFILE", q.SK)
	}
	hs.contains(`PK = "CUST#42" AND SK = "PROFILE"`)
}

func TestGroupCountsSayWhenPartial(t *testing.T) {
	var page []dynamo.Item
	for i := range 120 {
		page = append(page, dynamo.Item{"PK": s("CUST#7"), "SK": s(fmt.Sprintf("ORDER#2024-%03d", i))})
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#7"}, 120, 35,
		canned{items: append([]dynamo.Item{{"PK": s("CUST#7"), "SK": s("ADDRESS#HOME")}}, page...), last: page[119], cap: dynamo.Capacity{Total: 2, Table: 2}})
	if l := hs.line("ORDER    "); !strings.Contains(l, "120+") {
		t.Errorf("ORDER row = %q, want 120+", l)
	}
	if l := hs.line("ADDRESS   "); !strings.Contains(l, " 1│") || strings.Contains(l, "1+") {
		t.Errorf("ADDRESS row = %q, want a complete count of 1", l)
	}
	if l := hs.line("partition "); !strings.Contains(l, "121+") {
		t.Errorf("whole partition row = %q, want 121+", l)
	}
}

func pageOf(pk string, from, count int) []dynamo.Item {
	var out []dynamo.Item
	for i := from; i < from+count; i++ {
		out = append(out, dynamo.Item{"PK": s(pk), "SK": s(fmt.Sprintf("ORDER#%05d", i)), "total": n(fmt.Sprint(i))})
	}
	return out
}

// Scrolling near the end of what is loaded asks for the next page: once per
// LastEvaluatedKey, one request at a time, and the screen stays usable.
func TestScrollingLoadsNextPageOnce(t *testing.T) {
	p1, p2 := pageOf("CUST#7", 0, 100), pageOf("CUST#7", 100, 100)
	hs := newHarness(t, Options{Table: "App", PK: "CUST#7"}, 120, 35,
		canned{items: p1, last: p1[99], cap: dynamo.Capacity{Total: 1.5, Table: 1.5}},
		canned{items: p2, cap: dynamo.Capacity{Total: 1.5, Table: 1.5}},
	)
	hs.keys("tab")
	if len(hs.store.queries()) != 1 {
		t.Fatal("a page was loaded before the user scrolled")
	}
	// Move to within one screen of the end without running the reply yet.
	var pending tea.Cmd
	for range 80 {
		if cmd := hs.step(keyPress("j")); cmd != nil {
			if pending != nil {
				t.Fatal("a second page request while one is in flight")
			}
			pending = cmd
		}
	}
	if pending == nil || !hs.m.flight.busy(flightQuery) {
		t.Fatal("no next-page request near the end of the loaded items")
	}
	hs.contains("Query, page 2")
	// The cursor still moves while the page loads.
	before := hs.m.items.Cursor()
	hs.step(keyPress("k"))
	if hs.m.items.Cursor() != before-1 {
		t.Fatal("the items pane stopped responding while a page loads")
	}
	hs.run(pending)
	calls := hs.store.queries()
	if len(calls) != 2 {
		t.Fatalf("%d queries, want 2", len(calls))
	}
	if got := keyOf(calls[1].StartKey, "SK"); got != "ORDER#00099" {
		t.Errorf("ExclusiveStartKey SK = %q, want ORDER#00099", got)
	}
	hs.contains("Items · 200 loaded", "  2 Query")
	if l := hs.line("  2 Query"); !strings.Contains(l, "1.5 RCU") {
		t.Errorf("page 2 line = %q, want its own capacity", l)
	}
	// The partition is complete: scrolling to the end asks for nothing more.
	hs.keys("G")
	if len(hs.store.queries()) != 2 {
		t.Fatal("a request after the last page")
	}
}

func TestExplicitLimitPagesOnlyOnN(t *testing.T) {
	hs := openExample(t, 120, 35,
		canned{items: example()[:1], last: example()[0], cap: halfRCU()},
		canned{items: example()[1:2], last: example()[1], cap: halfRCU()},
	)
	hs.keys("l", "1", "enter", "tab", "G", "j", "j")
	if len(hs.store.queries()) != 2 {
		t.Fatalf("%d queries: scrolling loaded pages although the user set a Limit", len(hs.store.queries()))
	}
	hs.keys("n")
	calls := hs.store.queries()
	if len(calls) != 3 || calls[2].Limit != 1 || keyOf(calls[2].StartKey, "SK") != "ORDER#2025-01-09#A11" {
		t.Fatalf("n sent %+v, want Limit 1 from the LastEvaluatedKey", calls[len(calls)-1])
	}
	hs.contains("Items · 2+ loaded")
}

func TestEscCancelsAndKeepsWhatWasShown(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example()[:2], cap: halfRCU()})
	cmd := hs.step(keyPress("r"))
	if !hs.m.flight.busy(flightQuery) || !hs.m.query.Reverse {
		t.Fatal("r did not start a reversed query")
	}
	hs.send(keyPress("esc"))
	if hs.m.flight.busy(flightQuery) {
		t.Fatal("esc left the request in flight")
	}
	if hs.m.query.Reverse {
		t.Error("the query line still shows the cancelled request")
	}
	hs.contains("PROFILE", "Items · 3 loaded", "cancelled")
	// The late reply is logged but changes nothing on screen.
	hs.run(cmd)
	hs.contains("PROFILE", "Items · 3 loaded", "ScanIndexForward=true")
	if len(hs.m.log.Reqs) != 2 || hs.m.log.Reqs[1].Err == nil {
		t.Fatalf("log = %+v, want the cancelled request recorded with its error", hs.m.log.Reqs)
	}
}

func TestStaleReplyIsDropped(t *testing.T) {
	hs := openExample(t, 120, 35,
		canned{items: example()[2:], cap: halfRCU()},
		canned{items: example()[:1], cap: halfRCU()},
	)
	first := hs.step(keyPress("r"))  // id n
	second := hs.step(keyPress("c")) // id n+1 supersedes it, reversed and consistent
	hs.run(second)
	hs.contains("PROFILE", "ScanIndexForward=false  Limit=none  ConsistentRead=true", "Items · 1 loaded")
	hs.run(first) // arrives late; its context was cancelled
	hs.contains("ConsistentRead=true", "Items · 1 loaded", "PROFILE")
	hs.lacks("ORDER#2025-01-09#A11  DELIVERED")
	if len(hs.m.log.Reqs) != 3 || hs.m.log.Reqs[2].Err == nil {
		t.Errorf("log = %+v, want the superseded request logged with its error", hs.m.log.Reqs)
	}
}

func TestQueryErrorIsOneSentence(t *testing.T) {
	hs := openExample(t, 120, 35, canned{err: &dynamo.UserError{Msg: "query CUST#42 on App: throttled by DynamoDB after retries; wait and retry, or lower the request rate."}})
	hs.keys("r")
	hs.contains("✗ query CUST#42 on App: throttled by DynamoDB", "Items · 3 loaded", "ScanIndexForward=true")
}

func TestConditionEditor(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example()[:1], cap: halfRCU()})
	hs.keys("e")
	hs.contains("SK ›", "begins_with")
	hs.typeText(`between "ORDER#2025-01" and "ORDER#2025-02"`)
	hs.keys("enter")
	q := hs.store.queries()[1]
	if q.SK.Op != dynamo.SKBetween || q.SK.Values[0] != "ORDER#2025-01" || q.SK.Values[1] != "ORDER#2025-02" {
		t.Fatalf("condition = %+v", q.SK)
	}
	hs.contains(`PK = "CUST#42" AND SK BETWEEN "ORDER#2025-01" AND "ORDER#2025-02"`)
	// A bad condition is refused in place, before any request.
	hs.keys("e", "ctrl+u")
	hs.typeText(`between "A"`)
	hs.keys("enter")
	if len(hs.store.queries()) != 2 {
		t.Fatal("an invalid condition was sent")
	}
	hs.contains("between takes two values")
	hs.keys("esc")
	hs.lacks("between takes two values", "SK ›")
}

func TestParseCondition(t *testing.T) {
	for _, tc := range []struct {
		in   string
		op   dynamo.SKOp
		vals []string
		bad  bool
	}{
		{in: "", op: dynamo.SKNone},
		{in: "ORDER#", op: dynamo.SKBeginsWith, vals: []string{"ORDER#"}},
		{in: `begins_with "ORDER#"`, op: dynamo.SKBeginsWith, vals: []string{"ORDER#"}},
		{in: "BEGINS_WITH ORDER#", op: dynamo.SKBeginsWith, vals: []string{"ORDER#"}},
		{in: "= PROFILE", op: dynamo.SKEq, vals: []string{"PROFILE"}},
		{in: "<=ORDER$", op: dynamo.SKLe, vals: []string{"ORDER$"}},
		{in: ">= ORDER$", op: dynamo.SKGe, vals: []string{"ORDER$"}},
		{in: "< b", op: dynamo.SKLt, vals: []string{"b"}},
		{in: "> a", op: dynamo.SKGt, vals: []string{"a"}},
		{in: "between A and B", op: dynamo.SKBetween, vals: []string{"A", "B"}},
		{in: `between "x and y" and "z"`, op: dynamo.SKBetween, vals: []string{"x and y", "z"}},
		{in: `= "two words"`, op: dynamo.SKEq, vals: []string{"two words"}},
		{in: `= "say \"hi\""`, op: dynamo.SKEq, vals: []string{`say "hi"`}},
		{in: "between A", bad: true},
		{in: `= "open`, bad: true},
		{in: "=", bad: true},
		{in: `= "a" b`, bad: true},
	} {
		c, err := pane.ParseCondition(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseCondition(%q) = %+v, want an error", tc.in, c)
			}
			continue
		}
		if err != nil || c.Op != tc.op || strings.Join(c.Values, "|") != strings.Join(tc.vals, "|") {
			t.Errorf("parseCondition(%q) = %+v, %v; want %s %q", tc.in, c, err, tc.op, tc.vals)
		}
		if back, err := pane.ParseCondition(pane.FormatCondition(c)); err != nil || back.Op != c.Op || strings.Join(back.Values, "|") != strings.Join(c.Values, "|") {
			t.Errorf("format/parse of %+v gave %+v, %v", c, back, err)
		}
	}
}

func TestLimitEditorRefusesNonsense(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("l")
	hs.typeText("ten")
	hs.keys("enter")
	hs.contains("Limit is a whole number")
	if len(hs.store.queries()) != 1 {
		t.Fatal("a bad Limit was sent")
	}
}

func TestConsistentReadToggle(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example(), cap: dynamo.Capacity{Total: 1, Table: 1}})
	hs.keys("c")
	if q := hs.store.queries()[1]; !q.Consistent {
		t.Fatal("c did not ask for a strongly consistent read")
	}
	hs.contains("ConsistentRead=true", "1 RCU table")
}

func TestIndexSwitchAsksForTheIndexKey(t *testing.T) {
	open := []dynamo.Item{{"PK": s("ORDER#A17"), "SK": s("ORDER"), "GSI1PK": s("WH#1#OPEN"), "GSI1SK": s("2025-03-01#A17"), "total": n("35")}}
	hs := openExample(t, 120, 35, canned{items: open, cap: dynamo.Capacity{Total: 0.5, Indexes: map[string]float64{"GSI1": 0.5}}})
	hs.keys("i")
	hs.contains("Query the table or an index", "GSI1PK S / GSI1SK S")
	hs.keys("j", "enter")
	hs.contains("partition key GSI1PK")
	hs.typeText("WH#1#OPEN")
	hs.keys("enter")
	q := hs.store.queries()[1]
	if q.Index != "GSI1" || q.PK != "WH#1#OPEN" {
		t.Fatalf("query = %+v, want GSI1 WH#1#OPEN", q)
	}
	hs.contains(`GSI1PK = "WH#1#OPEN"`, "index GSI1", "IndexName=GSI1", "2025-03-01#A17", "0.5 RCU (GSI1 0.5)")
	// GSIs have no strongly consistent reads: refused before sending.
	hs.keys("c")
	if len(hs.store.queries()) != 2 {
		t.Fatal("a consistent read was sent to a GSI")
	}
	hs.contains("global secondary indexes do not support strongly consistent reads")
}

func TestFilterLoadedItemsLocally(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("/")
	hs.typeText("a17")
	hs.contains("filter ›", "Items · 3 loaded · /a17 matches 1", "ORDER#2025-03-01#A17")
	hs.lacks("ORDER#2025-01-09#A11  ")
	hs.keys("enter")
	if hs.m.focus != paneItems {
		t.Error("enter did not move to the filtered items")
	}
	hs.keys("esc")
	hs.contains("ORDER#2025-01-09#A11")
	if len(hs.store.queries()) != 1 {
		t.Fatal("filtering sent a request")
	}
}

func TestRequestLogExpands(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example(), cap: halfRCU()})
	hs.keys("r", "L")
	hs.contains("2 requests · 1 RCU", `  1 Query   first screen PK = "CUST#42"`, `  2 Query`)
	hs.keys("q")
	hs.contains("Entity types")
}

func TestHelpIsBuiltFromTheKeymap(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("?")
	hs.contains("reverse order", "set Limit", "next pane", "copy aws cli command", "filter loaded items")
	hs.lacks("attributes / JSON") // a detail-view key, disabled here
	hs.keys("esc")
	hs.contains("Entity types")
}

// Y copies the request as the aws CLI command that sends exactly it: one
// request, with --limit N as DynamoDB's Limit, never the CLI's own paging.
func TestCopyRequestAsAWSCommand(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example()[:2], cap: halfRCU()}, canned{items: example()[1:2], cap: halfRCU()})
	hs.keys("j", "enter", "r")
	hs.m.query.Limit = 1 // as if set with l; the copy does not send anything
	hs.keys("Y")
	if len(hs.clipped) != 1 {
		t.Fatalf("clipboard got %d writes", len(hs.clipped))
	}
	ks, _ := appTable().Schema("")
	to := codegen.CodeTarget{Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}
	want, err := codegen.QueryCode(codegen.LangCLI, ks, hs.m.query, to)
	if err != nil {
		t.Fatal(err)
	}
	if hs.clipped[0] != want {
		t.Errorf("command =\n%s\nwant\n%s", hs.clipped[0], want)
	}
	for _, part := range []string{"aws dynamodb query", "--table-name App", "--no-scan-index-forward", "--limit 1", "--no-paginate",
		"--return-consumed-capacity INDEXES", "--region us-east-1", "--endpoint-url http://127.0.0.1:8000", `":sk":{"S":"ORDER#"}`} {
		if !strings.Contains(hs.clipped[0], part) {
			t.Errorf("command lacks %q:\n%s", part, hs.clipped[0])
		}
	}
	for _, bad := range []string{"--max-items", "--page-size"} {
		if strings.Contains(hs.clipped[0], bad) {
			t.Errorf("command has %s, which pages with the CLI's own tokens:\n%s", bad, hs.clipped[0])
		}
	}
	hs.contains("copied the request as an aws dynamodb query command")
	// Without a Limit the UI sends none and reads one page: so does the command.
	hs.m.query.Limit = 0
	hs.keys("Y")
	if c := hs.clipped[len(hs.clipped)-1]; strings.Contains(c, "--limit") || !strings.Contains(c, "--no-paginate") {
		t.Errorf("command without Limit =\n%s", c)
	}
}

func TestQuitAndBack(t *testing.T) {
	hs := openExample(t, 120, 35)
	_, cmd := hs.m.Update(keyPress("q"))
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q did not quit where there is nothing to go back to")
	}
	_, cmd = hs.m.Update(keyPress("ctrl+c"))
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("ctrl+c did not quit")
	}
}

// After a next page fails, the items pane says how to try again (the
// error line keeps the error's one sentence), and G (or
// pgdn) does, as n does; before, G and pgdn did nothing.
func TestFailedNextPageRetriedByG(t *testing.T) {
	k := dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE")}
	more := []dynamo.Item{{"PK": s("CUST#42"), "SK": s("ZZZ#1")}}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42"}, 120, 35,
		canned{items: example(), last: k, cap: halfRCU()},
		canned{err: &dynamo.UserError{Msg: "query CUST#42 on App: the endpoint broke."}},
		canned{items: more, cap: halfRCU()},
	)
	hs.keys("tab") // the cursor near the end asks for page 2, which fails
	hs.contains("✗ query CUST#42 on App: the endpoint broke.", "next page failed: n retries")
	n0 := len(hs.store.queries())
	hs.keys("j")
	if n := len(hs.store.queries()); n != n0 {
		t.Fatalf("a line down asked again: %d queries, was %d", n, n0)
	}
	hs.keys("G")
	if n := len(hs.store.queries()); n != n0+1 {
		t.Fatalf("G sent %d queries, want 1", n-n0)
	}
	hs.contains("ZZZ#1")
	hs.lacks("next page failed")
}

// Pages that hold no item and only move the key on are followed on their
// own up to emptyPages in a row, then the items pane says so and n reads
// on, a page a press; a page with items lets the pages come on their own
// again. Before, the UI followed them as long as the server sent them
// (1,025 Query requests against the corpus's endless pages, stopped only
// by the key outgrowing DynamoDB's limit).
func TestEmptyPagesStopAskingOnTheirOwn(t *testing.T) {
	at := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#42"), "SK": s(sk)} }
	var pages []canned
	for i := range emptyPages + 1 {
		pages = append(pages, canned{last: at(fmt.Sprintf("A#%d", i)), cap: halfRCU()})
	}
	pages = append(pages, canned{items: example(), cap: halfRCU()})
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42"}, 120, 35, pages...)
	if n := len(hs.store.queries()); n != emptyPages {
		t.Fatalf("%d queries on their own, want %d", n, emptyPages)
	}
	hs.contains("Items · 0+ loaded · 4 empty pages: n reads on")
	hs.keys("n")
	if n := len(hs.store.queries()); n != emptyPages+1 {
		t.Fatalf("n sent %d queries, want 1", n-emptyPages)
	}
	hs.contains("Items · 0+ loaded · 5 empty pages: n reads on")
	hs.keys("n")
	hs.contains("Items · 3 loaded")
	hs.lacks("empty pages")
}
