package ui

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/ui/pane"
)

// The benchmarks of issue 7: a frame and a key press must cost the same with
// 100,000 loaded items as with 100. They drive the real root model the way
// the program does, loading the items page by page through a fake store that
// answers with 1 MB pages of the bench data, so the state measured is the
// state a real session reaches. `make bench` compares the sizes
// (bench/ratio); run them alone with
//
//	go test -run '^$' -bench 'View|Keys|KeyToFrame' ./ui/

// benchSizes are the loaded item counts the issue names.
var benchSizes = []int{100, 10_000, 100_000}

// benchPageBytes is where DynamoDB ends a page without a Limit.
const benchPageBytes = 1 << 20

// benchPages cuts items into the pages DynamoDB would return: each ends with
// the item that reaches 1 MB. The last one is complete only when complete is
// set; otherwise it carries a LastEvaluatedKey, as a partial read does.
func benchPages(items []dynamo.Item, complete bool) []canned {
	var out []canned
	start, size := 0, 0
	for i, it := range items {
		size += itemcodec.ItemSize(it)
		if size >= benchPageBytes || i == len(items)-1 {
			p := canned{items: items[start : i+1], last: items[i], cap: dynamo.Capacity{Total: float64(itemcodec.ReadUnits(size, false)), Table: float64(itemcodec.ReadUnits(size, false))}}
			out = append(out, p)
			start, size = i+1, 0
		}
	}
	if complete && len(out) > 0 {
		out[len(out)-1].last = nil
	}
	return out
}

// benchDiscovery is the skip-scan of the big partition: its four types.
func benchDiscovery(items []dynamo.Item) dynamo.Discovery {
	sks := make([]string, len(items))
	for i, it := range items {
		sks[i] = keyOf(it, "SK")
	}
	gs := keys.GroupSortKeys(sks, "S", "#")
	for i := range gs {
		gs[i].Count = -1
	}
	return dynamo.Discovery{KeyType: "S", Delimiter: "#", Groups: gs}
}

// benchStore serves the pages of one partition by their ExclusiveStartKey,
// as DynamoDB does, so any number of model copies can read them again. It
// answers every query with the partition's pages: the benchmarks only run
// the whole-partition query.
type benchStore struct {
	fakeStore
	pages []canned
	after map[string]int // sort key of a page's last item -> the next page
}

func newBenchStore(items []dynamo.Item) *benchStore {
	bs := &benchStore{
		fakeStore: fakeStore{
			tables: map[string]dynamo.Table{"App": appTable()},
			disc:   map[string]cannedDiscovery{benchdata.BigPK: {d: benchDiscovery(items)}},
		},
		pages: benchPages(items, true),
		after: map[string]int{},
	}
	for i, p := range bs.pages {
		bs.after[keyOf(p.items[len(p.items)-1], "SK")] = i + 1
	}
	return bs
}

func (bs *benchStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	i := 0
	if q.StartKey != nil {
		i = bs.after[keyOf(q.StartKey, "SK")]
	}
	c := bs.pages[i]
	req := dynamo.Request{Operation: "Query", Table: q.Table, KeyCondition: `PK = "` + q.PK + `"`, Forward: true,
		Count: int32(len(c.items)), ScannedCount: int32(len(c.items)), Capacity: c.cap, More: c.last != nil, Duration: 80 * time.Millisecond}
	return dynamo.Page{Items: c.items, Count: req.Count, ScannedCount: req.Count, LastEvaluatedKey: c.last, Request: req}, nil
}

// benchDriver runs a model as the program would, commands synchronously.
type benchDriver struct {
	m Model
}

// benchTB is what the driver needs of testing.B.
type benchTB interface {
	Helper()
	Fatalf(string, ...any)
	TempDir() string
}

func (d *benchDriver) send(msg tea.Msg) {
	m, cmd := d.m.Update(msg)
	d.m = m.(Model)
	d.run(cmd)
}

// step delivers a message and returns its command unrun, as a request still
// in flight.
func (d *benchDriver) step(msg tea.Msg) tea.Cmd {
	m, cmd := d.m.Update(msg)
	d.m = m.(Model)
	return cmd
}

func (d *benchDriver) run(cmd tea.Cmd) { runCmd(cmd, d.send) }

