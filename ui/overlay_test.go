package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dynascope/ui/overlay"
)

// stackIDs is the overlay stack, bottom first.
func stackIDs(m Model) []overlay.ID {
	var ids []overlay.ID
	for _, o := range m.overlays {
		ids = append(ids, o.ID())
	}
	return ids
}

func sameIDs(a, b []overlay.ID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Overlays stack: each esc shows the one below again, and help goes back to
// the overlay it was asked from.
func TestOverlaysStack(t *testing.T) {
	hs, _ := openWithPatterns(t, 120, 35)
	steps := []struct {
		keys []string
		want []overlay.ID
	}{
		{[]string{"a"}, []overlay.ID{overlay.PatternsID}},
		{[]string{"C"}, []overlay.ID{overlay.PatternsID, overlay.CodeID}},
		{[]string{"?"}, []overlay.ID{overlay.PatternsID, overlay.CodeID, overlay.HelpID}},
		{[]string{"?"}, []overlay.ID{overlay.PatternsID, overlay.CodeID}},
		{[]string{"esc"}, []overlay.ID{overlay.PatternsID}},
		{[]string{"esc", "L", "C"}, []overlay.ID{overlay.LogID, overlay.CodeID}},
		{[]string{"esc", "esc"}, nil},
	}
	for _, s := range steps {
		hs.keys(s.keys...)
		if got := stackIDs(hs.m); !sameIDs(got, s.want) {
			t.Fatalf("after %v: stack %v, want %v", s.keys, got, s.want)
		}
	}
	hs.contains("Entity types")
}

// The mouse wheel scrolls the overlay on top, not the pane below it.
func TestWheelGoesToTheTopOverlay(t *testing.T) {
	hs := newHarness(t, Options{Table: "App", PK: "CUST#7"}, 120, 35, canned{items: pageOf("CUST#7", 0, 100), cap: halfRCU()})
	hs.keys("tab")
	lay := hs.m.layout()
	down := tea.MouseWheelMsg{X: 10, Y: lay.bodyY + 5, Button: tea.MouseWheelDown}
	hs.keys("L")
	hs.send(down)
	if hs.m.items.Cursor() != 0 {
		t.Errorf("the wheel over the log moved the items cursor to %d", hs.m.items.Cursor())
	}
	hs.keys("esc", "C")
	if _, ok := findOverlay[overlay.Code](hs.m); !ok {
		t.Fatal("C did not show the code")
	}
	hs.send(tea.WindowSizeMsg{Width: 120, Height: 12}) // code longer than the box
	hs.contains("lines 1–")
	hs.send(down)
	if hs.contains("Code · "); strings.Contains(hs.screen(), "lines 1–") {
		t.Errorf("the wheel did not scroll the code:\n%s", hs.screen())
	}
	if hs.m.items.Cursor() != 0 {
		t.Errorf("the wheel over the code moved the items cursor to %d", hs.m.items.Cursor())
	}
}

// A copy of the model keeps its own stack: pushing or popping on one does
// not change the other (Update returns models by value; a test or a
// renderer may hold an older one).
func TestOverlayStackIsCopied(t *testing.T) {
	m := New(Options{})
	a := m.push(overlay.Log{}).push(overlay.NewHelp(overlay.Log{}.Mode(overlay.Env{})))
	b := a.pop().push(overlay.Code{})
	if got := stackIDs(a); !sameIDs(got, []overlay.ID{overlay.LogID, overlay.HelpID}) {
		t.Errorf("a's stack changed to %v", got)
	}
	if got := stackIDs(b); !sameIDs(got, []overlay.ID{overlay.LogID, overlay.CodeID}) {
		t.Errorf("b's stack is %v", got)
	}
	c := b.remove(overlay.LogID)
	if got := stackIDs(b); !sameIDs(got, []overlay.ID{overlay.LogID, overlay.CodeID}) {
		t.Errorf("remove changed the original: %v", got)
	}
	if got := stackIDs(c); !sameIDs(got, []overlay.ID{overlay.CodeID}) {
		t.Errorf("remove left %v", got)
	}
}

// Help shows every column of the mode's keys: on 120 columns side by side
// in bands, on a small terminal scrolled to with the movement keys.
func TestHelpShowsEveryColumn(t *testing.T) {
	every := []string{"query this entity type", "request log", "table overview", "export loaded items", "ctrl+c quit"}
	hs := openExample(t, 120, 35)
	hs.keys("?")
	hs.contains(every...)
	hs.lacks("…")

	hs = openExample(t, 80, 24)
	hs.keys("?")
	hs.contains("Help · lines 1–", "query this entity type")
	hs.lacks("ctrl+c quit")
	hs.keys("G")
	hs.contains("ctrl+c quit", "S writes the patterns file only")
	hs.keys("g")
	hs.contains("Keys for groups")
	hs.keys("esc")
	hs.contains("Entity types")
}
