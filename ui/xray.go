package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/itemcodec"
	"dynascope/ui/widget"
)

// The index X-ray of one item: the detail pane's "In indexes" (member or
// why not, its keys there, what is not projected), and I, which opens the
// item's partition in a chosen index — or, from an index entry, in the
// base table — with the cursor on the item. The breadcrumb in the title
// says where it came from; esc goes back there.

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

// indexLines are the detail pane's "In indexes" lines.
func indexLines(st styles, ms []indexes.Membership, w int) []string {
	if len(ms) == 0 {
		return nil
	}
	out := []string{"", " " + st.Bold.Render("In indexes") + st.Muted.Render(" · computed from DescribeTable · I opens the item in one")}
	for _, m := range ms {
		kind := strings.ToLower(string(m.Index.Kind)) + " " + m.Index.Projection
		if !m.Member {
			line := "✗ " + sanitize(m.Index.Name) + " (" + kind + "): " + sanitize(m.Why)
			for _, wl := range strings.Split(widget.Wrap(line, max(8, w-4)), "\n") {
				out = append(out, "   "+st.Muted.Render(wl))
			}
			continue
		}
		var keys []string
		for _, k := range m.Keys {
			keys = append(keys, sanitize(k.Name)+" = "+sanitize(itemcodec.KeyString(k.Value)))
		}
		out = append(out, "   "+st.Text.Render(widget.Fit("✓ "+sanitize(m.Index.Name)+" ("+kind+"): "+strings.Join(keys, ", "), max(8, w-4))))
		if len(m.NotProjected) > 0 {
			np := "not projected: " + sanitize(strings.Join(m.NotProjected, ", "))
			for _, wl := range strings.Split(widget.Wrap(np, max(8, w-8)), "\n") {
				out = append(out, "       "+st.Muted.Render(wl))
			}
		}
	}
	return out
}

// jumpTarget is one place I can open the item in.
type jumpTarget struct {
	index  string // "" for the base table
	pk, sk string // the item's key values there, as text ("" sk without a sort key)
	label  string
	why    string // why it cannot be opened there; "" when it can
}

// jumpTargets are the base table (from an index entry) and every index.
func (m Model) jumpTargets(it dynamo.Item) []jumpTarget {
	var out []jumpTarget
	if m.index != "" {
		tg := jumpTarget{pk: keyOf(it, m.table.PK.Name), label: "base table " + sanitize(m.table.Name)}
		if m.table.SK != nil {
			tg.sk = keyOf(it, m.table.SK.Name)
		}
		out = append(out, tg)
	}
	for _, ms := range memberships(m.table, m.index, it) {
		if ms.Index.Name == m.index {
			continue
		}
		tg := jumpTarget{index: ms.Index.Name, label: "index " + sanitize(ms.Index.Name), why: ms.Why}
		if ms.Member {
			tg.pk = itemcodec.KeyString(ms.Keys[0].Value)
			if len(ms.Keys) > 1 {
				tg.sk = itemcodec.KeyString(ms.Keys[1].Value)
			}
		}
		out = append(out, tg)
	}
	return out
}

// crumb is where a jump came from: the request shown and the item.
type crumb struct {
	q        dynamo.QueryInput
	reselect string
}

func (c crumb) text() string {
	where := "base table"
	if c.q.Index != "" {
		where = c.q.Index
	}
	return where + " " + c.q.PK
}

// crumbText is the breadcrumb the title shows after the index: "" when no
// jump was made.
func (m Model) crumbText() string {
	if len(m.crumbs) == 0 {
		return ""
	}
	return " ‹ from " + sanitize(m.crumbs[len(m.crumbs)-1].text())
}

// jumpOverlay chooses where to open the item.
type jumpOverlay struct {
	item    dynamo.Item
	targets []jumpTarget
	cursor  int
}

func (jumpOverlay) id() overlayID   { return overlayJump }
func (jumpOverlay) mode(Model) mode { return modeJump }
func (jumpOverlay) hides() hidden   { return hidden{} }

// openJump lists where the item can be opened.
func (m Model) openJump(it dynamo.Item) (Model, tea.Cmd) {
	o := jumpOverlay{item: it, targets: m.jumpTargets(it)}
	if len(o.targets) == 0 {
		m.status.info = "the table has no secondary indexes"
		return m, nil
	}
	for i, tg := range o.targets {
		if tg.why == "" {
			o.cursor = i
			break
		}
	}
	return m.push(o), nil
}

// listKey is the keys of a list overlay of n rows: the cursor moved, or
// open (enter) or closing (q, esc) asked.
func listKey(km KeyMap, msg tea.Msg, cursor, n int) (int, string) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return cursor, ""
	}
	switch {
	case key.Matches(k, km.Up):
		return max(0, cursor-1), ""
	case key.Matches(k, km.Down):
		return min(n-1, cursor+1), ""
	case key.Matches(k, km.Open):
		return cursor, "open"
	case key.Matches(k, km.Back, km.Cancel):
		return cursor, "close"
	}
	return cursor, ""
}

func (o jumpOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	var act string
	o.cursor, act = listKey(e.keys, msg, o.cursor, len(o.targets))
	switch act {
	case "open":
		tg := o.targets[o.cursor]
		if tg.why != "" {
			return o, showInfo{"the item is not in " + tg.label + ": " + sanitize(tg.why)}
		}
		return o, jumpTo{o.item, tg}
	case "close":
		return o, closeOverlay{}
	}
	return o, nil
}

// jump opens the target's partition from the item on (sort key >= the
// item's, one Query), the cursor on the item, and remembers where it came
// from for esc.
func (m Model) jump(it dynamo.Item, tg jumpTarget) (Model, tea.Cmd) {
	from := m.results.q
	if m.results.pages() == 0 {
		from = m.query
	}
	crumbs := append(m.crumbs, crumb{q: from, reselect: keyOf(it, m.items.keyName)})
	m, save := m.moveTo(tg.index, tg.pk)
	m.crumbs = crumbs
	q := partitionQuery(m.table.Name, tg.index, tg.pk, m.opts.Settings)
	if tg.sk != "" && m.schema.SK != nil {
		q.SK = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{tg.sk}}
	}
	m.reselect = tg.sk
	m, cmd := m.startQuery(q, false)
	m.status.info = "opened " + tg.label + " · esc goes back"
	if q.SK.Op != dynamo.SKNone {
		m.status.info = "opened the item in " + tg.label + ", from its sort key on (e changes the condition) · esc goes back"
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
	m.status.info = "back to " + sanitize(c.text())
	return m, tea.Batch(cmd, save)
}

func (o jumpOverlay) view(m Model, w, h int) string {
	inner := w - 2
	lines := []string{" " + m.st.Muted.Render("Open the item's partition there, the cursor on the item; esc there comes back."), ""}
	for i, tg := range o.targets {
		l := "   " + tg.label
		if tg.why != "" {
			l += " — not in it: " + sanitize(tg.why)
		} else {
			l += " · " + sanitize(tg.pk)
			if tg.sk != "" {
				l += " / " + sanitize(tg.sk)
			}
		}
		l = widget.Fit(l, inner)
		switch {
		case i == o.cursor:
			l = m.st.Sel.Render(l)
		case tg.why != "":
			l = m.st.Muted.Render(l)
		}
		lines = append(lines, l)
	}
	return widget.Box(m.st, "Open the item in", lines, w, h, true)
}

var jumpMode = modeDef{name: "open in index", keys: []binding{
	inBar("open", "open there"), inBar("back", "close"),
	bind("up"), bind("down"), bind("cancel", "close"), bind("help"),
}}