// newBenchDriver opens BENCH#BIG in a 120×35 terminal with the items pane
// focused, and loads pages with the next-page key until loaded items are in
// (or everything is). The store holds total items; when loaded < total the
// results have more pages.
func newBenchDriver(t benchTB, loaded, total int) *benchDriver {
	t.Helper()
	bs := newBenchStore(benchdata.Big(total))
	// No cap on items in memory: the figures are those of every item held.
	m := New(Options{Store: bs, Table: "App", PK: benchdata.BigPK, ConfigDir: t.TempDir(), MaxLoadedItems: -1})
	m.after = func(int) tea.Cmd { return nil } // no spinner ticks
	d := &benchDriver{m: m}
	d.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	d.run(d.m.Init())
	d.send(keyPress("tab"))
	for d.m.items.Loaded() < loaded && d.m.results.more() {
		before := d.m.items.Loaded()
		d.send(keyPress("n"))
		if d.m.items.Loaded() == before {
			t.Fatalf("the next-page key loaded nothing at %d items", before)
		}
	}
	if d.m.items.Loaded() < loaded {
		t.Fatalf("loaded %d items, want %d", d.m.items.Loaded(), loaded)
	}
	if d.m.mode() != modeItems {
		t.Fatalf("mode %s, want items", d.m.mode())
	}
	return d
}

// benchModels caches one fully loaded model per size: the benchmark
// framework calls a benchmark several times while it sizes b.N, and loading
// 100,000 items page by page each time would dominate the run.
var benchModels sync.Map // int -> Model

func benchLoadedModel(b *testing.B, count int) Model {
	b.Helper()
	if m, ok := benchModels.Load(count); ok {
		return m.(Model)
	}
	d := newBenchDriver(b, count, count)
	if d.m.items.Loaded() != count || d.m.results.more() {
		b.Fatalf("loaded %d items (more: %v), want all %d", d.m.items.Loaded(), d.m.results.more(), count)
	}
	// The cursor in the middle, as after scrolling: far from both ends, so
	// no key below reaches an end or asks for a page.
	d.m.items = d.m.items.Move(count/2, d.m.layout().itemRows)
	benchModels.Store(count, d.m)
	return d.m
}

// BenchmarkView draws one frame of the partition screen with all items
// loaded and the cursor in the middle.
func BenchmarkView(b *testing.B) {
	for _, count := range benchSizes {
		b.Run(fmt.Sprint(count), func(b *testing.B) {
			m := benchLoadedModel(b, count)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_ = m.View()
			}
		})
	}
}

// benchKey is a key and the key that undoes it, so a benchmark can press them
// in turn for ever without reaching an end of the list.
type benchKey struct {
	name     string
	prep     []string // keys pressed once before timing
	there    tea.KeyPressMsg
	andBack  tea.KeyPressMsg
	validate func(b *testing.B, m Model)
}

var benchKeys = []benchKey{
	{name: "down", there: keyPress("j"), andBack: keyPress("k")},
	{name: "pgdown", there: keyPress("pgdown"), andBack: keyPress("pgup")},
	// Typing into the local filter the last letter of a needle, then
	// backspace: a needle in every item (createdAt "2024-"), in about 1% of
	// them (0.7%: createdAt at 12:30 to 12:39) and in none. With many items
	// the keystroke looks at pane.FilterSyncBudget items at most, whatever the
	// match rate, and leaves the rest of the scan to its chunks
	// (filterScanMsg), which the loop does not run: a key press's own cost.
	filterKey("filter-all", "2024-"),
	filterKey("filter-1pct", "t12:3"),
	filterKey("filter-none", "zqxj"),
}

// filterKey types needle but its last letter before timing; the timed key
// is the last letter, undone by backspace.
func filterKey(name, needle string) benchKey {
	prep := []string{"/"}
	for _, r := range needle[:len(needle)-1] {
		prep = append(prep, string(r))
	}
	last := rune(needle[len(needle)-1])
	return benchKey{name: name, prep: prep, there: tea.KeyPressMsg{Code: last, Text: string(last)}, andBack: keyPress("backspace"),
		validate: func(b *testing.B, m Model) {
			if m.mode() != modeFilter {
				b.Fatalf("mode %s, want filter", m.mode())
			}
		}}
}

// BenchmarkKeys times a key press to its frame (Update, then View) for
// cursor down, page down and typing in the filter. One op is one key press.
func BenchmarkKeys(b *testing.B) {
	for _, k := range benchKeys {
		for _, count := range benchSizes {
			b.Run(fmt.Sprintf("%s/%d", k.name, count), func(b *testing.B) {
				d := &benchDriver{m: benchLoadedModel(b, count)}
				for _, p := range k.prep {
					d.send(keyPress(p))
				}
				if k.validate != nil {
					k.validate(b, d.m)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					msg := k.there
					if i%2 == 1 {
						msg = k.andBack
					}
					if cmd := d.step(msg); cmd != nil && !isFilterScan(cmd) {
						b.Fatalf("%s at %d items sent a request", k.name, count)
					}
					_ = d.m.View()
				}
			})
		}
	}
}

