package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/filterexpr"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
	"dynascope/ui/request"
)

// The partition screen's keys: the entity types and items panes, with the
// query line above them.

// partitionKey handles the entity types and items panes: a move of the
// cursor first, then each family of keys in its own step; a key none of
// them takes does nothing.
func (m Model) partitionKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd) {
	if m, cmd, ok := m.moveKey(msg, km, md); ok {
		return m, cmd
	}
	if st := m.keyState(); st.NoSortKey && key.Matches(msg, m.keymap.EditCondition, m.keymap.Reverse) {
		m.status.Info = noSortKeyNote(sanitize(request.TableAndIndex(m.table.Name, m.index)))
		return m, nil
	}
	for _, step := range []func(Model, tea.KeyPressMsg, keymap.KeyMap, *keymap.Mode) (Model, tea.Cmd, bool){
		Model.requestKey, Model.readKey, Model.openKey, Model.markKey, Model.writeKey, Model.leaveKey,
	} {
		if m, cmd, ok := step(m, msg, km, md); ok {
			return m, cmd
		}
	}
	return m, nil
}

// moveKey moves the cursor of the pane in focus; in the items pane a move
// may ask for the next page (pagePolicy.moved, maybeLoadMore).
func (m Model) moveKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	lay := m.layout()
	page := lay.itemRows
	if md == modeGroups {
		page = lay.groupRows()
	}
	d, ok := km.Step(msg, page)
	switch {
	case !ok:
		return m, nil, false
	case md == modeGroups:
		m.groups = m.groups.move(d, lay.groupRows())
		return m, nil, true
	}
	m, cmd := m.moveItems(d, key.Matches(msg, km.PageDown), key.Matches(msg, km.Bottom))
	return m, cmd, true
}

// moveItems moves the items pane's cursor by d rows (by a page down or to
// the bottom, as said) and asks for the next page when the move calls for it.
func (m Model) moveItems(d int, pageDown, bottom bool) (Model, tea.Cmd) {
	m.results.paging = m.results.paging.moved(m.results, pageDown, bottom)
	m.items = m.items.Move(d, m.layout().itemRows)
	return m.maybeLoadMore()
}

// requestKey changes the request shown: its condition, Limit, filters,
// projection, order, consistency, index or partition, or the pane in
// focus.
func (m Model) requestKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	switch {
	case key.Matches(msg, km.NextPane, km.PrevPane):
		if m.focus == paneGroups {
			m.focus = paneItems
		} else {
			m.focus = paneGroups
		}
		return m.relayout(), nil, true
	case key.Matches(msg, km.GroupBy):
		return m.toggleGroupBy(), nil, true
	case key.Matches(msg, km.EditCondition):
		return m.startEdit(pane.EditCondition, pane.FormatCondition(m.query.SK)), nil, true
	case key.Matches(msg, km.Limit):
		text := ""
		if m.query.Limit > 0 {
			text = fmt.Sprintf("%d", m.query.Limit)
		}
		return m.startEdit(pane.EditLimit, text), nil, true
	case key.Matches(msg, km.Filter):
		return m.startEdit(pane.EditFilter, m.items.Filter), nil, true
	case key.Matches(msg, km.RequestFilter):
		return m.startEdit(pane.EditRequestFilter, m.query.Filter), nil, true
	case key.Matches(msg, km.Project):
		return m.startEdit(pane.EditProjection, m.projectionText()), nil, true
	case key.Matches(msg, km.Index):
		return m.openIndexes(), nil, true
	case key.Matches(msg, km.Partition):
		m.screen = screenPrompt
		m.prompt = m.newPrompt(m.query.PK).SelectInput()
		return m, nil, true
	}
	return m, nil, false
}

// readKey sends a read: the row in focus, the request reversed or read
// strongly consistent, an exact count, the next page.
func (m Model) readKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, km.Open):
		m, cmd = m.openRow(md)
	case key.Matches(msg, km.Reverse):
		q := m.query
		q.Reverse = !q.Reverse
		m, cmd = m.runQuery(q)
	case key.Matches(msg, km.Consistent):
		q := m.query
		q.Consistent = !q.Consistent
		if q.Consistent && m.isGSI() {
			m.status.Err = "global secondary indexes do not support strongly consistent reads; query the table or an LSI for that."
			return m, nil, true
		}
		m, cmd = m.runQuery(q)
	case key.Matches(msg, km.Count):
		m, cmd = m.askCount()
	case key.Matches(msg, km.NextPage):
		m, cmd = m.nextPageKey()
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// openRow is enter: in the types pane the type's query (or, grouped by an
// attribute, the filter for its value to send), in the items pane the item.
func (m Model) openRow(md *keymap.Mode) (Model, tea.Cmd) {
	if md != modeGroups {
		return m.openDetail()
	}
	if f, ok := m.groups.attrFilter(m.groups.cursor()); ok {
		// A value of the attribute has no key condition: its items are
		// the partition's filtered, which the user sends (or not).
		m.status.Info = "a FilterExpression reads the whole partition and costs what it reads; enter sends it"
		return m.startEdit(pane.EditRequestFilter, f), nil
	}
	q := m.query
	q.SK = m.groups.condition(m.groups.cursor())
	return m.runQuery(q)
}

