// Command rss measures the peak resident memory of the terminal UI with a
// large partition loaded: it opens BENCH#BIG of the bench table (see
// bench/load) through the real client against DynamoDB Local, drives the
// root model headless the way Bubble Tea does (commands in goroutines, every
// message through Update and a View after it), and presses End after each
// page, as a user scrolling to the bottom would, until the whole partition
// is loaded. Then it compares the process's peak RSS (VmHWM) with the bound
// of issue 7: 3x the raw bytes of the loaded items plus 40 MB.
//
// It uses only the ui package's public API: New, Init, Update and View, and
// reads how many items are loaded from the items pane's title.
//
// -max-loaded is the UI's cap on items in memory (ui.Options.MaxLoadedItems):
// -1, no cap, measures every item held, the figure the bound is about; 0,
// the default cap, measures what a session holds beyond it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/ui"
)

const fixedMB = 40 // the fixed allowance of the bound

func main() {
	endpoint := flag.String("endpoint", os.Getenv("DYNASCOPE_TEST_ENDPOINT"), "DynamoDB Local endpoint holding the bench table")
	table := flag.String("table", "bench", "the bench table (bench/load)")
	pk := flag.String("pk", benchdata.BigPK, "partition to load")
	want := flag.Int("items", benchdata.DefaultBig, "items the partition holds")
	timeout := flag.Duration("timeout", 4*time.Minute, "give up after this long")
	maxLoaded := flag.Int("max-loaded", -1, "the UI's cap on items in memory: -1 none, 0 the default")
	flag.Parse()
	ok, err := run(*endpoint, *table, *pk, *want, *maxLoaded, *timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/rss: "+err.Error())
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// countingStore passes every call to the real client and sums the sizes of
// the items the whole-partition query returns: the raw bytes the UI holds.
// Summing here keeps the figure free of a second copy of the items.
type countingStore struct {
	ui.Store
	bytes atomic.Int64
	items atomic.Int64
	pages atomic.Int64
}

func (c *countingStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	p, err := c.Store.Query(ctx, q)
	if err == nil && !q.CountOnly && q.SK.Op == dynamo.SKNone {
		for _, it := range p.Items {
			c.bytes.Add(int64(itemcodec.ItemSize(it)))
		}
		c.items.Add(int64(len(p.Items)))
		c.pages.Add(1)
	}
	return p, err
}

// loadedRE reads the items pane's title: "Items · 3300+ loaded".
var loadedRE = regexp.MustCompile(`(\d+)(\+?) loaded`)

func run(endpoint, table, pk string, want, maxLoaded int, timeout time.Duration) (bool, error) {
	if endpoint == "" {
		return false, errors.New("give the DynamoDB Local endpoint with -endpoint")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: endpoint, Region: "us-east-1"})
	if err != nil {
		return false, err
	}
	cfg, err := os.MkdirTemp("", "bench-rss-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(cfg)
	store := &countingStore{Store: client}
	base := status()

	began := time.Now()
	msgs := make(chan tea.Msg, 64)
	exec := func(cmd tea.Cmd) {
		if cmd != nil {
			go func() {
				select {
				case msgs <- cmd():
				case <-ctx.Done():
				}
			}()
		}
	}
	var m tea.Model = ui.New(ui.Options{Store: store, Table: table, PK: pk, ConfigDir: cfg, MaxLoadedItems: maxLoaded})
	update := func(msg tea.Msg) {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		exec(cmd)
	}
	update(tea.WindowSizeMsg{Width: 120, Height: 35})
	exec(m.Init())

	loaded, focused, done := 0, false, false
	for !done {
		var msg tea.Msg
		select {
		case msg = <-msgs:
		case <-ctx.Done():
			return false, fmt.Errorf("%d of %d items loaded after %s", loaded, want, timeout)
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				exec(c)
			}
			continue
		}
		update(msg)
		screen := ansi.Strip(m.View().Content)
		sm := loadedRE.FindStringSubmatch(screen)
		if sm == nil {
			continue
		}
		n, _ := strconv.Atoi(sm[1])
		more := sm[2] == "+"
		if n > 0 && !focused {
			update(tea.KeyPressMsg{Code: tea.KeyTab}) // the items pane
			focused = true
		}
		if n != loaded {
			loaded = n
			if more {
				// To the bottom: within a screen of the end, the next
				// page is asked for.
				update(tea.KeyPressMsg{Code: tea.KeyEnd})
			}
		}
		done = n >= want && !more
		if n > 0 && !more && n < want {
			return false, fmt.Errorf("the partition %s holds %d items, not %d; load it with bench/load", pk, n, want)
		}
	}
	took := time.Since(began)
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := status()
	runtime.KeepAlive(m) // the loaded items are what is measured
	raw := store.bytes.Load()
	// The bound is on the bytes the UI holds, not those it read: with the
	// item cap, released pages are read but not held.
	held := int64(m.(ui.Model).HeldItemBytes())
	bound := 3*held + fixedMB<<20
	ok := st.hwm <= bound
	mb := func(b int64) float64 { return float64(b) / (1 << 20) }
	fmt.Printf("loaded %d items of %s (%d pages, %.1f MB raw read, %.1f MB held, %.0f bytes each) in %.1f s\n",
		store.items.Load(), pk, store.pages.Load(), mb(raw), mb(held), float64(raw)/float64(store.items.Load()), took.Seconds())
	fmt.Printf("RSS before: %.1f MB; peak (VmHWM): %.1f MB; after GC: %.1f MB; Go heap live after GC: %.1f MB (%.0f bytes per item)\n",
		mb(base.rss), mb(st.hwm), mb(st.rss), mb(int64(ms.HeapAlloc)), float64(ms.HeapAlloc)/float64(store.items.Load()))
	verdict := "ok"
	if !ok {
		verdict = "FAIL"
	}
	capText := "no cap"
	switch {
	case maxLoaded == 0:
		capText = fmt.Sprintf("cap %dk in memory", ui.DefaultMaxLoadedItems/1000)
	case maxLoaded > 0:
		capText = fmt.Sprintf("cap %d in memory", maxLoaded)
	}
	fmt.Printf("= peak RSS at %dk items (%s): %.0f MB = %.2fx held + %d MB (bound 3x the %.0f MB held + %d MB = %.0f MB) %s\n",
		loaded/1000, capText, mb(st.hwm), float64(st.hwm-fixedMB<<20)/float64(held), fixedMB, mb(held), fixedMB, mb(bound), verdict)
	return ok, nil
}

type procStatus struct{ hwm, rss int64 }

// status reads the peak and current resident set size of this process.
func status() procStatus {
	var st procStatus
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return st
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmHWM:":
			st.hwm = kb << 10
		case "VmRSS:":
			st.rss = kb << 10
		}
	}
	return st
}
