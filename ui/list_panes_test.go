package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/config"
	"dynascope/keys"
	"dynascope/ui/pane"
	"dynascope/ui/widget"
)

// pickerWindow checks the table picker's selected table and the window
// of names on screen: T<from> … T<from+shown-1>, nothing around it.
func (hs *harness) pickerWindow(step string, selected, from, shown, n int) {
	hs.t.Helper()
	if got, _ := hs.m.picker.Selected(); got != fmt.Sprintf("T%02d", selected) {
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
			h := pane.PickerListHeight(hs.m.layout().bodyH)
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
		g.tbl = g.tbl.Arrive(keys.Group{Entity: n, Prefix: n + "#", Kind: keys.KindLabel, First: n + "#1", Last: n + "#9"}, false, "#")
	}
	st := newStyles(true, false)
	window := func(step string, g groupsPane, compact bool, from, shown int) {
		t.Helper()
		rh := groupRowHeight(compact)
		screen := ansi.Strip(g.view(st, 40, 2+shown*rh, true, compact, "Types", func(string) int { return 0 }))
		for row := range g.rows() {
			name := "partition"
			if row > 0 {
				name = g.types()[row-1].Entity
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

// itemsWindow checks the item under the cursor and the window of items on
// screen: exactly the rows ORDER#<n> for n in window, in any order.
func (hs *harness) itemsWindow(step string, selected int, window []int) {
	hs.t.Helper()
	it, ok := hs.m.items.Selected()
	if want := fmt.Sprintf("ORDER#%05d", selected); !ok || keyOf(it, "SK") != want {
		hs.t.Fatalf("%s: selected %q (%v), want %s", step, keyOf(it, "SK"), ok, want)
	}
	screen := hs.screen()
	for i := range 300 {
		row := fmt.Sprintf("▌ ORDER#%05d ", i)
		if on, want := strings.Contains(screen, row), slices.Contains(window, i); on != want {
			hs.t.Fatalf("%s: ORDER#%05d on screen %v, want %v (window %v)\n%s", step, i, on, want, window, screen)
		}
	}
}

// rowRange is the numbers from, from+1, … up to but not including to.
func rowRange(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// The items pane scrolls by line, page and end in a window that moves only
// as far as the cursor needs; the wheel and a click move the cursor; the
// local filter starts its matches at the top and leaves the cursor there
// when cleared.
func TestItemsPaneScrolls(t *testing.T) {
	for _, size := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			const n = 300
			items := pageOf("CUST#7", 0, n)
			hs := newHarness(t, Options{Table: "App", PK: "CUST#7"}, size[0], size[1], canned{items: items, cap: halfRCU()})
			hs.keys("tab")
			h := hs.m.layout().itemRows
			hs.itemsWindow("opened", 0, rowRange(0, h))
			hs.keys("down", "j", "down")
			hs.itemsWindow("down 3", 3, rowRange(0, h))
			hs.keys("pgdown")
			hs.itemsWindow("page down", 3+h, rowRange(4, 4+h))
			hs.keys("up", "k")
			hs.itemsWindow("up 2", 1+h, rowRange(4, 4+h))
			hs.keys("G")
			hs.itemsWindow("G", n-1, rowRange(n-h, n))
			hs.keys("pgup")
			hs.itemsWindow("page up", n-1-h, rowRange(n-1-h, n-1))
			hs.keys("g")
			hs.itemsWindow("g", 0, rowRange(0, h))
			lay := hs.m.layout()
			hs.send(tea.MouseWheelMsg{X: lay.itemsX + 5, Y: lay.bodyY + 5, Button: tea.MouseWheelDown})
			hs.itemsWindow("wheel", 3, rowRange(0, h))
			hs.keys("end")
			hs.send(tea.MouseClickMsg{X: lay.itemsX + 5, Y: lay.bodyY + 2 + 4, Button: tea.MouseLeft})
			hs.itemsWindow("click", n-h+4, rowRange(n-h, n))
			if len(hs.store.queries()) != 1 {
				t.Fatalf("scrolling one complete page sent %d queries", len(hs.store.queries()))
			}

			hs.keys("/")
			hs.typeText("ORDER#001")
			hs.contains("/ORDER#001 matches 100")
			hs.keys("enter")
			hs.itemsWindow("filter", 100, rowRange(100, 100+h))
			hs.keys("pgdown", "down")
			hs.itemsWindow("filter page down", 100+h+1, rowRange(102, 102+h))
			hs.keys("G")
			hs.itemsWindow("filter G", 199, rowRange(200-h, 200))
			hs.keys("esc")
			hs.itemsWindow("filter cleared", 0, rowRange(0, h))
		})
	}
}

// promptWindow checks the partition prompt's field, the remembered value
// drawn selected (none when selected < 0) and the window of values on
// screen: CUST#<i> for i in window, of n remembered.
func (hs *harness) promptWindow(step, input string, selected int, window []int, n int) {
	hs.t.Helper()
	if got := hs.m.prompt.Input.String(); got != input {
		hs.t.Fatalf("%s: input %q, want %q", step, got, input)
	}
	content, screen := hs.m.View().Content, hs.screen()
	inner := hs.m.layout().w - 2
	for i := range n {
		row := fmt.Sprintf("   CUST#%d", i)
		if on, want := strings.Contains(screen, "│"+row+" "), slices.Contains(window, i); on != want {
			hs.t.Fatalf("%s: CUST#%d on screen %v, want %v (window %v)\n%s", step, i, on, want, window, screen)
		}
		if sel := strings.Contains(content, hs.m.st.Sel.Render(widget.Fit(row, inner))); sel != (i == selected) {
			hs.t.Fatalf("%s: CUST#%d drawn selected %v, want the selected one to be CUST#%d\n%s", step, i, sel, selected, screen)
		}
	}
}

// promptListRoom is how many remembered values the prompt's box has rows
// for: those under its "opened before" line.
func promptListRoom(hs *harness) int {
	hs.t.Helper()
	lines := strings.Split(hs.screen(), "\n")
	top := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "╭─ Open a partition") })
	head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "│ opened before") })
	if top < 0 || head < top {
		hs.t.Fatalf("no prompt with values opened before:\n%s", hs.screen())
	}
	return hs.m.layout().bodyH - 2 - (head - top)
}

