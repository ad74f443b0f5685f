package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/patterns"
)

// Running a pattern: a Query runs exactly as a hand-made one (query line,
// pages, log); a GetItem through Store.GetItem, its item in the items pane.

// getDoneMsg answers getItemCmd.
type getDoneMsg struct {
	id   int
	g    dynamo.GetInput
	page dynamo.Page
	err  error
}

func getItemCmd(ctx context.Context, s Store, id int, g dynamo.GetInput) tea.Cmd {
	return func() tea.Msg {
		p, err := s.GetItem(ctx, g)
		return getDoneMsg{id: id, g: g, page: p, err: err}
	}
}

// openPatterns shows the patterns list.
func (m Model) openPatterns() Model {
	m.overlay = overlayPatterns
	m.pat.asking, m.pat.err = false, ""
	m.status.info = ""
	if m.patterns != nil {
		m.pat.cursor = clamp(m.pat.cursor, 0, len(m.patterns.Patterns)-1)
	}
	return m
}

func (m Model) patternsKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	n := 0
	if m.patterns != nil {
		n = len(m.patterns.Patterns)
	}
	h := max(1, m.layout().bodyH-10)
	move := func(d int) {
		m.pat.cursor = clamp(m.pat.cursor+d, 0, n-1)
		m.pat.offset = scrollOffset(m.pat.offset, m.pat.cursor, h, n)
		m.pat.err = ""
	}
	if d, ok := scrollDelta(msg, km, h); ok {
		move(d)
		return m, nil
	}
	switch {
	case key.Matches(msg, km.Open):
		if n == 0 {
			return m, nil
		}
		p := m.patterns.Patterns[m.pat.cursor]
		if err := p.Validate(m.table); err != nil {
			m.pat.err = Sanitize(err.Error())
			return m, nil
		}
		params := p.Parameters()
		if len(params) == 0 {
			return m.runPattern(p, nil)
		}
		values := make([]string, len(params))
		for i, name := range params {
			values[i] = p.Example[name]
		}
		m.pat.asking, m.pat.err = true, ""
		m.pat.form = newForm(params, values)
	case key.Matches(msg, km.Code):
		if n == 0 {
			return m, nil
		}
		p := m.patterns.Patterns[m.pat.cursor]
		r, err := patternRequest(p, m.table, p.Example)
		if err != nil {
			m.pat.err = Sanitize(err.Error())
			return m, nil
		}
		return m.openCode(m.resolvedInput(r), "pattern "+p.Name, overlayPatterns), nil
	case key.Matches(msg, km.Back, km.Cancel):
		m.overlay = overlayNone
	}
	return m, nil
}

// resolvedInput is a pattern's request on the current table, for its code.
func (m Model) resolvedInput(r patterns.Resolved) reqInput {
	if r.Get != nil {
		return m.getInput(*r.Get)
	}
	return m.queryInput(*r.Query)
}

func (m Model) paramsKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Open):
		p := m.patterns.Patterns[m.pat.cursor]
		return m.runPattern(p, m.pat.form.values())
	case key.Matches(msg, km.Cancel):
		m.pat.asking, m.pat.err = false, ""
		return m, nil
	case key.Matches(msg, km.NextField, km.PrevField):
		m.pat.form = m.pat.form.navigate(msg, km)
		return m, nil
	}
	return m.paramsText(msg)
}

func (m Model) paramsText(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := m.pat.form.update(msg); ok {
		m.pat.form, m.pat.err = f, ""
	}
	return m, nil
}

// runPattern resolves a pattern with its parameters and sends its request;
// a mistake is shown in place and nothing is sent.
func (m Model) runPattern(p patterns.Pattern, params map[string]string) (tea.Model, tea.Cmd) {
	r, err := patternRequest(p, m.table, params)
	if err != nil {
		m.pat.err = Sanitize(err.Error())
		return m, nil
	}
	m.overlay, m.pat.asking, m.pat.err = overlayNone, false, ""
	if r.Get != nil {
		return m.runGet(*r.Get, p.Name)
	}
	return m.runPatternQuery(*r.Query, p.Name)
}

// moveTo shows partition pk of index afresh unless it is the one open: a
// pattern may read another partition, or the same one through an index.
func (m Model) moveTo(index, pk string) (Model, tea.Cmd) {
	if m.screen == screenPartition && index == m.index && pk == m.q.PK {
		return m, nil
	}
	m.index = index
	ks, _ := m.table.Schema(index)
	m.setSchema(ks)
	return m.enterPartition(pk)
}

func (m Model) runPatternQuery(q dynamo.QueryInput, name string) (tea.Model, tea.Cmd) {
	m, save := m.moveTo(q.Index, q.PK)
	m, cmd := m.startQuery(q, false)
	m.inflightPattern = name
	return m, tea.Batch(cmd, save)
}

// runGet sends a GetItem; the query line shows it, and q its key as the
// Query to start from when the user changes it.
func (m Model) runGet(g dynamo.GetInput, name string) (tea.Model, tea.Cmd) {
	m, save := m.moveTo("", g.PK)
	m.cancelInflight()
	m.seq++
	id := m.seq
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel, m.inflight, m.inflightGet, m.inflightPattern = cancel, id, true, name
	m.q, m.get = getAsQuery(m.table, g), &g
	m.status.err, m.status.info = "", ""
	return m, tea.Batch(getItemCmd(m.observe(ctx, id), m.store, id, g), m.after(id), save)
}

