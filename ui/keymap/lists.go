package keymap

import (
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/widget"
)

// The keys the widgets act on, given to them as bindings (ui/widget knows
// no keymap): a form's, and a list's or a scrolled view's.

// FormKeys are the keys a form acts on: enter submits, esc cancels, tab
// and shift+tab move between the fields.
func (k KeyMap) FormKeys() widget.FormKeys {
	return widget.FormKeys{Submit: k.Open, Cancel: k.Cancel, Next: k.NextField, Prev: k.PrevField}
}

// FormMode declares the mode of a form: enter does submit, esc does
// cancel, tab and shift+tab move between the fields, and printable keys
// type.
func FormMode(name, submit, cancel string) *Mode {
	return &Mode{Name: name, Typing: true, Keys: []Binding{
		InBar("open", submit), InBar("nextField"), InBar("cancel", cancel), Bind("prevField"),
	}}
}

// ListKeys are the movement keys of a list or a view: the letters too
// (k, j, g, G).
func (k KeyMap) ListKeys() widget.ListKeys {
	return widget.ListKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Top, End: k.Bottom}
}

// TypingListKeys are the movement keys of a list under a text field (the
// table picker's filter): no letters, which type.
func (k KeyMap) TypingListKeys() widget.ListKeys {
	return widget.ListKeys{Up: k.ListUp, Down: k.ListDown, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.ListTop, End: k.ListBottom}
}

// Step maps the movement keys to a step for a cursor or a scroll offset:
// one line, one page, or to either end (the callee clamps). ok is false
// for any other key.
func (k KeyMap) Step(msg tea.KeyPressMsg, page int) (delta int, ok bool) {
	return k.ListKeys().Step(msg, page)
}
