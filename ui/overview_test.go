package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/ui/overlay"
)

// cannedSample is what the fake store's Sample answers: these keys and
// these requests, all of them, or half of them when cancelled.
type cannedSample struct {
	items []keys.KeyItem
	reqs  []dynamo.Request
	err   error
}

// Sample answers with the canned sample, reporting progress once; a
// cancelled context gets half of it with the cancel error, as the real
// client returns what it read before.
func (f *fakeStore) Sample(ctx context.Context, in dynamo.SampleInput) (dynamo.Sample, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.samples = append(f.samples, in)
	t := f.tables[in.Table]
	ks, err := t.Schema(in.Index)
	if err != nil {
		return dynamo.Sample{}, err
	}
	c := f.sample
	smp := dynamo.Sample{Table: in.Table, Index: in.Index, Keys: ks, TableItems: t.ItemCount,
		Segments: in.Segments, MaxItems: in.MaxItems, MaxRCU: in.MaxRCU,
		Items: c.items, Requests: c.reqs, Stop: dynamo.StopComplete}
	if in.Progress != nil {
		in.Progress(dynamo.SampleProgress{Items: len(c.items), MaxItems: in.MaxItems, Requests: len(c.reqs), Segments: in.Segments, SegmentsDone: in.Segments})
	}
	if err := ctx.Err(); err != nil {
		smp.Items, smp.Requests, smp.Stop = c.items[:len(c.items)/2], c.reqs[:len(c.reqs)/2], dynamo.StopCancelled
		return smp, &dynamo.UserError{Msg: fmt.Sprintf("sample %s: cancelled after %d items.", in.Table, len(smp.Items)), Err: err}
	}
	if c.err != nil {
		smp.Stop = dynamo.StopError
	}
	return smp, c.err
}

func (f *fakeStore) sampleCalls() []dynamo.SampleInput {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]dynamo.SampleInput(nil), f.samples...)
}

// demoSample is a small sample of the demo table's layout: customers with a
// profile, addresses and orders; orders with items and shipments.
func demoSample() cannedSample {
	var items []keys.KeyItem
	add := func(pk string, sks ...string) {
		for _, sk := range sks {
			items = append(items, keys.KeyItem{PK: pk, SK: sk})
		}
	}
	add("CUST#1", "ADDRESS#1", "ORDER#2025-01-01#A1", "ORDER#2025-02-01#A2", "PROFILE")
	add("CUST#2", "ORDER#2025-01-05#A3", "PROFILE")
	add("CUST#7", "ADDRESS#1", "ADDRESS#2", "ORDER#2025-01-02#B1", "ORDER#2025-01-03#B2", "ORDER#2025-01-04#B3",
		"ORDER#2025-01-05#B4", "ORDER#2025-01-06#B5", "PROFILE")
	add("ORDER#A1", "ITEM#10", "ITEM#9", "SHIPMENT#1") // 10 sorts before 9: the lint says so
	add("ORDER#A2", "ITEM#1", "SHIPMENT#1")
	add("ORDER#A3", "ITEM#1")
	scan := func(seg int, count int32, rcu float64) dynamo.Request {
		return dynamo.Request{Operation: "Scan", Table: "App", KeyCondition: fmt.Sprintf("segment %d of 4, keys only", seg),
			Forward: true, Limit: 500, Count: count, ScannedCount: count, Capacity: dynamo.Capacity{Total: rcu, Table: rcu}, Duration: 3 * time.Millisecond}
	}
	return cannedSample{items: items, reqs: []dynamo.Request{scan(1, 6, 0.5), scan(2, 5, 0.5), scan(3, 8, 1), scan(4, 1, 0.5)}}
}

// openOverview opens CUST#42 and then the overview, with the canned sample queued.
func openOverviewHarness(t *testing.T, w, h int, o Options) *harness {
	t.Helper()
	o.Table, o.PK = "App", "CUST#42"
	hs := newHarness(t, o, w, h, canned{items: example(), cap: halfRCU()})
	hs.store.sample = demoSample()
	hs.keys("o")
	return hs
}

