package overlay

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/patterns"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/request"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// The patterns overlay: a lists the access patterns of the patterns file;
// enter asks for the chosen one's parameters (prefilled from its example)
// and runs it as a hand-made request would run (patterns_run.go); C shows
// its code. The root remembers where its cursor was left (m.patternCursor)
// for the next opening.

// Patterns lists the access patterns, or asks for a chosen one's
// parameters.
type Patterns struct{ patternsPane }

// NewPatterns lists the patterns of set, the cursor and the window where
// the list was left.
func NewPatterns(set *patterns.PatternSet, cursor, offset int) Patterns {
	o := Patterns{patternsPane{offset: offset}}
	if set != nil {
		o.cursor = widget.Clamp(cursor, 0, len(set.Patterns)-1)
	}
	return o
}

// Failed shows why the pattern was not run (sanitised), in place.
func (o Patterns) Failed(why string) Patterns {
	o.err = why
	return o
}

// ID names the overlay.
func (Patterns) ID() ID { return PatternsID }

// Hides says which lines of the screen the overlay takes over.
func (Patterns) Hides() Hidden { return Hidden{Log: true} }

// Mode is the keymap mode the overlay is in, by its phase.
func (o Patterns) Mode(Env) *keymap.Mode {
	if o.asking {
		return modeParams
	}
	return modePatterns
}

// View draws the overlay w×h from what the root gives it.
func (o Patterns) View(e Env, w, h int) string { return o.box(e, w, h) }

// patternsPane lists the patterns and, once one is chosen, asks for its
// parameters.
type patternsPane struct {
	cursor, offset int
	asking         bool        // the form of the chosen pattern is open
	form           widget.Form // its parameters
	err            string      // why it cannot run, sanitised
}

// patternsTitle names the file the patterns come from.
func patternsTitle(set *patterns.PatternSet) string {
	if set == nil {
		return "Access patterns"
	}
	return fmt.Sprintf("Access patterns · %s · %d", textfmt.Sanitize(filepath.Base(set.Path)), len(set.Patterns))
}

