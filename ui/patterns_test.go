package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/patterns"
	"dynascope/ui/overlay"
)

// demoPatterns is a copy of the repository's dynascope.yaml in a temporary
// folder, loaded, with its path: tests that save write to the copy.
func demoPatterns(t *testing.T) (*patterns.PatternSet, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", patterns.PatternsFile))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), patterns.PatternsFile)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := patterns.LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	return set, path
}

// openWithPatterns opens CUST#42 with the demo patterns.
func openWithPatterns(t *testing.T, w, h int, more ...canned) (*harness, string) {
	t.Helper()
	set, path := demoPatterns(t)
	pages := append([]canned{{items: example(), cap: halfRCU()}}, more...)
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000",
		Patterns: set, PatternsPath: path}, w, h, pages...)
	return hs, path
}

// choosePattern opens the list and moves to the pattern of that name.
func choosePattern(hs *harness, name string) {
	hs.t.Helper()
	hs.keys("a", "g")
	for i, p := range hs.m.patterns.Patterns {
		if p.Name == name {
			for range i {
				hs.keys("j")
			}
			return
		}
	}
	hs.t.Fatalf("no pattern %q", name)
}

// The done-when of the patterns view: "latest order" for customer 42 is one
// Query that returns ORDER#2025-03-01#A17 for 0.5 RCU, shown as a hand-made
// query would be.
func TestPatternLatestOrder(t *testing.T) {
	latest := example()[1]
	hs, _ := openWithPatterns(t, 120, 35, canned{items: []dynamo.Item{latest}, last: latest, cap: halfRCU()})
	hs.keys("a")
	hs.contains("Access patterns · dynascope.yaml · 8", "customer with orders", "latest order", "open orders for a warehouse",
		"the newest order only, newest first with Limit 1", "GSI1", `pk = "CUST#{customerId}"`, "parameters: customerId (e.g. 42)")
	if l := hs.line("customer profile"); !strings.Contains(l, "GetItem") {
		t.Errorf("customer profile row = %q, want GetItem", l)
	}
	if l := hs.line("latest order "); !strings.Contains(l, "Query") {
		t.Errorf("latest order row = %q, want Query", l)
	}
	hs.keys("j", "enter")
	hs.contains("Run an access pattern", "customerId › 42", `sends Query PK = "CUST#42" AND begins_with(SK, "ORDER#") · rev · Limit 1 · eventual`)
	if n := len(hs.store.queries()); n != 1 {
		t.Fatalf("%d queries before the pattern ran", n)
	}
	hs.keys("enter")
	calls := hs.store.queries()
	if len(calls) != 2 {
		t.Fatalf("%d queries, want the page and the pattern", len(calls))
	}
	q := calls[1]
	if q.PK != "CUST#42" || q.SK.Op != dynamo.SKBeginsWith || q.SK.Values[0] != "ORDER#" || !q.Reverse || q.Limit != 1 || q.Index != "" {
		t.Fatalf("pattern sent %+v", q)
	}
	hs.contains(`Query PK = "CUST#42" AND begins_with(SK, "ORDER#")   ScanIndexForward=false  Limit=1`,
		"ORDER#2025-03-01#A17", "Items · 1+ loaded", `pattern "latest order": 1 item in 1 request, 0.5 RCU, more to read`)
	hs.lacks("ORDER#2025-01-09#A11  ")
	if l := hs.line("  2 Query"); !strings.Contains(l, "rev") || !strings.Contains(l, "Limit 1") || !strings.Contains(l, "0.5 RCU") {
		t.Errorf("request line = %q", l)
	}
	// The same partition: its entity types stay, Order (the demo file's
	// declared entity) marked.
	hs.contains("Entity types · 2", "› ▌ Order")
	// As a hand-made query: the next page on n, with the same Limit.
	hs.store.queue(canned{items: example()[:1], cap: halfRCU()})
	hs.keys("n")
	if c := hs.store.queries()[2]; c.Limit != 1 || !c.Reverse || keyOf(c.StartKey, "SK") != "ORDER#2025-03-01#A17" {
		t.Errorf("next page = %+v", c)
	}
	hs.contains("Items · 2 loaded")
}

