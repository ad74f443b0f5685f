package ui

import (
	"fmt"
	"strings"

	"dynascope/patterns"

	tea "charm.land/bubbletea/v2"
)

// The save overlay: S on a partition asks for a name and a description and
// appends the current request to the patterns file as a new pattern.

type saveOverlay struct{ saveForm }

func (saveOverlay) id() overlayID   { return overlaySave }
func (saveOverlay) mode(Model) mode { return modeSave }
func (saveOverlay) hides() hidden   { return hidden{} }

// saveForm asks for the name and description of a new pattern.
type saveForm struct {
	form form
	err  string // why it was not saved, sanitised
}

// patternSavedMsg answers savePatternCmd: the file read back, or why not.
type patternSavedMsg struct {
	name string
	set  *patterns.PatternSet
	err  error
}

// savePatternCmd appends p to the patterns file, the only file dynascope
// writes besides its own history, and reads the file back.
func savePatternCmd(path string, p patterns.Pattern) tea.Cmd {
	return func() tea.Msg {
		if err := patterns.SavePattern(path, p); err != nil {
			return patternSavedMsg{name: p.Name, err: err}
		}
		set, err := patterns.LoadPatterns(path)
		return patternSavedMsg{name: p.Name, set: set, err: err}
	}
}

// openSave asks how to name the current request as a pattern, or says why
// it cannot be saved.
func (m Model) openSave() Model {
	switch {
	case m.query.PK == "":
		return m
	case m.query.Filter != "" || m.query.Project != "":
		// A pattern holds key conditions only: saved, the filter would be
		// lost without a word.
		m.status.err = "patterns hold key conditions only, not filters or projections; clear them (f, v, then empty) to save this request."
		return m
	case m.patternsPath == "":
		m.status.err = fmt.Sprintf("no patterns file to save to: start dynascope with --patterns %s (or another FILE; created on the first save).",
			patterns.PatternsFile)
		return m
	}
	return m.push(saveOverlay{saveForm{form: newForm([]string{"name", "description"}, nil)}})
}

// pendingPattern is the current request as the pattern S would save.
func (m Model) pendingPattern(f form) patterns.Pattern {
	name := strings.TrimSpace(f.value("name"))
	desc := strings.TrimSpace(f.value("description"))
	if m.get != nil {
		return patterns.PatternFromGet(name, desc, *m.get)
	}
	q := m.query
	q.StartKey = nil
	return patterns.PatternFromQuery(name, desc, q)
}

func (o saveOverlay) update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	if _, ok := msg.(tea.MouseWheelMsg); ok {
		return m, nil
	}
	f, ev := o.form.handle(msg, m.keyMap())
	o.form = f
	switch ev {
	case formSubmit:
		p := m.pendingPattern(f)
		if p.Name == "" {
			o.err = "give the pattern a name; it is how the patterns list and `dynascope patterns run` refer to it."
			return m.setTop(o), nil
		}
		return m.setTop(o), savePatternCmd(m.patternsPath, p)
	case formCancel:
		m = m.pop()
		m.status.info = "not saved"
		return m, nil
	case formTyped:
		o.err = ""
	}
	return m.setTop(o), nil
}

func (m Model) patternSaved(msg patternSavedMsg) Model {
	if msg.err != nil {
		if o, ok := findOverlay[saveOverlay](m); ok {
			o.err = sanitize(msg.err.Error())
			m = replaceOverlay(m, o)
		}
		return m
	}
	m.patterns = msg.set
	m = m.remove(overlaySave)
	if n := len(msg.set.Patterns); n > 0 {
		m.pat.cursor = n - 1
	}
	m.status.err = ""
	m.status.info = fmt.Sprintf("saved pattern %q to %s", sanitize(msg.name), sanitize(m.patternsPath))
	return m
}

// view is the save form with what it will write and where.
func (o saveOverlay) view(m Model, w, h int) string {
	st := m.st
	inner := w - 2
	var lines []string
	for _, l := range wrapText(fmt.Sprintf("Adds the current request to %s as a new access pattern, after the others; the file's comments and order stay as they are.", sanitize(m.patternsPath)), inner-2) {
		lines = append(lines, " "+st.muted.Render(l))
	}
	lines = append(lines, "")
	lines = append(lines, o.form.view(st, inner)...)
	lines = append(lines, "")
	p := m.pendingPattern(o.form)
	op := "Query"
	if m.get != nil {
		op = "GetItem"
	}
	for _, l := range wrapText(op+": "+sanitize(p.Summary()), inner-2) {
		lines = append(lines, " "+st.queryKey.Render(l))
	}
	if o.err != "" {
		lines = append(lines, "")
		for _, l := range wrapText(o.err, inner-2) {
			lines = append(lines, " "+st.err.Render(l))
		}
	}
	return box(st, "Save as an access pattern", lines, w, h, true)
}

var saveMode = formMode("save pattern", "save to the patterns file", "don't save")