// nextPageKey is n: the released page whose re-read failed first, else the
// next page, unless one is on its way.
func (m Model) nextPageKey() (Model, tea.Cmd) {
	if m.flight.busy(flightQuery) && m.flight.next {
		return m, nil // a page is already on its way
	}
	if pg, ok := m.items.FailedRefetch(); ok {
		return m.refetch(pg)
	}
	return m.loadNext()
}

// openKey opens what sits beside the panes: the log, the patterns, the
// code, the overview, an export, the live pane, PartiQL, or a copy.
func (m Model) openKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	switch {
	case key.Matches(msg, km.PartiQL):
		return m.openPartiQL(), nil, true
	case key.Matches(msg, km.Log):
		return m.openLog(), nil, true
	case key.Matches(msg, km.CopyItem):
		if it, ok := m.items.Selected(); ok {
			m, cmd := m.copyItem(it)
			return m, cmd, true
		}
		return m, nil, true
	case key.Matches(msg, km.CopyCommand):
		m, cmd := m.copyCommand()
		return m, cmd, true
	case key.Matches(msg, km.Patterns):
		return m.openPatterns(), nil, true
	case key.Matches(msg, km.SavePattern):
		return m.openSave(), nil, true
	case key.Matches(msg, km.Code):
		return m.codeCurrent(), nil, true
	case key.Matches(msg, km.Overview):
		return m.openOverview(), nil, true
	case key.Matches(msg, km.Export):
		return m.openExport(), nil, true
	case key.Matches(msg, km.Live):
		m, cmd := m.openLive()
		return m, cmd, true
	case key.Matches(msg, km.WhyEmpty):
		m, cmd := m.openExplain()
		return m, cmd, true
	}
	return m, nil, false
}

// writeKey is the editing keys (with --allow-writes).
func (m Model) writeKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, km.EditItem):
		m, cmd = m.editSelected(false)
	case key.Matches(msg, km.DuplicateItem):
		m, cmd = m.editSelected(true)
	case key.Matches(msg, km.DeleteItem):
		m, cmd = m.deleteSelected()
	case key.Matches(msg, km.NewItem):
		m, cmd = m.newEntityItem()
	case key.Matches(msg, km.Undo):
		m, cmd = m.undoLast()
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// leaveKey is esc, which stops what is in flight, else clears the filter,
// else goes back along the breadcrumb; and q, which leaves the partition.
func (m Model) leaveKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	switch {
	case key.Matches(msg, km.Cancel):
		if m.busy() {
			return m.cancelKey(), nil, true
		}
		if m.items.Filter != "" {
			m.items = m.items.SetFilter("")
			m, cmd := m.maybeLoadMore()
			return m, cmd, true
		}
		if len(m.crumbs) > 0 {
			m, cmd := m.crumbBack()
			return m, cmd, true
		}
		return m, nil, true
	case key.Matches(msg, km.Back):
		m.cancelAll()
		if m.opts.Table == "" {
			m = m.closeOverlays()
			m.screen = screenTables
			m.haveTable = false
			return m, nil, true
		}
		return m, tea.Quit, true
	}
	return m, nil, false
}

// cancelKey is esc while requests are in flight: all stop, and what was
// loaded stays.
func (m Model) cancelKey() Model {
	if m.markRest.on {
		m.markRest = markRead{}
		m.status.Info = "stopped reading the rest; what was read is marked"
	}
	counting := m.flight.busy(flightCount)
	m = m.stopCount("cancelled")
	if m.flight.busy(flightQuery) && m.results.pages() > 0 {
		m.query, m.get = m.results.q, m.results.get
	}
	if m.flight.busy(flightDiscover) {
		m.groups.finding, m.groups.scanErr = false, true
	}
	m.cancelAll()
	if !counting {
		m.status.Info = "cancelled; what was loaded stays"
	}
	return m
}

// hasSortKey holds where the sort-key keys (e, r) mean something.
func hasSortKey(st keymap.State) bool { return !st.NoSortKey }