// box is the list of patterns, or the chosen one's parameters.
func (pat patternsPane) box(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	if pat.asking {
		return widget.Box(st, "Run an access pattern", pat.paramsLines(e, inner), w, h, true)
	}
	if e.Patterns == nil || len(e.Patterns.Patterns) == 0 {
		return widget.Box(st, patternsTitle(e.Patterns), noPatternsLines(e, inner), w, h, true)
	}
	ps := e.Patterns.Patterns
	var lines []string
	if e.Patterns.Table != "" && e.Patterns.Table != e.Table.Name {
		lines = append(lines, " "+st.Warn.Render(widget.Fit(fmt.Sprintf("These patterns name table %s; they run on %s, the table open.",
			textfmt.Sanitize(e.Patterns.Table), textfmt.Sanitize(e.Table.Name)), inner-2)), "")
	}
	nameW, ixW := len("pattern"), len("index")
	for _, p := range ps {
		nameW = max(nameW, widget.Width(textfmt.Sanitize(p.Name)))
		ixW = max(ixW, widget.Width(textfmt.Sanitize(p.Index)))
	}
	nameW = min(nameW, max(12, inner/3))
	row := func(mark, name, op, ix, desc string) string {
		return mark + widget.Fit(name, nameW) + "  " + widget.Fit(op, 7) + "  " + widget.Fit(ix, ixW) + "  " + desc
	}
	lines = append(lines, st.ColHeader.Render(widget.Fit(row("   ", "pattern", "request", "index", "description"), inner)))
	foot := patternFooter(e, ps[pat.cursor], pat.err, inner-2)
	shown := max(1, h-2-len(lines)-len(foot)-1)
	// Each pattern is its row and, on a KEYS_ONLY or INCLUDE index that
	// does not give it what it needs, patterns check's verdict under its
	// description, wrapped, never cut.
	descX := widget.Width(row("   ", "", "", "", ""))
	blocks := make([][]string, len(ps))
	for i, p := range ps {
		ix := "table"
		if p.Index != "" {
			ix = textfmt.Sanitize(p.Index)
		}
		l := row("   ", textfmt.Sanitize(p.Name), request.PatternOp(p, e.Table), ix, textfmt.Sanitize(p.Description))
		if i == pat.cursor {
			l = st.Sel.Render(widget.Fit(row(" › ", textfmt.Sanitize(p.Name), request.PatternOp(p, e.Table), ix, textfmt.Sanitize(p.Description)), inner))
		}
		blocks[i] = []string{l}
		if pc, ok := p.CheckProjection(e.Table); ok && pc.Verdict() != "" {
			indent := strings.Repeat(" ", max(0, min(descX, inner-14)))
			for j, v := range widget.WrapLines(textfmt.Sanitize(pc.Verdict()), max(12, inner-descX-3)) {
				mark := "⚠ "
				if j > 0 {
					mark = "  "
				}
				blocks[i] = append(blocks[i], indent+st.Warn.Render(mark+v))
			}
		}
	}
	off := widget.ScrollOffset(pat.offset, pat.cursor, shown, len(ps))
	for off < pat.cursor && blockLines(blocks[off:pat.cursor+1]) > shown {
		off++
	}
	for i := off; i < len(ps) && (i == off || len(lines)+len(blocks[i]) <= h-2-len(foot)-1); i++ {
		lines = append(lines, blocks[i]...)
	}
	if len(lines) > h-2-len(foot)-1 { // one tall block in a short box
		lines = lines[:max(0, h-2-len(foot)-1)]
	}
	for len(lines) < h-2-len(foot)-1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Faint.Render(strings.Repeat("─", inner)))
	for _, l := range foot {
		lines = append(lines, " "+l)
	}
	return widget.Box(st, patternsTitle(e.Patterns), lines, w, h, true)
}

// blockLines counts the lines of the patterns' blocks.
func blockLines(blocks [][]string) int {
	n := 0
	for _, b := range blocks {
		n += len(b)
	}
	return n
}

// patternFooter says what the selected pattern sends, its parameters with
// their examples, and what the keys do, in lines of w cells.
func patternFooter(e Env, p patterns.Pattern, why string, w int) []string {
	st := e.St
	out := []string{st.Bold.Render(widget.Fit(textfmt.Sanitize(p.Name), w))}
	for _, l := range widget.WrapLines(textfmt.Sanitize(p.Summary()), w) {
		out = append(out, st.Text.Render(l))
	}
	if params := p.Parameters(); len(params) > 0 {
		var ps []string
		for _, n := range params {
			ps = append(ps, textfmt.Sanitize(n)+" (e.g. "+textfmt.Sanitize(p.Example[n])+")")
		}
		out = append(out, st.Muted.Render(widget.Fit("parameters: "+strings.Join(ps, ", "), w)))
	} else {
		out = append(out, st.Muted.Render("no parameters"))
	}
	// What its index projects of what it needs, from the DescribeTable the
	// UI holds: patterns check's note, sent no request.
	out = append(out, projectionNote(e, p, w)...)
	if why != "" {
		for _, l := range widget.WrapLines(why, w) {
			out = append(out, st.Err.Render(l))
		}
	}
	return out
}

// projectionNote is patterns check's note on what the pattern's KEYS_ONLY
// or INCLUDE index projects of what it needs, not sent (computed from the
// DescribeTable the UI holds), in lines of w cells; none on the base table
// or an ALL index.
func projectionNote(e Env, p patterns.Pattern, w int) []string {
	pc, ok := p.CheckProjection(e.Table)
	if !ok {
		return nil
	}
	return ProjectionNote(e.St, pc, -1, w)
}

