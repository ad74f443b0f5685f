package widget

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

var testKeys = FormKeys{
	Submit: key.NewBinding(key.WithKeys("enter")),
	Cancel: key.NewBinding(key.WithKeys("esc")),
	Next:   key.NewBinding(key.WithKeys("tab")),
	Prev:   key.NewBinding(key.WithKeys("shift+tab")),
}

func press(code rune, text string, mod tea.KeyMod) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Text: text, Mod: mod}
}

// A form says what each key did: its own keys as given, typing into the
// focused field, the rest ignored; the form handed in is never changed.
func TestFormHandle(t *testing.T) {
	f := NewForm([]string{"name", "type"}, []string{"", "S"})
	before := f
	f, ev := f.Handle(press('a', "a", 0), testKeys)
	if ev != FormTyped || f.Value("name") != "a" || before.Value("name") != "" {
		t.Fatalf("typing: %v, name %q (before %q)", ev, f.Value("name"), before.Value("name"))
	}
	if f, ev = f.Handle(press(tea.KeyTab, "", 0), testKeys); ev != FormMoved || f.Focus != 1 {
		t.Fatalf("tab: %v, focus %d", ev, f.Focus)
	}
	if f, ev = f.Handle(press(tea.KeyTab, "", tea.ModShift), testKeys); ev != FormMoved || f.Focus != 0 {
		t.Fatalf("shift+tab: %v, focus %d", ev, f.Focus)
	}
	if f, ev = f.Handle(press(tea.KeyTab, "", tea.ModShift), testKeys); f.Focus != 1 {
		t.Fatalf("shift+tab from the first field: focus %d, want the last", f.Focus)
	}
	if _, ev = f.Handle(press(tea.KeyEnter, "", 0), testKeys); ev != FormSubmit {
		t.Fatalf("enter: %v", ev)
	}
	if _, ev = f.Handle(press(tea.KeyEscape, "", 0), testKeys); ev != FormCancel {
		t.Fatalf("esc: %v", ev)
	}
	if _, ev = f.Handle(press('x', "x", tea.ModCtrl), testKeys); ev != FormIgnored {
		t.Fatalf("ctrl+x: %v", ev)
	}
	if v := f.Values(); v["name"] != "a" || v["type"] != "S" {
		t.Fatalf("values %v", v)
	}
}

// A pasted newline or tab becomes a space: a field is one line.
func TestLineEditPaste(t *testing.T) {
	e, ok := NewLineEdit("a").Update(tea.PasteMsg{Content: "b\nc\td"})
	if !ok || e.String() != "ab c d" || !e.AtEnd() {
		t.Fatalf("pasted: %q, at end %v", e.String(), e.AtEnd())
	}
}
