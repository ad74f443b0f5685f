package edit

// A journal entry: one write, its items (the one item of a put, update,
// delete or key move; many for a bulk change), what each is expected to
// become, and what is known of the outcome.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// State is what is known of a journalled write's outcome.
type State string

// The states of a write. A write is journalled in doubt before it is
// sent, and stays so until an answer says otherwise: a request without an
// answer may still be applied by DynamoDB seconds later.
const (
	StateInDoubt State = "in doubt" // sent, no answer (yet): it may be applied, or may still be
	StateDone    State = "done"     // applied: DynamoDB said so, or the item was found as the write leaves it
	StateRefused State = "refused"  // its condition failed: DynamoDB wrote nothing
	StateFailed  State = "failed"   // DynamoDB answered with an error, or nothing was sent: not applied
)

// JournalVersion is the format of the entries this version writes. 2: an
// entry line is written before the write is sent, with its items
// ("items": the key, the image as read, the image it expects to leave and
// its condition), and a mark line ("mark": the entry's id) is appended
// when the answer comes. 1 (no "v"): one item, written after the answer.
const JournalVersion = 2

// KeyAttrJSON is one key attribute in the journal.
type KeyAttrJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// EntryItem is one item of a journalled write. Images are DynamoDB JSON,
// typed, so that undo writes back exactly what was there.
type EntryItem struct {
	Key json.RawMessage `json:"key"`
	Old json.RawMessage `json:"old"` // as read; null for a new item
	New json.RawMessage `json:"new"` // the image the write leaves; null for a delete
	// Condition is the condition the write is sent on, in DynamoDB's words
	// with its values, as the confirmation showed it.
	Condition string `json:"condition,omitempty"`
	// Undoes is, in an undo's entry that takes back a chain of bulk
	// entries (Chain), the entry this item's write takes back when it is
	// not the entry's Undoes; absent (0) in any other line.
	Undoes int `json:"undoes,omitempty"`
	// State is what is known of this item (from the marks); in doubt
	// before any. Note is what its mark says beside it.
	State State  `json:"-"`
	Note  string `json:"-"`
}

// NotLanded tells an item of an undo that found the write it takes back,
// in doubt, had never landed: refused, as nothing was written, but not
// changed by anyone (its note is a NotLandedError's).
func (it EntryItem) NotLanded() bool {
	return it.State == StateRefused && strings.HasPrefix(it.Note, notLandedLead)
}

// NoteLeft is the note of a bulk change's item that was not sent: the
// change was stopped first (Ctrl-C), so nothing was written to it.
const NoteLeft = "left: not sent"

// Left tells an item of a bulk change that was not sent: the change was
// stopped before it.
func (it EntryItem) Left() bool { return it.State == StateFailed && it.Note == NoteLeft }

// Entry is one journalled write.
type Entry struct {
	Number    int    // its place among the journal's entries, from 1
	ID        string // names it in the marks; "" for a version 1 entry
	Version   int    // the line format it was read from: 1 or 2
	Time      time.Time
	Endpoint  string // "" for AWS
	Region    string
	Table     string
	Operation Op
	PK        KeyAttrJSON
	SK        *KeyAttrJSON
	Items     []EntryItem
	// PredictedWCU is what the plan predicted; WCU what DynamoDB reported
	// consumed, nil when it reported nothing (no answer, or a refusal
	// without a figure): unknown, never 0.
	PredictedWCU float64
	WCU          *float64
	VersionAttr  string // the version attribute the write raised
	Undoes       int    // the entry this write undoes
	// Continues is the bulk entry, stopped with items left, whose rest
	// this bulk change sent (update --keys FILE --continues N, as the
	// stopped run printed it): undo takes both back as one (Chain). 0
	// for none, and in lines written before it was kept.
	Continues int
	// State is the write's outcome as far as known: from its last mark, in
	// doubt when none came (the run ended before the answer: Unanswered).
	State      State
	Unanswered bool
	Answered   time.Time // when its last mark was written; zero for none
	Note       string    // what the last mark says beside its state
}

