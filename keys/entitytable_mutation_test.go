package keys

import (
	"strings"
	"testing"
)

// Every digit-led key of a page is of the one value type, whatever page
// it came in: a date and a timestamp on two pages are one run, named by
// its ends, not a date type and a timestamp type.
func TestEntityTableValuesAcrossPages(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("EV#1", false).
		Load(loadedKeys([]string{"2024-01-01"}), "#", true).
		Load(loadedKeys([]string{"2024-01-02T10:00:00Z"}), "#", false)
	wantRows(t, tb, `value "" value [] 2024-01-01..2024-01-02T10:00:00Z loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`)
}

// A skip-scan's run of digit-led values is of the one value type though it
// lies apart from the keys loaded and has another shape.
func TestEntityTableDigitRunJoinsTheValueType(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("EV#1", false).
		Load(loadedKeys([]string{"2024-01-05", "JOB#1"}), "#", true).
		Discover([]Group{{Entity: "timestamp", Kind: KindValue, First: "2024-03-01T10:00:00Z", Last: "2024-03-02T10:00:00Z"}}, false, "#", "#")
	wantRows(t, tb,
		`value "" value [found] 2024-01-05..2024-03-02T10:00:00Z loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`JOB "JOB#" label [] JOB#1..JOB#1 loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`)
}

// An id loaded inside the run of ids a skip-scan reported is the run's,
// though a label (not of the run, a stale one) sorts between them, and the
// run is the partition's first type.
func TestEntityTableIDInsideTheFirstRun(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("P#1", false).
		Discover([]Group{{Entity: "hex id", Kind: KindValue, First: "a5f0c3d2e1b4", Last: "c0ffee123456"}}, false, "#", "#").
		Load(loadedKeys([]string{"b#1", "b1b2c3d4e5f6"}), "#", true)
	wantRows(t, tb,
		`hex id "" value [found] a5f0c3d2e1b4..c0ffee123456 loaded 1 bytes 0 atLeast 0 count -1 aliases ["=b1b2c3d4e5f6"] libs []`,
		`b "b#" label [] b#1..b#1 loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`)
}

// A type the table lists that is one key value is one item on the table,
// however it was found: loaded by this read, an earlier one, or a skip-scan.
func TestEntityTableOneItemTypes(t *testing.T) {
	tb := NewEntityTable("S", true).Reset("CUST#1", false).
		Load(loadedKeys([]string{"ORDER#1", "PROFILE"}), "#", true).
		Reset("CUST#1", false).Load(loadedKeys([]string{"ORDER#1"}), "#", true)
	if n, ok := tb.Count(1); !ok || n != 1 {
		t.Errorf("PROFILE, loaded by an earlier read: %d %v", n, ok)
	}
	if n, ok := tb.Counted("=PROFILE", 0).Count(1); !ok || n != 0 {
		t.Errorf("PROFILE counted 0 (deleted since): %d %v", n, ok)
	}
}

// A read that stopped part way gives no count for the type it stopped in:
// its group's Count is -1, as groups prints null.
func TestEntityTableGroupsOfAPartialRead(t *testing.T) {
	gs := NewEntityTable("S", false).Reset("CUST#1", false).
		Load(loadedKeys([]string{"ADDR#1", "ORDER#1"}), "#", true).Groups()
	if len(gs) != 2 || gs[0].Count != 1 || gs[1].Count != -1 {
		t.Errorf("groups %+v: want ADDR 1 and ORDER unknown (-1)", gs)
	}
	if !strings.HasPrefix(gs[1].Entity, "ORDER") {
		t.Errorf("groups %+v", gs)
	}
}
