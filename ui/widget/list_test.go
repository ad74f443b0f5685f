package widget

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The cursor moves by delta, by a page of the window's height and to
// either end, stopping at the ends; the window moves only as far as keeps
// the cursor in view, and never past the last full window.
func TestListMoves(t *testing.T) {
	tests := []struct {
		name         string
		n, h         int
		do           func(List) List
		cursor, off  int
		from, to     int
		selected     int
		selectedSeen bool
	}{
		{"fresh", 10, 4, func(l List) List { return l }, 0, 0, 0, 4, 0, true},
		{"down within the window", 10, 4, func(l List) List { return l.Move(3) }, 3, 0, 0, 4, 3, true},
		{"down past the window", 10, 4, func(l List) List { return l.Move(4) }, 4, 1, 1, 5, 4, true},
		{"back up keeps the window", 10, 4, func(l List) List { return l.Move(6).Move(-2) }, 4, 3, 3, 7, 4, true},
		{"up past the window", 10, 4, func(l List) List { return l.Move(6).Move(-4) }, 2, 2, 2, 6, 2, true},
		{"past the end stops", 10, 4, func(l List) List { return l.Move(1 << 62) }, 9, 6, 6, 10, 9, true},
		{"past the start stops", 10, 4, func(l List) List { return l.Move(5).Move(-1 << 62) }, 0, 0, 0, 4, 0, true},
		{"page down", 10, 4, func(l List) List { return l.PageDown() }, 4, 1, 1, 5, 4, true},
		{"page down twice then up", 10, 4, func(l List) List { return l.PageDown().PageDown().PageUp() }, 4, 4, 4, 8, 4, true},
		{"end", 10, 4, func(l List) List { return l.End() }, 9, 6, 6, 10, 9, true},
		{"end then home", 10, 4, func(l List) List { return l.End().Home() }, 0, 0, 0, 4, 0, true},
		{"fewer rows than the window", 3, 10, func(l List) List { return l.End() }, 2, 0, 0, 3, 2, true},
		{"empty", 0, 4, func(l List) List { return l.Move(3).End() }, 0, 0, 0, 0, -1, false},
		{"no height yet", 10, 0, func(l List) List { return l.Move(7) }, 7, 0, 0, 0, 7, true},
		{"shorter window follows the cursor", 10, 4, func(l List) List { return l.Move(3).SetHeight(2) }, 3, 2, 2, 4, 3, true},
		{"rows removed under the cursor", 10, 4, func(l List) List { return l.End().SetLen(5) }, 4, 1, 1, 5, 4, true},
		{"move to a position", 10, 4, func(l List) List { return l.MoveTo(8) }, 8, 5, 5, 9, 8, true},
		{"select a row", 10, 4, func(l List) List { return l.Select(6) }, 6, 3, 3, 7, 6, true},
		{"select a row out of range", 10, 4, func(l List) List { return l.Move(2).Select(12) }, 2, 0, 0, 4, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.do(NewList(tt.n).SetHeight(tt.h))
			from, to := l.Window()
			sel, ok := l.Selected()
			if l.Cursor() != tt.cursor || l.Offset() != tt.off || from != tt.from || to != tt.to || sel != tt.selected || ok != tt.selectedSeen {
				t.Errorf("cursor %d offset %d window [%d,%d) selected %d %v; want %d %d [%d,%d) %d %v",
					l.Cursor(), l.Offset(), from, to, sel, ok, tt.cursor, tt.off, tt.from, tt.to, tt.selected, tt.selectedSeen)
			}
		})
	}
}

// A window drawn somewhere the last move did not leave it (the cursor was
// put on a row, or the window grew) is where the next move starts from:
// the window does not jump back.
func TestListMovesFromTheWindowDrawn(t *testing.T) {
	l := NewList(30).SetHeight(10).MoveTo(20) // window 11-20
	if from, _ := l.Window(); from != 11 {
		t.Fatalf("window from %d, want 11", from)
	}
	l = l.Move(-1)
	if from, _ := l.Window(); from != 11 || l.Cursor() != 19 {
		t.Errorf("up one: window from %d cursor %d, want 11 and 19", from, l.Cursor())
	}
}

