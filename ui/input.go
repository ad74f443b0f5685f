package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
)

// The key handlers of each mode. Bindings are matched first; in modes with a
// text field, anything else is typing.

func (m Model) tablesKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	listH := pickerListHeight(m.layout().bodyH)
	switch {
	case key.Matches(msg, km.ListUp):
		m.picker = m.picker.move(-1, listH)
	case key.Matches(msg, km.ListDown):
		m.picker = m.picker.move(1, listH)
	case key.Matches(msg, km.PageUp):
		m.picker = m.picker.move(-listH, listH)
	case key.Matches(msg, km.PageDown):
		m.picker = m.picker.move(listH, listH)
	case key.Matches(msg, km.ListTop):
		m.picker = m.picker.move(-len(m.picker.rows), listH)
	case key.Matches(msg, km.ListBottom):
		m.picker = m.picker.move(len(m.picker.rows), listH)
	case key.Matches(msg, km.Open):
		if name, ok := m.picker.selected(); ok {
			return m.openTable(name)
		}
	case key.Matches(msg, km.Cancel):
		if m.picker.filter.String() == "" {
			return m, tea.Quit
		}
		m.picker.filter = lineEdit{}
		m.picker = m.picker.refilter()
	default:
		return m.tablesText(msg)
	}
	return m, nil
}

func (m Model) tablesText(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := m.picker.filter.update(msg); ok {
		m.picker.filter = f
		m.picker.cursor, m.picker.offset = 0, 0
		m.picker = m.picker.refilter()
	}
	return m, nil
}

func (m Model) promptKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.ListUp):
		m.prompt = m.prompt.browse(1)
	case key.Matches(msg, km.ListDown):
		m.prompt = m.prompt.browse(-1)
	case key.Matches(msg, km.Complete):
		m.prompt = m.prompt.complete()
	case key.Matches(msg, km.OverviewCtrl):
		return m.openOverview(), nil
	case key.Matches(msg, km.Open):
		return m.openPartition(m.prompt.input.String())
	case key.Matches(msg, km.Cancel):
		switch {
		case m.res.pages > 0 || m.q.PK != "":
			// Back to the partition that was open; the index it was read
			// through may have been switched here, so restore it.
			m.index = m.q.Index
			ks, _ := m.table.Schema(m.index)
			m.setSchema(ks)
			m.screen = screenPartition
		case m.opts.Table == "":
			m.screen = screenTables
		default:
			return m, tea.Quit
		}
	default:
		return m.promptText(msg)
	}
	return m, nil
}

func (m Model) promptText(msg tea.Msg) (tea.Model, tea.Cmd) {
	if in, ok := m.prompt.input.update(msg); ok {
		m.prompt.input = in
		m.prompt.err = ""
		m.prompt = m.prompt.refilter()
	}
	return m, nil
}

// editKey handles the query line's field: the sort-key condition, the Limit,
// or the local filter.
func (m Model) editKey(msg tea.KeyPressMsg, km KeyMap, md mode) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Cancel):
		if md == modeFilter {
			m.items = m.items.setFilter("")
		}
		m.qline = queryLine{}
		return m.maybeLoadMore()
	case key.Matches(msg, km.Open):
		text := m.qline.input.String()
		switch md {
		case modeCondition:
			c, isDate, err := m.groups.datePrefix(text)
			if !isDate {
				c, err = parseCondition(text)
			}
			if err != nil {
				m.qline.err = Sanitize(err.Error())
				return m, nil
			}
			q := m.q
			q.SK = c
			if _, err := dynamo.BuildQuery(m.schema, q); err != nil {
				m.qline.err = Sanitize(err.Error())
				return m, nil
			}
			m.qline = queryLine{}
			return m.runQuery(q)
		case modeLimit:
			n, err := parseLimit(text)
			if err != nil {
				m.qline.err = err.Error()
				return m, nil
			}
			m.qline = queryLine{}
			q := m.q
			q.Limit = n
			return m.runQuery(q)
		default:
			m.qline = queryLine{}
			m.focus = paneItems
			return m, nil
		}
	}
	return m.editText(msg)
}

