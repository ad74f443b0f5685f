package widget

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/textfmt"
	"dynascope/ui/theme"
)

// LineEdit is a one-line text field. It is deliberately small: a cursor that
// does not blink keeps snapshots stable, and what it shows goes through
// Sanitize like everything else.
type LineEdit struct {
	value []rune
	pos   int
	// all tells that the whole text is selected, as a browser's address
	// bar holds the address it shows: the first character typed replaces
	// it, a movement key keeps it to edit (Select).
	all bool
}

// NewLineEdit is a field holding s, the cursor at its end.
func NewLineEdit(s string) LineEdit {
	r := []rune(s)
	return LineEdit{value: r, pos: len(r)}
}

// String is the field's text.
func (e LineEdit) String() string { return string(e.value) }

// AtEnd tells whether the cursor is after the last character.
func (e LineEdit) AtEnd() bool { return e.pos == len(e.value) }

// Set replaces the text, the cursor at its end.
func (e *LineEdit) Set(s string) {
	e.value = []rune(s)
	e.pos = len(e.value)
	e.all = false
}

// Select selects the whole text, so that what is typed next replaces it.
func (e LineEdit) Select() LineEdit {
	e.all = len(e.value) > 0
	e.pos = len(e.value)
	return e
}

// Selected tells whether the whole text is selected (Select), so that
// typing replaces it: what the field holds then is on offer, not typed.
func (e LineEdit) Selected() bool { return e.all }

// typedOver ends a selection before an editing key: a character typed or
// pasted, or a deletion, replaces the whole text; a movement keeps it, the
// cursor where the key puts it.
func (e LineEdit) typedOver(k string) LineEdit {
	if !e.all {
		return e
	}
	e.all = false
	switch k {
	case "left", "ctrl+b", "home", "ctrl+a":
		e.pos = 0
	case "right", "ctrl+f", "end", "ctrl+e":
	default:
		e.value, e.pos = nil, 0
	}
	return e
}

// Insert types s at the cursor.
func (e *LineEdit) Insert(s string) {
	// A field is one line: a pasted newline or tab becomes a space.
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
	r := []rune(s)
	v := make([]rune, 0, len(e.value)+len(r))
	v = append(v, e.value[:e.pos]...)
	v = append(v, r...)
	v = append(v, e.value[e.pos:]...)
	e.value = v
	e.pos += len(r)
}

// Update applies an editing key or pasted text; it reports whether the
// message was one.
func (e LineEdit) Update(msg tea.Msg) (LineEdit, bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		e = e.typedOver("")
		e.Insert(msg.Content)
		return e, true
	case tea.KeyPressMsg:
		k := msg.String()
		if e.all {
			switch editKind(msg) {
			case keyOther:
				return e, false
			case keyMove, keyDelete:
				return e.typedOver(k), true
			}
			e = e.typedOver(k) // a character: it replaces the text
		}
		switch k {
		case "left", "ctrl+b":
			if e.pos > 0 {
				e.pos--
			}
		case "right", "ctrl+f":
			if e.pos < len(e.value) {
				e.pos++
			}
		case "home", "ctrl+a":
			e.pos = 0
		case "end", "ctrl+e":
			e.pos = len(e.value)
		case "backspace", "ctrl+h":
			if e.pos > 0 {
				e.value = append(e.value[:e.pos-1:e.pos-1], e.value[e.pos:]...)
				e.pos--
			}
		case "delete", "ctrl+d":
			if e.pos < len(e.value) {
				e.value = append(e.value[:e.pos:e.pos], e.value[e.pos+1:]...)
			}
		case "ctrl+u":
			e.value = append([]rune(nil), e.value[e.pos:]...)
			e.pos = 0
		case "ctrl+k":
			e.value = e.value[:e.pos:e.pos]
		case "ctrl+w", "alt+backspace", "ctrl+backspace":
			i := e.pos
			for i > 0 && unicode.IsSpace(e.value[i-1]) {
				i--
			}
			for i > 0 && !unicode.IsSpace(e.value[i-1]) {
				i--
			}
			e.value = append(e.value[:i:i], e.value[e.pos:]...)
			e.pos = i
		case "space":
			e.Insert(" ")
		default:
			if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper) != 0 {
				return e, false
			}
			e.Insert(msg.Text)
		}
		return e, true
	}
	return e, false
}

type keyKind int

const (
	keyOther  keyKind = iota // not the field's
	keyMove                  // moves the cursor
	keyDelete                // deletes text
	keyText                  // types text
)

// editKind is what a key does to the field, as Update reads it.
func editKind(msg tea.KeyPressMsg) keyKind {
	switch msg.String() {
	case "left", "ctrl+b", "right", "ctrl+f", "home", "ctrl+a", "end", "ctrl+e":
		return keyMove
	case "backspace", "ctrl+h", "delete", "ctrl+d", "ctrl+u", "ctrl+k", "ctrl+w", "alt+backspace", "ctrl+backspace":
		return keyDelete
	case "space":
		return keyText
	}
	if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper) != 0 {
		return keyOther
	}
	return keyText
}

// View draws the field in w cells: the text, a reverse-video cursor, and
// after it, dimmed, a completion the user has not accepted yet.
func (e LineEdit) View(st theme.Styles, w int, ghost string) string {
	if e.all {
		// The selection reads as one: the text in the selected style, the
		// cursor after it, no completion offered for text not typed.
		text := textfmt.Sanitize(string(e.value))
		if tw := Width(text); tw+1 > w-1 && w > 2 {
			text = "…" + ansi.TruncateLeft(text, tw-(w-3), "")
		}
		return Fit(st.Sel.Render(text)+st.InputCursor.Render(" "), w)
	}
	before := textfmt.Sanitize(string(e.value[:e.pos]))
	var cur, after string
	switch {
	case e.pos < len(e.value):
		cur = st.InputCursor.Render(textfmt.Sanitize(string(e.value[e.pos])))
		after = textfmt.Sanitize(string(e.value[e.pos+1:]))
	case ghost != "":
		g := []rune(textfmt.Sanitize(ghost))
		cur = st.InputCursor.Render(string(g[0]))
		after = st.Ghost.Render(string(g[1:]))
	default:
		cur = st.InputCursor.Render(" ")
	}
	// Keep the cursor in sight: cut from the left when the text before it is too wide.
	if bw := Width(before); bw+1 > w-1 && w > 2 {
		before = "…" + ansi.TruncateLeft(before, bw-(w-3), "")
	}
	return Fit(before+cur+after, w)
}
