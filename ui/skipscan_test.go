package ui

import (
	"fmt"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/keys"
)

// bigPartition is the first page of CUST#7 when it is too big for one: two
// addresses and the first 98 of its orders, and more to come.
func bigPartition() canned {
	items := []dynamo.Item{
		{"PK": s("CUST#7"), "SK": s("ADDRESS#HOME"), "city": s("Oslo")},
		{"PK": s("CUST#7"), "SK": s("ADDRESS#WORK"), "city": s("Bergen")},
	}
	items = append(items, pageOf("CUST#7", 0, 98)...)
	return canned{items: items, last: items[len(items)-1], cap: dynamo.Capacity{Total: 128.5, Table: 128.5}}
}

// bigDiscovery is the skip-scan of CUST#7: four types, one of them (RETURN)
// far past the first page, in eight requests.
func bigDiscovery() dynamo.Discovery {
	r := func(cond string, fwd bool, n int32) dynamo.Request {
		return skipReq(`PK = "CUST#7"`+cond, fwd, n, 0.5)
	}
	return dynamo.Discovery{KeyType: "S", Delimiter: "#",
		Groups: []keys.Group{
			{Entity: "ADDRESS", Prefix: "ADDRESS#", Kind: keys.KindLabel, Count: -1, First: "ADDRESS#HOME", Last: "ADDRESS#WORK"},
			{Entity: "ORDER", Prefix: "ORDER#", Kind: keys.KindLabel, Count: -1, First: "ORDER#00000", Last: "ORDER#03999"},
			{Entity: "PROFILE", Prefix: "PROFILE", Kind: keys.KindLabel, Exact: true, Count: -1, First: "PROFILE", Last: "PROFILE"},
			{Entity: "RETURN", Prefix: "RETURN#", Kind: keys.KindLabel, Count: -1, First: "RETURN#0001", Last: "RETURN#0042"},
		},
		Requests: []dynamo.Request{
			r("", true, 1),
			r(` AND begins_with(SK, "ADDRESS#")`, false, 1),
			r(` AND SK >= "ADDRESS$"`, true, 1),
			r(` AND begins_with(SK, "ORDER#")`, false, 1),
			r(` AND SK >= "ORDER$"`, true, 1),
			r(` AND SK > "PROFILE"`, true, 1),
			r(` AND begins_with(SK, "RETURN#")`, false, 1),
			r(` AND SK >= "RETURN$"`, true, 0),
		}}
}

func openBig(t *testing.T, w, h int, more ...canned) *harness {
	t.Helper()
	return newHarnessDisc(t, Options{Table: "App", PK: "CUST#7"}, w, h,
		map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}}, append([]canned{bigPartition()}, more...)...)
}

// groupRow is the entity-types pane's first line for a type.
func groupRow(hs *harness, name string) string {
	hs.t.Helper()
	for _, l := range strings.Split(hs.screen(), "\n") {
		left := strings.Split(l, "││")[0]
		if strings.HasPrefix(l, "│") && strings.Contains(left, "▌ "+name+" ") {
			return strings.TrimSpace(strings.Trim(left, "│"))
		}
	}
	hs.t.Fatalf("no entity type %s:\n%s", name, hs.screen())
	return ""
}

func wantCount(t *testing.T, hs *harness, name, count string) {
	t.Helper()
	if row := groupRow(hs, name); !strings.HasSuffix(row, " "+count) {
		t.Errorf("%s row = %q, want count %s", name, row, count)
	}
}

// The sum of the capacity of every request line, as the log holds them.
func logSum(hs *harness) float64 {
	sum := 0.0
	for _, r := range hs.m.log.Reqs {
		sum += r.Capacity.Total
	}
	return sum
}