// OldItem is the image the write found (its first item's); nil for a new
// item.
func (e Entry) OldItem() (dynamo.Item, error) {
	if len(e.Items) == 0 {
		return nil, nil
	}
	return parseImage(e.Items[0].Old)
}

// NewItem is the image the write left, or expects to leave (its first
// item's); nil for a deleted item.
func (e Entry) NewItem() (dynamo.Item, error) {
	if len(e.Items) == 0 {
		return nil, nil
	}
	return parseImage(e.Items[0].New)
}

// Keys is the key schema the entry recorded.
func (e Entry) Keys() dynamo.Table {
	t := dynamo.Table{Name: e.Table, PK: dynamo.KeyAttr{Name: e.PK.Name, Type: e.PK.Type}}
	if e.SK != nil {
		t.SK = &dynamo.KeyAttr{Name: e.SK.Name, Type: e.SK.Type}
	}
	return t
}

// Undoable tells whether undo can take the write back: it was applied,
// or may have been. A refused or failed write wrote nothing.
func (e Entry) Undoable() bool { return e.State == StateDone || e.State == StateInDoubt }

// Partial tells a bulk change that was stopped with items left, not sent.
func (e Entry) Partial() bool {
	for _, it := range e.Items {
		if it.Left() {
			return true
		}
	}
	return false
}

// UndoesEntries are the entries an undo's write takes back: its Undoes,
// then those its items name (the undo of a chain); nil for a write that
// is no undo.
func (e Entry) UndoesEntries() []int {
	if e.Undoes == 0 {
		return nil
	}
	ns := []int{e.Undoes}
	for _, it := range e.Items {
		if it.Undoes != 0 && !slices.Contains(ns, it.Undoes) {
			ns = append(ns, it.Undoes)
		}
	}
	return ns
}

// Chain is entry n and every earlier entry it continues (Continues),
// newest first, as far as the links hold (each to an earlier entry of the
// same table where it was written); undo takes them back as one change.
// Nil when the journal has no entry n.
func Chain(entries []Entry, n int) []Entry {
	byNumber := map[int]Entry{}
	for _, e := range entries {
		byNumber[e.Number] = e
	}
	e, ok := byNumber[n]
	if !ok {
		return nil
	}
	chain := []Entry{e}
	for {
		c, ok := byNumber[e.Continues]
		if e.Continues == 0 || e.Continues >= e.Number || !ok || c.Table != e.Table || c.Endpoint != e.Endpoint || c.Region != e.Region {
			return chain
		}
		chain, e = append(chain, c), c
	}
}

// ContinuedBy is the entry that continues entry n (the rest of a bulk
// change stopped with items left), 0 for none.
func ContinuedBy(entries []Entry, n int) int {
	for _, e := range entries {
		if e.Continues == n && e.Number > n {
			return e.Number
		}
	}
	return 0
}

// newEntry is the entry of a plan about to be sent: in doubt, its item
// as read and as the plan leaves it.
func newEntry(p *Plan, to Target, undoes int) Entry {
	key := KeyOf(p.Keys, p.Old)
	if p.Old == nil {
		key = KeyOf(p.Keys, p.New)
	}
	e := Entry{
		Version: JournalVersion, Time: time.Now().UTC(), Endpoint: to.Endpoint, Region: to.Region, Table: p.Table, Operation: p.Op,
		PK:           KeyAttrJSON{p.Keys.PK.Name, p.Keys.PK.Type},
		Items:        []EntryItem{{Key: itemcodec.DynamoJSON(key), Old: image(p.Old), New: image(p.New), Condition: p.Condition, State: StateInDoubt}},
		PredictedWCU: p.PredictedWCU, VersionAttr: p.Version, Undoes: undoes, State: StateInDoubt,
	}
	if sk := p.Keys.SK; sk != nil {
		e.SK = &KeyAttrJSON{sk.Name, sk.Type}
	}
	return e
}

