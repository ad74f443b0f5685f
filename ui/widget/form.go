package widget

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/textfmt"
	"dynascope/ui/theme"
)

// Field is one labelled line of a form.
type Field struct {
	Label string
	Input LineEdit
}

// Form is a few one-line fields, one of them focused: a pattern's
// parameters, the name and description a pattern is saved under, the
// overview's caps, an export's format and file.
type Form struct {
	Fields []Field
	Focus  int
}

// NewForm is a form of these labels, prefilled with values (fewer values
// than labels leave the rest empty), the first field focused.
func NewForm(labels, values []string) Form {
	f := Form{Fields: make([]Field, len(labels))}
	for i, l := range labels {
		v := ""
		if i < len(values) {
			v = values[i]
		}
		f.Fields[i] = Field{Label: l, Input: NewLineEdit(v)}
	}
	return f
}

// Move focuses the next (+1) or previous (-1) field, round the end.
func (f Form) Move(delta int) Form {
	if n := len(f.Fields); n > 0 {
		f.Focus = ((f.Focus+delta)%n + n) % n
	}
	return f
}

// FormEvent is what a key or pasted text did to a form.
type FormEvent int

const (
	FormIgnored FormEvent = iota // not the form's
	FormMoved                    // the focus moved to another field
	FormTyped                    // the focused field's text changed
	FormSubmit                   // the caller checks and acts on the values
	FormCancel                   // the caller closes or goes back
)

// FormKeys are the keys a form acts on besides typing, as the UI's keymap
// binds them.
type FormKeys struct {
	Submit, Cancel, Next, Prev key.Binding
}

// Handle is the one key handler of every form: keys.Submit submits,
// keys.Cancel cancels, keys.Next and keys.Prev move the focus, and
// anything else is typed into the focused field.
func (f Form) Handle(msg tea.Msg, keys FormKeys) (Form, FormEvent) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, keys.Submit):
			return f, FormSubmit
		case key.Matches(k, keys.Cancel):
			return f, FormCancel
		case key.Matches(k, keys.Next):
			return f.Move(1), FormMoved
		case key.Matches(k, keys.Prev):
			return f.Move(-1), FormMoved
		}
	}
	if f, ok := f.Update(msg); ok {
		return f, FormTyped
	}
	return f, FormIgnored
}

// Update types into the focused field; it reports whether the key was typing.
func (f Form) Update(msg tea.Msg) (Form, bool) {
	if f.Focus >= len(f.Fields) {
		return f, false
	}
	in, ok := f.Fields[f.Focus].Input.Update(msg)
	if !ok {
		return f, false
	}
	f.Fields = append([]Field(nil), f.Fields...)
	f.Fields[f.Focus].Input = in
	return f, true
}

// Value is the text of the field of that label.
func (f Form) Value(label string) string {
	for _, fd := range f.Fields {
		if fd.Label == label {
			return fd.Input.String()
		}
	}
	return ""
}

// Values maps each label to its text.
func (f Form) Values() map[string]string {
	v := make(map[string]string, len(f.Fields))
	for _, fd := range f.Fields {
		v[fd.Label] = fd.Input.String()
	}
	return v
}

// View draws the fields in w cells, labels aligned; only the focused one
// has a cursor.
func (f Form) View(st theme.Styles, w int) []string {
	labelW := 4
	for _, fd := range f.Fields {
		labelW = max(labelW, Width(textfmt.Sanitize(fd.Label)))
	}
	labelW = min(labelW, max(4, w/3))
	var out []string
	for i, fd := range f.Fields {
		label := " " + Fit(textfmt.Sanitize(fd.Label), labelW) + " › "
		if i == f.Focus {
			out = append(out, st.Accent.Render(label)+fd.Input.View(st, max(1, w-Width(label)-1), ""))
			continue
		}
		out = append(out, st.Muted.Render(label)+Fit(textfmt.Sanitize(fd.Input.String()), max(1, w-Width(label)-1)))
	}
	return out
}