// A partition bigger than a page shows every type the skip-scan found at
// once, with what the loaded items say of each count.
func TestBigPartitionShowsAllTypesBeforeItemsLoad(t *testing.T) {
	hs := openBig(t, 120, 35)
	hs.contains("Entity types · 4", "Items · 100+ loaded", "ADDRESS#", "ORDER#", "= PROFILE", "RETURN#")
	wantCount(t, hs, "partition", "100+")
	wantCount(t, hs, "ADDRESS", "2") // the loaded items go past it
	wantCount(t, hs, "ORDER", "98+") // loading stopped inside it
	wantCount(t, hs, "PROFILE", "1") // one key value on the table: one item
	wantCount(t, hs, "RETURN", "?")  // not loaded yet
	if q := hs.store.queries(); len(q) != 1 || q[0].Limit != screenLimit(35) {
		t.Fatalf("queries = %+v, want one page sized to the screen", q)
	}
	// Every request of the skip-scan is in the log with its own cost, and the
	// session total is the sum of the lines.
	if n := len(hs.m.log.Reqs); n != 9 {
		t.Fatalf("%d requests logged, want the page and 8 of the skip-scan", n)
	}
	if got := logSum(hs); got != 132.5 {
		t.Errorf("sum of the lines = %v, want 132.5", got)
	}
	hs.contains("Σ 132.5 RCU · 9 requests")
	hs.keys("L")
	for i := 2; i <= 9; i++ {
		if l := hs.line(fmt.Sprintf("  %d Query", i)); !strings.Contains(l, "skip-scan") || !strings.Contains(l, "0.5 RCU table") || !strings.Contains(l, "Limit 1") {
			t.Errorf("skip-scan line %d = %q", i, l)
		}
	}
	hs.keys("q")
	// The selected type shows its first and last key; the partition, the skip-scan's cost.
	hs.contains("skip-scan: 4 types in", "8 requests, 4 RCU")
	hs.keys("j", "j")
	hs.contains("from ORDER#00000", "to   ORDER#03999", "# counts it exactly")
	// The next page completes ORDER's count and RETURN's.
	hs.store.queue(canned{items: append(pageOf("CUST#7", 98, 3902), dynamo.Item{"PK": s("CUST#7"), "SK": s("PROFILE")},
		dynamo.Item{"PK": s("CUST#7"), "SK": s("RETURN#0001")}, dynamo.Item{"PK": s("CUST#7"), "SK": s("RETURN#0042")}), cap: halfRCU()})
	hs.keys("n")
	wantCount(t, hs, "ORDER", "4000")
	wantCount(t, hs, "RETURN", "2")
	wantCount(t, hs, "partition", "4005")
}

// Opening a partition sends its first page alone; the skip-scan follows
// only when that page says there is more, and the page's types show with
// their counts meanwhile.
func TestSkipScanOnlyWhenTheFirstPageIsIncomplete(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 35, map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}}, bigPartition())
	hs.typeText("CUST#7")
	page := hs.pageOfCmd(hs.step(keyPress("enter")))
	if hs.m.flight.id(flightDiscover) != 0 || len(hs.store.discoveries()) != 0 {
		t.Fatal("opening sent a skip-scan beside the first page")
	}
	hs.contains("Query")
	hs.lacks("skip-scan")
	disc := hs.step(page)
	if disc == nil || hs.m.flight.id(flightDiscover) == 0 {
		t.Fatal("a first page with a LastEvaluatedKey did not start the skip-scan")
	}
	hs.contains("skip-scan: finding types…", "Items · 100+ loaded")
	hs.lacks("RETURN#")
	wantCount(t, hs, "ORDER", "98+")
	wantCount(t, hs, "ADDRESS", "2")
	hs.run(disc)
	hs.contains("Entity types · 4", "RETURN#")
	wantCount(t, hs, "RETURN", "?")
	wantCount(t, hs, "PROFILE", "1")
	if d := hs.store.discoveries(); len(d) != 1 || d[0].Delimiter != "#" {
		t.Errorf("skip-scans = %+v, want one, with the delimiter the first page showed", d)
	}
	// Running the whole partition again does not repeat it.
	hs.store.queue(bigPartition())
	hs.keys("r")
	if n := len(hs.store.discoveries()); n != 1 {
		t.Errorf("%d skip-scans, want the first one only", n)
	}
}