func (m Model) editText(msg tea.Msg) (tea.Model, tea.Cmd) {
	in, ok := m.qline.input.update(msg)
	if !ok {
		return m, nil
	}
	m.qline.input, m.qline.err = in, ""
	if m.qline.edit == editFilter {
		m.items = m.items.setFilter(in.String())
		return m.itemsFollowUp()
	}
	return m, nil
}

func (m Model) startEdit(k editKind, text string) Model {
	m.qline = queryLine{edit: k, input: newLineEdit(text)}
	if t, ok := m.groups.timeGroup(); ok && k == editCondition {
		m.qline.dates = Sanitize(t.entity)
	}
	return m
}

// partitionKey handles the entity types and items panes.
func (m Model) partitionKey(msg tea.KeyPressMsg, km KeyMap, md mode) (tea.Model, tea.Cmd) {
	lay := m.layout()
	page := lay.itemRows
	if md == modeGroups {
		page = lay.groupRows()
	}
	move := func(delta int) (tea.Model, tea.Cmd) {
		if md == modeGroups {
			m.groups = m.groups.move(delta, lay.groupRows())
			return m, nil
		}
		m.items = m.items.move(delta, lay.itemRows)
		return m.maybeLoadMore()
	}
	if d, ok := scrollDelta(msg, km, page); ok {
		if md == modeItems && m.res.failed && (key.Matches(msg, km.PageDown) || key.Matches(msg, km.Bottom)) {
			// A deliberate move towards the end tries the failed page
			// again, as n does; scrolling line by line does not.
			m.res.failed, m.res.asked = false, -1
		}
		return move(d)
	}
	switch {
	case key.Matches(msg, km.NextPane, km.PrevPane):
		if m.focus == paneGroups {
			m.focus = paneItems
		} else {
			m.focus = paneGroups
		}
		return m.relayout(), nil
	case key.Matches(msg, km.Open):
		if md == modeGroups {
			q := m.q
			q.SK = m.groups.condition(m.groups.cursor)
			return m.runQuery(q)
		}
		return m.openDetail()
	case key.Matches(msg, km.EditCondition):
		return m.startEdit(editCondition, formatCondition(m.q.SK)), nil
	case key.Matches(msg, km.Limit):
		text := ""
		if m.q.Limit > 0 {
			text = fmt.Sprintf("%d", m.q.Limit)
		}
		return m.startEdit(editLimit, text), nil
	case key.Matches(msg, km.Filter):
		return m.startEdit(editFilter, m.items.filter), nil
	case key.Matches(msg, km.Reverse):
		q := m.q
		q.Reverse = !q.Reverse
		return m.runQuery(q)
	case key.Matches(msg, km.Consistent):
		q := m.q
		q.Consistent = !q.Consistent
		if q.Consistent && m.isGSI() {
			m.status.err = "global secondary indexes do not support strongly consistent reads; query the table or an LSI for that."
			return m, nil
		}
		return m.runQuery(q)
	case key.Matches(msg, km.Count):
		return m.askCount()
	case key.Matches(msg, km.NextPage):
		if m.inflight != 0 && m.inflightNext {
			return m, nil // a page is already on its way
		}
		if pg, ok := m.items.failedRefetch(); ok {
			return m.refetch(pg) // the released page whose re-read failed, first
		}
		return m.loadNext()
	case key.Matches(msg, km.Index):
		m.idx = pickerAt(m.table, m.index)
		m.overlay = overlayIndexes
		return m, nil
	case key.Matches(msg, km.Partition):
		m.screen = screenPrompt
		m.prompt = newPrompt(m.schema, m.q.PK, m.history)
		return m, nil
	case key.Matches(msg, km.Log):
		m.overlay = overlayLog
		m.log = m.log.move(0, m.layout().bodyH-2)
		return m, nil
	case key.Matches(msg, km.CopyItem):
		if it, ok := m.items.selected(); ok {
			return m.copyItem(it)
		}
	case key.Matches(msg, km.CopyCommand):
		return m.copyCommand()
	case key.Matches(msg, km.Patterns):
		return m.openPatterns(), nil
	case key.Matches(msg, km.SavePattern):
		return m.openSave(), nil
	case key.Matches(msg, km.Code):
		return m.codeCurrent(), nil
	case key.Matches(msg, km.Overview):
		return m.openOverview(), nil
	case key.Matches(msg, km.Export):
		return m.openExport(), nil
	case key.Matches(msg, km.Cancel):
		if m.busy() {
			counting := m.count.id != 0
			m = m.stopCount("cancelled")
			if m.inflight != 0 && m.res.pages > 0 {
				m.q, m.get = m.res.q, m.res.get
			}
			if m.disc.id != 0 {
				m.groups.finding, m.groups.scanErr = false, true
			}
			m.cancelAll()
			if !counting {
				m.status.info = "cancelled; what was loaded stays"
			}
			return m, nil
		}
		if m.items.filter != "" {
			m.items = m.items.setFilter("")
			return m.maybeLoadMore()
		}
	case key.Matches(msg, km.Back):
		m.cancelAll()
		if m.opts.Table == "" {
			m.screen, m.overlay = screenTables, overlayNone
			m.haveTable = false
			return m, nil
		}
		return m, tea.Quit
	}
	return m, nil
}

