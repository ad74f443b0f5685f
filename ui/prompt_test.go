package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// 37.1: p shows the partition open selected, as a browser's address bar
// shows its address: the first character typed replaces it, so p, CUST#7,
// enter opens CUST#7 (it opened CUST#42CUST#7, which then led the history).
func TestPromptTypingReplacesTheOpenKey(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openExample(t, sz[0], sz[1], canned{items: example()[:1], cap: halfRCU()})
			hs.keys("p")
			if !hs.m.prompt.Input.Selected() || hs.m.prompt.Input.String() != "CUST#42" {
				t.Fatalf("p: input %q selected %v, want CUST#42 selected", hs.m.prompt.Input.String(), hs.m.prompt.Input.Selected())
			}
			hs.contains("PK › CUST#42", "typing replaces it")
			t.Run("offered", func(t *testing.T) { golden.RequireEqual(t, []byte(hs.screen())) })
			hs.typeText("CUST#7")
			hs.contains("PK › CUST#7")
			hs.lacks("CUST#42CUST#7", "typing replaces it")
			t.Run("typed", func(t *testing.T) { golden.RequireEqual(t, []byte(hs.screen())) })
			hs.keys("enter")
			qs := hs.store.queries()
			if got := qs[len(qs)-1].PK; got != "CUST#7" {
				t.Fatalf("enter opened PK = %q, want CUST#7", got)
			}
			if h := hs.m.history; len(h) < 2 || h[0].PK != "CUST#7" || h[1].PK != "CUST#42" {
				t.Fatalf("history = %+v, want CUST#7 then CUST#42", h)
			}
		})
	}
}

// The key offered is still the user's to keep: enter opens it again, a
// movement key keeps it to edit, and with nothing typed no completion is
// offered; once typed, history completes and ↑ browses as before.
func TestPromptOfferedKeyKeptOrEdited(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example()[:1], cap: halfRCU()}, canned{items: example()[:1], cap: halfRCU()})
	hs.keys("p", "enter")
	qs := hs.store.queries()
	if got := qs[len(qs)-1].PK; got != "CUST#42" || len(qs) != 2 {
		t.Fatalf("p, enter: %d queries, last PK %q; want CUST#42 read again", len(qs), got)
	}
	hs.keys("p")
	if g := hs.m.prompt.Ghost(); g != "" {
		t.Fatalf("ghost %q on a key not typed, want none", g)
	}
	hs.keys("end")
	hs.typeText("1")
	if got := hs.m.prompt.Input.String(); got != "CUST#421" {
		t.Fatalf("end, 1: input %q, want CUST#421", got)
	}
	hs.keys("ctrl+u")
	hs.typeText("CUST#4")
	if g := hs.m.prompt.Ghost(); g != "2" {
		t.Fatalf("CUST#4: ghost %q, want 2 from the history", g)
	}
	hs.keys("ctrl+u", "up")
	if got := hs.m.prompt.Input.String(); got != "CUST#42" {
		t.Fatalf("up: input %q, want the history's CUST#42", got)
	}
	hs.keys("esc")
	if hs.m.screen != screenPartition {
		t.Fatalf("esc from the prompt: screen %v, want the partition back", hs.m.screen)
	}
	hs.keys("p", "backspace")
	if got := hs.m.prompt.Input.String(); got != "" {
		t.Fatalf("p, backspace: input %q, want the selection deleted", got)
	}
}
