package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/ui/pane"
)

// recStore is the bench store, answering by ExclusiveStartKey, with a
// record of every query.
type recStore struct {
	*benchStore
	mu sync.Mutex
	qs []dynamo.QueryInput
}

func (r *recStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	r.mu.Lock()
	r.qs = append(r.qs, q)
	r.mu.Unlock()
	return r.benchStore.Query(ctx, q)
}

func (r *recStore) queries() []dynamo.QueryInput {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]dynamo.QueryInput(nil), r.qs...)
}

// openBig opens total items of the bench partition with a cap on items in
// memory, the items pane focused, every page loaded with the end key.
func openBench(t *testing.T, total, maxLoaded int) (*benchDriver, *recStore) {
	t.Helper()
	rs := &recStore{benchStore: newBenchStore(benchdata.Big(total))}
	m := New(Options{Store: rs, Table: "App", PK: benchdata.BigPK, ConfigDir: t.TempDir(), MaxLoadedItems: maxLoaded})
	m.after = func(int) tea.Cmd { return nil }
	d := &benchDriver{m: m}
	d.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	d.run(d.m.Init())
	d.send(keyPress("tab"))
	for d.m.results.more() {
		before := d.m.items.Loaded()
		d.send(keyPress("end"))
		if d.m.items.Loaded() == before {
			t.Fatalf("the end key loaded nothing at %d items", before)
		}
	}
	if d.m.items.Loaded() != total {
		t.Fatalf("loaded %d, want %d", d.m.items.Loaded(), total)
	}
	return d, rs
}

func shownText(d *benchDriver) string { return ansi.Strip(d.m.View().Content) }

func TestItemsCapReleasesOldPagesAndRefetches(t *testing.T) {
	const total, maxLoaded = 14_000, 5_000
	d, rs := openBench(t, total, maxLoaded)
	st := d.m.items.Store
	pages := len(st.Pages)
	if pages < 4 {
		t.Fatalf("%d pages; the test needs several", pages)
	}
	if st.InMemory > maxLoaded+st.Pages[0].N {
		t.Fatalf("%d items in memory, cap %d", st.InMemory, maxLoaded)
	}
	if st.Pages[0].Resident() || !st.Pages[pages-1].Resident() {
		t.Fatal("the first page, farthest from the cursor, should be released and the last kept")
	}
	if !strings.Contains(shownText(d), fmt.Sprintf("%d loaded (%d in memory)", total, st.InMemory)) {
		t.Fatalf("the title does not say what is in memory:\n%s", shownText(d))
	}
	if d.m.groups.tbl.Loaded() != total {
		t.Fatalf("entity types count %d items, want %d", d.m.groups.tbl.Loaded(), total)
	}
	asked, logged := len(rs.queries()), len(d.m.log.Reqs)

	// Back to the top: the first page is read again, once, with no
	// ExclusiveStartKey, and the log says so.
	d.send(keyPress("home"))
	qs := rs.queries()
	if len(qs) != asked+1 || qs[len(qs)-1].StartKey != nil {
		t.Fatalf("re-fetch of page 1: %d new queries, last StartKey %v", len(qs)-asked, qs[len(qs)-1].StartKey)
	}
	if !d.m.items.Store.Pages[0].Resident() {
		t.Fatal("page 1 is still released")
	}
	if n := len(d.m.log.Reqs); n != logged+1 || d.m.log.Kinds[n-1] != "re-fetch page 1" {
		t.Fatalf("log: %d new requests, last kind %q", n-logged, d.m.log.Kinds[n-1])
	}
	if !strings.Contains(shownText(d), "EVENT#0000000") {
		t.Fatalf("the first item is not shown after the re-fetch:\n%s", shownText(d))
	}
	if d.m.items.Loaded() != total || d.m.groups.tbl.Loaded() != total {
		t.Fatalf("after the re-fetch: %d loaded, types count %d", d.m.items.Loaded(), d.m.groups.tbl.Loaded())
	}
	if d.m.items.Store.InMemory > maxLoaded+st.Pages[0].N {
		t.Fatalf("%d in memory after the re-fetch", d.m.items.Store.InMemory)
	}

	// The last page went to make room; the end key reads it again with the
	// ExclusiveStartKey it was first read with.
	last := d.m.items.Store.Pages[pages-1]
	if last.Resident() {
		t.Fatal("the last page, now farthest from the cursor, was not released")
	}
	d.send(keyPress("end"))
	qs = rs.queries()
	got := qs[len(qs)-1]
	if len(qs) != asked+2 || got.StartKey == nil || keyOf(got.StartKey, "SK") != keyOf(last.StartKey, "SK") {
		t.Fatalf("re-fetch of page %d: %d queries, StartKey %v, want %v", last.No, len(qs)-asked, got.StartKey, last.StartKey)
	}
	if !d.m.items.Store.Pages[pages-1].Resident() || d.m.log.Kinds[len(d.m.log.Kinds)-1] != fmt.Sprintf("re-fetch page %d", last.No) {
		t.Fatal("the last page was not put back, or the log does not name it")
	}
	if it, ok := d.m.items.Selected(); !ok || keyOf(it, "SK") != "SHIPMENT#0001399" {
		t.Fatalf("the last item after the re-fetch: %v", it)
	}
}

