package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/itemcodec"
	"dynascope/ui/overlay"
)

// The index X-ray of one item: the detail pane's "In indexes" (member or
// why not, its keys there, what is not projected), and I, which opens the
// item's partition in a chosen index — or, from an index entry, in the
// base table — with the cursor on the item. The breadcrumb in the title
// says where it came from; esc goes back there. This is the root's side:
// where the item is, the jump and the way back; ui/overlay's jump.go lists the
// places to open it in, and its detail.go draws the memberships.

// memberships is the item's place in every index. Seen through an index
// that does not project all attributes, an absent key attribute may just
// be unprojected: that is said instead of a wrong "absent".
func memberships(t dynamo.Table, viewing string, it dynamo.Item) []indexes.Membership {
	ms := indexes.Of(t, it)
	through, ok := t.IndexByName(viewing)
	if !ok {
		return ms
	}
	for i, m := range ms {
		if !m.Member && m.Violation == indexes.NoViolation && !indexes.Projects(t, through, m.Attr) {
			ms[i].Why = fmt.Sprintf("not known from this entry: %s does not project %s (open the item in the base table)", viewing, m.Attr)
		}
	}
	return ms
}

// jumpTargets are the base table (from an index entry) and every index.
func (m Model) jumpTargets(it dynamo.Item) []overlay.JumpTarget {
	var out []overlay.JumpTarget
	if m.index != "" {
		tg := overlay.JumpTarget{PK: keyOf(it, m.table.PK.Name), Label: "base table " + sanitize(m.table.Name)}
		if m.table.SK != nil {
			tg.SK = keyOf(it, m.table.SK.Name)
		}
		out = append(out, tg)
	}
	for _, ms := range memberships(m.table, m.index, it) {
		if ms.Index.Name == m.index {
			continue
		}
		tg := overlay.JumpTarget{Index: ms.Index.Name, Label: "index " + sanitize(ms.Index.Name), Why: ms.Why}
		if ms.Member {
			tg.PK = itemcodec.KeyString(ms.Keys[0].Value)
			if len(ms.Keys) > 1 {
				tg.SK = itemcodec.KeyString(ms.Keys[1].Value)
			}
		}
		out = append(out, tg)
	}
	return out
}

// crumbText is the breadcrumb the title shows after the index: "" when no
// jump was made.
func (m Model) crumbText() string {
	if len(m.crumbs) == 0 {
		return ""
	}
	return " ‹ from " + sanitize(m.crumbs[len(m.crumbs)-1].text())
}

// openJump lists where the item can be opened.
func (m Model) openJump(it dynamo.Item) (Model, tea.Cmd) {
	targets := m.jumpTargets(it)
	if len(targets) == 0 {
		m.status.Info = "the table has no secondary indexes"
		return m, nil
	}
	return m.push(overlay.NewJump(it, targets)), nil
}

// jump opens the target's partition from the item on (sort key >= the
// item's, one Query), the cursor on the item, and remembers where it came
// from for esc.
func (m Model) jump(it dynamo.Item, tg overlay.JumpTarget) (Model, tea.Cmd) {
	from := m.results.q
	if m.results.pages() == 0 {
		from = m.query
	}
	crumbs := append(m.crumbs, crumb{q: from, reselect: keyOf(it, m.items.KeyName)})
	m, save := m.moveTo(tg.Index, tg.PK)
	m.crumbs = crumbs
	q := partitionQuery(m.table.Name, tg.Index, tg.PK, m.opts.Settings)
	if tg.SK != "" && m.schema.SK != nil {
		q.SK = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{tg.SK}}
	}
	m.reselect = tg.SK
	m, cmd := m.startQuery(q, false)
	m.status.Info = "opened " + tg.Label + " · esc goes back"
	if q.SK.Op != dynamo.SKNone {
		m.status.Info = "opened the item in " + tg.Label + ", from its sort key on (e changes the condition) · esc goes back"
	}
	return m, tea.Batch(cmd, save)
}

// crumbBack goes back to where the last jump came from.
func (m Model) crumbBack() (Model, tea.Cmd) {
	c := m.crumbs[len(m.crumbs)-1]
	crumbs := m.crumbs[:len(m.crumbs)-1]
	m, save := m.moveTo(c.q.Index, c.q.PK)
	m.crumbs = crumbs
	m.reselect = c.reselect
	m, cmd := m.startQuery(c.q, false)
	m.status.Info = "back to " + sanitize(c.text())
	return m, tea.Batch(cmd, save)
}
