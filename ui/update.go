package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/keys"
)

// Update routes a message: results of requests to the state they change,
// keys to the mode that has the keyboard.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
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

	case tablesListedMsg:
		if msg.err != nil {
			m.picker.listErr = Sanitize(msg.err.Error())
			m.picker.listed = true
			return m, nil
		}
		m.picker = m.picker.setNames(msg.names)
		return m, describeTablesCmd(m.ctx, m.store, msg.names)
	case tablesDescribedMsg:
		m.picker = m.picker.described(msg)
		return m, nil
	case tableOpenedMsg:
		return m.tableOpened(msg)
	case tableStatsMsg:
		// Counts and sizes only; a failure here costs nothing the user
		// asked for, so it is not shown.
		if msg.err == nil && m.haveTable && msg.table.Name == m.table.Name {
			m.table.ItemCount, m.table.SizeBytes = msg.table.ItemCount, msg.table.SizeBytes
			for i := range m.table.Indexes {
				if ix, ok := msg.table.IndexByName(m.table.Indexes[i].Name); ok {
					m.table.Indexes[i].ItemCount, m.table.Indexes[i].SizeBytes = ix.ItemCount, ix.SizeBytes
				}
			}
		}
		return m, nil
	case historyLoadedMsg:
		return m.historyLoadedMsg(msg)
	case historySavedMsg:
		if msg.err != nil {
			m.status.err = Sanitize(msg.err.Error())
		}
		return m, nil
	case queryDoneMsg:
		return m.queryDone(msg)
	case discoverRequestMsg:
		return m.discoverRequest(msg), nil
	case discoverDoneMsg:
		return m.discoverDone(msg)
	case countPageMsg:
		return m.countPage(msg)
	case getDoneMsg:
		return m.getDone(msg)
	case patternSavedMsg:
		return m.patternSaved(msg), nil
	case retryingMsg:
		return m.retrying(msg), nil
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
	case filterScanMsg:
		m.items = m.items.scanStep(msg.gen)
		return m.itemsFollowUp()
	case spinnerDueMsg:
		if msg.id != 0 && !m.status.spinning && (msg.id == m.inflight || msg.id == m.disc.id || msg.id == m.count.id || msg.id == m.sample.id) {
			m.status.spinning = true
			return m, m.status.spinner.Tick
		}
		return m, nil
	case spinner.TickMsg:
		if !m.status.spinning {
			return m, nil // let the tick chain end
		}
		var cmd tea.Cmd
		m.status.spinner, cmd = m.status.spinner.Update(msg)
		return m, cmd
	}
	return m, nil
}

// relayout refits what depends on the size or the styles.
func (m Model) relayout() Model {
	lay := m.layout()
	m.items = m.items.relayout(lay.itemsW - 2)
	if m.overlay == overlayDetail {
		m.detail = m.detail.render(m.st, lay.w-2)
	}
	m.help.SetWidth(m.w - 4)
	return m
}

