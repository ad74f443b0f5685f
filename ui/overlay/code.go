package overlay

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/codegen"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/request"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// The code view: the one request, as the aws CLI, Python boto3 and Go would
// send it, ready to copy. Each sends, pages and costs exactly what the UI's
// request did.

// codeView holds the code of one request in every language.
type codeView struct {
	what   string   // the request in DynamoDB's words, sanitised
	from   string   // where it comes from: "current request", "request 3", "pattern x"
	code   []string // per language of codegen.CodeLangs, as generated (copied as is)
	errs   []string // per language, why there is no code, sanitised
	tab    int
	offset int
}

// Code is the code view on the overlay stack, over what it was
// opened from: esc goes back there (the log, the patterns, the partition).
type Code struct{ c codeView }

// NewCode shows the code of request in, sent to to, in every language, the
// language tab shown (a code view opened over another keeps its
// language); from says where the request comes from, and note, when not
// "", is a comment line above the code (a pattern's parameters, as
// patterns show prints them), copied with it.
func NewCode(in request.Input, from, note string, to codegen.CodeTarget, tab int) Code {
	c := codeView{what: textfmt.Sanitize(request.Describe(in)), from: textfmt.Sanitize(from)}
	for _, l := range codegen.CodeLangs {
		code, err := request.Code(l, in, to)
		errText := ""
		if err != nil {
			errText = textfmt.Sanitize(err.Error())
		} else if note != "" {
			code = codegen.Comment(l, note) + code
		}
		c.code = append(c.code, code)
		c.errs = append(c.errs, errText)
	}
	c.tab = widget.Clamp(tab, 0, len(c.code)-1)
	return Code{c: c}
}

// Tab is the language shown, an index into codegen.CodeLangs.
func (o Code) Tab() int { return o.c.tab }

// LangName is how the code view names a language.
func LangName(l codegen.CodeLang) string { return langNames[l] }

// ID names the overlay.
func (Code) ID() ID { return CodeID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Code) Mode(Env) *keymap.Mode { return modeCode }

// Hides says which lines of the screen the overlay takes over.
func (Code) Hides() Hidden { return Hidden{Log: true} }

// View draws the overlay w×h from what the root gives it.
func (o Code) View(e Env, w, h int) string { return o.c.box(e.St, w, h) }

var langNames = map[codegen.CodeLang]string{
	codegen.LangCLI:    "aws CLI",
	codegen.LangPython: "Python (boto3)",
	codegen.LangGo:     "Go (SDK v2)",
}

// lines is the code of the tab shown, sanitised and wrapped to w cells.
func (c codeView) lines(st theme.Styles, w int) []string {
	if c.tab >= len(c.code) {
		return nil
	}
	if c.errs[c.tab] != "" {
		return []string{" " + st.Err.Render(c.errs[c.tab])}
	}
	var out []string
	// The first column is a gutter: ↪ marks a line the screen had to wrap.
	for _, l := range strings.Split(strings.TrimRight(c.code[c.tab], "\n"), "\n") {
		l = strings.ReplaceAll(l, "\t", "    ") // shown as spaces; copied as generated
		for i, wl := range strings.Split(ansi.Hardwrap(textfmt.Sanitize(l), max(1, w-1), true), "\n") {
			gutter := " "
			if i > 0 {
				gutter = st.Faint.Render("↪")
			}
			out = append(out, gutter+st.Text.Render(wl))
		}
	}
	return out
}

// whatLines says which request the code sends, in at most two lines of w cells.
func (c codeView) whatLines(w int) []string {
	lines := widget.WrapLines("sends the one request: "+c.what, w)
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = widget.Trunc(lines[1]+" …", w)
	}
	return lines
}

// chrome is the lines of the code box that are not code, for a box w wide.
func (c codeView) chrome(w int) int { return 4 + len(c.whatLines(w-4)) }

func (c codeView) scroll(delta, h, n int) codeView {
	c.offset = widget.Clamp(c.offset+delta, 0, max(0, n-h))
	return c
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Code) Update(e Env, msg tea.Msg) (Overlay, Want) {
	h := max(1, e.BodyH-o.c.chrome(e.W))
	n := len(o.c.lines(e.St, e.W-2))
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if d := widget.WheelDelta(msg); d != 0 {
			o.c = o.c.scroll(d, h, n)
		}
	case tea.KeyPressMsg:
		km := e.Keys
		if d, ok := km.Step(msg, h); ok {
			o.c = o.c.scroll(d, h, n)
			break
		}
		c := o.c
		switch {
		case key.Matches(msg, km.NextTab):
			o.c.tab, o.c.offset = (c.tab+1)%len(c.code), 0
		case key.Matches(msg, km.PrevTab):
			o.c.tab, o.c.offset = (c.tab+len(c.code)-1)%len(c.code), 0
		case key.Matches(msg, km.CopyCode):
			if c.errs[c.tab] != "" {
				return o, nil
			}
			code := c.code[c.tab]
			lang := langNames[codegen.CodeLangs[c.tab]]
			return o, Then{ShowError{Text: ""}, CopyText{Text: code, Info: fmt.Sprintf("copied the %s code (%s) to the clipboard (OSC 52)", lang, textfmt.Plural(strings.Count(code, "\n"), "line", "lines"))}}
		case key.Matches(msg, km.Back, km.Cancel):
			return o, Close{}
		}
	}
	return o, nil
}

// box draws the tabs, what the request is, and the code.
func (c codeView) box(st theme.Styles, w, h int) string {
	inner := w - 2
	var tabs []string
	for i, l := range codegen.CodeLangs {
		name := " " + langNames[l] + " "
		if i == c.tab {
			tabs = append(tabs, st.Sel.Render(name))
		} else {
			tabs = append(tabs, st.Muted.Render(name))
		}
	}
	lines := []string{" " + strings.Join(tabs, st.Faint.Render("│"))}
	for _, l := range c.whatLines(w - 4) {
		lines = append(lines, " "+st.Muted.Render(l))
	}
	lines = append(lines, " "+st.Faint.Render(strings.Repeat("─", max(0, inner-2))))
	code := c.lines(st, inner)
	shown := max(1, h-c.chrome(w))
	off := widget.Clamp(c.offset, 0, max(0, len(code)-shown))
	for i := off; i < len(code) && i < off+shown; i++ {
		lines = append(lines, code[i])
	}
	title := "Code · " + c.from
	if len(code) > shown {
		title += fmt.Sprintf(" · lines %d–%d of %d", off+1, min(len(code), off+shown), len(code))
	}
	return widget.Box(st, title, lines, w, h, true)
}

var modeCode = &keymap.Mode{Name: "code", Keys: []keymap.Binding{
	keymap.InBar("copyCode"), keymap.InBar("nextTab"), keymap.InBar("back", "close"), keymap.InBar("help"),
	keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"), keymap.Bind("pageUp"), keymap.Bind("pageDown"), keymap.Bind("top"), keymap.Bind("bottom"),
	keymap.Bind("prevTab"), keymap.Bind("cancel", "close"),
}}
