package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
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
	for d.m.res.more {
		before := d.m.items.loaded()
		d.send(keyPress("end"))
		if d.m.items.loaded() == before {
			t.Fatalf("the end key loaded nothing at %d items", before)
		}
	}
	if d.m.items.loaded() != total {
		t.Fatalf("loaded %d, want %d", d.m.items.loaded(), total)
	}
	return d, rs
}

func shownText(d *benchDriver) string { return ansi.Strip(d.m.View().Content) }

func TestItemsCapReleasesOldPagesAndRefetches(t *testing.T) {
	const total, maxLoaded = 14_000, 5_000
	d, rs := openBench(t, total, maxLoaded)
	st := d.m.items.store
	pages := len(st.pages)
	if pages < 4 {
		t.Fatalf("%d pages; the test needs several", pages)
	}
	if st.inMemory > maxLoaded+st.pages[0].n {
		t.Fatalf("%d items in memory, cap %d", st.inMemory, maxLoaded)
	}
	if st.pages[0].resident() || !st.pages[pages-1].resident() {
		t.Fatal("the first page, farthest from the cursor, should be released and the last kept")
	}
	if !strings.Contains(shownText(d), fmt.Sprintf("%d loaded (%d in memory)", total, st.inMemory)) {
		t.Fatalf("the title does not say what is in memory:\n%s", shownText(d))
	}
	if d.m.groups.loaded != total {
		t.Fatalf("entity types count %d items, want %d", d.m.groups.loaded, total)
	}
	asked, logged := len(rs.queries()), len(d.m.log.reqs)

	// Back to the top: the first page is read again, once, with no
	// ExclusiveStartKey, and the log says so.
	d.send(keyPress("home"))
	qs := rs.queries()
	if len(qs) != asked+1 || qs[len(qs)-1].StartKey != nil {
		t.Fatalf("re-fetch of page 1: %d new queries, last StartKey %v", len(qs)-asked, qs[len(qs)-1].StartKey)
	}
	if !d.m.items.store.pages[0].resident() {
		t.Fatal("page 1 is still released")
	}
	if n := len(d.m.log.reqs); n != logged+1 || d.m.log.kinds[n-1] != "re-fetch page 1" {
		t.Fatalf("log: %d new requests, last kind %q", n-logged, d.m.log.kinds[n-1])
	}
	if !strings.Contains(shownText(d), "EVENT#0000000") {
		t.Fatalf("the first item is not shown after the re-fetch:\n%s", shownText(d))
	}
	if d.m.items.loaded() != total || d.m.groups.loaded != total {
		t.Fatalf("after the re-fetch: %d loaded, types count %d", d.m.items.loaded(), d.m.groups.loaded)
	}
	if d.m.items.store.inMemory > maxLoaded+st.pages[0].n {
		t.Fatalf("%d in memory after the re-fetch", d.m.items.store.inMemory)
	}

	// The last page went to make room; the end key reads it again with the
	// ExclusiveStartKey it was first read with.
	last := d.m.items.store.pages[pages-1]
	if last.resident() {
		t.Fatal("the last page, now farthest from the cursor, was not released")
	}
	d.send(keyPress("end"))
	qs = rs.queries()
	got := qs[len(qs)-1]
	if len(qs) != asked+2 || got.StartKey == nil || keyOf(got.StartKey, "SK") != keyOf(last.startKey, "SK") {
		t.Fatalf("re-fetch of page %d: %d queries, StartKey %v, want %v", last.no, len(qs)-asked, got.StartKey, last.startKey)
	}
	if !d.m.items.store.pages[pages-1].resident() || d.m.log.kinds[len(d.m.log.kinds)-1] != fmt.Sprintf("re-fetch page %d", last.no) {
		t.Fatal("the last page was not put back, or the log does not name it")
	}
	if it, ok := d.m.items.selected(); !ok || keyOf(it, "SK") != "SHIPMENT#0001399" {
		t.Fatalf("the last item after the re-fetch: %v", it)
	}
}

func TestItemsCapPlaceholderWhileRefetching(t *testing.T) {
	d, _ := openBench(t, 14_000, 5_000)
	// The request is left in flight: the rows of the page say so.
	cmd := d.step(keyPress("home"))
	if cmd == nil || d.m.items.refetching != 1 {
		t.Fatalf("no re-fetch in flight (refetching %d)", d.m.items.refetching)
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
	if st := d.m.items.store; st.inMemory != st.total {
		t.Fatalf("%d of %d in memory without a cap", st.inMemory, st.total)
	}
	if strings.Contains(shownText(d), "in memory") {
		t.Fatal("the title mentions memory with everything loaded")
	}
}

// TestColumnsFromLaterPages: an attribute first seen far down the results
// gets a column, and the stats count every page.
func TestColumnsFromLaterPages(t *testing.T) {
	ks, _ := appTable().Schema("")
	p := itemsPane{}.setSchema(ks)
	var first []dynamo.Item
	for i := range 600 {
		first = append(first, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("ITEM#%04d", i)), "status": s("OPEN")})
	}
	p = p.setItems(first, 118)
	p = p.appendPage([]dynamo.Item{{"PK": s("P"), "SK": s("ITEM#9999"), "status": s("OPEN"),
		"late": &types.AttributeValueMemberN{Value: "12345678901234567890"}}}, first[599], 2, 0, 118)
	var names []string
	for _, c := range p.cols {
		names = append(names, c.name)
	}
	if strings.Join(names, ",") != "status,late" {
		t.Fatalf("columns %v, want status then late", names)
	}
	if c := p.cols[1]; c.w != 20 {
		t.Fatalf("late is %d wide, want its value's 20", c.w)
	}
}