// ProjectionNote is pc's sentence for a Query that returned items (-1: not
// sent), wrapped to w: a warning when the pattern is not one request.
func ProjectionNote(st theme.Styles, pc patterns.Projection, items, w int) []string {
	style := st.Muted
	if !pc.OneRequest() {
		style = st.Warn
	}
	var out []string
	for _, l := range widget.WrapLines(textfmt.Sanitize(pc.Sentence(items)), w) {
		out = append(out, style.Render(l))
	}
	return out
}

// noPatternsLines explains where patterns come from when there are none.
func noPatternsLines(e Env, w int) []string {
	st := e.St
	var text []string
	switch {
	case e.PatternsErr != nil:
		text = []string{"The patterns file is broken, so no patterns are listed: " + textfmt.Sanitize(e.PatternsErr.Error()),
			"Fix the file and start dynascope again; S does not write to it meanwhile."}
	case e.Patterns != nil:
		text = []string{fmt.Sprintf("%s has no patterns yet.", textfmt.Sanitize(e.Patterns.Path)),
			"S on the partition saves the current request there as the first one."}
	default:
		text = []string{fmt.Sprintf("No patterns file: there is no %s in this directory.", patterns.PatternsFile),
			"Access-pattern-first design writes the patterns down first; dynascope runs them and shows what each costs.",
			"Start dynascope with --patterns FILE to read one (dynascope.yaml in the dynascope repository is an example); S then saves the current request to it, creating it if needed."}
	}
	var out []string
	for _, t := range text {
		for _, l := range widget.WrapLines(t, w-2) {
			out = append(out, " "+st.Muted.Render(l))
		}
		out = append(out, "")
	}
	return out
}

