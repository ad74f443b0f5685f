package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
)

// route routes a message: the terminal's and the keyboard's here, the
// replies to requests through the steps below, one family each, to the
// state they change. A step passes what is not its own to the next; a
// message none takes changes nothing.
func (m Model) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m.relayout(), nil
	case tea.BackgroundColorMsg:
		if m.fixedTheme {
			return m, nil // the settings chose the theme
		}
		m.dark = msg.IsDark()
		m.setStyles(newStyles(m.dark, m.noColor))
		return m.relayout(), nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.handleText(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg)
	}
	return m.routeTable(msg)
}

// routeTable takes the replies about the tables, the table open and its
// partition history.
func (m Model) routeTable(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tablesListedMsg:
		return m.tablesListed(msg)
	case tablesDescribedMsg:
		if msg.gen == m.gen {
			m.picker = m.picker.described(msg)
		}
		return m, nil
	case tableOpenedMsg:
		return m.tableOpened(msg)
	case tableStatsMsg:
		return m.tableStats(msg), nil
	case historyLoadedMsg:
		return m.historyLoadedMsg(msg)
	case historySavedMsg:
		if msg.err != nil {
			m.status.err = sanitize(msg.err.Error())
		}
		return m, nil
	}
	return m.routePartition(msg)
}

// routePartition takes the replies of the partition's requests: its
// pages, its skip-scan, a count, a pattern's GetItem, the local filter's
// steps, retries, and the spinner that says they are in flight.
func (m Model) routePartition(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case queryDoneMsg:
		return m.queryDone(msg)
	case discoverRequestMsg:
		return m.discoverRequest(msg), nil
	case discoverGroupMsg:
		return m.discoverGroup(msg), nil
	case discoverDoneMsg:
		return m.discoverDone(msg)
	case countPageMsg:
		return m.countPage(msg)
	case getDoneMsg:
		return m.getDone(msg)
	case filterScanMsg:
		m.items = m.items.scanStep(msg.gen)
		return m.itemsFollowUp()
	case retryingMsg:
		return m.retrying(msg), nil
	case spinnerDueMsg:
		return m.spinnerDue(msg)
	case spinner.TickMsg:
		if !m.status.spinning {
			return m, nil // let the tick chain end
		}
		var cmd tea.Cmd
		m.status.spinner, cmd = m.status.spinner.Update(msg)
		return m, cmd
	}
	return m.routeJobs(msg)
}

// routeJobs takes the replies of the jobs the overlays asked for (the
// follow-the-keys confirmations, the index map, saving a pattern, a bulk
// read, the overview's sample, an export, a write) and of the live tail:
// each logs its requests and changes its overlay.
func (m Model) routeJobs(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case linksDoneMsg:
		return m.linksDone(msg)
	case indexMapDoneMsg:
		return m.indexMapDone(msg)
	case patternSavedMsg:
		return m.patternSaved(msg), nil
	case bulkPlannedMsg:
		return m.bulkPlanned(msg), nil
	case bulkDoneMsg:
		return m.bulkDone(msg), nil
	case bulkPageMsg:
		return m.bulkPage(msg), nil
	case sampleProgressMsg:
		return m.sampleProgress(msg), nil
	case sampleDoneMsg:
		return m.sampleDone(msg)
	case exportProgressMsg:
		return m.exportProgress(msg), nil
	case exportDoneMsg:
		return m.exportDone(msg), nil
	case exportRereadMsg:
		m.log = m.log.add(msg.req, fmt.Sprintf("export: page %d again", msg.pageNo), 1, m.queryInput(msg.q))
		return m, nil
	case writeDoneMsg:
		return m.writeDone(msg)
	case reapplyReadMsg:
		return m.reapplyRead(msg)
	case liveStartedMsg:
		return m.liveStarted(msg)
	case liveMarkDoneMsg:
		return m.liveMarkDone(msg), nil
	case liveEventMsg:
		return m.liveEvent(msg)
	case switchedMsg:
		return m.switched(msg)
	}
	return m, nil
}

// tablesListed lists the tables in the picker and describes each.
func (m Model) tablesListed(msg tablesListedMsg) (Model, tea.Cmd) {
	if msg.gen != m.gen {
		return m, nil // the connection switched from
	}
	if msg.err != nil {
		m.picker.listErr = sanitize(msg.err.Error())
		m.picker.listed = true
		return m, nil
	}
	m.picker = m.picker.setNames(msg.names)
	return m, describeTablesCmd(m.ctx, m.store, m.gen, msg.names)
}

// tableStats takes the table's counts and sizes. A failure here costs
// nothing the user asked for, so it is not shown.
func (m Model) tableStats(msg tableStatsMsg) Model {
	if msg.err == nil && m.haveTable && msg.table.Name == m.table.Name {
		m.table.ItemCount, m.table.SizeBytes = msg.table.ItemCount, msg.table.SizeBytes
		for i := range m.table.Indexes {
			if ix, ok := msg.table.IndexByName(m.table.Indexes[i].Name); ok {
				m.table.Indexes[i].ItemCount, m.table.Indexes[i].SizeBytes = ix.ItemCount, ix.SizeBytes
			}
		}
	}
	return m
}

