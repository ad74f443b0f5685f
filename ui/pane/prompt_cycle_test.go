package pane

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"dynascope/config"
	"dynascope/dynamo"
)

// tab completes to the most recent match; tab again steps to the next match
// of what was typed, round to the first; typing starts afresh.
func TestPromptTabCyclesMatches(t *testing.T) {
	hist := []config.HistoryEntry{{PK: "CUST#1151"}, {PK: "ORDER#A17"}, {PK: "CUST#1042"}, {Index: "GSI1", PK: "CUST#9"}, {PK: "CUST#7"}}
	p := NewPrompt(dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}}, "CUST#", hist)
	for i, want := range []string{"CUST#1151", "CUST#1042", "CUST#7", "CUST#1151"} {
		p = p.Complete()
		if got := p.Input.String(); got != want {
			t.Fatalf("tab %d: %q, want %q", i+1, got, want)
		}
	}
	// An edit ends the cycle: tab completes from what is typed now, and
	// CUST#11 has one match only.
	for range 2 {
		in, _ := p.Input.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
		p.Input = in
	}
	p = p.Refilter()
	for i := range 2 {
		if p = p.Complete(); p.Input.String() != "CUST#1151" {
			t.Errorf("after an edit, tab %d gave %q, want CUST#1151", i+1, p.Input.String())
		}
	}
	// One match only: tab again leaves it.
	p = NewPrompt(dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}}, "ORD", hist)
	if p = p.Complete().Complete(); p.Input.String() != "ORDER#A17" {
		t.Errorf("one match: %q", p.Input.String())
	}
}