// Parameters are prefilled from the example, tab moves between them, and
// what they make is previewed before anything is sent.
func TestPatternParameters(t *testing.T) {
	hs, _ := openWithPatterns(t, 120, 35, canned{items: pageOf("CUST#9", 0, 3), cap: halfRCU()})
	choosePattern(hs, "orders in a month")
	hs.keys("enter")
	hs.contains("customerId › 7", "month      › 2025-06", "nextMonth  › 2025-07",
		`sends Query PK = "CUST#7" AND SK BETWEEN "ORDER#2025-06" AND "ORDER#2025-07"`)
	hs.keys("ctrl+u")
	hs.typeText("9")
	hs.keys("tab", "tab", "backspace")
	hs.typeText("8")
	hs.contains(`sends Query PK = "CUST#9" AND SK BETWEEN "ORDER#2025-06" AND "ORDER#2025-08"`)
	hs.keys("shift+tab", "shift+tab", "shift+tab") // round to the last field
	// Letters type, into the field that has the focus, the last: j is not
	// a key here.
	hs.typeText("j")
	hs.contains("nextMonth  › 2025-08j")
	hs.keys("backspace")
	// esc goes back to the list, esc again closes it; nothing was sent.
	hs.keys("esc")
	hs.contains("Access patterns · dynascope.yaml")
	hs.keys("esc")
	hs.contains("Entity types")
	if n := len(hs.store.queries()); n != 1 {
		t.Fatalf("%d queries: editing parameters sent a request", n)
	}
	// Run it: another partition, shown afresh.
	choosePattern(hs, "orders in a month")
	hs.keys("enter", "ctrl+u")
	hs.typeText("9")
	hs.keys("enter")
	q := hs.store.queries()[1]
	if q.PK != "CUST#9" || q.SK.Op != dynamo.SKBetween || q.SK.Values[1] != "ORDER#2025-07" {
		t.Fatalf("pattern sent %+v", q)
	}
	hs.contains("PK = CUST#9", "Items · 3 loaded", "enter reads it all")
	hs.lacks("PROFILE")
	wantCount(t, hs, "partition", "?")
}

// A pattern that fixes the whole key is a GetItem through Store.GetItem:
// its item in the items pane, GetItem in the query line and the log.
func TestPatternGetItem(t *testing.T) {
	hs, _ := openWithPatterns(t, 120, 35, canned{items: example()[2:], cap: halfRCU()}, canned{items: example()[2:], cap: halfRCU()})
	choosePattern(hs, "customer profile")
	hs.keys("enter", "enter")
	gets := hs.store.getItems()
	if len(gets) != 1 || gets[0].PK != "CUST#42" || gets[0].SK != "PROFILE" || gets[0].Table != "App" {
		t.Fatalf("GetItems = %+v", gets)
	}
	if n := len(hs.store.queries()); n != 1 {
		t.Fatalf("%d queries: a GetItem pattern sent a Query", n)
	}
	hs.contains(`GetItem PK = "CUST#42" AND SK = "PROFILE"   ConsistentRead=false`, "Items · 1 loaded", "Ann",
		`pattern "customer profile": 1 item in 1 request, 0.5 RCU`, "› ▌ Customer")
	if l := hs.line("  2 GetItem"); !strings.Contains(l, "get") || !strings.Contains(l, "1/1") || !strings.Contains(l, "0.5 RCU table") {
		t.Errorf("log line = %q", l)
	}
	hs.contains("Σ 1 RCU · 2 requests")
	// Changing it makes it a Query on the same key.
	hs.keys("r")
	q := hs.store.queries()[1]
	if q.SK.Op != dynamo.SKEq || q.SK.Values[0] != "PROFILE" || !q.Reverse {
		t.Fatalf("r after the GetItem sent %+v", q)
	}
	hs.contains(`Query PK = "CUST#42" AND SK = "PROFILE"`)
	hs.lacks("ConsistentRead=false\n")
	if hs.m.get != nil {
		t.Error("the query line still describes the GetItem")
	}
}

