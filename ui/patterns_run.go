package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/patterns"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
	"dynascope/ui/request"
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

// resolvedInput is a pattern's request on the current table, for its code.
func (m Model) resolvedInput(r patterns.Resolved) request.Input {
	if r.Get != nil {
		return m.getInput(*r.Get)
	}
	return m.queryInput(*r.Query)
}

// runPattern resolves a pattern with its parameters and sends its request;
// a mistake is shown in place and nothing is sent.
func (m Model) runPattern(p patterns.Pattern, params map[string]string) (Model, tea.Cmd) {
	r, err := request.ForPattern(p, m.table, params)
	if err != nil {
		if o, ok := findOverlay[overlay.Patterns](m); ok {
			m = replaceOverlay(m, o.Failed(sanitize(err.Error())))
		}
		return m, nil
	}
	m = m.remove(overlay.PatternsID)
	if r.Get != nil {
		return m.runGet(*r.Get, p.Name)
	}
	return m.runPatternQuery(*r.Query, p.Name)
}

// moveTo shows partition pk of index afresh unless it is the one open: a
// pattern may read another partition, or the same one through an index.
func (m Model) moveTo(index, pk string) (Model, tea.Cmd) {
	if m.screen == screenPartition && index == m.index && pk == m.query.PK {
		return m, nil
	}
	m.index = index
	ks, _ := m.table.Schema(index)
	m.setSchema(ks)
	return m.enterPartition(pk)
}

func (m Model) runPatternQuery(q dynamo.QueryInput, name string) (Model, tea.Cmd) {
	m, save := m.moveTo(q.Index, q.PK)
	m, cmd := m.startQuery(q, false)
	m.flight.pattern = name
	return m, tea.Batch(cmd, save)
}

// runGet sends a GetItem; the query line shows it, and q its key as the
// Query to start from when the user changes it.
func (m Model) runGet(g dynamo.GetInput, name string) (Model, tea.Cmd) {
	m, save := m.moveTo("", g.PK)
	m.cancelInflight()
	id, ctx := m.flight.start(m.ctx, flightQuery)
	m.flight.get, m.flight.pattern = true, name
	m.query, m.get = getAsQuery(m.table, g), &g
	m.status.Err, m.status.Info = "", ""
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
		m.log = m.log.Add(msg.page.Request, "", 1, m.getInput(msg.g))
	}
	if !m.flight.waits(flightQuery, msg.id) {
		return m, nil
	}
	name := m.flight.pattern
	m.cancelInflight()
	m.status.Throttle = pane.Throttled(msg.err)
	if msg.err != nil {
		m.status.Err = sanitize(msg.err.Error())
		if m.results.pages() > 0 {
			m.query, m.get = m.results.q, m.results.get
		}
		return m, nil
	}
	g := msg.g
	q := getAsQuery(m.table, g)
	m.results = result{q: q, get: &g}
	m.noteColours(msg.page.Items)
	m.items = m.items.SetItems(msg.page.Items, m.layout().itemsW-2)
	m.groups.active = m.groups.rowFor(q.SK)
	m.status.Info = patternDone(name, msg.page)
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
	return fmt.Sprintf("pattern %q: %s in 1 request, %s RCU%s", sanitize(name),
		plural(len(p.Items), "item", "items"), fmtRCU(p.Request.Capacity.Total), more)
}

// patternProjection compares the pattern of that name with its index on
// the table open, from the DescribeTable the UI holds; nil when its index
// projects ALL or it reads the base table.
func (m Model) patternProjection(name string) *patterns.Projection {
	if m.patterns == nil {
		return nil
	}
	p, err := m.patterns.Find(name)
	if err != nil {
		return nil
	}
	if pc, ok := p.CheckProjection(m.table); ok {
		return &pc
	}
	return nil
}

// projectionLines are the note of the pattern whose results are shown, in
// patterns check's words, wrapped to w: what its index does not project of
// what it needs. None while a field of the query line is edited.
func (m Model) projectionLines(w int) []string {
	pc := m.results.proj
	if pc == nil || m.qline.Edit != pane.EditNone || m.results.pages() == 0 {
		return nil
	}
	out := overlay.ProjectionNote(m.st, *pc, m.results.kept(), w-2)
	for i := range out {
		out[i] = " " + out[i]
	}
	return out
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

func (m Model) patternSaved(msg patternSavedMsg) Model {
	if msg.err != nil {
		if o, ok := findOverlay[overlay.Save](m); ok {
			m = replaceOverlay(m, o.Failed(sanitize(msg.err.Error())))
		}
		return m
	}
	m.patterns = msg.set
	m = m.remove(overlay.SaveID)
	if n := len(msg.set.Patterns); n > 0 {
		m.patternCursor = n - 1
	}
	m.status.Err = ""
	m.status.Info = fmt.Sprintf("saved pattern %q to %s", sanitize(msg.name), sanitize(m.patternsPath))
	return m
}
