package ui

import (
	"dynascope/dynamo"
	"dynascope/ui/pane"

	tea "charm.land/bubbletea/v2"
)

// Opening a table and a partition: what the picker, the prompt, a link and
// a pattern all call, and the schema and layout they set; the router
// (update.go) and the handlers call these, and these call only the starters.

// relayout refits what depends on the size or the styles.
func (m Model) relayout() Model {
	lay := m.layout()
	m.items = m.items.Relayout(lay.itemsW - 2)
	m.help.SetWidth(m.w - 4)
	return m.relayoutOverlays()
}

func (m *Model) setSchema(ks dynamo.KeySchema) {
	m.schema = ks
	m.items = m.items.SetSchema(ks)
}

// openTable describes a table chosen in the picker and reads its history.
func (m Model) openTable(name string) (Model, tea.Cmd) {
	m.cancelAll()
	m.flight.mark(flightTable)
	m.screen = screenLoading
	m.picker = m.picker.Opened()
	m.index = ""
	m.historyTable, m.historyLoaded, m.history, m.historyPending = name, false, nil, nil
	m.status.Err = ""
	m.query, m.results, m.items, m.groups = dynamo.QueryInput{}, result{}, pane.Items{}, groupsPane{active: -1, partExact: -1}
	return m, tea.Batch(openTableCmd(m.observe(m.ctx, m.flight.id(flightTable)), m.store, m.flight.id(flightTable), name), loadHistoryCmd(m.cfgDir, name))
}

// openPartition checks a partition key value against the key's type and, if
// it fits, sends the first page of the whole partition. A value that does
// not fit is refused with a sentence before any request. The skip-scan that
// finds every entity type starts only if that page is not the whole
// partition (see queryDone): a small partition tells its types and exact
// counts in one request.
func (m Model) openPartition(pk string) (Model, tea.Cmd) {
	q := partitionQuery(m.table.Name, m.index, pk, m.opts.Settings)
	if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
		m.screen = screenPrompt
		m.prompt = m.newPrompt(pk)
		m.prompt.Err = sanitize(err.Error())
		return m, nil
	}
	m, save := m.enterPartition(pk)
	m.groups.opening = true
	m, cmd := m.startScreenQuery(q)
	return m, tea.Batch(cmd, save)
}

// enterPartition shows partition pk of the current table or index afresh,
// panes reset, and remembers it in the history. It sends no request.
func (m Model) enterPartition(pk string) (Model, tea.Cmd) {
	m.cancelAll()
	m = m.keepCursors().closeOverlays()
	m.openAt = partitionPlace{m.index, pk}
	m.screen, m.focus = screenPartition, paneGroups
	m.crumbs = nil // a partition opened afresh; a jump puts its own back
	m.qline = pane.QueryLine{}
	m.results = result{}
	m.get = nil
	m.delim = ""
	m.groups = newGroupsPane(m.skType(), m.index == "")
	if m.schema.SK == nil {
		m.groups = newWholeItemPane(m.schema.PK.Type, m.index == "")
	}
	m.groups.tbl = m.groups.tbl.WithDeclared(m.declared())
	m.groups.names = m.opts.EntityNames
	m.items = pane.Items{}.SetSchema(m.schema).KeepMarks(m.items) // marks are the table's
	m = m.relayout()
	e := historyEntry{Index: m.index, PK: pk}
	if !m.historyLoaded {
		m.historyPending = append(m.historyPending, e)
		return m, nil
	}
	m.history = remember(m.history, e)
	return m, saveHistoryCmd(m.cfgDir, m.historyTable, m.history)
}

// skType is the sort key's type, "" when the key has none.
func (m Model) skType() string {
	if m.schema.SK == nil {
		return ""
	}
	return m.schema.SK.Type
}

// isGSI tells whether the current index is global: those have no strongly
// consistent reads.
func (m Model) isGSI() bool {
	ix, ok := m.table.IndexByName(m.index)
	return ok && ix.Kind == dynamo.GSI
}
