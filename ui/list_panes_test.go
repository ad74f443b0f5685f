package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// pickerWindow checks the table picker's selected table and the window
// of names on screen: T<from> … T<from+shown-1>, nothing around it.
func (hs *harness) pickerWindow(step string, selected, from, shown, n int) {
	hs.t.Helper()
	if got, _ := hs.m.picker.selected(); got != fmt.Sprintf("T%02d", selected) {
		hs.t.Fatalf("%s: selected %q, want T%02d", step, got, selected)
	}
	for i := range n {
		name := fmt.Sprintf(" T%02d ", i)
		if on := strings.Contains(hs.screen(), name); on != (i >= from && i < from+shown) {
			hs.t.Fatalf("%s: %s on screen %v; want the window from T%02d, %d rows\n%s", step, name, on, from, shown, hs.screen())
		}
	}
}

// The table picker scrolls its list by line, page and end, keeping the
// cursor in a window that moves only as far as it must; the filter keeps
// the cursor's place; a click selects the row under the pointer.
func TestTablePickerScrolls(t *testing.T) {
	for _, size := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			hs := newHarness(t, Options{}, size[0], size[1])
			const n = 60
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprintf("T%02d", i)
			}
			hs.send(tablesListedMsg{names: names})
			h := pickerListHeight(hs.m.layout().bodyH)
			hs.pickerWindow("listed", 0, 0, h, n)
			hs.keys("down", "down", "down")
			hs.pickerWindow("down 3", 3, 0, h, n)
			hs.keys("pgdown")
			hs.pickerWindow("page down", 3+h, 4, h, n)
			hs.keys("up")
			hs.pickerWindow("up", 2+h, 4, h, n)
			hs.keys("end")
			hs.pickerWindow("end", n-1, n-h, h, n)
			hs.keys("pgup")
			hs.pickerWindow("page up", n-1-h, n-1-h, h, n)
			hs.keys("home")
			hs.pickerWindow("home", 0, 0, h, n)
			hs.send(tea.MouseWheelMsg{X: 5, Y: 10, Button: tea.MouseWheelDown})
			hs.pickerWindow("wheel", 3, 0, h, n)
			lay := hs.m.layout()
			hs.send(tea.MouseClickMsg{X: 5, Y: lay.bodyY + 4 + 5, Button: tea.MouseLeft})
			hs.pickerWindow("click", 5, 0, h, n)
			hs.typeText("T5")
			hs.contains("Tables · 10 of 60")
			hs.pickerWindow("filter", 50, 50, 10, n)
			hs.keys("end")
			hs.pickerWindow("filter end", 59, 50, 10, n)
			hs.keys("esc")
			hs.pickerWindow("filter cleared", 9, 0, h, n)
		})
	}
}

// The entity types pane scrolls its rows (two lines each, or one when
// compact) in a window that moves only as far as the cursor needs.
func TestGroupsPaneScrolls(t *testing.T) {
	g := newGroupsPane("S", true)
	for i := range 20 {
		n := fmt.Sprintf("T%02d", i)
		g.types = append(g.types, typeRow{id: n, entity: n, prefix: n + "#", first: n + "#1", last: n + "#9", discovered: true, exact: -1})
	}
	st := newStyles(true, false)
	window := func(step string, g groupsPane, compact bool, from, shown int) {
		t.Helper()
		rh := groupRowHeight(compact)
		screen := ansi.Strip(g.view(st, 40, 2+shown*rh, true, compact, "Types", func(string) int { return 0 }))
		for row := range g.rows() {
			name := "partition"
			if row > 0 {
				name = g.types[row-1].entity
			}
			if on := strings.Contains(screen, name); on != (row >= from && row < from+shown) {
				t.Fatalf("%s: row %d (%s) on screen %v; want rows %d to %d\n%s", step, row, name, on, from, from+shown-1, screen)
			}
		}
	}
	for _, compact := range []bool{false, true} {
		shown := 5
		g := g.move(7, shown)
		window("down 7", g, compact, 3, shown)
		g = g.move(-1, shown)
		window("up 1", g, compact, 3, shown)
		g = g.move(-4, shown)
		window("up 4 more", g, compact, 2, shown)
		g = g.move(1<<30, shown)
		window("bottom", g, compact, 16, shown)
		window("taller", g, compact, 13, 8)
		g = g.move(-1<<30, shown)
		window("top", g, compact, 0, shown)
	}
}