// A pattern through an index reads that index, with its own key.
func TestPatternOnAnIndex(t *testing.T) {
	open := []dynamo.Item{{"PK": s("ORDER#A17"), "SK": s("ORDER"), "GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-03-01#A17")}}
	hs, _ := openWithPatterns(t, 120, 35, canned{items: open, cap: dynamo.Capacity{Total: 0.5, Indexes: map[string]float64{"GSI1": 0.5}}})
	choosePattern(hs, "open orders for a warehouse")
	hs.keys("enter", "enter")
	q := hs.store.queries()[1]
	if q.Index != "GSI1" || q.PK != "WH#1" || q.SK.Values[0] != "OPEN#" {
		t.Fatalf("pattern sent %+v", q)
	}
	hs.contains("index GSI1", `GSI1PK = "WH#1" AND begins_with(GSI1SK, "OPEN#")`, "OPEN#2025-03-01#A17", "0.5 RCU (GSI1 0.5)")
	if hs.m.index != "GSI1" || hs.m.schema.PK.Name != "GSI1PK" {
		t.Errorf("index %q, key %s: the UI did not move to the index", hs.m.index, hs.m.schema.PK.Name)
	}
}

// A pattern that does not fit the table is refused with its file and line,
// before any request.
func TestPatternThatDoesNotFitIsRefused(t *testing.T) {
	set, err := patterns.ParsePatterns("mine.yaml", []byte("patterns:\n  - name: by region\n    index: GSI9\n    pk: \"R#{r}\"\n    example: {r: \"eu\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Patterns: set, PatternsPath: "mine.yaml"}, 120, 35,
		canned{items: example(), cap: halfRCU()})
	hs.keys("a", "enter")
	hs.contains(`mine.yaml:3: pattern "by region": index "GSI9" does not exist on table App; its indexes are GSI1.`)
	if hs.m.mode().Name == "parameters" || len(hs.store.queries()) != 1 {
		t.Fatal("a pattern that does not fit the table was run")
	}
	// A parameter that makes a bad key is refused in the form.
	set, err = patterns.ParsePatterns("mine.yaml", []byte("patterns:\n  - name: by id\n    pk: \"{id}\"\n    example: {id: \"x\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	hs.m.patterns = set
	hs.keys("esc", "a", "enter", "ctrl+u", "enter")
	hs.contains("partition key PK")
	if len(hs.store.queries()) != 1 {
		t.Fatal("an empty partition key value was sent")
	}
}

// Without a patterns file the view says where patterns come from, and S
// says where a saved pattern would go and how.
func TestNoPatternsFile(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("a")
	hs.contains("No patterns file: there is no dynascope.yaml in this directory.", "--patterns FILE")
	hs.keys("enter", "esc", "S")
	hs.contains("no patterns file to save to: start dynascope with --patterns dynascope.yaml")
	if hs.m.topID() != overlay.None {
		t.Error("S opened a form with nowhere to save")
	}
}

// S saves the current request as a pattern: appended to the file, every
// other byte kept, the list updated; a name in use or no name is refused.
func TestSavePattern(t *testing.T) {
	hs, path := openWithPatterns(t, 120, 35, canned{items: example()[:2], cap: halfRCU()}, canned{items: example()[1:2], cap: halfRCU()})
	before, _ := os.ReadFile(path)
	hs.keys("j", "enter", "r", "S")
	hs.contains("Save as an access pattern", "name        › ", `Query: pk = "CUST#42", sk begins_with "ORDER#", newest first`)
	hs.keys("enter")
	hs.contains("give the pattern a name")
	hs.typeText("latest order")
	hs.keys("tab")
	hs.typeText("every order, newest first")
	hs.keys("enter")
	line := strings.Count(string(before[:strings.Index(string(before), "- name: latest order")]), "\n") + 1
	hs.containsFlowing(fmt.Sprintf("pattern of that name (line %d); choose another name.", line))
	hs.keys("shift+tab", "ctrl+u")
	hs.typeText("orders newest first")
	hs.keys("enter")
	hs.contains(`saved pattern "orders newest first" to /`) // the status bar may cut a long path short
	if want := `saved pattern "orders newest first" to ` + path; hs.m.status.Info != want {
		t.Errorf("status: %q, want %q", hs.m.status.Info, want)
	}
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), string(before)) {
		t.Fatal("saving changed the file's existing text")
	}
	added := string(after[len(before):])
	want := "\n  - name: orders newest first\n    description: every order, newest first\n    pk: \"CUST#42\"\n    sk: {begins_with: \"ORDER#\"}\n    reverse: true\n"
	if added != want {
		t.Errorf("added %q, want %q", added, want)
	}
	hs.keys("a")
	hs.contains("Access patterns · dynascope.yaml · 9", "orders newest first", "every order, newest first")
	if n := len(hs.store.queries()); n != 3 {
		t.Errorf("%d queries: saving sent a request", n)
	}
}

// A GetItem pattern's request saves as a pattern that fixes the whole key.
func TestSaveGetItemPattern(t *testing.T) {
	hs, path := openWithPatterns(t, 120, 35, canned{items: example()[2:], cap: halfRCU()})
	choosePattern(hs, "customer profile")
	hs.keys("enter", "enter", "S")
	hs.contains(`GetItem: pk = "CUST#42", sk eq "PROFILE"`)
	hs.typeText("ann's profile")
	hs.keys("enter")
	set, err := patterns.LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	p := set.Patterns[len(set.Patterns)-1]
	if p.Name != "ann's profile" || p.PK != "CUST#42" || p.SK.Op != dynamo.SKEq || p.SK.Values[0] != "PROFILE" {
		t.Fatalf("saved %+v", p)
	}
	if r, err := p.Resolve(appTable(), nil); err != nil || r.Get == nil {
		t.Errorf("the saved pattern resolves to %+v, %v; want a GetItem", r, err)
	}
}

// The file named on the command line may not exist yet: the first save
// creates it. The default file, missing, is no file; a broken one is an error.
func TestLoadPatterns(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "new.yaml")
	set, path, err := patterns.Open(missing, true)
	if err != nil || set == nil || path != missing || len(set.Patterns) != 0 {
		t.Errorf("given and missing: %+v, %q, %v", set, path, err)
	}
	set, path, err = patterns.Open(missing, false)
	if err != nil || set != nil || path != "" {
		t.Errorf("default and missing: %+v, %q, %v", set, path, err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("patterns:\n  - name: x\n    pk: \"A\"\n    revers: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := patterns.Open(broken, false); err == nil || !strings.Contains(err.Error(), "broken.yaml:4") {
		t.Errorf("broken file: %v", err)
	}
	// The first save creates the file named.
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Patterns: &patterns.PatternSet{Path: missing}, PatternsPath: missing}, 120, 35,
		canned{items: example(), cap: halfRCU()})
	hs.keys("a")
	hs.contains("new.yaml has no patterns yet")
	hs.keys("esc", "S")
	hs.typeText("whole customer")
	hs.keys("enter")
	if set, err := patterns.LoadPatterns(missing); err != nil || len(set.Patterns) != 1 || set.Patterns[0].PK != "CUST#42" {
		t.Fatalf("created file: %+v, %v", set, err)
	}
}