func (m Model) tableOpened(msg tableOpenedMsg) (Model, tea.Cmd) {
	if msg.id != m.tableReq {
		return m, nil
	}
	m.status.clearRetry(msg.id)
	if msg.err != nil {
		m.status.err = Sanitize(msg.err.Error())
		if m.opts.Table == "" {
			m.screen = screenTables
		}
		return m, nil
	}
	m.table, m.haveTable = msg.table, true
	stats := tableStatsCmd(m.ctx, m.store, msg.table.Name)
	ks, err := m.table.Schema(m.index)
	if err != nil {
		m.status.err = Sanitize(err.Error())
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
		m.status.err = Sanitize(msg.err.Error())
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
	m.seq++
	m.tableReq = m.seq
	m.screen = screenLoading
	m.index = ""
	m.historyTable, m.historyLoaded, m.history, m.historyPending = name, false, nil, nil
	m.status.err = ""
	m.q, m.res, m.items, m.groups = dynamo.QueryInput{}, result{}, itemsPane{}, groupsPane{active: -1, partExact: -1}
	return m, tea.Batch(openTableCmd(m.observe(m.ctx, m.tableReq), m.store, m.tableReq, name), loadHistoryCmd(m.cfgDir, name))
}

// openPartition checks a partition key value against the key's type and, if
// it fits, sends the first page of the whole partition. A value that does
// not fit is refused with a sentence before any request. The skip-scan that
// finds every entity type starts only if that page is not the whole
// partition (see queryDone): a small partition tells its types and exact
// counts in one request.
func (m Model) openPartition(pk string) (Model, tea.Cmd) {
	q := dynamo.QueryInput{Table: m.table.Name, Index: m.index, PK: pk, Limit: int32(m.opts.Settings.DefaultLimit)}
	if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
		m.screen = screenPrompt
		m.prompt = newPrompt(m.schema, pk, m.history)
		m.prompt.err = Sanitize(err.Error())
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
	m.screen, m.overlay, m.focus = screenPartition, overlayNone, paneGroups
	m.qline = queryLine{}
	m.res = result{}
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

// startQuery sends a query, cancelling the one in flight. next asks for a
// further page of the results shown rather than new results.
func (m Model) startQuery(q dynamo.QueryInput, next bool) (Model, tea.Cmd) {
	m.cancelInflight()
	m.seq++
	id := m.seq
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel, m.inflight, m.inflightNext = cancel, id, next
	if !next {
		m.q = q
	}
	if !next {
		m.get = nil
	}
	m.status.err, m.status.info = "", ""
	return m, tea.Batch(queryCmd(m.observe(ctx, id), m.store, id, q, next, m.res.pages+1), m.after(id))
}

// cancelInflight cancels the query in flight, if any; its reply will be
// logged but not shown.
func (m *Model) cancelInflight() {
	if m.cancel != nil {
		m.cancel()
	}
	m.status.clearRetry(m.inflight)
	m.cancel, m.inflight, m.inflightNext, m.inflightGet, m.inflightPattern = nil, 0, false, false, ""
	m.items.refetching = 0
	m.settle()
}

// cancelAll cancels the query, the skip-scan and the count in flight.
func (m *Model) cancelAll() {
	m.cancelInflight()
	m.disc = m.disc.stop()
	m.count = m.count.stop()
	if m.sample.id != 0 {
		m.ov.phase, m.ov.stopping = ovSetup, false
	}
	m.sample = m.sample.stop()
	m.settle()
}

// busy tells whether any request is in flight.
func (m Model) busy() bool {
	return m.inflight != 0 || m.disc.id != 0 || m.count.id != 0 || m.sample.id != 0
}

// settle stops the spinner once nothing is in flight.
func (m *Model) settle() {
	if !m.busy() {
		m.status.spinning = false
		m.status.retry, m.status.retryID = "", 0
	}
}

// busyText says what is in flight: the query, the skip-scan, a count, a
// sample, an export that reads released pages again.
func (m Model) busyText() string {
	var parts []string
	if m.inflight != 0 {
		if m.inflightGet {
			parts = append(parts, "GetItem")
		} else if m.items.refetching != 0 {
			parts = append(parts, fmt.Sprintf("re-fetch page %d", m.items.refetching))
		} else if m.inflightNext {
			parts = append(parts, fmt.Sprintf("Query, page %d", m.res.pages+1))
		} else {
			parts = append(parts, "Query")
		}
	}
	if m.disc.id != 0 {
		parts = append(parts, "skip-scan")
	}
	if m.count.id != 0 {
		parts = append(parts, m.count.progress())
	}
	if m.sample.id != 0 {
		parts = append(parts, "sampling")
	}
	if m.exp.running && m.exp.src.released > 0 {
		parts = append(parts, "export, reading released pages again")
	}
	return strings.Join(parts, " · ")
}

func (m Model) queryDone(msg queryDoneMsg) (Model, tea.Cmd) {
	if msg.page.Request.Operation != "" {
		page := 1
		if msg.next {
			page = msg.pageNo
		}
		kind := ""
		if msg.refetch {
			kind, page = fmt.Sprintf("re-fetch page %d", msg.pageNo), 1 // the page in the kind, once
		}
		m.log = m.log.add(msg.page.Request, kind, page, m.queryInput(msg.q))
	}
	if msg.id != m.inflight {
		return m, nil // cancelled or superseded: logged, not shown
	}
	pattern := m.inflightPattern
	m.cancelInflight() // releases the context; the request is done
	m.status.clearRetry(msg.id)
	m.status.throttle = throttled(msg.err)
	if msg.refetch {
		return m.refetchDone(msg)
	}
	if msg.err != nil {
		m.status.err = Sanitize(msg.err.Error())
		if msg.next {
			m.res.failed = true
			m.status.err += " — n, pgdn or G tries the next page again"
		} else if m.res.pages > 0 {
			m.q, m.get = m.res.q, m.res.get // the query line keeps describing what is shown
		}
		return m, nil
	}
	p := msg.page
	lay := m.layout()
	more := p.LastEvaluatedKey != nil
	var disc tea.Cmd
	if !msg.next {
		q := msg.q
		q.StartKey = nil
		m.res = result{q: q, lastKey: p.LastEvaluatedKey, more: more, pages: 1, base: q.SK.Op == dynamo.SKNone}
		if m.res.base {
			if m.delim == "" && m.schema.SK != nil {
				sks := make([]string, len(p.Items))
				for i, it := range p.Items {
					sks[i] = keyOf(it, m.schema.SK.Name)
				}
				m.delim = keys.InferDelimiter(sks)
			}
			m.groups = m.groups.reset(p.Items, m.items.keyName, m.delim, more, q.Reverse)
			// A first page that is the whole partition lists every type
			// with its exact count; only a bigger partition needs the
			// skip-scan to find the types beyond it.
			if more && !m.groups.found && !m.groups.finding && !m.groups.scanErr {
				m, disc = m.startDiscover(q, m.scanBudget(q, p))
			}
		}
		m.noteColours(p.Items)
		m.items = m.items.setItems(p.Items, lay.itemsW-2)
	} else {
		m.res.lastKey, m.res.more, m.res.failed = p.LastEvaluatedKey, more, false
		m.res.pages++
		if m.res.base {
			m.groups = m.groups.add(p.Items, m.items.keyName, m.delim, more)
		}
		m.noteColours(p.Items)
		m.items = m.items.appendPage(p.Items, msg.q.StartKey, msg.pageNo, m.maxLoaded(), lay.itemsW-2, lay.itemRows)
	}
	m.groups.active = m.groups.rowFor(m.res.q.SK)
	if pattern != "" {
		m.status.info = patternDone(pattern, p)
	}
	m, load := m.maybeLoadMore()
	return m, tea.Batch(disc, load)
}

// skType is the sort key's type, "" when the key has none.
func (m Model) skType() string {
	if m.schema.SK == nil {
		return ""
	}
	return m.schema.SK.Type
}

// maybeLoadMore asks for the next page when the cursor is within one screen
// of the end of what is loaded: one request at a time, never twice for the
// same LastEvaluatedKey, and not when the user set a Limit (then n pages).
// Without a Limit, pages are DynamoDB's own: up to 1 MB each.
func (m Model) maybeLoadMore() (Model, tea.Cmd) {
	if m, cmd := m.itemsFollowUp(); cmd != nil {
		return m, cmd // the filter's scan, or a released page read again
	}
	if m.screen != screenPartition || m.inflight != 0 || !m.res.more || m.res.failed ||
		m.res.q.Limit > 0 || m.items.filter != "" || m.res.asked == m.res.pages {
		return m, nil
	}
	if m.items.rows()-1-m.items.cursor > m.layout().itemRows {
		return m, nil
	}
	return m.loadNext()
}

func (m Model) loadNext() (Model, tea.Cmd) {
	if !m.res.more {
		return m, nil
	}
	m.res.asked = m.res.pages
	q := m.res.q
	q.StartKey = m.res.lastKey
	return m.startQuery(q, true)
}

// runQuery runs a changed version of the current request, if it is valid.
func (m Model) runQuery(q dynamo.QueryInput) (Model, tea.Cmd) {
	if q.PK == "" {
		return m, nil
	}
	q.StartKey = nil
	if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
		m.status.err = Sanitize(err.Error())
		return m, nil
	}
	return m.startQuery(q, false)
}

// isGSI tells whether the current index is global: those have no strongly
// consistent reads.
func (m Model) isGSI() bool {
	ix, ok := m.table.IndexByName(m.index)
	return ok && ix.Kind == dynamo.GSI
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.status.note = "" // the start-up notice stays until the first key
	md := m.mode()
	km := m.keys.forMode(md, m.keyState())
	if key.Matches(msg, km.Quit) {
		m.cancelAll()
		return m, tea.Quit
	}
	if key.Matches(msg, km.Help) {
		if m.overlay == overlayHelp {
			m.overlay = m.helpBack
		} else {
			m.helpMode, m.helpBack, m.overlay = md, m.overlay, overlayHelp
		}
		return m, nil
	}
	switch md {
	case modeHelp:
		if key.Matches(msg, km.Back, km.Cancel) {
			m.overlay = m.helpBack // back to the view help was asked in
		}
		return m, nil
	case modeLoading:
		if key.Matches(msg, km.Cancel) {
			return m, tea.Quit
		}
		return m, nil
	case modeTables:
		return m.tablesKey(msg, km)
	case modePrompt:
		return m.promptKey(msg, km)
	case modeCondition, modeLimit, modeFilter:
		return m.editKey(msg, km, md)
	case modeDetail:
		return m.detailKey(msg, km)
	case modeIndexes:
		return m.indexesKey(msg, km)
	case modeLog:
		return m.logKey(msg, km)
	case modeConfirm:
		return m.confirmKey(msg, km)
	case modePatterns:
		return m.patternsKey(msg, km)
	case modeParams:
		return m.paramsKey(msg, km)
	case modeSave:
		return m.saveKey(msg, km)
	case modeCode:
		return m.codeKey(msg, km)
	case modeCaps, modeSampling, modeOverview:
		return m.overviewKey(msg, km, md)
	case modeExport, modeExporting:
		return m.exportKey(msg, km, md)
	}
	return m.partitionKey(msg, km, md)
}

// handleText sends pasted text to the field that has the keyboard.
func (m Model) handleText(msg tea.PasteMsg) (tea.Model, tea.Cmd) {
	switch m.mode() {
	case modeTables:
		return m.tablesText(msg)
	case modePrompt:
		return m.promptText(msg)
	case modeCondition, modeLimit, modeFilter:
		return m.editText(msg)
	case modeParams:
		return m.paramsText(msg)
	case modeSave:
		return m.saveText(msg)
	case modeCaps:
		return m.overviewText(msg)
	case modeExport:
		return m.exportText(msg)
	}
	return m, nil
}