func TestOverviewCapsBeforeSampling(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	hs.contains("Table overview · App", "items    › 10000", "RCU      › 250", "segments › 4",
		"reads up to 10000 items / 250 RCU with 4 parallel Scan segments, key attributes only",
		"holds about 21067 items")
	if n := len(hs.store.sampleCalls()); n != 0 {
		t.Fatalf("the overview sampled %d times before enter", n)
	}
	// Editing a cap changes the bound; a bad one is refused with a sentence.
	hs.keys("tab", "ctrl+u")
	hs.typeText("20")
	hs.contains("reads up to 10000 items / 20 RCU")
	hs.keys("ctrl+u")
	hs.typeText("0.1")
	hs.contains("RCU must be a number of at least 0.5")
	hs.keys("enter")
	if n := len(hs.store.sampleCalls()); n != 0 {
		t.Fatalf("a refused cap still sampled (%d)", n)
	}
	// Esc closes without reading anything.
	hs.keys("esc")
	hs.lacks("Table overview")
	hs.contains("Entity types")
}

func TestOverviewSettingsCapsAndCost(t *testing.T) {
	s := config.DefaultSettings()
	s.Sampling = config.Sampling{MaxItems: 500, MaxRCU: 8, Segments: 2}
	hs := openOverviewHarness(t, 120, 35, Options{Settings: s})
	hs.contains("items    › 500", "RCU      › 8", "segments › 2",
		"reads up to 500 items / 8 RCU (≈ $0.000001 on-demand) with 2 parallel Scan segments")
	hs.keys("enter")
	got := hs.store.sampleCalls()
	if len(got) != 1 || got[0].MaxItems != 500 || got[0].MaxRCU != 8 || got[0].Segments != 2 || got[0].Table != "App" || got[0].Index != "" {
		t.Fatalf("sampled with %+v", got)
	}
	// The session's cost next to its RCU: 0.5 for the partition, 2.5 for the sample.
	hs.contains("Σ 3 RCU ≈ $0.000000375 on-demand · 5 requests")
}

// The done-when of the issue: the layout of the demo table, reconstructed.
func TestOverviewReconstructsLayout(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	hs.keys("enter")
	hs.contains("20 items (of about 21067) in 6 partitions · the whole table was read · 4 Scans, 2.5 RCU")
	fam := hs.line("CUST#*")
	for _, want := range []string{"3", "14", "ADDRESS 3 · ORDER 8 · PROFILE 3"} {
		if !strings.Contains(fam, want) {
			t.Errorf("CUST#* line %q lacks %q", fam, want)
		}
	}
	if l := hs.line("ORDER#*"); !strings.Contains(l, "ITEM 4 · SHIPMENT 2") {
		t.Errorf("ORDER#* line = %q", l)
	}
	hs.contains("LARGEST PARTITIONS SEEN", "CUST#7", "40.0%", "unpadded-number", `e.g. PK = "ORDER#A1" AND SK = "ITEM#10"`)
	// Every Scan is in the request log and the session total.
	var scans int
	for i, r := range hs.m.log.Reqs {
		if r.Operation == "Scan" {
			scans++
			if hs.m.log.Kinds[i] != "sample" {
				t.Errorf("scan %d logged as %q", i, hs.m.log.Kinds[i])
			}
		}
	}
	if scans != 4 || hs.m.log.Total.Total != 3 {
		t.Errorf("log has %d scans, total %v RCU; want 4 and 3", scans, hs.m.log.Total.Total)
	}
	hs.contains("Σ 3 RCU · 5 requests", "Scan    sample segment 4 of 4")
}

func TestOverviewOpensPartition(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	hs.keys("enter")
	// Rows: the two families, then the largest partitions (CUST#7 first).
	hs.keys("j", "j")
	o, _ := findOverlay[overlay.Overview](hs.m)
	if pk, _ := hs.m.overview.PartitionAt(o.Cursor()); pk != "CUST#7" {
		t.Fatalf("row %d opens %q", o.Cursor(), pk)
	}
	hs.store.queue(canned{items: []dynamo.Item{{"PK": s("CUST#7"), "SK": s("PROFILE")}}, cap: halfRCU()})
	hs.keys("enter")
	qs := hs.store.queries()
	if last := qs[len(qs)-1]; last.PK != "CUST#7" || last.SK.Op != dynamo.SKNone {
		t.Fatalf("opened %+v", last)
	}
	hs.lacks("Table overview")
	hs.contains(`PK = "CUST#7"`)
	// Back to the overview: the layout stays, no second sample.
	hs.keys("o")
	hs.contains("LARGEST PARTITIONS SEEN")
	if n := len(hs.store.sampleCalls()); n != 1 {
		t.Errorf("reopening sampled again (%d samples)", n)
	}
	// s samples again, from the caps it used.
	hs.keys("s")
	hs.contains("items    › 10000")
	hs.keys("enter")
	if n := len(hs.store.sampleCalls()); n != 2 {
		t.Errorf("s then enter gave %d samples", n)
	}
}

