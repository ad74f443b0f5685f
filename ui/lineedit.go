package ui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineEdit is a one-line text field. It is deliberately small: a cursor that
// does not blink keeps snapshots stable, and what it shows goes through
// Sanitize like everything else.
type lineEdit struct {
	value []rune
	pos   int
}

func newLineEdit(s string) lineEdit {
	r := []rune(s)
	return lineEdit{value: r, pos: len(r)}
}

func (e lineEdit) String() string { return string(e.value) }

func (e *lineEdit) set(s string) {
	e.value = []rune(s)
	e.pos = len(e.value)
}

func (e *lineEdit) insert(s string) {
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

// update applies an editing key; it reports whether the key was one.
func (e lineEdit) update(msg tea.Msg) (lineEdit, bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		e.insert(msg.Content)
		return e, true
	case tea.KeyPressMsg:
		switch msg.String() {
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
			e.insert(" ")
		default:
			if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper) != 0 {
				return e, false
			}
			e.insert(msg.Text)
		}
		return e, true
	}
	return e, false
}

// view draws the field in w cells: the text, a reverse-video cursor, and
// after it, dimmed, a completion the user has not accepted yet.
func (e lineEdit) view(st styles, w int, ghost string) string {
	before := sanitize(string(e.value[:e.pos]))
	var cur, after string
	switch {
	case e.pos < len(e.value):
		cur = st.InputCursor.Render(sanitize(string(e.value[e.pos])))
		after = sanitize(string(e.value[e.pos+1:]))
	case ghost != "":
		g := []rune(sanitize(ghost))
		cur = st.InputCursor.Render(string(g[0]))
		after = st.Ghost.Render(string(g[1:]))
	default:
		cur = st.InputCursor.Render(" ")
	}
	// Keep the cursor in sight: cut from the left when the text before it is too wide.
	if bw := width(before); bw+1 > w-1 && w > 2 {
		before = "…" + ansi.TruncateLeft(before, bw-(w-3), "")
	}
	return fit(before+cur+after, w)
}
