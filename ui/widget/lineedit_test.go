package widget

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A selected text is replaced by what is typed or pasted, deleted whole by
// a deletion, and kept to edit by a movement key.
func TestLineEditSelection(t *testing.T) {
	char := func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
	for _, c := range []struct {
		name string
		msgs []tea.Msg
		want string
	}{
		{"typed", []tea.Msg{char('x'), char('y')}, "xy"},
		{"pasted", []tea.Msg{tea.PasteMsg{Content: "CUST#7"}}, "CUST#7"},
		{"backspace", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyBackspace}}, ""},
		{"end then typed", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyEnd}, char('1')}, "CUST#421"},
		{"right then backspace", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyRight}, tea.KeyPressMsg{Code: tea.KeyBackspace}}, "CUST#4"},
		{"home then typed", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyHome}, char('x')}, "xCUST#42"},
		{"a key not the field's", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyEnter}}, "CUST#42"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := NewLineEdit("CUST#42").Select()
			for _, m := range c.msgs {
				e, _ = e.Update(m)
			}
			if e.String() != c.want {
				t.Fatalf("%q, want %q", e.String(), c.want)
			}
		})
	}
	e := NewLineEdit("CUST#42").Select()
	if _, ok := e.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); ok || !e.Selected() {
		t.Fatalf("enter taken by the field, or the selection lost")
	}
	e.Set("CUST#7")
	if e.Selected() {
		t.Fatal("Set kept the selection")
	}
}
