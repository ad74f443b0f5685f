package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/ui/keymap"
	"dynascope/ui/pane"
)

// Marks choose items for a bulk change: space marks one, V a range, A
// every loaded result, space in the types pane a type's loaded items, U
// none. They are kept by the item's table key (pane.Items.ItemID), so
// they outlive pages, filters, other partitions of the table and live
// records; the status bar always counts them. Marking sends no request:
// what it cannot see (a released page, a page not read yet) it says.

// hasMarks turns a key on only while an item is marked.
func hasMarks(st keymap.State) bool { return st.Marks > 0 }

// markKey is the marking keys of the two panes.
func (m Model) markKey(msg tea.KeyPressMsg, km keymap.KeyMap, md *keymap.Mode) (Model, tea.Cmd, bool) {
	switch {
	case key.Matches(msg, km.Mark) && md == modeGroups:
		return m.markType(), nil, true
	case key.Matches(msg, km.Mark):
		var ok bool
		if m.items, ok = m.items.ToggleMark(); !ok {
			m.status.Info = "no item here to mark (its page is not in memory)"
			return m, nil, true
		}
		m.status.Info = ""
		// Then down a row, as a move: it may ask for the next page.
		m, cmd := m.moveItems(1, false, false)
		return m, cmd, true
	case key.Matches(msg, km.MarkRange):
		items, did, ok := m.items.MarkRange()
		if !ok {
			m.status.Info = "no start for a range here: space marks an item, then V marks from it to the cursor"
			return m, nil, true
		}
		m.items = items
		m.status.Info = markingText(did, "from the last marked item to here")
		return m, nil, true
	case key.Matches(msg, km.MarkAll):
		return m.markAll(), nil, true
	case key.Matches(msg, km.BulkChange):
		return m.openBulkEdit(), nil, true
	case key.Matches(msg, km.ClearMarks):
		var n int
		m.items, n = m.items.ClearMarks()
		m.status.Info = fmt.Sprintf("%s cleared", plural(n, "mark", "marks"))
		return m, nil, true
	}
	return m, nil, false
}

// markAll is A: every result loaded, or the filter's matches; pages the
// query has not read yet are read only after a question that says what
// they may cost (y), and never for the local filter, which searches the
// loaded items.
func (m Model) markAll() Model {
	var did pane.Marking
	m.items, did = m.items.MarkShown()
	what := "loaded results"
	if m.items.Filter != "" {
		what = "loaded filter matches"
	}
	m.status.Info = markingText(did, what)
	if m.items.Filter != "" {
		// The local filter searches what is loaded: the pages not read
		// are not its to mark.
		m.status.Info += m.unreadNote()
		return m
	}
	if !m.results.more() {
		return m
	}
	m.ask = countAsk{on: true, marks: true}
	m.status.Ask = fmt.Sprintf("the query has more pages, not read: y reads them all and marks every result (it costs what it reads: %s), esc keeps the %d marked", m.restCost(), m.items.MarkCount())
	return m
}

// markRead is A's read of the pages the query has not read yet, each
// page's items marked as it comes.
type markRead struct {
	on    bool
	pages int // read so far
	added int // marked by them
}

// restCost is what reading the rest of the query may cost: at most the
// table's (or index's) size, by DescribeTable, which A says before y.
func (m Model) restCost() string {
	est := dynamo.EstimateRead(m.table, m.index, m.query.Consistent, 1, 0)
	if !est.Known {
		return "unknown: DescribeTable gives no size yet, esc stops it"
	}
	return fmt.Sprintf("at most %s RCU, the whole %s by DescribeTable's size; esc stops it", fmtRCU(est.RCU), humanBytes(est.Bytes))
}

// confirmMarkRest answers A's question: y reads the rest, esc does not.
func (m Model) confirmMarkRest(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.Confirm, km.Open):
		m.ask, m.status.Ask = countAsk{}, ""
		m.markRest = markRead{on: true}
		return m.loadNext()
	case key.Matches(msg, km.Cancel):
		m.ask, m.status.Ask = countAsk{}, ""
		m.status.Info = fmt.Sprintf("the loaded results are marked (%d marked); the pages not read are not", m.items.MarkCount())
	}
	return m, nil
}

// markArrived marks a page A's read brought, then asks for the next, or
// says it is done.
func (m Model) markArrived(items []dynamo.Item) (Model, tea.Cmd) {
	var n int
	m.items, n = m.items.MarkItems(items)
	m.markRest.pages++
	m.markRest.added += n
	if m.results.more() {
		m.status.Info = fmt.Sprintf("marking the rest: %s read, %d marked · esc stops", plural(m.markRest.pages, "page", "pages"), m.markRest.added)
		return m.loadNext()
	}
	m.status.Info = fmt.Sprintf("marked every result: %d more from %s read", m.markRest.added, plural(m.markRest.pages, "page", "pages"))
	m.markRest = markRead{}
	return m, nil
}