// getAsQuery is the Query that selects the item a GetItem reads.
func getAsQuery(t dynamo.Table, g dynamo.GetInput) dynamo.QueryInput {
	q := dynamo.QueryInput{Table: g.Table, PK: g.PK, Consistent: g.Consistent}
	if t.SK != nil {
		q.SK = dynamo.SKCond{Op: dynamo.SKEq, Values: []string{g.SK}}
	}
	return q
}

// getDone logs a GetItem and shows its item, unless it was superseded.
func (m Model) getDone(msg getDoneMsg) (Model, tea.Cmd) {
	if msg.page.Request.Operation != "" {
		m.log = m.log.add(msg.page.Request, "", 1, m.getInput(msg.g))
	}
	if msg.id != m.inflight {
		return m, nil
	}
	name := m.inflightPattern
	m.cancelInflight()
	m.status.throttle = throttled(msg.err)
	if msg.err != nil {
		m.status.err = Sanitize(msg.err.Error())
		if m.res.pages > 0 {
			m.q, m.get = m.res.q, m.res.get
		}
		return m, nil
	}
	g := msg.g
	q := getAsQuery(m.table, g)
	m.res = result{q: q, pages: 1, get: &g}
	m.noteColours(msg.page.Items)
	m.items = m.items.setItems(msg.page.Items, m.layout().itemsW-2)
	m.groups.active = m.groups.rowFor(q.SK)
	m.status.info = patternDone(name, msg.page)
	return m, nil
}

// patternDone says what a pattern's request returned and cost.
func patternDone(name string, p dynamo.Page) string {
	if name == "" {
		return ""
	}
	more := ""
	if p.LastEvaluatedKey != nil {
		more = ", more to read"
	}
	return fmt.Sprintf("pattern %q: %s in 1 request, %s RCU%s", Sanitize(name),
		plural(len(p.Items), "item", "items"), fmtRCU(p.Request.Capacity.Total), more)
}

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
	case m.q.PK == "":
		return m
	case m.patternsPath == "":
		m.status.err = fmt.Sprintf("no patterns file to save to: start dynascope with --patterns %s (or another FILE; created on the first save).",
			patterns.PatternsFile)
		return m
	}
	m.save = saveForm{form: newForm([]string{"name", "description"}, nil)}
	m.overlay = overlaySave
	return m
}

// pendingPattern is the current request as the pattern S would save.
func (m Model) pendingPattern() patterns.Pattern {
	name := strings.TrimSpace(m.save.form.value("name"))
	desc := strings.TrimSpace(m.save.form.value("description"))
	if m.get != nil {
		return patterns.PatternFromGet(name, desc, *m.get)
	}
	q := m.q
	q.StartKey = nil
	return patterns.PatternFromQuery(name, desc, q)
}

func (m Model) saveKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Open):
		p := m.pendingPattern()
		if p.Name == "" {
			m.save.err = "give the pattern a name; it is how the patterns list and `dynascope patterns run` refer to it."
			return m, nil
		}
		return m, savePatternCmd(m.patternsPath, p)
	case key.Matches(msg, km.Cancel):
		m.overlay = overlayNone
		m.status.info = "not saved"
		return m, nil
	case key.Matches(msg, km.NextField, km.PrevField):
		m.save.form = m.save.form.navigate(msg, km)
		return m, nil
	}
	return m.saveText(msg)
}

func (m Model) saveText(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := m.save.form.update(msg); ok {
		m.save.form, m.save.err = f, ""
	}
	return m, nil
}

func (m Model) patternSaved(msg patternSavedMsg) Model {
	if msg.err != nil {
		m.save.err = Sanitize(msg.err.Error())
		return m
	}
	m.patterns = msg.set
	if m.overlay == overlaySave {
		m.overlay = overlayNone
	}
	if n := len(msg.set.Patterns); n > 0 {
		m.pat.cursor = n - 1
	}
	m.status.err = ""
	m.status.info = fmt.Sprintf("saved pattern %q to %s", Sanitize(msg.name), Sanitize(m.patternsPath))
	return m
}

// saveBox is the save form with what it will write and where.
func (m Model) saveBox(w, h int) string {
	st := m.st
	inner := w - 2
	var lines []string
	for _, l := range wrapText(fmt.Sprintf("Adds the current request to %s as a new access pattern, after the others; the file's comments and order stay as they are.", Sanitize(m.patternsPath)), inner-2) {
		lines = append(lines, " "+st.muted.Render(l))
	}
	lines = append(lines, "")
	lines = append(lines, m.save.form.view(st, inner)...)
	lines = append(lines, "")
	p := m.pendingPattern()
	op := "Query"
	if m.get != nil {
		op = "GetItem"
	}
	for _, l := range wrapText(op+": "+Sanitize(p.Summary()), inner-2) {
		lines = append(lines, " "+st.queryKey.Render(l))
	}
	if m.save.err != "" {
		lines = append(lines, "")
		for _, l := range wrapText(m.save.err, inner-2) {
			lines = append(lines, " "+st.err.Render(l))
		}
	}
	return box(st, "Save as an access pattern", lines, w, h, true)
}