func (m Model) openDetail() (tea.Model, tea.Cmd) {
	it, ok := m.items.selected()
	if !ok {
		return m, nil
	}
	sk := keyOf(it, m.items.keyName)
	m.detail = newDetail(it, m.table, m.schema, Sanitize(sk), m.colourOf(sk))
	m.overlay = overlayDetail
	m.detail = m.detail.render(m.st, m.layout().w-2)
	return m, nil
}

// scrollDelta maps the movement keys to a step for a cursor or a scroll
// offset: one line, one page, or to either end (the callee clamps). ok is
// false for any other key.
func scrollDelta(msg tea.KeyPressMsg, km KeyMap, page int) (delta int, ok bool) {
	switch {
	case key.Matches(msg, km.Up):
		return -1, true
	case key.Matches(msg, km.Down):
		return 1, true
	case key.Matches(msg, km.PageUp):
		return -page, true
	case key.Matches(msg, km.PageDown):
		return page, true
	case key.Matches(msg, km.Top):
		return -1 << 30, true
	case key.Matches(msg, km.Bottom):
		return 1 << 30, true
	}
	return 0, false
}

func (m Model) detailKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	lay := m.layout()
	h := max(1, lay.bodyH-m.detail.chrome(lay.w))
	if d, ok := scrollDelta(msg, km, h); ok {
		m.detail = m.detail.scroll(d, h)
		return m, nil
	}
	switch {
	case key.Matches(msg, km.View):
		m.detail.view = (m.detail.view + 1) % 3
		m.detail.offset = 0
		m.detail = m.detail.render(m.st, m.layout().w-2)
	case key.Matches(msg, km.CopyItem):
		return m.copyItem(m.detail.item)
	case key.Matches(msg, km.CopyCommand):
		return m.copyCommand()
	case key.Matches(msg, km.Back, km.Cancel):
		m.overlay = overlayNone
	}
	return m, nil
}

func (m Model) indexesKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Up):
		m.idx = m.idx.move(-1, m.table)
	case key.Matches(msg, km.Down):
		m.idx = m.idx.move(1, m.table)
	case key.Matches(msg, km.Top):
		m.idx = m.idx.move(-1<<30, m.table)
	case key.Matches(msg, km.Bottom):
		m.idx = m.idx.move(1<<30, m.table)
	case key.Matches(msg, km.Open):
		m.overlay = overlayNone
		name := m.idx.name(m.table)
		if name == m.index {
			return m, nil
		}
		ks, err := m.table.Schema(name)
		if err != nil {
			m.status.err = Sanitize(err.Error())
			return m, nil
		}
		// The index's partition key is another attribute: ask for its value.
		m.index = name
		m.setSchema(ks)
		m.screen = screenPrompt
		m.prompt = newPrompt(ks, "", m.history)
	case key.Matches(msg, km.Back, km.Cancel):
		m.overlay = overlayNone
	}
	return m, nil
}