func TestItemsCapPlaceholderWhileRefetching(t *testing.T) {
	d, _ := openBench(t, 14_000, 5_000)
	// The request is left in flight: the rows of the page say so.
	cmd := d.step(keyPress("home"))
	if cmd == nil || d.m.items.Refetching != 1 {
		t.Fatalf("no re-fetch in flight (refetching %d)", d.m.items.Refetching)
	}
	out := shownText(d)
	if !strings.Contains(out, "page 1 · re-fetching…") || !strings.Contains(out, "re-fetch page 1") {
		t.Fatalf("the placeholder rows or the status do not show the re-fetch:\n%s", out)
	}
	d.run(cmd)
	if strings.Contains(shownText(d), "re-fetching") {
		t.Fatal("still re-fetching after the reply")
	}
}

func TestItemsNoCapKeepsEverything(t *testing.T) {
	d, _ := openBench(t, 14_000, -1)
	if st := d.m.items.Store; st.InMemory != st.Total {
		t.Fatalf("%d of %d in memory without a cap", st.InMemory, st.Total)
	}
	if strings.Contains(shownText(d), "in memory") {
		t.Fatal("the title mentions memory with everything loaded")
	}
}

// TestColumnsFromLaterPages: an attribute first seen far down the results
// gets a column, and the stats count every page.
func TestColumnsFromLaterPages(t *testing.T) {
	ks, _ := appTable().Schema("")
	p := pane.Items{}.SetSchema(ks)
	var first []dynamo.Item
	for i := range 600 {
		first = append(first, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("ITEM#%04d", i)), "status": s("OPEN")})
	}
	p = p.SetItems(first, 118)
	p = p.AppendPage([]dynamo.Item{{"PK": s("P"), "SK": s("ITEM#9999"), "status": s("OPEN"),
		"late": &types.AttributeValueMemberN{Value: "12345678901234567890"}}}, first[599], 2, 0, 118, 30)
	var names []string
	for _, c := range p.Cols {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "status,late" {
		t.Fatalf("columns %v, want status then late", names)
	}
	if c := p.Cols[1]; c.W != 20 {
		t.Fatalf("late is %d wide, want its value's 20", c.W)
	}
}

// shrinkStore answers one page with an item fewer: the partition changed.
type shrinkStore struct {
	*recStore
	startKey dynamo.Item
}

func (s shrinkStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	p, err := s.recStore.Query(ctx, q)
	if q.StartKey != nil && keyOf(q.StartKey, "SK") == keyOf(s.startKey, "SK") {
		p.Items = p.Items[1:]
	}
	return p, err
}

// exportTo names the file in the open export form and starts the export,
// which runs to its end.
func exportTo(d *benchDriver, path string) {
	d.send(keyPress("tab"))
	d.send(keyPress("ctrl+u"))
	for _, r := range path {
		d.send(keyPress(string(r)))
	}
	d.send(keyPress("enter"))
}