// The partition prompt's remembered values scroll in a window that ends
// on the value browsed to (up is older, down newer, back to none past the
// newest); typing filters them and leaves none selected.
func TestPromptHistoryScrolls(t *testing.T) {
	for _, size := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			const n = 40
			dir := t.TempDir()
			var es []historyEntry
			for i := range n {
				es = append(es, historyEntry{PK: fmt.Sprintf("CUST#%d", i)})
			}
			if err := config.SaveHistory(dir, "App", es); err != nil {
				t.Fatal(err)
			}
			hs := newHarness(t, Options{Table: "App", ConfigDir: dir}, size[0], size[1])
			// The box's rows below "opened before": the frame, the schema
			// line, the field, the blank lines and, with nothing typed, how
			// to find a partition take the rest.
			room := promptListRoom(hs)
			hs.promptWindow("opened", "", -1, rowRange(0, room), n)
			hs.keys("up")
			hs.promptWindow("up", "CUST#0", 0, rowRange(0, room), n)
			for range room {
				hs.keys("up")
			}
			hs.promptWindow("up past the window", fmt.Sprintf("CUST#%d", room), room, rowRange(1, room+1), n)
			hs.keys("down")
			hs.promptWindow("down", fmt.Sprintf("CUST#%d", room-1), room-1, rowRange(0, room), n)
			for range 2 * n {
				hs.keys("up")
			}
			hs.promptWindow("oldest", fmt.Sprintf("CUST#%d", n-1), n-1, rowRange(n-room, n), n)
			hs.keys("down", "down")
			hs.promptWindow("newer", fmt.Sprintf("CUST#%d", n-3), n-3, rowRange(n-2-room, n-2), n)
			for range 2 * n {
				hs.keys("down")
			}
			hs.promptWindow("back to none", "CUST#0", -1, rowRange(0, room), n)
			hs.keys("ctrl+u")
			hs.typeText("3")
			room = promptListRoom(hs)
			// Values starting with 3 first (none), then those holding it.
			hs.promptWindow("typed", "3", -1, []int{3, 13, 23, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39}[:min(13, room)], n)
			hs.keys("up", "up")
			hs.promptWindow("typed, up 2", "CUST#13", 13, []int{3, 13, 23, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39}[:min(13, room)], n)
		})
	}
}
