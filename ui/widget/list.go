package widget

import (
	"maps"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// List is the cursor, the scroll and the marks of a list whose rows the
// caller keeps: it knows how many rows there are, which of them a filter
// shows, which one the cursor is on, which window of them is drawn and
// which are marked, and nothing of what a row holds. A row is named by its
// index in the caller's rows (0 … n-1); a position is its place among the
// rows shown, which are all of them unless a filter is set. Every method
// returns a new List and leaves the one it was called on as it was.
//
// The window is Height rows tall and follows the cursor: a move keeps the
// window where it was drawn until the cursor would leave it. The offset
// kept is where the window was last moved to; Offset derives the window
// from it, so a list whose rows or height changed since still draws its
// cursor in view. A list moved before any height is set keeps its window
// at the top, so drawn it shows the first window that holds the cursor.
//
// A list may also let its cursor rest on no row (AllowNone): a list of
// values offered under a text field, which the cursor enters and leaves.
type List struct {
	n        int   // the caller's rows
	view     []int // the rows the filter keeps, in order, when filtered
	filtered bool
	cursor   int // a position among the rows shown
	offset   int // the first position of the window, as last moved
	height   int // rows in the window; 0 until set
	marks    map[string]bool
	none     bool // the cursor may be on no row: position -1 (AllowNone)
}

// NewList is a list of n rows, the cursor on the first.
func NewList(n int) List { return List{}.SetLen(n) }

// SetLen makes the list n rows long, with no filter; the cursor stays at
// its position, or on the last row when that is gone. Marks stay.
func (l List) SetLen(n int) List {
	l.n, l.view, l.filtered = max(0, n), nil, false
	return l.clampCursor()
}

// Filter makes the list n rows long and shows those keep accepts, in
// order (all of them when keep is nil); the cursor stays at its position,
// or on the last row shown when that is gone. Marks stay, on rows hidden
// too: a mark belongs to a row's id, not to its place.
func (l List) Filter(n int, keep func(i int) bool) List {
	if keep == nil {
		return l.SetLen(n)
	}
	l.n, l.filtered = max(0, n), true
	l.view = make([]int, 0, l.n)
	for i := range l.n {
		if keep(i) {
			l.view = append(l.view, i)
		}
	}
	return l.clampCursor()
}

// AllowNone lets the cursor rest on no row, just above the first, and
// puts it there. Moving up from the first row goes there and moving down
// comes back, as a shell's history steps back to the line being typed;
// Home and End still go to the first and the last row. On no row, Selected
// is false, no row is drawn under the cursor and the window is at the top.
func (l List) AllowNone() List {
	l.none, l.cursor = true, -1
	return l
}

// SetHeight sets how many rows the window shows (at least 0). The window
// is derived again when drawn; the cursor does not move.
func (l List) SetHeight(h int) List {
	l.height = max(0, h)
	return l
}

// Height is how many rows the window shows.
func (l List) Height() int { return l.height }

// Len is the number of rows shown: all of them, or those the filter keeps.
func (l List) Len() int {
	if l.filtered {
		return len(l.view)
	}
	return l.n
}

// Total is the number of the caller's rows, filtered out or not.
func (l List) Total() int { return l.n }

// Filtered tells whether a filter is set.
func (l List) Filtered() bool { return l.filtered }

// Index is the caller's row at position pos among the rows shown, or -1
// when there is none there.
func (l List) Index(pos int) int {
	if pos < 0 || pos >= l.Len() {
		return -1
	}
	if l.filtered {
		return l.view[pos]
	}
	return pos
}

// Position is where row i is among the rows shown, or -1 when it is not
// shown.
func (l List) Position(i int) int {
	if !l.filtered {
		if i < 0 || i >= l.n {
			return -1
		}
		return i
	}
	if p, ok := slices.BinarySearch(l.view, i); ok {
		return p
	}
	return -1
}

// Cursor is the cursor's position among the rows shown; 0 when there are
// none, and -1 when it is on no row (AllowNone).
func (l List) Cursor() int { return l.cursor }

// Selected is the caller's row under the cursor; false when no row is
// shown or the cursor is on none.
func (l List) Selected() (int, bool) {
	i := l.Index(l.cursor)
	return i, i >= 0
}

// Offset is the first position of the window: where it was last moved,
// moved no further than keeps the cursor in view and the window full.
func (l List) Offset() int { return keepVisible(l.offset, l.cursor, l.height, l.Len()) }

// Window is the positions drawn, [from, to).
func (l List) Window() (from, to int) {
	from = l.Offset()
	return from, min(l.Len(), from+l.height)
}

// Move moves the cursor by delta positions, stopping at either end.
func (l List) Move(delta int) List {
	// A delta of any size, 1<<62 or the smallest int, stops at an end.
	return l.MoveTo(l.cursor + clampInt(delta, -l.Len(), l.Len()))
}

// MoveTo puts the cursor at position pos (clamped to the rows shown, or
// to -1, no row, when the list allows it); the window drawn last moves
// only as far as keeps it in view.
func (l List) MoveTo(pos int) List {
	from := l.Offset()
	l.cursor = clampInt(pos, l.first(), l.Len()-1)
	l.offset = keepVisible(from, l.cursor, l.height, l.Len())
	return l
}

// Select puts the cursor on the caller's row i when it is shown; otherwise
// the list is unchanged.
func (l List) Select(i int) List {
	if p := l.Position(i); p >= 0 {
		return l.MoveTo(p)
	}
	return l
}

// page is how far a page key moves: the window's height, at least a row.
func (l List) page() int { return max(1, l.height) }

// PageUp moves the cursor up by a window's height.
func (l List) PageUp() List { return l.Move(-l.page()) }

// PageDown moves the cursor down by a window's height.
func (l List) PageDown() List { return l.Move(l.page()) }

// Home moves the cursor to the first row.
func (l List) Home() List { return l.MoveTo(0) }

// End moves the cursor to the last row.
func (l List) End() List { return l.MoveTo(l.Len() - 1) }

func (l List) clampCursor() List {
	l.cursor = clampInt(l.cursor, l.first(), l.Len()-1)
	return l
}

// first is the least position the cursor may take: -1, no row, when the
// list allows it.
func (l List) first() int {
	if l.none {
		return -1
	}
	return 0
}

// Marks are kept by the caller's id of a row (an item's key, a table's
// name), never by its place: rows added, removed, sorted or filtered out
// keep theirs.

// Mark marks the rows of these ids.
func (l List) Mark(ids ...string) List {
	l.marks = maps.Clone(l.marks)
	if l.marks == nil {
		l.marks = make(map[string]bool, len(ids))
	}
	for _, id := range ids {
		l.marks[id] = true
	}
	return l
}

// Unmark takes the marks of these ids away.
func (l List) Unmark(ids ...string) List {
	l.marks = maps.Clone(l.marks)
	for _, id := range ids {
		delete(l.marks, id)
	}
	return l
}

// Toggle marks the row of this id, or takes its mark away.
func (l List) Toggle(id string) List {
	if l.marks[id] {
		return l.Unmark(id)
	}
	return l.Mark(id)
}

// ClearMarks takes every mark away.
func (l List) ClearMarks() List {
	l.marks = nil
	return l
}

// Marked tells whether the row of this id is marked.
func (l List) Marked(id string) bool { return l.marks[id] }

// MarkCount is how many ids are marked, shown or not.
func (l List) MarkCount() int { return len(l.marks) }

// Marks are the marked ids, sorted.
func (l List) Marks() []string { return slices.Sorted(maps.Keys(l.marks)) }

// Row is one row as a delegate draws it.
type Row struct {
	Index  int  // the caller's row
	Pos    int  // its position among the rows shown
	Cursor bool // the cursor is on it
	Marked bool // its id is marked (Delegate.ID)
}

// Delegate draws a list's rows, as the caller's rows look.
type Delegate struct {
	// Render gives the lines of one row, w cells wide: a row may take
	// more than one line (the window's height still counts rows).
	Render func(r Row, w int) []string
	// ID names a row for its mark; nil when the list has no marks.
	ID func(i int) string
}

// View is the lines of the rows in the window, w cells wide, drawn by d.
func (l List) View(w int, d Delegate) []string {
	from, to := l.Window()
	var out []string
	for pos := from; pos < to; pos++ {
		r := Row{Index: l.Index(pos), Pos: pos, Cursor: pos == l.cursor}
		if d.ID != nil {
			r.Marked = l.marks[d.ID(r.Index)]
		}
		out = append(out, d.Render(r, w)...)
	}
	return out
}

// ListKeys are the keys a list moves by, as the UI's keymap binds them.
type ListKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// Step is how far one of k's keys moves a cursor over a page of page
// rows: a row, a page, or to either end (the callee clamps); ok is false
// for any other key. It serves a scroll offset as well as a List.
func (k ListKeys) Step(msg tea.KeyPressMsg, page int) (delta int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Home):
		return -1 << 30, true
	case key.Matches(msg, k.End):
		return 1 << 30, true
	}
	return 0, false
}

// Key moves the cursor for one of k's keys, a page being the window's
// height; ok is false, and the list unchanged, for any other key.
func (l List) Key(msg tea.KeyPressMsg, k ListKeys) (List, bool) {
	d, ok := k.Step(msg, l.page())
	if !ok {
		return l, false
	}
	return l.Move(d), true
}

// ScrollOffset is the first row of a window of h rows over n rows that
// keeps the cursor in view, moved from offset no further than needed; 0
// when h is 0. For a view that scrolls without a List (a text, a help
// page) and keeps its own numbers.
func ScrollOffset(offset, cursor, h, n int) int { return keepVisible(offset, cursor, h, n) }

func keepVisible(offset, cursor, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return clampInt(offset, 0, max(0, n-h))
}

// clampInt bounds v to [lo, hi]; when hi < lo it returns lo.
func clampInt(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
