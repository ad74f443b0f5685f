package ui

import "dynascope/ui/widget"

// form is the form widget (ui/widget): a few one-line fields, one focused.
type form = widget.Form

// formKeys are the keymap's keys a form acts on: enter submits, esc
// cancels, tab and shift+tab move between the fields.
func formKeys(km KeyMap) widget.FormKeys {
	return widget.FormKeys{Submit: km.Open, Cancel: km.Cancel, Next: km.NextField, Prev: km.PrevField}
}

// formMode declares the mode of a form: enter does submit, esc does cancel,
// tab and shift+tab move between the fields, and printable keys type.
func formMode(name, submit, cancel string) modeDef {
	return modeDef{name: name, typing: true, keys: []binding{
		inBar("open", submit), inBar("nextField"), inBar("cancel", cancel), bind("prevField"),
	}}
}