// markType is space in the types pane: the loaded items of the type under
// the cursor (of the partition on its first row); of a declared type, the
// items its declaration names (ofType).
func (m Model) markType() Model {
	row := m.groups.cursor()
	if m.groups.byAttribute() {
		m.status.Info = "marks go by sort-key type: b groups by sort key"
		return m
	}
	var keep func(dynamo.Item) bool
	what := "loaded items of the partition"
	note := func() string { return "" }
	if row > 0 {
		t := m.groups.types()[row-1]
		keep = m.ofType(t)
		what = "loaded " + sanitize(t.Entity) + " items"
		if t.Undeclared && m.declaring() {
			keep, note = m.declaredShare(keep)
		}
	}
	var did pane.Marking
	m.items, did = m.items.MarkWhere(keep)
	m.status.Info = markingText(did, what) + note() + m.unreadNote()
	return m
}

// declaredShare counts, of the items keep takes, those whose keys match a
// declared entity, by name, and those that match none: an undeclared row
// of the types pane (its keys in more than one shape, "~ORDER") marks them
// all by inference, and its note says how they divide, so that a bulk
// change of them is not taken for one of the declared entity.
func (m Model) declaredShare(keep func(dynamo.Item) bool) (func(dynamo.Item) bool, func() string) {
	byName := map[string]int{}
	var names []string
	none := 0
	counted := func(it dynamo.Item) bool {
		if !keep(it) {
			return false
		}
		match, ok := m.patterns.Entities.Match(itemcodec.TextAttrs(it))
		switch {
		case !ok:
			none++
		case byName[match.Name()] == 0:
			names = append(names, match.Name())
			fallthrough
		default:
			byName[match.Name()]++
		}
		return true
	}
	note := func() string {
		if len(names) == 0 {
			return ""
		}
		parts := make([]string, 0, len(names)+1)
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%d %s", byName[n], sanitize(n)))
		}
		parts = append(parts, fmt.Sprintf("%d undeclared", none))
		return " · " + strings.Join(parts, ", ")
	}
	return counted, note
}

// ofType tells whether an item is of the types pane's row t. A row a
// declaration names holds the items whose keys match that declaration
// (entities Match, as the CLI's update and delete --entity select them),
// not those its inferred type would: an item of the same prefix in
// another shape is not of it; the row of those (~ORDER, Shared) holds the
// items of its type that no declaration names. Any other row holds the
// items whose sort key is classified as its type or one folded into it.
func (m Model) ofType(t keys.TypeRow) func(dynamo.Item) bool {
	if t.Declared && m.declaring() {
		return func(it dynamo.Item) bool {
			match, ok := m.patterns.Entities.Match(itemcodec.TextAttrs(it))
			return ok && match.Name() == t.Entity
		}
	}
	ids := append([]string{t.ID()}, t.Aliases...)
	if t.Shared && m.declaring() {
		// The undeclared part of a type the declarations split (~ORDER
		// beside Order): the items of its type that no declaration names.
		return func(it dynamo.Item) bool {
			_, declared := m.patterns.Entities.Match(itemcodec.TextAttrs(it))
			return !declared && slices.Contains(ids, m.entityKey(pane.KeyOf(it, m.items.KeyName)))
		}
	}
	return func(it dynamo.Item) bool {
		return slices.Contains(ids, m.entityKey(pane.KeyOf(it, m.items.KeyName)))
	}
}

// unreadNote says that the query has pages not read, whose items no key
// marks until they are read.
func (m Model) unreadNote() string {
	if !m.results.more() {
		return ""
	}
	return " · more pages unread, not marked (n reads)"
}

// markingText says what a marking key did, the loaded items it marked
// named by what.
func markingText(did pane.Marking, what string) string {
	s := fmt.Sprintf("marked %d %s", did.Added, what)
	if did.Already > 0 {
		s += fmt.Sprintf(" (%d already)", did.Already)
	}
	if did.Released > 0 {
		s += fmt.Sprintf(" · %d in released pages not marked (scroll to them)", did.Released)
	}
	return s
}

// modeMarkConfirm is A's question: read the query's other pages to mark them.
var modeMarkConfirm = &keymap.Mode{Name: "confirm marks", Keys: []keymap.Binding{
	keymap.InBar("confirm", "read and mark the rest").KeysShown("y/enter"), keymap.InBar("cancel", "keep these"), keymap.Bind("open", "read and mark the rest"),
}}
