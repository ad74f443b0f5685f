package pane

import (
	"math"
	"slices"

	"dynascope/dynamo"
)

// Marks are kept in the list by ItemID, so they belong to items: a page
// released and read again, a filter set or cleared, new results or a live
// record leave them. Marking needs an item's key, which a released page no
// longer holds: its rows are counted as not marked, never guessed.

// Marking is what one marking key did: how many items it marked, how many
// it found marked already, and how many rows of released pages it could
// not see.
type Marking struct {
	Added, Already, Released int
}

// markAnchor is the item a range mark starts from: the last one marked or
// unmarked by itself, and its row in the store when that was done.
type markAnchor struct {
	id  string
	row int
	set bool
}

// ToggleMark marks the item under the cursor, or takes its mark away, and
// makes it the start of a range (MarkRange); false when there is no item
// there or its page is released. The cursor does not move.
func (p Items) ToggleMark() (Items, bool) {
	row, ok := p.Nav().Selected()
	if !ok {
		return p, false
	}
	it, ok := p.Store.Item(p.At(row))
	if !ok {
		return p, false
	}
	id := p.ItemID(it)
	p.List = p.List.Toggle(id)
	p.anchor = markAnchor{id: id, row: p.At(row), set: true}
	return p, true
}

// MarkRange marks every item from the start of the range (the item last
// toggled) to the cursor, both included, among the rows shown; false when
// there is no start, or it is not shown now (filtered out, or gone).
func (p Items) MarkRange() (Items, Marking, bool) {
	cur, ok := p.Nav().Selected()
	if !ok || !p.anchor.set {
		return p, Marking{}, false
	}
	from := p.anchorRow()
	if from < 0 {
		return p, Marking{}, false
	}
	lo, hi := min(from, cur), max(from, cur)
	rows := make([]int, 0, hi-lo+1)
	for r := lo; r <= hi; r++ {
		rows = append(rows, p.At(r))
	}
	p, m := p.markRows(rows, nil)
	return p, m, true
}

// anchorRow is the row shown of the range's start, -1 when not shown: its
// row in the store is tried first, then every row shown.
func (p Items) anchorRow() int {
	if row := p.rowOf(p.anchor.row); row >= 0 && p.idOf(p.anchor.row) == p.anchor.id {
		return row
	}
	for row := range p.Rows() {
		if p.idOf(p.At(row)) == p.anchor.id {
			return row
		}
	}
	return -1
}

// rowOf is where item i of the store is among the rows shown, -1 when not.
func (p Items) rowOf(i int) int {
	if i < 0 || i >= p.Store.Total {
		return -1
	}
	if p.Filter == "" {
		return i
	}
	if r, ok := slices.BinarySearch(p.Idx, i); ok {
		return r
	}
	return -1
}

// idOf is item i's id, "" when its page is released.
func (p Items) idOf(i int) string {
	it, ok := p.Store.Item(i)
	if !ok {
		return ""
	}
	return p.ItemID(it)
}

// MarkShown marks every row shown: every item loaded, or the filter's
// matches, its scan run to the end first (the key asked for all of them).
func (p Items) MarkShown() (Items, Marking) {
	if p.Scanning() {
		p = p.advance(math.MaxInt, math.MaxInt)
	}
	rows := make([]int, p.Rows())
	for r := range rows {
		rows[r] = p.At(r)
	}
	return p.markRows(rows, nil)
}

// MarkWhere marks every loaded item keep accepts, shown or filtered out.
func (p Items) MarkWhere(keep func(dynamo.Item) bool) (Items, Marking) {
	rows := make([]int, p.Store.Total)
	for i := range rows {
		rows[i] = i
	}
	return p.markRows(rows, keep)
}

// markRows marks the items of these rows of the store that keep accepts
// (all when nil), in one copy of the marks.
func (p Items) markRows(rows []int, keep func(dynamo.Item) bool) (Items, Marking) {
	var m Marking
	var ids []string
	for _, i := range rows {
		it, ok := p.Store.Item(i)
		switch {
		case !ok:
			m.Released++
			continue
		case keep != nil && !keep(it):
			continue
		}
		id := p.ItemID(it)
		if p.List.Marked(id) {
			m.Already++
			continue
		}
		ids = append(ids, id)
	}
	m.Added = len(ids)
	if len(ids) > 0 {
		p.List = p.List.Mark(ids...)
	}
	return p, m
}

// MarkItems marks these items (a page just read); it returns how many
// were not marked before.
func (p Items) MarkItems(items []dynamo.Item) (Items, int) {
	ids := make([]string, 0, len(items))
	for _, it := range items {
		if id := p.ItemID(it); !p.List.Marked(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		p.List = p.List.Mark(ids...)
	}
	return p, len(ids)
}

// ClearMarks takes every mark away; it returns how many there were.
func (p Items) ClearMarks() (Items, int) {
	n := p.List.MarkCount()
	p.List, p.anchor = p.List.ClearMarks(), markAnchor{}
	return p, n
}

// KeepMarks gives a pane made afresh (another partition of the same table)
// the marks of old: an item's id is its table key, whichever partition or
// index shows it.
func (p Items) KeepMarks(old Items) Items {
	if old.List.MarkCount() > 0 {
		p.List = p.List.Mark(old.List.Marks()...)
	}
	return p
}

// MarkCount is how many items are marked, loaded or not.
func (p Items) MarkCount() int { return p.List.MarkCount() }

// Unmark takes the mark of the item with these key values away (an item a
// live record removed).
func (p Items) Unmark(keyValues dynamo.Item) Items {
	if id := p.ItemID(keyValues); p.List.Marked(id) {
		p.List = p.List.Unmark(id)
	}
	return p
}