func TestOverviewProgressAndCancel(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	cmd := hs.step(keyPress("enter"))
	hs.contains("0 of 10000 items", "esc stops and keeps")
	if !hs.m.busy() {
		t.Fatal("a sample in flight is not busy")
	}
	hs.send(sampleProgressMsg{id: hs.m.flight.id(flightSample), p: dynamo.SampleProgress{Items: 2500, MaxItems: 10000, RCU: 40, MaxRCU: 250, Requests: 9, Segments: 4, SegmentsDone: 1}})
	hs.contains("2500 of 10000 items · 40 of 250 RCU · 9 requests · 1 of 4 segments done", " 25%", "██████")
	// A stale report (another sample) changes nothing.
	hs.send(sampleProgressMsg{id: hs.m.flight.id(flightSample) + 100, p: dynamo.SampleProgress{Items: 9999}})
	hs.lacks("9999")
	hs.keys("esc")
	hs.contains("stopping")
	hs.run(cmd) // the sample sees its context cancelled and returns half
	hs.contains("stopped by you: partial", "10 items", "2 Scans, 1 RCU")
	if hs.m.busy() {
		t.Error("still busy after the sample returned")
	}
	if len(hs.m.log.Reqs) != 3 {
		t.Errorf("the log has %d requests, want the partition's and the 2 scans read", len(hs.m.log.Reqs))
	}
}

func TestOverviewFromPromptAndFailure(t *testing.T) {
	hs := newHarness(t, Options{Table: "App"}, 120, 35)
	hs.contains("Open a partition")
	hs.store.sample = cannedSample{err: &dynamo.UserError{Msg: "sample App: access denied; the policy must allow dynamodb:Scan."}}
	hs.contains("ctrl+o table overview")
	hs.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	hs.contains("Table overview · App")
	hs.keys("enter")
	// Nothing read: back to the caps with the sentence.
	hs.contains("items    › 10000", "access denied; the policy must allow dynamodb:Scan.")
	hs.keys("esc")
	hs.contains("Open a partition")
}

// Snapshots of the overview: the caps, and the layout, at the two usual sizes.
func TestGoldenOverview(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("caps/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openOverviewHarness(t, sz[0], sz[1], Options{})
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("layout/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openOverviewHarness(t, sz[0], sz[1], Options{})
			hs.keys("enter", "j", "j")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("sampling/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openOverviewHarness(t, sz[0], sz[1], Options{})
			hs.step(keyPress("enter"))
			hs.send(sampleProgressMsg{id: hs.m.flight.id(flightSample), p: dynamo.SampleProgress{Items: 4300, MaxItems: 10000, RCU: 107.5, MaxRCU: 250, Requests: 18, Segments: 4, SegmentsDone: 1}})
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
}

// The sample's Scans reach the request log as they are reported, each once:
// the end logs only those no report carried.
func TestOverviewLogsScansAsTheyCome(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	reqs := demoSample().reqs
	cmd := hs.step(keyPress("enter"))
	id := hs.m.flight.id(flightSample)
	for i, r := range reqs[:2] {
		hs.send(sampleProgressMsg{id: id, p: dynamo.SampleProgress{MaxItems: 10000, Requests: i + 1, Segments: 4, Request: r}})
		if n := len(hs.m.log.Reqs); n != 1+i+1 {
			t.Fatalf("after report %d the log has %d requests, want %d", i+1, n, 1+i+1)
		}
	}
	hs.contains("segment 2 of 4, keys only")
	// A report repeated changes nothing.
	hs.send(sampleProgressMsg{id: id, p: dynamo.SampleProgress{Requests: 2, Request: reqs[1]}})
	hs.run(cmd)
	hs.contains("LARGEST PARTITIONS SEEN")
	if n := len(hs.m.log.Reqs); n != 1+len(reqs) {
		t.Fatalf("the log has %d requests, want the partition's and %d Scans", n, len(reqs))
	}
	for i, r := range reqs {
		if got := hs.m.log.Reqs[1+i]; got.KeyCondition != r.KeyCondition || hs.m.log.Kinds[1+i] != "sample" {
			t.Errorf("log line %d: %q (%s), want %q", 2+i, got.KeyCondition, hs.m.log.Kinds[1+i], r.KeyCondition)
		}
	}
	if want := 0.5 + 2.5; hs.m.log.Total.Total != want {
		t.Errorf("session total %v RCU, want %v", hs.m.log.Total.Total, want)
	}
}
