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
// parameters, or the name and description a pattern is saved under.
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

// navigate moves the focus for a key of km.NextField (forward) or
// km.PrevField (back).
func (f form) navigate(msg tea.KeyPressMsg, km KeyMap) form {
	if key.Matches(msg, km.NextField) {
		return f.move(1)
	}
	return f.move(-1)
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
		labelW = max(labelW, width(Sanitize(fd.label)))
	}
	labelW = min(labelW, max(4, w/3))
	var out []string
	for i, fd := range f.fields {
		label := " " + fit(Sanitize(fd.label), labelW) + " › "
		if i == f.focus {
			out = append(out, st.accent.Render(label)+fd.input.view(st, max(1, w-width(label)-1), ""))
			continue
		}
		out = append(out, st.muted.Render(label)+fit(Sanitize(fd.input.String()), max(1, w-width(label)-1)))
	}
	return out
}
