package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// 37.8: --table Apps where App exists opens the picker with the sentence
// and App offered and selected (it was "could not open the table; esc
// quits", and quitting exited 0); quitting from there ends with the
// sentence, so the program exits non-zero.
func TestMissingTableOpensThePicker(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := newHarness(t, Options{Table: "Apps", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}, sz[0], sz[1])
			hs.store.names = []string{"App", "Orders"}
			hs.send(tablesListedMsg{names: hs.store.names}) // the picker's own listing, again: the same state
			hs.run(describeTablesCmd(hs.m.ctx, hs.store, hs.m.gen, hs.store.names))
			if hs.m.screen != screenTables {
				t.Fatalf("screen %v, want the table picker", hs.m.screen)
			}
			if name, _ := hs.m.picker.Selected(); name != "App" {
				t.Fatalf("selected %q, want App", name)
			}
			hs.contains("describe table Apps: the table or index does not exist", "did you mean App?")
			hs.lacks("could not open the table")
			golden.RequireEqual(t, []byte(hs.screen()))
			err := hs.m.quitError()
			if err == nil || !strings.Contains(err.Error(), `(did you mean "App"?)`) {
				t.Fatalf("quitting from the picker: %v, want the sentence with the suggestion", err)
			}
			hs.keys("enter")
			if hs.m.screen != screenPrompt || hs.m.table.Name != "App" {
				t.Fatalf("enter: screen %v on %q, want App's partition prompt", hs.m.screen, hs.m.table.Name)
			}
			if err := hs.m.quitError(); err != nil {
				t.Fatalf("quitting with App open: %v, want no error", err)
			}
			hs.keys("esc")
			if hs.m.screen != screenTables {
				t.Fatalf("esc from the prompt: screen %v, want the picker it came from", hs.m.screen)
			}
			hs.lacks("does not exist")
			if err := hs.m.quitError(); err != nil {
				t.Fatalf("quitting from the picker once App opened: %v, want no error", err)
			}
		})
	}
}

// --table Apps --pk CUST#42: the partition opens on the table offered, and
// on no other.
func TestMissingTableKeepsThePKForTheOffer(t *testing.T) {
	hs := newHarness(t, Options{Table: "Apps", PK: "CUST#42"}, 120, 35, canned{items: example(), cap: halfRCU()})
	hs.keys("enter")
	if hs.m.screen != screenPartition || hs.m.query.PK != "CUST#42" || hs.m.table.Name != "App" {
		t.Fatalf("enter on App: screen %v, PK %q on %q; want CUST#42 of App", hs.m.screen, hs.m.query.PK, hs.m.table.Name)
	}
	hs2 := newHarness(t, Options{Table: "Apps", PK: "CUST#42"}, 120, 35)
	hs2.store.names = []string{"App", "Orders"}
	hs2.send(tablesListedMsg{names: hs2.store.names})
	hs2.keys("down", "enter")
	if hs2.m.screen != screenPrompt || hs2.m.table.Name != "Orders" || len(hs2.store.queries()) != 0 {
		t.Fatalf("enter on Orders: screen %v on %q, %d queries; want its prompt, nothing read", hs2.m.screen, hs2.m.table.Name, len(hs2.store.queries()))
	}
}

// A table that cannot be opened for another reason keeps its screen, and
// quitting from it is an error too; a name near none is offered nothing.
func TestQuitFromATableErrorIsAnError(t *testing.T) {
	hs := newHarness(t, Options{Table: "Zebra"}, 120, 35)
	hs.store.names = []string{"App", "Orders"}
	hs.send(tablesListedMsg{names: hs.store.names})
	if hs.m.picker.Suggested != "" {
		t.Fatalf("suggested %q for Zebra, want none", hs.m.picker.Suggested)
	}
	hs.contains("pick one of the tables here")
	if err := hs.m.quitError(); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Fatalf("quit error %v, want the sentence alone", err)
	}
	hs2 := newHarness(t, Options{}, 120, 35)
	hs2.m.screen, hs2.m.status.Err = screenLoading, "describe table App: access denied."
	if err := hs2.m.quitError(); err == nil {
		t.Fatal("quitting from a table that could not be opened: no error")
	}
}