func TestCountOnRequest(t *testing.T) {
	k := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#7"), "SK": s(sk)} }
	hs := openBig(t, 120, 35,
		canned{count: 1700, last: k("ORDER#01699"), cap: dynamo.Capacity{Total: 128.5, Table: 128.5}},
		canned{count: 1700, last: k("ORDER#03399"), cap: dynamo.Capacity{Total: 128.5, Table: 128.5}},
		canned{count: 600, cap: dynamo.Capacity{Total: 38, Table: 38}},
	)
	hs.keys("j", "j", "#")
	// Announced with its bounds, nothing sent.
	if n := len(hs.store.queries()); n != 1 {
		t.Fatalf("%d queries before the count was confirmed", n)
	}
	hs.contains("? count ORDER: reads every ORDER item — at least", "(98 loaded,", "at most", "(whole table, 3.2 MiB", "per DescribeTable)", "y/enter count", "esc don't count")
	hs.keys("y")
	calls := hs.store.queries()
	if len(calls) != 4 {
		t.Fatalf("%d queries, want the page and 3 of the count", len(calls))
	}
	for i, q := range calls[1:] {
		if !q.CountOnly || q.SK.Op != dynamo.SKBeginsWith || q.SK.Values[0] != "ORDER#" || q.Limit != 0 {
			t.Errorf("count query %d = %+v, want Select=COUNT begins_with ORDER#, no Limit", i+1, q)
		}
	}
	if keyOf(calls[2].StartKey, "SK") != "ORDER#01699" || keyOf(calls[3].StartKey, "SK") != "ORDER#03399" {
		t.Error("the count did not page from each LastEvaluatedKey")
	}
	wantCount(t, hs, "ORDER", "4000")
	hs.contains("ORDER 4000 — counted in 3 requests, 295 RCU", "counted: 295 RCU", "in 3 requests")
	hs.keys("L")
	hs.contains(`COUNT PK = "CUST#7" AND begins_with(SK, "ORD`)
	if l := hs.line(" 12 Query"); !strings.Contains(l, "page 3") || !strings.Contains(l, "38 RCU") || !strings.Contains(l, "600/600") {
		t.Errorf("last count line = %q", l)
	}
	hs.keys("q")
	if got := logSum(hs); got != 132.5+295 {
		t.Errorf("sum of the lines = %v", got)
	}
	hs.contains(fmt.Sprintf("Σ %s RCU · 12 requests", fmtRCU(logSum(hs))))
}

func TestCountAnnouncedThenDeclined(t *testing.T) {
	hs := openBig(t, 120, 35)
	hs.keys("j", "j", "j", "j", "#")
	hs.contains("count RETURN: reads every RETURN item — at most")
	hs.lacks("at least") // nothing of RETURN is loaded
	hs.keys("esc")
	hs.lacks("count RETURN")
	hs.contains("not counted")
	if n := len(hs.store.queries()); n != 1 {
		t.Fatalf("%d queries: declining sent a count", n)
	}
	// A type complete in the loaded items: its cost is known.
	hs.keys("k", "k", "k", "#")
	hs.contains("count ADDRESS: reads every ADDRESS item — about 0.5 RCU (all 2 items loaded")
}

func TestCountCancelledKeepsWhatItGot(t *testing.T) {
	k := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#7"), "SK": s(sk)} }
	hs := openBig(t, 120, 35,
		canned{count: 1700, last: k("ORDER#01699"), cap: dynamo.Capacity{Total: 128.5, Table: 128.5}},
		canned{count: 1700, last: k("ORDER#03399"), cap: dynamo.Capacity{Total: 128.5, Table: 128.5}},
	)
	hs.keys("j", "j", "#")
	msg, ok := hs.step(keyPress("y"))().(countPageMsg)
	if !ok {
		t.Fatal("y did not send the count's first page")
	}
	second := hs.step(msg) // page 1 counted; page 2 asked for
	if second == nil || hs.m.flight.id(flightCount) == 0 {
		t.Fatal("the count did not go on to its second page")
	}
	hs.contains("counting ORDER, 1700 so far")
	hs.keys("esc")
	if hs.m.busy() {
		t.Fatal("esc left the count running")
	}
	hs.contains("count ORDER cancelled after 1700 (1 request, 128.5 RCU)")
	wantCount(t, hs, "ORDER", "1700+")
	// The late page is logged, not counted.
	hs.run(second)
	wantCount(t, hs, "ORDER", "1700+")
	if n := len(hs.m.log.Reqs); n != 11 || hs.m.log.Reqs[10].Err == nil {
		t.Errorf("log has %d requests; want the cancelled page logged with its error", n)
	}
}

// Esc while the skip-scan is in flight stops it; the page stays.
func TestEscCancelsTheSkipScan(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 35, map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}}, bigPartition())
	hs.typeText("CUST#7")
	pending := hs.step(hs.pageOfCmd(hs.step(keyPress("enter"))))
	if hs.m.flight.id(flightDiscover) == 0 {
		t.Fatal("the skip-scan is not in flight")
	}
	hs.contains("skip-scan")
	hs.keys("esc")
	if hs.m.busy() {
		t.Fatal("esc left a request in flight")
	}
	hs.contains("cancelled; what was loaded stays", "skip-scan stopped", "Items · 100+ loaded")
	hs.run(pending) // the reply arrives late, to a cancelled context
	hs.lacks("RETURN#", "Entity types · 4")
}

