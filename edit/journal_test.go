package edit_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/edit"
)

func journalAt(t *testing.T) *edit.Journal {
	t.Helper()
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func putEntry(new []byte) edit.Entry {
	return edit.Entry{Table: "T", Operation: edit.OpPut, PK: edit.KeyAttrJSON{Name: "PK", Type: "S"},
		Items: []edit.EntryItem{{Key: []byte(`{"PK":{"S":"P"}}`), Old: []byte("null"), New: new}}}
}

func units(u float64) *float64 { return &u }

// An entry's number is its place among the entries, marks not counted,
// also when the journal before it is longer than one 64 KB read: entries
// of 70 KB each (an item may be 400 KB), each marked done, are numbered 1,
// 2, 3 and read back whole with the same numbers and states.
func TestJournalNumbersPastOneRead(t *testing.T) {
	j := journalAt(t)
	big := []byte(`{"PK":{"S":"P"},"pad":{"S":"` + strings.Repeat("x", 70*1024) + `"}}`)
	for want := 1; want <= 3; want++ {
		e := putEntry(big)
		if err := j.Begin(&e); err != nil {
			t.Fatal(err)
		}
		if e.Number != want || e.State != edit.StateInDoubt {
			t.Errorf("entry %d numbered %d, %s", want, e.Number, e.State)
		}
		if err := j.Mark(&e, edit.Mark{State: edit.StateDone, WCU: units(71)}); err != nil {
			t.Fatal(err)
		}
	}
	entries, bad, err := j.Read()
	if err != nil || len(bad) > 0 || len(entries) != 3 || entries[2].Number != 3 {
		t.Fatalf("read back: %d entries, %v, %v", len(entries), bad, err)
	}
	for _, e := range entries {
		if e.State != edit.StateDone || e.WCU == nil || *e.WCU != 71 || e.Unanswered || len(e.Items[0].New) != len(big) {
			t.Errorf("entry %d: %s, %v WCU, unanswered %v", e.Number, e.State, e.WCU, e.Unanswered)
		}
	}
}

// A bulk change's entry holds every item's images on one line, longer
// than any one item: an entry of 5,000 items of 1 KB (over 10 MB) reads
// back whole, between two small ones, with its mark.
func TestJournalReadsABulkEntry(t *testing.T) {
	j := journalAt(t)
	small := putEntry([]byte(`{"PK":{"S":"P"}}`))
	if err := j.Begin(&small); err != nil {
		t.Fatal(err)
	}
	bulk := putEntry(nil)
	bulk.Items = nil
	for i := range 5000 {
		img := []byte(fmt.Sprintf(`{"PK":{"S":"P%d"},"pad":{"S":"%s"}}`, i, strings.Repeat("x", 1024)))
		bulk.Items = append(bulk.Items, edit.EntryItem{Key: []byte(fmt.Sprintf(`{"PK":{"S":"P%d"}}`, i)), Old: img, New: img})
	}
	if err := j.Begin(&bulk); err != nil {
		t.Fatal(err)
	}
	if err := j.Mark(&bulk, edit.Mark{State: edit.StateDone, WCU: units(10000)}); err != nil {
		t.Fatal(err)
	}
	last := putEntry([]byte(`{"PK":{"S":"P"}}`))
	if err := j.Begin(&last); err != nil {
		t.Fatal(err)
	}
	entries, bad, err := j.Read()
	if err != nil || len(bad) > 0 || len(entries) != 3 {
		t.Fatalf("read back: %d entries, %v, %v", len(entries), bad, err)
	}
	if e := entries[1]; len(e.Items) != 5000 || e.State != edit.StateDone || e.Number != 2 || string(e.Items[4999].New) != string(bulk.Items[4999].New) {
		t.Errorf("the bulk entry read back: %d items, %s, number %d", len(e.Items), e.State, e.Number)
	}
	if entries[2].Number != 3 || entries[2].State != edit.StateInDoubt {
		t.Errorf("the entry after it: number %d, %s", entries[2].Number, entries[2].State)
	}
}

// The journal is written before the write is sent: an entry whose answer
// never came (the run was killed) reads back in doubt, unanswered; a mark
// decides its state, a later mark overrides an earlier one, and units once
// known stay known. The images DynamoDB reported replace the planned ones.
func TestJournalStatesFromMarks(t *testing.T) {
	j := journalAt(t)
	mk := func(state edit.State, m edit.Mark) edit.Entry {
		e := putEntry([]byte(`{"PK":{"S":"P"},"a":{"S":"planned"}}`))
		if err := j.Begin(&e); err != nil {
			t.Fatal(err)
		}
		if state != "" {
			m.State = state
			if err := j.Mark(&e, m); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	killed := mk("", edit.Mark{})
	refused := mk(edit.StateRefused, edit.Mark{Note: "nothing was written"})
	later := mk(edit.StateInDoubt, edit.Mark{Note: "no answer"})
	if err := j.Mark(&later, edit.Mark{State: edit.StateDone, Note: "landed"}); err != nil {
		t.Fatal(err)
	}
	reported := mk(edit.StateDone, edit.Mark{WCU: units(2), Images: true, New: dynamo.Item{"PK": s("P"), "a": s("theirs too")}})
	entries, bad, err := j.Read()
	if err != nil || len(bad) > 0 || len(entries) != 4 {
		t.Fatalf("%d entries, %v, %v", len(entries), bad, err)
	}
	for i, want := range []struct {
		number     int
		state      edit.State
		unanswered bool
		note       string
	}{{killed.Number, edit.StateInDoubt, true, ""}, {refused.Number, edit.StateRefused, false, "nothing was written"},
		{later.Number, edit.StateDone, false, "landed"}, {reported.Number, edit.StateDone, false, ""}} {
		e := entries[i]
		if e.Number != want.number || e.Number != i+1 || e.State != want.state || e.Unanswered != want.unanswered || e.Note != want.note {
			t.Errorf("entry %d: number %d, %s, unanswered %v, note %q; want %+v", i+1, e.Number, e.State, e.Unanswered, e.Note, want)
		}
		if e.WCU != nil && i != 3 {
			t.Errorf("entry %d has units %v nobody reported", e.Number, *e.WCU)
		}
	}
	if got, _ := entries[3].NewItem(); edit.ItemText(got) != `{"PK":"P","a":"theirs too"}` || *entries[3].WCU != 2 {
		t.Errorf("the reported image %s, %v WCU", edit.ItemText(got), entries[3].WCU)
	}
	if got, _ := entries[0].NewItem(); edit.ItemText(got) != `{"PK":"P","a":"planned"}` {
		t.Errorf("the planned image %s", edit.ItemText(got))
	}
	if !entries[0].Undoable() || entries[1].Undoable() || !entries[2].Undoable() {
		t.Error("undoable: a write in doubt or done, never one refused")
	}
}

// A journal of version 1 (entries written after their answer, one item
// at the top, no marks) reads as done entries, numbered by line among the
// new ones appended after it; a line that is neither an entry nor a mark
// keeps its number and is named.
func TestJournalReadsVersionOne(t *testing.T) {
	j := journalAt(t)
	v1 := `{"time":"2025-03-01T10:00:00Z","endpoint":"","region":"eu-west-1","table":"App","operation":"UpdateItem","pk":{"name":"PK","type":"S"},` +
		`"key":{"PK":{"S":"C"}},"old":{"PK":{"S":"C"},"a":{"N":"1"}},"new":{"PK":{"S":"C"},"a":{"N":"2"}},"predictedWCU":1,"wcu":1}` + "\n"
	if err := os.WriteFile(j.Path, []byte(v1+"not json\n"+`{"mark":"nobody","state":"done"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := putEntry([]byte(`{"PK":{"S":"P"}}`))
	if err := j.Begin(&e); err != nil || e.Number != 3 {
		t.Fatalf("the new entry: number %d, %v", e.Number, err)
	}
	entries, bad, err := j.Read()
	if err != nil || len(entries) != 2 || len(bad) != 2 {
		t.Fatalf("%d entries, %v, %v", len(entries), bad, err)
	}
	old := entries[0]
	if old.Number != 1 || old.Version != 1 || old.State != edit.StateDone || *old.WCU != 1 || old.Table != "App" {
		t.Errorf("version 1 entry: %+v", old)
	}
	if o, _ := old.OldItem(); edit.ItemText(o) != `{"PK":"C","a":1}` {
		t.Errorf("its old image %s", edit.ItemText(o))
	}
	if entries[1].Number != 3 || entries[1].Version != 2 || entries[1].State != edit.StateInDoubt {
		t.Errorf("the new entry read back: %+v", entries[1])
	}
	if !strings.HasSuffix(bad[0], ":2 is not a journal entry; it is left out") || !strings.HasSuffix(bad[1], ":3 is not the mark of an entry before it; it is left out") {
		t.Errorf("bad lines: %q", bad)
	}
}

// Entries appended at once by many writers (several processes share one
// journal) get distinct numbers, 1 to n, each its own entry's, and every
// mark finds its entry.
func TestJournalConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const n = 24
	var wg sync.WaitGroup
	numbers := make([]int, n)
	for i := range n {
		wg.Go(func() {
			j, _ := edit.OpenJournal(filepath.Join(dir, "journal.jsonl")) // its own, as a process has
			e := putEntry([]byte(fmt.Sprintf(`{"PK":{"S":"P"},"i":{"N":"%d"}}`, i)))
			if err := j.Begin(&e); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Millisecond)
			if err := j.Mark(&e, edit.Mark{State: edit.StateDone}); err != nil {
				t.Error(err)
			}
			numbers[i] = e.Number
		})
	}
	wg.Wait()
	j, _ := edit.OpenJournal(filepath.Join(dir, "journal.jsonl"))
	entries, bad, err := j.Read()
	if err != nil || len(bad) > 0 || len(entries) != n {
		t.Fatalf("%d entries, %v, %v", len(entries), bad, err)
	}
	for i, e := range entries {
		var it struct{ I struct{ N string } }
		_ = json.Unmarshal(e.Items[0].New, &it)
		if e.Number != i+1 || e.State != edit.StateDone || numbers[atoi(t, it.I.N)] != e.Number {
			t.Errorf("entry %d: number %d, %s; its writer was told %d", i+1, e.Number, e.State, numbers[atoi(t, it.I.N)])
		}
	}
}

func atoi(t *testing.T, s string) int {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