// BenchmarkKeyToFrame measures what a user scrolling through a large
// partition feels: the time from a key press to its frame (Update and View)
// with 50,000 items loaded, while the next page is in flight, and the time
// the arrival of a 1 MB page holds the event loop (during which a key waits).
// It reports the median and the worst, in milliseconds.
func BenchmarkKeyToFrame(b *testing.B) {
	const loaded = 50_000
	d := newBenchDriver(b, loaded, 2*loaded)
	if !d.m.results.more() {
		b.Fatal("all items were loaded; the partition must have more pages")
	}
	b.Run("loaded-50k", func(b *testing.B) {
		dd := *d
		dd.m.items = dd.m.items.Move(loaded/2, dd.m.layout().itemRows)
		benchMeasureKeys(b, &dd)
	})
	b.Run("page-pending-50k", func(b *testing.B) {
		dd := *d
		// The end of what is loaded asks for the next page; its reply is
		// never delivered, so it stays in flight while the user scrolls
		// up and down near the end.
		if cmd := dd.step(keyPress("end")); benchQueryReply(cmd) == nil {
			b.Fatal("reaching the end asked for no page")
		}
		dd.step(keyPress("pgup"))
		benchMeasureKeys(b, &dd)
		if !dd.m.flight.busy(flightQuery) || !dd.m.flight.next {
			b.Fatal("the page request was dropped by scrolling")
		}
	})
	b.Run("page-arrival-50k", func(b *testing.B) {
		// Each op: the page after the first 50,000 items arrives and is
		// drawn, on a fresh copy of the model with 50,000 loaded.
		durs := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			dd := *d
			msg := benchQueryReply(dd.step(keyPress("end")))
			if msg == nil {
				b.Fatal("the end key sent no query")
			}
			b.StartTimer()
			began := time.Now()
			m, _ := dd.m.Update(msg)
			dd.m = m.(Model)
			_ = dd.m.View()
			durs = append(durs, time.Since(began))
			if dd.m.items.Loaded() <= loaded {
				b.Fatal("the page added no items")
			}
		}
		benchReportLatency(b, durs)
	})
}

// isFilterScan tells whether a command only asks for the filter's next chunk.
func isFilterScan(cmd tea.Cmd) bool {
	_, ok := cmd().(pane.FilterScanMsg)
	return ok
}

// BenchmarkFilterChunk times one chunk of the filter's scan at 100,000
// loaded items: what a keystroke leaves to run between frames, bounded by
// pane.FilterChunk items whatever is loaded.
func BenchmarkFilterChunk(b *testing.B) {
	m := benchLoadedModel(b, 100_000)
	p := m.items.SetFilter("shipped")
	if !p.Scanning() {
		b.Fatal("the filter finished within the keystroke")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		q := p.ScanStep(p.Fgen)
		if q.Scan.Next-p.Scan.Next > pane.FilterChunk {
			b.Fatal("a chunk looked at more than pane.FilterChunk items")
		}
	}
}

// benchQueryReply runs a command's batch and returns the query reply in it.
func benchQueryReply(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if r := benchQueryReply(c); r != nil {
				return r
			}
		}
	case queryDoneMsg:
		return msg
	}
	return nil
}

// benchMeasureKeys presses down and up in turn, each to its frame, and reports
// the latencies.
func benchMeasureKeys(b *testing.B, d *benchDriver) {
	durs := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		k := keyPress("j")
		if i%2 == 1 {
			k = keyPress("k")
		}
		began := time.Now()
		if cmd := d.step(k); cmd != nil {
			b.Fatal("a key sent a request")
		}
		_ = d.m.View()
		durs = append(durs, time.Since(began))
	}
	benchReportLatency(b, durs)
}

func benchReportLatency(b *testing.B, durs []time.Duration) {
	if len(durs) == 0 {
		return
	}
	slices.Sort(durs)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(durs[len(durs)/2]), "p50-ms")
	b.ReportMetric(ms(durs[(len(durs)*99)/100]), "p99-ms")
	b.ReportMetric(ms(durs[len(durs)-1]), "max-ms")
}