// A filter shows the rows it keeps, in order; positions map to the
// caller's rows and back; the cursor stays at its position or on the last
// row shown.
func TestListFilter(t *testing.T) {
	names := []string{"Orders", "Users", "orders-archive", "Sessions", "Ordinals"}
	has := func(s string) func(int) bool {
		return func(i int) bool { return strings.Contains(strings.ToLower(names[i]), s) }
	}
	l := NewList(len(names)).SetHeight(2).End()
	l = l.Filter(len(names), has("ord"))
	if l.Len() != 3 || l.Total() != 5 || !l.Filtered() {
		t.Fatalf("len %d total %d filtered %v", l.Len(), l.Total(), l.Filtered())
	}
	if got := []int{l.Index(0), l.Index(1), l.Index(2), l.Index(3)}; !slices.Equal(got, []int{0, 2, 4, -1}) {
		t.Errorf("indexes %v", got)
	}
	if got := []int{l.Position(2), l.Position(1), l.Position(9)}; !slices.Equal(got, []int{1, -1, -1}) {
		t.Errorf("positions %v", got)
	}
	if sel, _ := l.Selected(); l.Cursor() != 2 || sel != 4 {
		t.Errorf("cursor %d on row %d, want position 2, row 4", l.Cursor(), sel)
	}
	l = l.Filter(len(names), has("zzz"))
	if _, ok := l.Selected(); ok || l.Len() != 0 || l.Cursor() != 0 || l.Offset() != 0 {
		t.Errorf("nothing kept: selected %v len %d cursor %d offset %d", ok, l.Len(), l.Cursor(), l.Offset())
	}
	l = l.Filter(len(names), nil)
	if l.Filtered() || l.Len() != 5 {
		t.Errorf("no filter: filtered %v len %d", l.Filtered(), l.Len())
	}
}

// Marks belong to ids: they stay when rows are filtered out, added or
// removed, and a list marked is a new list (the old one keeps its marks).
func TestListMarks(t *testing.T) {
	l := NewList(4).Mark("a", "c")
	before := l
	l = l.Toggle("b").Toggle("a")
	if got := l.Marks(); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("marks %v", got)
	}
	if got := before.Marks(); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("the list before changed: %v", got)
	}
	l = l.Filter(4, func(int) bool { return false }).SetLen(10)
	if !l.Marked("b") || !l.Marked("c") || l.Marked("a") || l.MarkCount() != 2 {
		t.Errorf("after filter and growth: %v", l.Marks())
	}
	if l = l.Unmark("c").ClearMarks(); l.MarkCount() != 0 {
		t.Errorf("cleared: %v", l.Marks())
	}
}

// View draws the window's rows through the delegate, telling it which
// row has the cursor and which are marked; a row may take two lines.
func TestListView(t *testing.T) {
	ids := []string{"r0", "r1", "r2", "r3", "r4", "r5"}
	l := NewList(6).Filter(6, func(i int) bool { return i%2 == 1 }).SetHeight(2).End().Mark("r5")
	d := Delegate{
		ID: func(i int) string { return ids[i] },
		Render: func(r Row, w int) []string {
			s := fmt.Sprintf("%d@%d", r.Index, r.Pos)
			if r.Cursor {
				s += " >"
			}
			if r.Marked {
				s += " *"
			}
			return []string{Fit(s, w), Fit("  "+ids[r.Index], w)}
		},
	}
	got := l.View(8, d)
	want := []string{"3@1     ", "  r3    ", "5@2 > * ", "  r5    "}
	if !slices.Equal(got, want) {
		t.Errorf("view %q, want %q", got, want)
	}
}

// Key moves by the keys given and ignores the others.
func TestListKey(t *testing.T) {
	k := ListKeys{
		Up: key.NewBinding(key.WithKeys("up")), Down: key.NewBinding(key.WithKeys("down")),
		PageUp: key.NewBinding(key.WithKeys("pgup")), PageDown: key.NewBinding(key.WithKeys("pgdown")),
		Home: key.NewBinding(key.WithKeys("home")), End: key.NewBinding(key.WithKeys("end")),
	}
	l := NewList(20).SetHeight(5)
	steps := []struct {
		code   rune
		cursor int
		ok     bool
	}{
		{tea.KeyDown, 1, true}, {tea.KeyPgDown, 6, true}, {tea.KeyEnd, 19, true},
		{tea.KeyPgUp, 14, true}, {tea.KeyUp, 13, true}, {'x', 13, false}, {tea.KeyHome, 0, true},
	}
	for _, s := range steps {
		var ok bool
		l, ok = l.Key(tea.KeyPressMsg{Code: s.code}, k)
		if ok != s.ok || l.Cursor() != s.cursor {
			t.Fatalf("key %q: ok %v cursor %d, want %v %d", s.code, ok, l.Cursor(), s.ok, s.cursor)
		}
	}
}

