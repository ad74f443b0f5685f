package edit_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"dynascope/edit"
)

// A bulk undo stopped with items left (Ctrl-C) undid only part: its
// entry is not undone, and UndoneItems names the items it took back (a
// not-landed one among them, a refused or left one not); a later undo of
// the rest makes it undone. A bulk undo that is undone itself (a redo)
// takes nothing back. One item's entry is undone by any applied undo,
// whatever key the undo's item has (a key move's undo is of the new key).
func TestUndoneOfABulkChangeStoppedPartWay(t *testing.T) {
	key := func(sk string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"PK":{"S":"C"},"SK":{"S":"%s"}}`, sk))
	}
	item := func(sk string, st edit.State, note string) edit.EntryItem {
		return edit.EntryItem{Key: key(sk), State: st, Note: note}
	}
	// The change: a, b, c, d written; e refused (nothing to undo).
	change := edit.Entry{Number: 1, State: edit.StateDone, Items: []edit.EntryItem{item("a", edit.StateDone, ""), item("b", edit.StateDone, ""),
		item("c", edit.StateDone, ""), item("d", edit.StateInDoubt, ""), item("e", edit.StateRefused, "")}}
	// Its undo, stopped: a undone, b refused, c left; d not reached either.
	stopped := edit.Entry{Number: 2, Undoes: 1, State: edit.StateDone, Items: []edit.EntryItem{item("a", edit.StateDone, ""),
		item("b", edit.StateRefused, ""), item("c", edit.StateFailed, edit.NoteLeft), item("d", edit.StateFailed, edit.NoteLeft)}}
	entries := []edit.Entry{change, stopped}
	if u := edit.Undone(entries); u[1] {
		t.Errorf("a stopped undo made its entry undone: %v", u)
	}
	if got := fmt.Sprint(edit.UndoneItems(entries, 1)); got != `map[{"PK":{"S":"C"},"SK":{"S":"a"}}:true]` {
		t.Errorf("taken back: %s, want a alone", got)
	}
	if !stopped.Partial() || change.Partial() {
		t.Errorf("Partial: stopped %v, change %v", stopped.Partial(), change.Partial())
	}
	// The rest, by --keys of c and d (d never landed): now undone.
	rest := edit.Entry{Number: 3, Undoes: 1, State: edit.StateDone, Items: []edit.EntryItem{item("c", edit.StateDone, ""), item("d", edit.StateRefused, "")}}
	rest.Items[1].Note = (&edit.NotLandedError{}).Error()
	entries = append(entries, rest)
	if u := edit.Undone(entries); !u[1] {
		t.Errorf("after the rest: %v, want entry 1 undone", u)
	}
	if got := len(edit.UndoneItems(entries, 1)); got != 3 {
		t.Errorf("%d items taken back, want a, c and d (not landed)", got)
	}
	// The rest redone: its items are as the change left them again.
	entries = append(entries, edit.Entry{Number: 4, Undoes: 3, State: edit.StateDone, Items: rest.Items})
	if u := edit.Undone(entries); u[1] || !u[3] {
		t.Errorf("after the redo of 3: %v, want 3 undone and 1 not", u)
	}
	// One item, a key move: its undo's item has the key it moved to.
	move := []edit.Entry{{Number: 1, State: edit.StateDone, Items: []edit.EntryItem{item("old", edit.StateDone, "")}},
		{Number: 2, Undoes: 1, State: edit.StateDone, Items: []edit.EntryItem{item("new", edit.StateDone, "")}}}
	if u := edit.Undone(move); !u[1] {
		t.Errorf("a key move's undo: %v", u)
	}
}

// A bulk entry longer than any one item (3,000 items of 1 KB images,
// about 7 MB on one line), its mark with each item's state, and an entry
// after it read back whole: a line the reader refused made the whole
// journal unreadable (bufio.Scanner: token too long), so that `journal`
// and `undo` failed after a bulk change of a few thousand items.
func TestJournalReadsABulkEntryOfThousandsOfItems(t *testing.T) {
	j := journalAt(t)
	const n = 3000
	pad := strings.Repeat("x", 1000)
	e := putEntry(nil)
	e.Items = nil
	for i := range n {
		e.Items = append(e.Items, edit.EntryItem{Key: json.RawMessage(fmt.Sprintf(`{"PK":{"S":"P%d"}}`, i)), Old: json.RawMessage("null"),
			New: json.RawMessage(fmt.Sprintf(`{"PK":{"S":"P%d"},"pad":{"S":"%s"}}`, i, pad))})
	}
	if err := j.Begin(&e); err != nil {
		t.Fatal(err)
	}
	m := edit.Mark{State: edit.StateDone}
	for i := range n {
		st := edit.StateDone
		if i == n-1 {
			st = edit.StateRefused
		}
		m.Items = append(m.Items, edit.ItemMark{State: st})
	}
	if err := j.Mark(&e, m); err != nil {
		t.Fatal(err)
	}
	after := putEntry([]byte(`{"PK":{"S":"P"}}`))
	if err := j.Begin(&after); err != nil {
		t.Fatal(err)
	}
	entries, bad, err := j.Read()
	if err != nil || len(bad) > 0 || len(entries) != 2 || len(entries[0].Items) != n || entries[1].Number != 2 {
		t.Fatalf("read back: %d entries, %v, %v", len(entries), bad, err)
	}
	if got := entries[0]; got.State != edit.StateDone || got.Items[0].State != edit.StateDone || got.Items[n-1].State != edit.StateRefused || !strings.Contains(string(got.Items[7].New), pad) {
		t.Errorf("the bulk entry: %s, first item %s, last %s", got.State, got.Items[0].State, got.Items[n-1].State)
	}
}
