package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// formField is one labelled line of a form.
type formField struct {
	label string
	input lineEdit
}

// form is a few one-line fields, one of them focused: a pattern's
// parameters, the name and description a pattern is saved under, the
// overview's caps, an export's format and file.
type form struct {
	fields []formField
	focus  int
}

func newForm(labels, values []string) form {
	f := form{fields: make([]formField, len(labels))}
	for i, l := range labels {
		v := ""
		if i < len(values) {
			v = values[i]
		}
		f.fields[i] = formField{label: l, input: newLineEdit(v)}
	}
	return f
}

// move focuses the next (+1) or previous (-1) field, round the end.
func (f form) move(delta int) form {
	if n := len(f.fields); n > 0 {
		f.focus = ((f.focus+delta)%n + n) % n
	}
	return f
}

// formEvent is what a key or pasted text did to a form.
type formEvent int

const (
	formIgnored formEvent = iota // not the form's
	formMoved                    // the focus moved to another field
	formTyped                    // the focused field's text changed
	formSubmit                   // enter: the caller checks and acts on the values
	formCancel                   // esc: the caller closes or goes back
)

// handle is the one key handler of every form (a pattern's parameters, the
// name a pattern is saved under, the overview's caps, an export): enter
// submits, esc cancels, km.NextField and km.PrevField move the focus, and
// anything else is typed into the focused field.
func (f form) handle(msg tea.Msg, km KeyMap) (form, formEvent) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, km.Open):
			return f, formSubmit
		case key.Matches(k, km.Cancel):
			return f, formCancel
		case key.Matches(k, km.NextField):
			return f.move(1), formMoved
		case key.Matches(k, km.PrevField):
			return f.move(-1), formMoved
		}
	}
	if f, ok := f.update(msg); ok {
		return f, formTyped
	}
	return f, formIgnored
}

// update types into the focused field; it reports whether the key was typing.
func (f form) update(msg tea.Msg) (form, bool) {
	if f.focus >= len(f.fields) {
		return f, false
	}
	in, ok := f.fields[f.focus].input.update(msg)
	if !ok {
		return f, false
	}
	f.fields = append([]formField(nil), f.fields...)
	f.fields[f.focus].input = in
	return f, true
}

// value is the text of the field of that label.
func (f form) value(label string) string {
	for _, fd := range f.fields {
		if fd.label == label {
			return fd.input.String()
		}
	}
	return ""
}

// values maps each label to its text.
func (f form) values() map[string]string {
	v := make(map[string]string, len(f.fields))
	for _, fd := range f.fields {
		v[fd.label] = fd.input.String()
	}
	return v
}

// view draws the fields in w cells, labels aligned; only the focused one
// has a cursor.
func (f form) view(st styles, w int) []string {
	labelW := 4
	for _, fd := range f.fields {
		labelW = max(labelW, width(sanitize(fd.label)))
	}
	labelW = min(labelW, max(4, w/3))
	var out []string
	for i, fd := range f.fields {
		label := " " + fit(sanitize(fd.label), labelW) + " › "
		if i == f.focus {
			out = append(out, st.Accent.Render(label)+fd.input.view(st, max(1, w-width(label)-1), ""))
			continue
		}
		out = append(out, st.Muted.Render(label)+fit(sanitize(fd.input.String()), max(1, w-width(label)-1)))
	}
	return out
}

// formMode declares the mode of a form: enter does submit, esc does cancel,
// tab and shift+tab move between the fields, and printable keys type.
func formMode(name, submit, cancel string) modeDef {
	return modeDef{name: name, typing: true, keys: []binding{
		inBar("open", submit), inBar("nextField"), inBar("cancel", cancel), bind("prevField"),
	}}
}