// A reply for a partition the user has left is logged, never shown.
func TestStaleSkipScanIsDropped(t *testing.T) {
	disc := map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}, "CUST#42": {d: exampleDiscovery()}}
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 35, disc, bigPartition(), canned{items: example(), cap: halfRCU()})
	hs.typeText("CUST#7")
	hs.step(hs.pageOfCmd(hs.step(keyPress("enter")))) // its skip-scan never answers in time
	oldDisc := hs.m.flight.id(flightDiscover)
	hs.keys("p", "ctrl+u")
	hs.typeText("CUST#42")
	hs.keys("enter")
	// A reply that got through before the cancel took effect.
	hs.send(discoverDoneMsg{id: oldDisc, d: bigDiscovery()})
	hs.contains("PK = CUST#42", "Entity types · 2", "Items · 3 loaded")
	hs.lacks("RETURN#", "ADDRESS")
	wantCount(t, hs, "ORDER", "2")
	// Its requests were sent and cost: they are in the log and the total.
	if got, want := logSum(hs), 128.5+0.5+4; got != want {
		t.Errorf("sum of the lines = %v, want %v", got, want)
	}
	hs.contains(fmt.Sprintf("Σ %s RCU · 10 requests", fmtRCU(logSum(hs))))
}

// Items a single-table library wrote name their entity; the pane shows that
// name beside the prefix type when the two differ.
func TestLibraryEntityNamesShow(t *testing.T) {
	items := []dynamo.Item{
		{"PK": s("CUST#9"), "SK": s("ORDER#1"), "_et": s("Order")},
		{"PK": s("CUST#9"), "SK": s("PROFILE"), "__edb_e__": s("customer"), "__edb_v__": s("1")},
	}
	hs := newHarnessDisc(t, Options{Table: "App", PK: "CUST#9"}, 120, 35, nil, canned{items: items, cap: halfRCU()})
	hs.contains("▌ PROFILE · customer")
	hs.lacks("ORDER · Order")
	hs.keys("j", "j")
	hs.contains("ElectroDB: customer v1")
}

// Types the skip-scan adds above the cursor do not move it off its type.
func TestCursorStaysOnItsTypeWhenTypesArrive(t *testing.T) {
	g := newGroupsPane("S", true)
	g = g.reset("CUST#7", pageOf("CUST#7", 0, 3), "SK", "#", true, false)
	g = g.move(1, 10)
	if g.cursor() != 1 || g.types()[0].Entity != "ORDER" {
		t.Fatalf("cursor %d on %+v", g.cursor(), g.types())
	}
	g = g.discovered(bigDiscovery(), "#")
	if got := g.types()[g.cursor()-1].Entity; got != "ORDER" || g.cursor() != 2 {
		t.Errorf("after the skip-scan the cursor is on row %d (%s), want ORDER on row 2", g.cursor(), got)
	}
}

// An ElectroDB collection holds several entities under one prefix: the
// type names each of them, not only the first one's.
func TestCollectionNamesEveryEntity(t *testing.T) {
	items := []dynamo.Item{
		{"PK": s("$taskapp#team_purple"), "SK": s("$organization#team_1"), "__edb_e__": s("team"), "__edb_v__": s("1")},
		{"PK": s("$taskapp#team_purple"), "SK": s("$organization#user_1#user_a.lee"), "__edb_e__": s("user"), "__edb_v__": s("1")},
		{"PK": s("$taskapp#team_purple"), "SK": s("$organization#user_1#user_t.walch"), "__edb_e__": s("user"), "__edb_v__": s("1")},
	}
	hs := newHarnessDisc(t, Options{Table: "App", PK: "$taskapp#team_purple"}, 120, 35, nil, canned{items: items, cap: halfRCU()})
	hs.contains("▌ $organization · team,") // "team, user", cut to the pane
	hs.keys("j", "j")
	hs.contains("ElectroDB: team v1", "ElectroDB: user v1")
}

// A skip-scan whose budget ran out lists the types found so far and says in
// one line that more may follow and where the scan would go on; the first
// page's cost bounds its budget.
func TestSkipScanBudgetSpent(t *testing.T) {
	d := bigDiscovery()
	d.Groups, d.Requests = d.Groups[:2], d.Requests[:4]
	d.Partial, d.Continue = true, dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"ORDER$"}}
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 35, map[string]cannedDiscovery{"CUST#7": {d: d}}, bigPartition())
	hs.typeText("CUST#7")
	page := hs.pageOfCmd(hs.step(keyPress("enter")))
	hs.run(hs.step(page))
	hs.contains("Entity types · 2", "skip-scan budget spent: more types may follow from SK >= \"ORDER$\"", "more types may follow")
	hs.lacks("RETURN#")
	ds := hs.store.discoveries()
	if len(ds) != 1 || ds[0].Budget.MaxRequests != 0 || ds[0].Budget.MaxRCU <= 0 {
		t.Errorf("skip-scans = %+v, want one with the default request cap and a tenth of the full first page's RCU", ds)
	}
}