// paramsLines is the form of the chosen pattern: what it is, its fields,
// and the request they make, or why they make none.
func (pat patternsPane) paramsLines(e Env, w int) []string {
	st := e.St
	p := e.Patterns.Patterns[pat.cursor]
	lines := []string{" " + st.Bold.Render(textfmt.Sanitize(p.Name))}
	if p.Description != "" {
		for _, l := range widget.WrapLines(textfmt.Sanitize(p.Description), w-2) {
			lines = append(lines, " "+st.Muted.Render(l))
		}
	}
	for _, l := range widget.WrapLines(textfmt.Sanitize(p.Summary()), w-2) {
		lines = append(lines, " "+st.Muted.Render(l))
	}
	lines = append(lines, "")
	if len(pat.form.Fields) == 0 {
		lines = append(lines, " "+st.Muted.Render("no parameters"))
	}
	lines = append(lines, pat.form.View(st, w)...)
	lines = append(lines, "")
	if pat.err != "" {
		for _, l := range widget.WrapLines(pat.err, w-2) {
			lines = append(lines, " "+st.Err.Render(l))
		}
		return lines
	}
	r, err := request.ForPattern(p, e.Table, pat.form.Values())
	if err != nil {
		for _, l := range widget.WrapLines(textfmt.Sanitize(err.Error()), w-2) {
			lines = append(lines, " "+st.Err.Render(l))
		}
		return lines
	}
	for _, l := range widget.WrapLines("sends "+textfmt.Sanitize(request.Text(r, e.Table)), w-2) {
		lines = append(lines, " "+st.QueryKey.Render(l))
	}
	for _, l := range projectionNote(e, p, w-2) {
		lines = append(lines, " "+l)
	}
	return lines
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Patterns) Update(e Env, msg tea.Msg) (Overlay, Want) {
	if o.asking {
		return o.paramsUpdate(e, msg)
	}
	n := 0
	if e.Patterns != nil {
		n = len(e.Patterns.Patterns)
	}
	if wm, ok := msg.(tea.MouseWheelMsg); ok {
		if d := widget.WheelDelta(wm); d != 0 && e.Patterns != nil {
			o.cursor = widget.Clamp(o.cursor+d/3, 0, n-1)
		}
		return o, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	km := e.Keys
	h := max(1, e.BodyH-10)
	if d, ok := km.Step(k, h); ok {
		o.cursor = widget.Clamp(o.cursor+d, 0, n-1)
		o.offset = widget.ScrollOffset(o.offset, o.cursor, h, n)
		o.err = ""
		return o, nil
	}
	switch {
	case key.Matches(k, km.Open):
		if n == 0 {
			return o, nil
		}
		p := e.Patterns.Patterns[o.cursor]
		if err := p.Validate(e.Table); err != nil {
			o.err = textfmt.Sanitize(err.Error())
			return o, nil
		}
		if pc, ok := p.CheckProjection(e.Table); ok && pc.Refused() {
			o.err = textfmt.Sanitize(pc.Verdict()) + "."
			return o, nil
		}
		params := p.Parameters()
		if len(params) == 0 {
			return o.run(e, p, nil)
		}
		values := make([]string, len(params))
		for i, name := range params {
			values[i] = p.Example[name]
		}
		o.asking, o.err = true, ""
		o.form = widget.NewForm(params, values)
	case key.Matches(k, km.Code):
		if n == 0 {
			return o, nil
		}
		p := e.Patterns.Patterns[o.cursor]
		r, err := request.ForPattern(p, e.Table, p.Example)
		if err != nil {
			o.err = textfmt.Sanitize(err.Error())
			return o, nil
		}
		return o, OpenPatternCode{R: r, From: "pattern " + p.Name, Note: p.ParamsNote(p.Example)}
	case key.Matches(k, km.Back, km.Cancel):
		return o, Then{KeepPatterns{Cursor: o.cursor, Offset: o.offset}, Close{}}
	}
	return o, nil
}

// run sends pattern p with its parameters, closing the list; a mistake
// in them is shown in place and nothing is sent, nor is a filter DynamoDB
// would refuse on what its index does not project (as patterns check).
func (o Patterns) run(e Env, p patterns.Pattern, params map[string]string) (Overlay, Want) {
	if _, err := request.ForPattern(p, e.Table, params); err != nil {
		o.err = textfmt.Sanitize(err.Error())
		return o, nil
	}
	if pc, ok := p.CheckProjection(e.Table); ok && pc.Refused() {
		o.err = textfmt.Sanitize(pc.Sentence(-1))
		return o, nil
	}
	o.asking, o.err = false, ""
	return o, Then{KeepPatterns{Cursor: o.cursor, Offset: o.offset}, RunPattern{P: p, Params: params}}
}

// paramsUpdate is the chosen pattern's parameters form: enter runs it, esc
// goes back to the list.
func (o Patterns) paramsUpdate(e Env, msg tea.Msg) (Overlay, Want) {
	var ev widget.FormEvent
	o.form, ev = formKey(o.form, e, msg)
	switch ev {
	case widget.FormSubmit:
		return o.run(e, e.Patterns.Patterns[o.cursor], o.form.Values())
	case widget.FormCancel:
		o.asking, o.err = false, ""
	case widget.FormTyped:
		o.err = ""
	}
	return o, nil
}

func hasPatterns(st keymap.State) bool { return st.Patterns }

var modePatterns = &keymap.Mode{Name: "patterns", Keys: keymap.KeysOf(
	[]keymap.Binding{
		keymap.InBar("open", "run it (asks for its parameters)").OnlyIf(hasPatterns),
		keymap.InBar("code", "its code, with the example values").OnlyIf(hasPatterns),
		keymap.InBar("back", "close"), keymap.InBar("help"), keymap.Bind("cancel", "close"),
	},
	[]keymap.Binding{
		keymap.Bind("up").OnlyIf(hasPatterns), keymap.Bind("down").OnlyIf(hasPatterns), keymap.Bind("pageUp").OnlyIf(hasPatterns),
		keymap.Bind("pageDown").OnlyIf(hasPatterns), keymap.Bind("top").OnlyIf(hasPatterns), keymap.Bind("bottom").OnlyIf(hasPatterns),
	},
)}

var modeParams = keymap.FormMode("parameters", "run the pattern", "back to the patterns")