// An export of more items than the cap holds reads the released pages
// again, each once, with the ExclusiveStartKey they were first read with;
// the request log shows those reads, and the file holds every item in order.
func TestExportReadsReleasedPagesAgain(t *testing.T) {
	const total, maxLoaded = 14_000, 5_000
	d, rs := openBench(t, total, maxLoaded)
	var released []pane.StoredPage
	for _, pg := range d.m.items.Store.Pages {
		if !pg.Resident() {
			released = append(released, pg)
		}
	}
	if len(released) == 0 {
		t.Fatal("no page was released; the test needs some")
	}
	var msgs []tea.Msg
	var mu sync.Mutex
	d.m.send.set(func(msg tea.Msg) { mu.Lock(); msgs = append(msgs, msg); mu.Unlock() })
	asked := len(rs.queries())

	d.send(keyPress("x"))
	inReleased := total - d.m.items.Store.InMemory
	if want := fmt.Sprintf("Write the 14000 loaded items to a local file. %d of them are in pages released to keep memory within the cap:", inReleased); !strings.Contains(shownText(d), want) {
		t.Fatalf("the form does not say the released pages are read again:\n%s", shownText(d))
	}
	path := filepath.Join(t.TempDir(), "all.jsonl")
	exportTo(d, path)
	if want := fmt.Sprintf("exported 14000 items to %s (local file only)", path); d.m.status.Info != want {
		t.Fatalf("status %q, want %q (error: %q)", d.m.status.Info, want, exportErr(d.m))
	}

	qs := rs.queries()[asked:]
	if len(qs) != len(released) {
		t.Fatalf("%d queries for %d released pages", len(qs), len(released))
	}
	for i, q := range qs {
		if keyOf(q.StartKey, "SK") != keyOf(released[i].StartKey, "SK") {
			t.Errorf("re-read %d: StartKey %v, want page %d's %v", i, q.StartKey, released[i].No, released[i].StartKey)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := benchdata.Big(total)
	if len(lines) != total {
		t.Fatalf("%d lines in the file, want %d", len(lines), total)
	}
	for _, i := range []int{0, released[0].N - 1, released[0].N, total / 2, total - 1} {
		sk := want[i]["SK"].(*types.AttributeValueMemberS).Value
		if !strings.Contains(lines[i], `"SK":"`+sk+`"`) {
			t.Errorf("line %d is %.120s, want SK %s", i+1, lines[i], sk)
		}
	}

	logged := len(d.m.log.Reqs)
	mu.Lock()
	for _, msg := range msgs {
		if _, ok := msg.(exportRereadMsg); ok {
			d.send(msg)
		}
	}
	mu.Unlock()
	if n := len(d.m.log.Reqs) - logged; n != len(released) || d.m.log.Kinds[logged] != fmt.Sprintf("export: page %d again", released[0].No) {
		t.Fatalf("log: %d new requests, first kind %q", n, d.m.log.Kinds[logged])
	}

	// A page that changed since it was loaded stops the export, which
	// removes its file.
	d.m.store = shrinkStore{recStore: rs, startKey: released[len(released)-1].StartKey}
	d.send(keyPress("x"))
	path2 := filepath.Join(t.TempDir(), "changed.jsonl")
	exportTo(d, path2)
	last := released[len(released)-1]
	if want := fmt.Sprintf("page %d changed since it was loaded (%d items now, %d before)", last.No, last.N-1, last.N); !strings.Contains(exportErr(d.m), want) {
		t.Fatalf("error %q, want %q", exportErr(d.m), want)
	}
	if _, err := os.Stat(path2); !os.IsNotExist(err) {
		t.Errorf("the stopped export left %s: %v", path2, err)
	}
}

// The filter searches the items in memory, and says how many it could not.
func TestFilterSaysReleasedPagesAreNotSearched(t *testing.T) {
	d, _ := openBench(t, 14_000, 5_000)
	d.send(keyPress("/"))
	for _, r := range "EVENT" {
		d.send(keyPress(string(r)))
	}
	d.send(keyPress("enter"))
	for d.m.items.Scanning() {
		d.m.items = d.m.items.ScanStep(d.m.items.Fgen)
	}
	if want := fmt.Sprintf("(%d in memory) · /EVENT matches 0 in memory", d.m.items.Store.InMemory); !strings.Contains(shownText(d), want) {
		t.Fatalf("the title does not say %q:\n%s", want, shownText(d))
	}
	if want := fmt.Sprintf("no item in memory matches; %d in released pages were not searched", 14_000-d.m.items.Store.InMemory); !strings.Contains(shownText(d), want) {
		t.Fatalf("the pane does not say %q:\n%s", want, shownText(d))
	}
}

// A retry of a page the export reads again shows in the status line until
// the export ends.
func TestExportShowsRetriesOfItsReads(t *testing.T) {
	d, _ := openBench(t, 14_000, 5_000)
	d.send(keyPress("x"))
	d.send(keyPress("tab"))
	d.send(keyPress("ctrl+u"))
	for _, r := range filepath.Join(t.TempDir(), "retry.jsonl") {
		d.send(keyPress(string(r)))
	}
	cmd := d.step(keyPress("enter"))
	d.send(retryingMsg{id: d.m.export.id, text: "throttled, retrying (2/10)", throttled: true})
	if !strings.Contains(shownText(d), "throttled, retrying (2/10)") {
		t.Fatalf("the status line does not show the export's retry:\n%s", shownText(d))
	}
	d.run(cmd)
	if d.m.status.Retry != "" || !strings.HasPrefix(d.m.status.Info, "exported 14000 items") {
		t.Fatalf("after the export: retry %q, info %q", d.m.status.Retry, d.m.status.Info)
	}
}