// A count whose pages cost far more than the announced "at most" (a
// stale size, or an endpoint feeding it pages) stops with a sentence that
// blames the estimate, not the endpoint, keeping what it counted as a
// lower bound.
func TestCountStopsFarPastItsAnnouncedCost(t *testing.T) {
	k := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#7"), "SK": s(sk)} }
	var pages []canned
	for i := range 6 {
		pages = append(pages, canned{count: 1000, last: k(fmt.Sprintf("ORDER#%05d", (i+1)*1000)), cap: dynamo.Capacity{Total: 300, Table: 300}})
	}
	hs := openBig(t, 120, 35, pages...)
	hs.keys("j", "j", "#")
	hs.contains("at most", "(whole table, 3.2 MiB")
	hs.keys("y")
	if n := len(hs.store.queries()); n != 4 {
		t.Errorf("%d queries, want the page and 3 of the count", n)
	}
	hs.contains("count ORDER stopped after 900 RCU, clearly more than the")
	wantCount(t, hs, "ORDER", "3000+")
}

// Where the skip-scan had to read letter-led ids one request each, the
// status line says so once it is done, and so does the partition row's
// footer.
func TestSkipScanSteppedIDsSaid(t *testing.T) {
	d := bigDiscovery()
	d.Groups = append(d.Groups[:3:3], keys.Group{Entity: keys.ShapeHex, Kind: keys.KindValue, Count: -1, First: "a5f0c3d2e1b4", Last: "f966c0d2e1b4"})
	d.Stepped = []dynamo.SteppedGroup{{Entity: keys.ShapeHex, Requests: 3}}
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 40, map[string]cannedDiscovery{"CUST#7": {d: d}}, bigPartition())
	hs.typeText("CUST#7")
	page := hs.pageOfCmd(hs.step(keyPress("enter")))
	hs.run(hs.step(page))
	hs.contains("the skip-scan cannot jump letter-led ids in one step (hex id)")
	hs.keys("shift+tab") // the entity types pane
	hs.keys("g")         // its partition row, whose footer tells the skip-scan
	hs.contains("letter-led ids in one step", "(hex id): they sort among", "so it read 3 keys")
}

// The skip-scan's types show as its halves find them, from both ends,
// while it runs; a type of a skip-scan the user has left is not shown.
func TestSkipScanTypesShowAsTheyArrive(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 35, map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}}, bigPartition())
	hs.typeText("CUST#7")
	hs.step(hs.pageOfCmd(hs.step(keyPress("enter")))) // its skip-scan is still running
	id := hs.m.flight.id(flightDiscover)
	hs.lacks("RETURN#")
	d := bigDiscovery()
	hs.send(discoverGroupMsg{id: id, g: d.Groups[3]}) // the far end's half found RETURN first
	hs.contains("RETURN#", "finding types")
	hs.send(discoverGroupMsg{id: id - 1, g: keys.Group{Entity: "STALE", Prefix: "STALE#", Kind: keys.KindLabel, Count: -1, First: "STALE#1", Last: "STALE#2"}})
	hs.lacks("STALE#")
	hs.send(discoverGroupMsg{id: id, g: d.Groups[2]})
	// In key order whatever order they came in: PROFILE before RETURN.
	if scr := hs.screen(); strings.Index(scr, "PROFILE") > strings.Index(scr, "RETURN#") {
		t.Errorf("types out of order:\n%s", scr)
	}
	hs.send(discoverDoneMsg{id: id, d: d})
	hs.contains("Entity types · 4", "skip-scan: 4 types in")
}

// A budget spent with the far end's types found names both ends of the
// keys not read.
func TestSkipScanBudgetSpentBetweenTheHalves(t *testing.T) {
	d := bigDiscovery()
	d.Groups = []keys.Group{d.Groups[0], d.Groups[3]}
	d.Requests = d.Requests[:4]
	d.Partial, d.Continue = true, dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"ADDRESS$"}}
	d.Until = dynamo.SKCond{Op: dynamo.SKLt, Values: []string{"RETURN#"}}
	hs := newHarnessDisc(t, Options{Table: "App"}, 120, 35, map[string]cannedDiscovery{"CUST#7": {d: d}}, bigPartition())
	hs.typeText("CUST#7")
	page := hs.pageOfCmd(hs.step(keyPress("enter")))
	hs.run(hs.step(page))
	hs.contains(`more types may follow from SK >= "ADDRESS$" to SK < "RETURN#"`, "RETURN#")
}