func image(it dynamo.Item) json.RawMessage {
	if it == nil {
		return json.RawMessage("null")
	}
	return itemcodec.DynamoJSON(it)
}

func parseImage(raw json.RawMessage) (dynamo.Item, error) {
	if len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	return itemcodec.ParseDynamoJSON(raw)
}

// Undone tells which entries a later entry undid: a write of one item
// by an undo that was applied and is not undone itself; a bulk change
// once each of its items that was written (or may have been) was taken
// up by such undos (an undo refused or failed undid nothing; one in
// doubt is UndoInDoubt's). A bulk undo stopped with items left took up
// only the others: its entry is undone once later undos took up the rest
// (undo --keys of the file of those left).
func Undone(entries []Entry) map[int]bool {
	u, _ := undoneItems(entries)
	return u
}

// UndoneItems are the items of entry n that undos applied since took
// back (written, or found never landed), by their keys: an undo of n going
// on after one that was stopped leaves them be.
func UndoneItems(entries []Entry, n int) map[string]bool {
	_, items := undoneItems(entries)
	return items[n]
}

func undoneItems(entries []Entry) (map[int]bool, map[int]map[string]bool) {
	u := map[int]bool{}
	taken := map[int]map[string]bool{} // entry: the keys of its items an applied undo took up
	back := map[int]map[string]bool{}  // entry: the keys of its items an applied undo took back
	// From the last: whether an undo is undone itself is known before
	// what it undid is counted.
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if t, ok := taken[e.Number]; ok {
			u[e.Number] = true
			for _, it := range e.Items {
				// One item is undone by an applied undo whatever key it
				// has: a key move's undo is of the key it moved to.
				if len(e.Items) > 1 && (it.State == StateDone || it.State == StateInDoubt) && !t[keyID(it.Key)] {
					u[e.Number] = false
				}
			}
		}
		if e.Undoes == 0 || e.State != StateDone || u[e.Number] {
			continue
		}
		if taken[e.Undoes] == nil {
			taken[e.Undoes], back[e.Undoes] = map[string]bool{}, map[string]bool{}
		}
		for _, it := range e.Items {
			n := e.Undoes
			if it.Undoes != 0 { // the undo of a chain: this item is of another of its entries
				n = it.Undoes
			}
			if taken[n] == nil {
				taken[n], back[n] = map[string]bool{}, map[string]bool{}
			}
			if !it.Left() {
				taken[n][keyID(it.Key)] = true
			}
			if it.State == StateDone || it.NotLanded() {
				back[n][keyID(it.Key)] = true
			}
		}
	}
	return u, back
}

// keyID is a journalled key in one spelling: as DynamoDB JSON encodes
// it, whatever spacing the line had.
func keyID(raw json.RawMessage) string {
	k, err := parseImage(raw)
	if err != nil || k == nil {
		return string(raw)
	}
	return string(itemcodec.DynamoJSON(k))
}

// KeyID is the item's key in the spelling UndoneItems gives: as
// itemcodec.DynamoJSON encodes it.
func (it EntryItem) KeyID() string { return keyID(it.Key) }

// Mark is what the answer (or its absence) says of a write: its state,
// the units it consumed (nil: unknown), the images DynamoDB reported (nil
// to keep those planned) and a note.
type Mark struct {
	State    State
	WCU      *float64
	Old, New dynamo.Item
	Images   bool // Old and New are DynamoDB's (ReturnValues), to keep
	Note     string
	// Items, when given, is each item's own outcome, in the entry's
	// order (a bulk change); nil: State (and Old, New) say it of all.
	Items []ItemMark
}

// ItemMark is one item's outcome in a mark of many.
type ItemMark struct {
	State    State
	Old, New dynamo.Item
	Images   bool // Old and New are DynamoDB's, to keep
	Note     string
}