// Whatever is done to a list, in any order: the cursor is on a row shown
// (or 0 when none is), the window holds it, the offset is never negative
// nor past the last full window, and the marks are those marked.
func FuzzList(f *testing.F) {
	f.Add([]byte{0, 5, 1, 3, 2, 200, 3, 1, 4, 7, 5, 2, 6, 0})
	f.Add([]byte{7, 40, 0, 250, 4, 0, 1, 255, 6, 9, 2, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		l := NewList(0)
		marks := map[string]bool{}
		for i := 0; i+1 < len(ops); i += 2 {
			op, v := ops[i]%9, int(ops[i+1])
			switch op {
			case 0:
				l = l.SetLen(v)
			case 1:
				l = l.Move(v - 128)
			case 2:
				l = l.SetHeight(v % 40)
			case 3:
				l = l.Filter(v, func(i int) bool { return (i*7+v)%3 != 0 })
			case 4:
				l = []func() List{l.PageUp, l.PageDown, l.Home, l.End}[v%4]()
			case 5:
				l = l.MoveTo(v - 20)
			case 6:
				id := strconv.Itoa(v % 16)
				l, marks[id] = l.Toggle(id), !marks[id]
			case 7:
				l = l.Move(v << 56)
			case 8:
				l = l.Select(v)
			}
			n, c, off, h := l.Len(), l.Cursor(), l.Offset(), l.Height()
			if n == 0 && c != 0 || n > 0 && (c < 0 || c >= n) {
				t.Fatalf("op %d: cursor %d of %d rows", op, c, n)
			}
			if off < 0 || off > max(0, n-h) {
				t.Fatalf("op %d: offset %d over %d rows in %d", op, off, n, h)
			}
			if h > 0 && n > 0 && (c < off || c >= off+h) {
				t.Fatalf("op %d: cursor %d outside the window [%d,%d)", op, c, off, off+h)
			}
			if from, to := l.Window(); from != off || to-from != min(h, n-off) {
				t.Fatalf("op %d: window [%d,%d) offset %d height %d rows %d", op, from, to, off, h, n)
			}
			for id, on := range marks {
				if l.Marked(id) != on {
					t.Fatalf("op %d: mark of %s is %v, want %v", op, id, l.Marked(id), on)
				}
			}
		}
	})
}

// A list that allows no selection starts on none, above the first row:
// down enters the list, up from the first row leaves it, and a move of
// any size stops there or at the last row. On none nothing is selected or
// drawn under the cursor, and the window is at the top.
func TestListAllowNone(t *testing.T) {
	l := NewList(10).SetHeight(4).AllowNone()
	on := func(step string, l List, cursor, from int) {
		t.Helper()
		sel, ok := l.Selected()
		if l.Cursor() != cursor || ok != (cursor >= 0) || ok && sel != cursor {
			t.Errorf("%s: cursor %d, selected %d %v; want cursor %d", step, l.Cursor(), sel, ok, cursor)
		}
		if f, _ := l.Window(); f != from {
			t.Errorf("%s: window from %d, want %d", step, f, from)
		}
		lines := l.View(10, Delegate{Render: func(r Row, w int) []string {
			if r.Cursor {
				return []string{fmt.Sprintf("> %d", r.Index)}
			}
			return []string{strconv.Itoa(r.Index)}
		}})
		cursorLines := 0
		for _, s := range lines {
			if strings.HasPrefix(s, ">") {
				cursorLines++
			}
		}
		if want := map[bool]int{true: 1, false: 0}[cursor >= 0]; cursorLines != want {
			t.Errorf("%s: %d rows drawn under the cursor, want %d: %q", step, cursorLines, want, lines)
		}
	}
	on("fresh", l, -1, 0)
	on("down", l.Move(1), 0, 0)
	on("down and up", l.Move(1).Move(-1), -1, 0)
	on("up from none", l.Move(-1), -1, 0)
	on("down past the window", l.Move(6), 5, 2)
	on("back to none from below", l.Move(6).Move(-1<<62), -1, 0)
	on("to the end", l.Move(1<<62), 9, 6)
	on("home", l.Home(), 0, 0)
	on("end", l.End(), 9, 6)
	on("a new length keeps none", l.SetLen(3), -1, 0)
	on("a filter keeps none", l.Filter(10, func(i int) bool { return i%2 == 0 }), -1, 0)
	on("empty", NewList(0).SetHeight(4).AllowNone().Move(1), -1, 0)
	on("move to a position", l.MoveTo(-5), -1, 0)

	// A list that does not allow it keeps its cursor on a row.
	if c := NewList(10).Move(1).Move(-3).Cursor(); c != 0 {
		t.Errorf("without AllowNone, up from the first row put the cursor at %d", c)
	}
}

// A list moved before any height is set keeps no window of its own: drawn
// at a height, it shows the first window that holds the cursor, which ends
// on the cursor once the cursor is below the first window.
func TestListMovedWithoutHeight(t *testing.T) {
	l := NewList(20).Move(12)
	for _, c := range []struct{ moved, cursor, from int }{{0, 12, 9}, {-2, 10, 7}, {-8, 2, 0}, {15, 17, 14}} {
		l = l.Move(c.moved)
		if from, _ := l.SetHeight(4).Window(); l.Cursor() != c.cursor || from != c.from {
			t.Errorf("moved %d: cursor %d, window from %d; want %d and %d", c.moved, l.Cursor(), from, c.cursor, c.from)
		}
	}
}
