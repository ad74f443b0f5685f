package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/pane"
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
			m.picker = m.picker.Described(msg.names, msg.tables, msg.errs)
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
			m.status.Err = sanitize(msg.err.Error())
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
	case pane.FilterScanMsg:
		m.items = m.items.ScanStep(msg.Gen)
		return m.itemsFollowUp()
	case retryingMsg:
		return m.retrying(msg), nil
	case spinnerDueMsg:
		return m.spinnerDue(msg)
	case spinner.TickMsg:
		if !m.status.Spinning {
			return m, nil // let the tick chain end
		}
		var cmd tea.Cmd
		m.status.Spinner, cmd = m.status.Spinner.Update(msg)
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
	case explainDoneMsg:
		return m.explainDone(msg)
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
		m.log = m.log.Add(msg.req, fmt.Sprintf("export: page %d again", msg.pageNo), 1, m.queryInput(msg.q))
		return m, nil
	case bulkWriteProgressMsg:
		return m.bulkWriteProgress(msg), nil
	case bulkWrittenMsg:
		return m.bulkWritten(msg)
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
		m.picker.ListErr = sanitize(msg.err.Error())
		m.picker.Listed = true
		return m, nil
	}
	m.picker = m.picker.SetNames(msg.names)
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
	if !m.status.Spinning && m.flight.live(msg.id, flightQuery, flightDiscover, flightCount, flightSample) {
		m.status.Spinning = true
		return m, m.status.Spinner.Tick
	}
	return m, nil
}

func (m Model) tableOpened(msg tableOpenedMsg) (Model, tea.Cmd) {
	if !m.flight.waits(flightTable, msg.id) {
		return m, nil
	}
	m.status.ClearRetry(msg.id)
	if msg.err != nil {
		if m.opts.Table != "" && dynamo.IsTableNotFound(msg.err) {
			return m.missingTable(msg.err)
		}
		m.status.Err = sanitize(msg.err.Error())
		if m.opts.Table == "" {
			m.screen = screenTables
		}
		return m, nil
	}
	m.table, m.haveTable = msg.table, true
	stats := tableStatsCmd(m.ctx, m.store, msg.table.Name)
	ks, err := m.table.Schema(m.index)
	if err != nil {
		m.status.Err = sanitize(err.Error())
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
	m.prompt = m.newPrompt("")
	return m, stats
}

// missingTable opens the picker when the table given does not exist: the
// sentence above the tables, the nearest name selected once they are
// listed. The program goes on as if started without --table (esc in the
// prompt comes back here), and quitting before a table opens ends with the
// sentence (quitError). It costs the picker's own requests: one
// ListTables and the descriptions, which read no items.
func (m Model) missingTable(err error) (Model, tea.Cmd) {
	m.picker = pane.NotFound(m.opts.Table, err.Error())
	// --pk stays pending for the table offered (tablesKey): it was meant
	// for the table the name was near.
	m.opts.Table, m.opts.PK = "", ""
	m.historyTable, m.historyLoaded, m.history, m.historyPending = "", false, nil, nil
	m.screen = screenTables
	return m, listTablesCmd(m.ctx, m.store, m.gen)
}

func (m Model) historyLoadedMsg(msg historyLoadedMsg) (Model, tea.Cmd) {
	if msg.table != m.historyTable {
		return m, nil
	}
	if msg.err != nil {
		m.status.Err = sanitize(msg.err.Error())
	}
	m.history, m.historyLoaded = msg.entries, true
	m.firstSteps = msg.err == nil && len(msg.entries) == 0 // before this start's own are added
	var cmd tea.Cmd
	if len(m.historyPending) > 0 {
		for _, e := range m.historyPending {
			m.history = remember(m.history, e)
		}
		m.historyPending = nil
		cmd = saveHistoryCmd(m.cfgDir, m.historyTable, m.history)
	}
	if m.screen == screenPrompt {
		m.prompt.History = m.history
		m.prompt = m.prompt.Refilter()
	}
	return m, cmd
}

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	m.status.Note = "" // the start-up notice stays until the first key
	md := m.mode()
	km := m.keymap.ForMode(md, m.keyState())
	if key.Matches(msg, km.Quit) {
		m.cancelAll()
		return m, tea.Quit
	}
	m = m.firstStepTaken(msg, km)
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
	case modeConfirm, modeMarkConfirm:
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