// spinnerDue starts the spinner when the request it was due for is still
// in flight.
func (m Model) spinnerDue(msg spinnerDueMsg) (Model, tea.Cmd) {
	if !m.status.spinning && m.flight.live(msg.id, flightQuery, flightDiscover, flightCount, flightSample) {
		m.status.spinning = true
		return m, m.status.spinner.Tick
	}
	return m, nil
}

// relayout refits what depends on the size or the styles.
func (m Model) relayout() Model {
	lay := m.layout()
	m.items = m.items.relayout(lay.itemsW - 2)
	m.help.SetWidth(m.w - 4)
	return m.relayoutOverlays()
}

func (m Model) tableOpened(msg tableOpenedMsg) (Model, tea.Cmd) {
	if !m.flight.waits(flightTable, msg.id) {
		return m, nil
	}
	m.status.clearRetry(msg.id)
	if msg.err != nil {
		m.status.err = sanitize(msg.err.Error())
		if m.opts.Table == "" {
			m.screen = screenTables
		}
		return m, nil
	}
	m.table, m.haveTable = msg.table, true
	stats := tableStatsCmd(m.ctx, m.store, msg.table.Name)
	ks, err := m.table.Schema(m.index)
	if err != nil {
		m.status.err = sanitize(err.Error())
		m.index = ""
		ks, _ = m.table.Schema("")
	}
	m.setSchema(ks)
	if pk := m.pendingPK; pk != "" {
		m.pendingPK = ""
		m, cmd := m.openPartition(pk)
		return m, tea.Batch(cmd, stats)
	}
	m.screen = screenPrompt
	m.prompt = newPrompt(m.schema, "", m.history)
	return m, stats
}

func (m *Model) setSchema(ks dynamo.KeySchema) {
	m.schema = ks
	m.items = m.items.setSchema(ks)
}

func (m Model) historyLoadedMsg(msg historyLoadedMsg) (Model, tea.Cmd) {
	if msg.table != m.historyTable {
		return m, nil
	}
	if msg.err != nil {
		m.status.err = sanitize(msg.err.Error())
	}
	m.history, m.historyLoaded = msg.entries, true
	var cmd tea.Cmd
	if len(m.historyPending) > 0 {
		for _, e := range m.historyPending {
			m.history = remember(m.history, e)
		}
		m.historyPending = nil
		cmd = saveHistoryCmd(m.cfgDir, m.historyTable, m.history)
	}
	if m.screen == screenPrompt {
		m.prompt.history = m.history
		m.prompt = m.prompt.refilter()
	}
	return m, cmd
}

// openTable describes a table chosen in the picker and reads its history.
func (m Model) openTable(name string) (Model, tea.Cmd) {
	m.cancelAll()
	m.flight.mark(flightTable)
	m.screen = screenLoading
	m.index = ""
	m.historyTable, m.historyLoaded, m.history, m.historyPending = name, false, nil, nil
	m.status.err = ""
	m.query, m.results, m.items, m.groups = dynamo.QueryInput{}, result{}, itemsPane{}, groupsPane{active: -1, partExact: -1}
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
		m.prompt = newPrompt(m.schema, pk, m.history)
		m.prompt.err = sanitize(err.Error())
		return m, nil
	}
	m, save := m.enterPartition(pk)
	m.groups.opening = true
	m, cmd := m.startQuery(q, false)
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
	m.qline = queryLine{}
	m.results = result{}
	m.get = nil
	m.delim = ""
	m.groups = newGroupsPane(m.skType(), m.index == "")
	m.groups.names = m.opts.EntityNames
	m.items = itemsPane{}.setSchema(m.schema)
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

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	m.status.note = "" // the start-up notice stays until the first key
	md := m.mode()
	km := m.keymap.ForMode(md, m.keyState())
	if key.Matches(msg, km.Quit) {
		m.cancelAll()
		return m, tea.Quit
	}
	if key.Matches(msg, km.Help) {
		return m.toggleHelp(md), nil
	}
	if o := m.top(); o != nil {
		return m.updateTop(o, msg)
	}
	switch md {
	case modeLoading:
		if key.Matches(msg, km.Cancel) {
			return m, tea.Quit
		}
		return m, nil
	case modeTables, modePrompt:
		if key.Matches(msg, km.Connections) {
			return m.openConnections(), nil
		}
		if md == modePrompt {
			return m.promptKey(msg, km)
		}
		return m.tablesKey(msg, km)
	case modeCondition, modeLimit, modeFilter, modeRequestFilter, modeProjection:
		return m.editKey(msg, km, md)
	case modeConfirm:
		return m.confirmKey(msg, km)
	}
	if key.Matches(msg, km.Connections) { // on in the tables, prompt and partition modes
		return m.openConnections(), nil
	}
	return m.partitionKey(msg, km, md)
}

// handleText sends pasted text to the field that has the keyboard.
func (m Model) handleText(msg tea.PasteMsg) (Model, tea.Cmd) {
	if o := m.top(); o != nil {
		return m.updateTop(o, msg)
	}
	switch m.mode() {
	case modeTables:
		return m.tablesText(msg)
	case modePrompt:
		return m.promptText(msg)
	case modeCondition, modeLimit, modeFilter, modeRequestFilter, modeProjection:
		return m.editText(msg)
	}
	return m, nil
}

var modeLoading = &keymap.Mode{Name: "loading", Keys: []keymap.Binding{keymap.InBar("cancel", "quit")}}
