package ui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/ui/pane"
)

// bruteMatches counts the items whose string or number values contain f,
// ignoring case: what the filter must find.
func bruteMatches(items []dynamo.Item, f string) int {
	n := 0
	for _, it := range items {
		for _, av := range it {
			var v string
			switch x := av.(type) {
			case *types.AttributeValueMemberS:
				v = x.Value
			case *types.AttributeValueMemberN:
				v = x.Value
			default:
				continue
			}
			if strings.Contains(strings.ToLower(v), strings.ToLower(f)) {
				n++
				break
			}
		}
	}
	return n
}

func TestFilterScansInChunks(t *testing.T) {
	const total = 20_000
	items := benchdata.Big(total)
	d, _ := openBench(t, total, -1)
	d.send(keyPress("/"))

	// A keystroke finds a screen of matches and leaves the rest to chunks.
	cmd := d.step(keyPress("s"))
	if cmd == nil || !isFilterScan(cmd) {
		t.Fatal("the keystroke asked for no chunk of the scan")
	}
	if out := shownText(d); !strings.Contains(out, "/s matches ≥ ") || !strings.Contains(out, "filtering… "+strconv.Itoa(pane.FilterSyncBudget)+" of "+strconv.Itoa(total)) {
		t.Fatalf("the title does not say the scan goes on:\n%s", out)
	}
	if d.m.items.Scan.Next > pane.FilterSyncBudget {
		t.Fatalf("the keystroke looked at %d items", d.m.items.Scan.Next)
	}
	d.run(cmd)
	if d.m.items.Scanning() || len(d.m.items.Idx) != bruteMatches(items, "s") {
		t.Fatalf("after the chunks: scanning %v, %d matches, want %d", d.m.items.Scanning(), len(d.m.items.Idx), bruteMatches(items, "s"))
	}

	// A character more looks at the previous matches only.
	prev := len(d.m.items.Idx)
	cmd = d.step(keyPress("H"))
	if got := len(d.m.items.Scan.Cands); got != prev {
		t.Fatalf("the narrowed scan has %d candidates, want the %d previous matches", got, prev)
	}
	d.run(cmd)
	want := bruteMatches(items, "sh")
	if len(d.m.items.Idx) != want {
		t.Fatalf("/sh: %d matches, want %d", len(d.m.items.Idx), want)
	}
	if out := shownText(d); !strings.Contains(out, "/sH matches "+strconv.Itoa(want)) {
		t.Fatalf("the title does not give the final count:\n%s", out)
	}

	// A chunk of an older filter is dropped.
	stale := d.step(keyPress("i"))
	fresh := d.step(keyPress("backspace"))
	if stale == nil || fresh == nil {
		t.Fatal("the keystrokes asked for no chunks")
	}
	before := d.m.items
	m, next := d.m.Update(stale())
	d.m = m.(Model)
	if next != nil || len(d.m.items.Idx) != len(before.Idx) || d.m.items.Scan.Next != before.Scan.Next || d.m.items.Scan.Cpos != before.Scan.Cpos {
		t.Fatal("a chunk of the previous filter ran")
	}
	d.run(fresh)
	if len(d.m.items.Idx) != want {
		t.Fatalf("back to /sh: %d matches, want %d", len(d.m.items.Idx), want)
	}
}

func TestFilterMovesFindMoreMatches(t *testing.T) {
	d, _ := openBench(t, 20_000, -1)
	d.send(keyPress("/"))
	d.step(keyPress("s")) // the chunks are never run
	d.send(keyPress("enter"))
	shown := len(d.m.items.Idx)
	for range 10 {
		d.step(keyPress("pgdown"))
	}
	if len(d.m.items.Idx) <= shown || d.m.items.Cursor() >= len(d.m.items.Idx) {
		t.Fatalf("paging down found no more matches: %d, cursor %d", len(d.m.items.Idx), d.m.items.Cursor())
	}
}

// TestFilterKeystrokeCostIgnoresMatchRate: a keystroke looks at no more items
// for a needle that matches nothing than for one that matches everything, so
// a rare match never scans far to fill a screen before the frame; the chunks
// then finish the scan and the title shows progress until they do.
func TestFilterKeystrokeCostIgnoresMatchRate(t *testing.T) {
	const total = 20_000
	looked := map[string]int{}
	for _, needle := range []string{"2024-", "zqxj"} {
		d, _ := openBench(t, total, -1)
		d.send(keyPress("/"))
		var cmd tea.Cmd
		before := 0
		for _, r := range needle {
			before = d.m.items.Scan.Next
			cmd = d.step(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		// The last keystroke narrows the previous filter: it looks at the
		// previous matches (cpos of them) and at rows from where that
		// filter's scan stopped.
		looked[needle] = d.m.items.Scan.Cpos + d.m.items.Scan.Next - before
		if cmd == nil || !isFilterScan(cmd) {
			t.Fatalf("/%s: the keystroke left no chunk of the scan", needle)
		}
		if out := shownText(d); !strings.Contains(out, "filtering… ") || !strings.Contains(out, " of "+strconv.Itoa(total)) {
			t.Fatalf("/%s: the title shows no progress:\n%s", needle, out)
		}
		d.run(cmd)
		if d.m.items.Scanning() || strings.Contains(shownText(d), "filtering…") {
			t.Fatalf("/%s: still filtering after the chunks", needle)
		}
	}
	if looked["zqxj"] > looked["2024-"] {
		t.Fatalf("a keystroke looked at %d items for a needle in no item, %d for one in every item", looked["zqxj"], looked["2024-"])
	}
}
