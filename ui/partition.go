package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/filterexpr"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/request"
)

// The partition screen's keys: the entity types and items panes, with the
// query line above them.

// bottomPages is how many pages one G follows to their end: 4 pages of up
// to 1 MB, at most 512 RCU eventually consistent, beyond the one it asks for
// by reaching the end, as scrolling there would read them; further pages
// load as usual when G is pressed again or the cursor scrolls on.
const bottomPages = 4

// partitionKey handles the entity types and items panes.
func (m Model) partitionKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd) {
	lay := m.layout()
	page := lay.itemRows
	if md == modeGroups {
		page = lay.groupRows()
	}
	move := func(delta int) (Model, tea.Cmd) {
		if md == modeGroups {
			m.groups = m.groups.move(delta, lay.groupRows())
			return m, nil
		}
		m.items = m.items.move(delta, lay.itemRows)
		return m.maybeLoadMore()
	}
	if d, ok := km.Step(msg, page); ok {
		if md == modeItems && m.results.failed && (key.Matches(msg, km.PageDown) || key.Matches(msg, km.Bottom)) {
			// A deliberate move towards the end tries the failed page
			// again, as n does; scrolling line by line does not.
			m.results.failed, m.results.asked = false, -1
		}
		if md == modeItems {
			// One G ends at the last item: the pages it brings in (or the
			// one already on its way) take the cursor to their end too, up
			// to bottomPages of them, so that G alone never reads a huge
			// partition to its end.
			m.results.toEnd = 0
			if key.Matches(msg, km.Bottom) && m.results.more && m.results.q.Limit == 0 {
				m.results.toEnd = bottomPages
			}
		}
		return move(d)
	}
	if st := m.keyState(); st.NoSortKey && key.Matches(msg, m.keymap.EditCondition, m.keymap.Reverse) {
		m.status.info = noSortKeyNote(sanitize(request.TableAndIndex(m.table.Name, m.index)))
		return m, nil
	}
	switch {
	case key.Matches(msg, km.NextPane, km.PrevPane):
		if m.focus == paneGroups {
			m.focus = paneItems
		} else {
			m.focus = paneGroups
		}
		return m.relayout(), nil
	case key.Matches(msg, km.GroupBy):
		return m.toggleGroupBy(), nil
	case key.Matches(msg, km.Open):
		if f, ok := m.groups.attrFilter(m.groups.cursor()); ok && md == modeGroups {
			// A value of the attribute has no key condition: its items are
			// the partition's filtered, which the user sends (or not).
			m.status.info = "a FilterExpression reads the whole partition and costs what it reads; enter sends it"
			return m.startEdit(editRequestFilter, f), nil
		}
		if md == modeGroups {
			q := m.query
			q.SK = m.groups.condition(m.groups.cursor())
			return m.runQuery(q)
		}
		return m.openDetail()
	case key.Matches(msg, km.EditCondition):
		return m.startEdit(editCondition, formatCondition(m.query.SK)), nil
	case key.Matches(msg, km.Limit):
		text := ""
		if m.query.Limit > 0 {
			text = fmt.Sprintf("%d", m.query.Limit)
		}
		return m.startEdit(editLimit, text), nil
	case key.Matches(msg, km.Filter):
		return m.startEdit(editFilter, m.items.filter), nil
	case key.Matches(msg, km.RequestFilter):
		return m.startEdit(editRequestFilter, m.query.Filter), nil
	case key.Matches(msg, km.Project):
		return m.startEdit(editProjection, m.projectionText()), nil
	case key.Matches(msg, km.PartiQL):
		return m.openPartiQL(), nil
	case key.Matches(msg, km.Reverse):
		q := m.query
		q.Reverse = !q.Reverse
		return m.runQuery(q)
	case key.Matches(msg, km.Consistent):
		q := m.query
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
		return m.openIndexes(), nil
	case key.Matches(msg, km.Partition):
		m.screen = screenPrompt
		m.prompt = newPrompt(m.schema, m.query.PK, m.history)
		return m, nil
	case key.Matches(msg, km.Log):
		return m.openLog(), nil
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
	case key.Matches(msg, km.Live):
		return m.openLive()
	case key.Matches(msg, km.EditItem):
		return m.editSelected(false)
	case key.Matches(msg, km.DuplicateItem):
		return m.editSelected(true)
	case key.Matches(msg, km.DeleteItem):
		return m.deleteSelected()
	case key.Matches(msg, km.NewItem):
		return m.newEntityItem()
	case key.Matches(msg, km.Undo):
		return m.undoLast()
	case key.Matches(msg, km.Cancel):
		if m.busy() {
			counting := m.count.id != 0
			m = m.stopCount("cancelled")
			if m.inflight != 0 && m.results.pages > 0 {
				m.query, m.get = m.results.q, m.results.get
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
		if len(m.crumbs) > 0 {
			return m.crumbBack()
		}
	case key.Matches(msg, km.Back):
		m.cancelAll()
		if m.opts.Table == "" {
			m = m.closeOverlays()
			m.screen = screenTables
			m.haveTable = false
			return m, nil
		}
		return m, tea.Quit
	}
	return m, nil
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
		[]keymap.Binding{keymap.InBar("help"), keymap.InBar("back")},
		lead,
		[]keymap.Binding{openKey, keymap.InBar("patterns")},
		bar,
		[]keymap.Binding{
			keymap.InBar("requestFilter", "filter request"), keymap.InBar("reverse").OnlyIf(hasSortKey), keymap.InBar("limit"), keymap.InBar("editCondition").OnlyIf(hasSortKey), keymap.InBar("code"), keymap.InBar("filter"), keymap.InBar("overview"), keymap.InBar("export"),
		},
		keymap.MoveKeys,
		[]keymap.Binding{
			keymap.Bind("nextPane"), keymap.Bind("prevPane"), keymap.Bind("consistent"), keymap.Bind("index"), keymap.Bind("partition"), keymap.Bind("log"),
			keymap.Bind("copyCommand"), keymap.Bind("savePattern"), keymap.Bind("partiQL"), keymap.Bind("project"), keymap.Bind("live"),
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
	modeGroups = partitionKeys("groups", "query this entity type", []keymap.Binding{groupByKey}, []keymap.Binding{keymap.InBar("count").OnlyIf(func(st keymap.State) bool { return !st.ByAttr })})
	modeItems  = partitionKeys("items", "open item", nil, nil, keymap.Bind("copyItem").OnlyIf(func(st keymap.State) bool { return st.HasItem }),
		keymap.InBar("editItem").OnlyIf(keymap.WritesOnItem), keymap.Bind("duplicateItem").OnlyIf(keymap.WritesOnItem), keymap.Bind("deleteItem").OnlyIf(keymap.WritesOnItem))
)

// projectionText is the projection to edit: the request's, or the columns
// the items pane shows, as a list to trim.
func (m Model) projectionText() string {
	if m.query.Project != "" {
		return m.query.Project
	}
	var names []string
	for _, c := range m.items.cols {
		names = append(names, filterexpr.Path{{Name: c.name}}.String())
	}
	return strings.Join(names, ", ")
}
