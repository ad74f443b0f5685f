package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// tableRow is one table of the picker; its description arrives later.
type tableRow struct {
	name      string
	table     dynamo.Table
	described bool
	err       error
}

// tablePicker lists the tables of the account and region. Typing filters by
// name (table names may hold any letter, so letters never navigate here).
type tablePicker struct {
	rows    []tableRow
	filter  widget.LineEdit
	list    widget.List // over rows, those matching the filter shown
	listed  bool
	listErr string
}

func (p tablePicker) setNames(names []string) tablePicker {
	p.rows = make([]tableRow, len(names))
	for i, n := range names {
		p.rows[i] = tableRow{name: n}
	}
	p.listed = true
	return p.refilter()
}

func (p tablePicker) described(msg tablesDescribedMsg) tablePicker {
	at := make(map[string]int, len(p.rows))
	for i, r := range p.rows {
		at[r.name] = i
	}
	for i, n := range msg.names {
		if j, ok := at[n]; ok {
			p.rows[j].table, p.rows[j].err, p.rows[j].described = msg.tables[i], msg.errs[i], true
		}
	}
	return p
}

func (p tablePicker) refilter() tablePicker {
	f := strings.ToLower(p.filter.String())
	var keep func(i int) bool
	if f != "" {
		keep = func(i int) bool { return strings.Contains(strings.ToLower(p.rows[i].name), f) }
	}
	p.list = p.list.Filter(len(p.rows), keep)
	return p
}

func (p tablePicker) selected() (string, bool) {
	i, ok := p.list.Selected()
	if !ok {
		return "", false
	}
	return p.rows[i].name, true
}

func (p tablePicker) move(delta, listH int) tablePicker {
	p.list = p.list.SetHeight(listH).Move(delta)
	return p
}

// listHeight is how many table rows the picker shows in h lines.
func pickerListHeight(h int) int { return max(1, h-5) }

func (p tablePicker) viewBox(st styles, w, h int) string {
	inner := w - 2
	l := p.list.SetHeight(pickerListHeight(h))

	lines := []string{
		" " + st.Muted.Render("filter ") + p.filter.View(st, max(1, inner-9), ""),
		"",
	}
	nameW, keyW, ixW := len("table"), len("key schema"), len("indexes")
	for pos := range l.Len() {
		r := p.rows[l.Index(pos)]
		nameW = max(nameW, widget.Width(sanitize(r.name)))
		if r.described {
			ks, _ := r.table.Schema("")
			keyW = max(keyW, widget.Width(sanitize(ks.KeyText())))
			ixW = max(ixW, widget.Width(indexList(r.table)))
		}
	}
	countW, sizeW := 11, 10
	nameW = min(nameW, max(12, inner/3))
	keyW = min(keyW, 26)
	ixW = clamp(ixW, 6, max(6, inner-2-nameW-keyW-countW-sizeW-8))
	row := func(name, ks, ix, count, size string) string {
		return " " + widget.Fit(name, nameW) + "  " + widget.Fit(ks, keyW) + "  " + widget.Fit(ix, ixW) + "  " + widget.PadLeft(count, countW) + "  " + widget.PadLeft(size, sizeW)
	}
	lines = append(lines, st.ColHeader.Render(row("table", "key schema", "indexes", "items ~", "size ~")))
	switch {
	case p.listErr != "":
		lines = append(lines, " "+st.Err.Render(p.listErr))
	case !p.listed:
		lines = append(lines, " "+st.Muted.Render("listing tables…"))
	case len(p.rows) == 0:
		lines = append(lines, " "+st.Muted.Render("no tables here; check --region and --endpoint-url, or create one with 'dynascope seed --demo'"))
	case l.Len() == 0:
		lines = append(lines, " "+st.Muted.Render("no table matches the filter"))
	}
	lines = append(lines, l.View(inner, widget.Delegate{Render: func(vr widget.Row, inner int) []string {
		r := p.rows[vr.Index]
		name := sanitize(r.name)
		var ks, ix, count, size string
		switch {
		case r.err != nil && dynamo.IsAccessDenied(r.err):
		case r.err != nil:
			ks = "—"
			ix = sanitize(r.err.Error())
		case !r.described:
			ks = "…"
		default:
			k, _ := r.table.Schema("")
			ks = sanitize(k.KeyText())
			ix = indexList(r.table)
			count = fmt.Sprintf("%d", r.table.ItemCount)
			size = humanBytes(r.table.SizeBytes)
		}
		line := row(name, ks, ix, count, size)
		if r.err != nil && dynamo.IsAccessDenied(r.err) {
			// Partial permission is normal: the row says so across the
			// columns, and the others are listed as usual.
			line = " " + widget.Fit(name, nameW) + "  " + widget.Fit("no permission to describe (DescribeTable is denied)", max(1, inner-nameW-4))
		}
		if vr.Cursor {
			line = st.Sel.Render(widget.Fit(line, inner))
		}
		return []string{line}
	}})...)
	title := fmt.Sprintf("Tables · %d", len(p.rows))
	if p.filter.String() != "" {
		title = fmt.Sprintf("Tables · %d of %d", l.Len(), len(p.rows))
	}
	return widget.Box(st, title, lines, w, h, true)
}

