package edit_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"dynascope/edit"
)

// 40: the rest of a stopped bulk change records the entry it continues;
// a line without the field (every line written before it) reads as
// continuing none. Chain follows the links back, newest first, and the
// undo of a chain (one entry, each item naming the entry it takes back
// when not the first) makes every entry of the chain undone, each only
// once all its written items were taken back.
func TestJournalChainOfAStoppedBulkChange(t *testing.T) {
	j := journalAt(t)
	item := func(i int, state edit.State) edit.EntryItem {
		return edit.EntryItem{Key: []byte(fmt.Sprintf(`{"PK":{"S":"P"},"SK":{"S":"%d"}}`, i)), Old: []byte(fmt.Sprintf(`{"PK":{"S":"P"},"SK":{"S":"%d"}}`, i)),
			New: []byte(fmt.Sprintf(`{"PK":{"S":"P"},"SK":{"S":"%d"},"a":{"S":"x"}}`, i))}
	}
	bulk := func(continues, undoes int, items ...edit.EntryItem) edit.Entry {
		e := edit.Entry{Table: "T", Operation: edit.OpUpdate, PK: edit.KeyAttrJSON{Name: "PK", Type: "S"}, SK: &edit.KeyAttrJSON{Name: "SK", Type: "S"},
			Items: items, Continues: continues, Undoes: undoes}
		if err := j.Begin(&e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	mark := func(e edit.Entry, states ...edit.State) {
		m := edit.Mark{State: edit.StateDone}
		for _, s := range states {
			note := ""
			if s == edit.StateFailed {
				note = edit.NoteLeft
			}
			m.Items = append(m.Items, edit.ItemMark{State: s, Note: note})
		}
		if err := j.Mark(&e, m); err != nil {
			t.Fatal(err)
		}
	}
	first := bulk(0, 0, item(1, ""), item(2, ""), item(3, ""))
	mark(first, edit.StateDone, edit.StateFailed, edit.StateFailed) // stopped: 2 and 3 left
	rest := bulk(first.Number, 0, item(2, ""), item(3, ""))
	mark(rest, edit.StateDone, edit.StateDone)
	b, err := os.ReadFile(j.Path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(b), "\n"); strings.Contains(lines[0], `"continues"`) || !strings.Contains(lines[2], `"continues":1`) {
		t.Errorf("the lines:\n%s", b)
	}
	entries, _, _ := j.Read()
	if entries[0].Continues != 0 || entries[1].Continues != 1 {
		t.Fatalf("continues %d and %d, want 0 and 1", entries[0].Continues, entries[1].Continues)
	}
	chain := edit.Chain(entries, 2)
	if len(chain) != 2 || chain[0].Number != 2 || chain[1].Number != 1 || edit.ContinuedBy(entries, 1) != 2 || edit.ContinuedBy(entries, 2) != 0 {
		t.Fatalf("chain of 2: %d entries; continued by %d", len(chain), edit.ContinuedBy(entries, 1))
	}
	if c := edit.Chain(entries, 1); len(c) != 1 {
		t.Errorf("chain of 1: %d entries, want itself", len(c))
	}
	// The undo of the chain, stopped before item 1 of entry 1.
	u1 := item(2, "")
	u2 := item(3, "")
	u3 := item(1, "")
	u3.Undoes = 1
	undo := bulk(0, 2, u1, u2, u3)
	mark(undo, edit.StateDone, edit.StateDone, edit.StateFailed)
	entries, _, _ = j.Read()
	if got := entries[2].UndoesEntries(); !slices.Equal(got, []int{2, 1}) {
		t.Errorf("the undo undoes %v, want [2 1]", got)
	}
	if u := edit.Undone(entries); !u[2] || u[1] {
		t.Errorf("after the stopped undo: undone %v, want 2 and not 1", u)
	}
	again := bulk(0, 2, u3) // its rest: item 1 of entry 1
	mark(again, edit.StateDone)
	entries, _, _ = j.Read()
	if u := edit.Undone(entries); !u[2] || !u[1] {
		t.Errorf("after the rest of the undo: undone %v, want 2 and 1", u)
	}
	if items := edit.UndoneItems(entries, 1); len(items) != 1 {
		t.Errorf("entry 1's items taken back: %v", items)
	}
}