func (m Model) logKey(msg tea.KeyPressMsg, km KeyMap) (tea.Model, tea.Cmd) {
	h := max(1, m.layout().bodyH-2)
	if d, ok := scrollDelta(msg, km, h); ok {
		m.log = m.log.move(d, h)
		return m, nil
	}
	switch {
	case key.Matches(msg, km.CopyCommand):
		return m.copyCommand()
	case key.Matches(msg, km.Code):
		return m.codeLogged(), nil
	case key.Matches(msg, km.Log, km.Back, km.Cancel):
		m.overlay = overlayNone
	}
	return m, nil
}

func (m Model) copyItem(it dynamo.Item) (tea.Model, tea.Cmd) {
	b := dynamo.PlainJSON(it)
	m.status.info = fmt.Sprintf("copied the item as JSON (%s) to the clipboard (OSC 52)", plural(len(b), "byte", "bytes"))
	return m, m.clip(string(b))
}

// copyCommand copies the current request as the aws CLI command that sends
// exactly it: one request, the same page.
func (m Model) copyCommand() (tea.Model, tea.Cmd) {
	if m.q.PK == "" {
		return m, nil
	}
	cmd, err := requestCode(dynamo.LangCLI, m.currentInput(), m.codeTarget())
	if err != nil {
		m.status.err = Sanitize(err.Error())
		return m, nil
	}
	op := "query"
	if m.get != nil {
		op = "get-item"
	}
	m.status.info = "copied the request as an aws dynamodb " + op + " command (OSC 52)"
	return m, m.clip(cmd)
}

// handleMouse: the wheel scrolls what is under the pointer, a left click
// focuses a pane and selects the row under the pointer.
func (m Model) handleMouse(msg tea.MouseMsg) (tea.Model, tea.Cmd) {
	mo := msg.Mouse()
	lay := m.layout()
	md := m.mode()
	switch msg.(type) {
	case tea.MouseWheelMsg:
		delta := 0
		switch mo.Button {
		case tea.MouseWheelUp:
			delta = -3
		case tea.MouseWheelDown:
			delta = 3
		default:
			return m, nil
		}
		switch md {
		case modeDetail:
			m.detail = m.detail.scroll(delta, max(1, lay.bodyH-m.detail.chrome(lay.w)))
		case modeLog:
			m.log = m.log.move(delta, max(1, lay.bodyH-2))
		case modeCode:
			h := max(1, lay.bodyH-m.code.chrome(lay.w))
			m.code = m.code.scroll(delta, h, len(m.code.lines(m.st, lay.w-2)))
		case modePatterns:
			if m.patterns != nil {
				m.pat.cursor = clamp(m.pat.cursor+delta/3, 0, len(m.patterns.Patterns)-1)
			}
		case modeTables:
			m.picker = m.picker.move(delta, pickerListHeight(lay.bodyH))
		case modeGroups, modeItems:
			if lay.showGroups && (!lay.showItems || mo.X < lay.itemsX) {
				m.groups = m.groups.move(delta, lay.groupRows())
				return m, nil
			}
			m.items = m.items.move(delta, lay.itemRows)
			return m.maybeLoadMore()
		}
		return m, nil
	case tea.MouseClickMsg:
		if mo.Button != tea.MouseLeft || mo.Y < lay.bodyY || mo.Y >= lay.bodyY+lay.bodyH {
			return m, nil
		}
		y := mo.Y - lay.bodyY
		switch md {
		case modeTables:
			row := m.picker.offset + y - 4 // frame, filter, blank line, header
			if row >= 0 && row < len(m.picker.view) {
				m.picker.cursor = row
			}
		case modeGroups, modeItems:
			if lay.showGroups && (!lay.showItems || mo.X < lay.itemsX) {
				m.focus = paneGroups
				rh := groupRowHeight(lay.compact)
				off := scrollOffset(m.groups.offset, m.groups.cursor, lay.groupRows(), m.groups.rows())
				if row := off + (y-1)/rh; y >= 1 && row < m.groups.rows() {
					m.groups.cursor = row
				}
				return m, nil
			}
			m.focus = paneItems
			off := scrollOffset(m.items.offset, m.items.cursor, lay.itemRows, m.items.rows())
			if row := off + y - 2; y >= 2 && row < m.items.rows() {
				m.items.cursor, m.items.offset = row, off
			}
			return m.maybeLoadMore()
		}
	}
	return m, nil
}