// indexList names a table's indexes and their kinds: "GSI1 GSI, LSI1 LSI".
func indexList(t dynamo.Table) string {
	var names []string
	for _, x := range t.Indexes {
		names = append(names, sanitize(x.Name)+" "+string(x.Kind))
	}
	if len(names) == 0 {
		return "—"
	}
	return strings.Join(names, ", ")
}

// clamp bounds v to [lo, hi]; when hi < lo it returns lo.
func clamp(v, lo, hi int) int { return widget.Clamp(v, lo, hi) }

// scrollOffset keeps the cursor inside a window of h rows over n rows,
// for the views that keep their own numbers (widget.ScrollOffset).
func scrollOffset(offset, cursor, h, n int) int { return widget.ScrollOffset(offset, cursor, h, n) }

func (m Model) tablesKey(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	if l, ok := m.picker.list.SetHeight(pickerListHeight(m.layout().bodyH)).Key(msg, km.TypingListKeys()); ok {
		m.picker.list = l
		return m, nil
	}
	switch {
	case key.Matches(msg, km.Open):
		if name, ok := m.picker.selected(); ok {
			return m.openTable(name)
		}
	case key.Matches(msg, km.Scan):
		if name, ok := m.picker.selected(); ok {
			return m.openScan(name), nil
		}
	case key.Matches(msg, km.Cancel):
		if m.picker.filter.String() == "" {
			return m, tea.Quit
		}
		m.picker.filter = widget.LineEdit{}
		m.picker = m.picker.refilter()
	default:
		return m.tablesText(msg)
	}
	return m, nil
}

func (m Model) tablesText(msg tea.Msg) (Model, tea.Cmd) {
	if f, ok := m.picker.filter.Update(msg); ok {
		m.picker.filter = f
		m.picker.list = m.picker.list.Home()
		m.picker = m.picker.refilter()
	}
	return m, nil
}

// The status bar shows what fits in this order: esc comes before the
// arrows because q types into the filter here, so esc is the way out.
var modeTables = &keymap.Mode{Name: "tables", Typing: true, HelpTyped: true, Keys: []keymap.Binding{
	keymap.InBar("open", "open table"), keymap.InBar("cancel", "clear filter / quit (q types)"), keymap.InBar("help"), keymap.InBar("scan", "scan"), keymap.InBar("listUp"), keymap.InBar("listDown"),
	keymap.Bind("pageUp"), keymap.Bind("pageDown"), keymap.Bind("listTop"), keymap.Bind("listBottom"), keymap.Bind("connections"),
}}