// noSortKeyNote is the status line's sentence for a sort-key key (e: the
// condition, r: the order) pressed on a key without a sort key, where
// neither exists; short, so that it fits beside the running cost.
func noSortKeyNote(name string) string {
	return name + " has no sort key: e and r are off."
}

// groupByKey toggles the entity types pane between the sort key's types and
// the loaded items' entity attribute, where they carry one.
var groupByKey = keymap.InBar("groupBy").OnlyIf(func(st keymap.State) bool { return st.EntAttr != "" }).WordedBy(func(st keymap.State) string {
	if st.ByAttr {
		return "group by sort key"
	}
	return "group by " + sanitize(st.EntAttr)
})

// partitionKeys are the keys of the two panes; open is what enter does in
// the one focused, lead what only that pane's status bar shows first after
// help and quit (the bar fits by priority, and beside the running cost a
// 120-column bar has about 70 cells: b, which nothing else offers, goes
// before enter, which every pane has), bar what only it shows after a,
// extra what only its help shows.
func partitionKeys(name, open string, lead, bar []keymap.Binding, extra ...keymap.Binding) *keymap.Mode {
	openKey := keymap.InBar("open", open)
	if name == "groups" {
		openKey = openKey.WordedBy(func(st keymap.State) string {
			if st.ByAttr {
				return "filter the request by this value"
			}
			return ""
		})
	}
	return &keymap.Mode{Name: name, Note: overlay.LiveHelpNote, Keys: keymap.KeysOf(
		[]keymap.Binding{keymap.InBar("help"), keymap.InBar("back"), whyEmptyKey},
		lead,
		[]keymap.Binding{openKey, keymap.InBar("patterns")},
		bar,
		[]keymap.Binding{
			keymap.InBar("requestFilter", "filter request"), keymap.InBar("reverse").OnlyIf(hasSortKey), keymap.InBar("limit"), keymap.InBar("editCondition").OnlyIf(hasSortKey), keymap.InBar("code"), keymap.InBar("filter"), keymap.InBar("overview"), keymap.InBar("export"),
		},
		keymap.MoveKeys,
		[]keymap.Binding{
			keymap.Bind("nextPane"), keymap.Bind("prevPane"), keymap.Bind("consistent"), keymap.Bind("index"), keymap.Bind("partition"), keymap.Bind("log"),
			keymap.Bind("copyCommand"), keymap.Bind("savePattern"), keymap.Bind("partiQL"), keymap.Bind("project"), keymap.Bind("live"), keymap.Bind("connections"),
			keymap.Bind("nextPage").OnlyIf(func(st keymap.State) bool { return st.More }),
			keymap.InBar("newItem").OnlyIf(keymap.WritesOn), keymap.InBar("undo").OnlyIf(keymap.WritesOn),
			keymap.Bind("cancel").WordedBy(func(st keymap.State) string {
				if st.Busy {
					return "cancel request"
				}
				return "clear filter"
			}),
		},
		extra,
	)}
}

var (
	modeGroups = partitionKeys("groups", "query this entity type", []keymap.Binding{groupByKey}, []keymap.Binding{keymap.InBar("count").OnlyIf(func(st keymap.State) bool { return !st.ByAttr })},
		keymap.Bind("mark", "mark the loaded items of this type").OnlyIf(func(st keymap.State) bool { return !st.ByAttr }), keymap.Bind("markAll"), keymap.Bind("clearMarks").OnlyIf(hasMarks), keymap.Bind("bulkChange"))
	modeItems = partitionKeys("items", "open item", nil, nil, keymap.Bind("copyItem").OnlyIf(func(st keymap.State) bool { return st.HasItem }),
		keymap.InBar("editItem").OnlyIf(keymap.WritesOnItem), keymap.Bind("duplicateItem").OnlyIf(keymap.WritesOnItem), keymap.Bind("deleteItem").OnlyIf(keymap.WritesOnItem),
		keymap.InBar("mark", "mark").OnlyIf(func(st keymap.State) bool { return st.HasItem }), keymap.Bind("markRange"), keymap.Bind("markAll"), keymap.Bind("clearMarks").OnlyIf(hasMarks), keymap.Bind("bulkChange"))
)

// projectionText is the projection to edit: the request's, or the columns
// the items pane shows, as a list to trim.
func (m Model) projectionText() string {
	if m.query.Project != "" {
		return m.query.Project
	}
	var names []string
	for _, c := range m.items.Cols {
		names = append(names, filterexpr.Path{{Name: c.Name}}.String())
	}
	return strings.Join(names, ", ")
}