// A broken patterns file does not stop the UI: it starts, says what is
// wrong, and the patterns view says the file is broken.
func TestBrokenPatternsFileStillStarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), patterns.PatternsFile)
	if err := os.WriteFile(path, []byte("patterns: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, _, err := patterns.Open(path, false)
	if err == nil || set != nil {
		t.Fatal("the broken file loaded")
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", PatternsErr: err}, 120, 35, canned{items: example(), cap: halfRCU()})
	hs.contains("patterns file broken (a)", "READ-ONLY")
	hs.keys("a")
	hs.contains("The patterns file is broken, so no patterns are listed")
}

// A pattern's filter: goes with its Query, and the query line shows it as
// a hand-made filter would be shown.
func TestPatternWithFilter(t *testing.T) {
	path := filepath.Join(t.TempDir(), patterns.PatternsFile)
	src := "table: App\npatterns:\n  - name: open orders\n    pk: \"CUST#42\"\n    sk: {begins_with: \"ORDER#\"}\n    filter: 'status = \"OPEN\"'\n    attributes: [total]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := patterns.LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Patterns: set, PatternsPath: path}, 120, 35,
		canned{items: example(), cap: halfRCU()}, canned{items: example()[1:2], cap: halfRCU()})
	hs.keys("a")
	hs.contains(`filter "status = \"OPEN\""`)
	hs.keys("enter") // no parameters: it runs
	calls := hs.store.queries()
	if len(calls) != 2 || calls[1].Filter != `status = "OPEN"` || calls[1].SK.Op != dynamo.SKBeginsWith {
		t.Fatalf("pattern sent %+v", calls)
	}
	hs.contains(`filter status = "OPEN"`, "kept 1 of 1 read")
}
