package ui

import (
	"fmt"
	"strings"

	"dynascope/dynamo"
	"dynascope/ui/widget"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
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
	view    []int // rows matching the filter, in order
	cursor  int   // index into view
	offset  int
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
	p.view = p.view[:0]
	for i, r := range p.rows {
		if f == "" || strings.Contains(strings.ToLower(r.name), f) {
			p.view = append(p.view, i)
		}
	}
	p.cursor = clamp(p.cursor, 0, len(p.view)-1)
	return p
}

func (p tablePicker) selected() (string, bool) {
	if p.cursor < 0 || p.cursor >= len(p.view) {
		return "", false
	}
	return p.rows[p.view[p.cursor]].name, true
}

func (p tablePicker) move(delta, listH int) tablePicker {
	p.cursor = clamp(p.cursor+delta, 0, len(p.view)-1)
	p.offset = scrollOffset(p.offset, p.cursor, listH, len(p.view))
	return p
}

// listHeight is how many table rows the picker shows in h lines.
func pickerListHeight(h int) int { return max(1, h-5) }

func (p tablePicker) viewBox(st styles, w, h int) string {
	inner := w - 2
	listH := pickerListHeight(h)
	p.offset = scrollOffset(p.offset, p.cursor, listH, len(p.view))

	lines := []string{
		" " + st.Muted.Render("filter ") + p.filter.View(st, max(1, inner-9), ""),
		"",
	}
	nameW, keyW, ixW := len("table"), len("key schema"), len("indexes")
	for _, i := range p.view {
		r := p.rows[i]
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
	case len(p.view) == 0:
		lines = append(lines, " "+st.Muted.Render("no table matches the filter"))
	}
	for vi := p.offset; vi < len(p.view) && vi < p.offset+listH; vi++ {
		r := p.rows[p.view[vi]]
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
		if vi == p.cursor {
			line = st.Sel.Render(widget.Fit(line, inner))
		}
		lines = append(lines, line)
	}
	title := fmt.Sprintf("Tables · %d", len(p.rows))
	if p.filter.String() != "" {
		title = fmt.Sprintf("Tables · %d of %d", len(p.view), len(p.rows))
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
func clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}

// scrollOffset keeps the cursor inside a window of h rows over n rows.
func scrollOffset(offset, cursor, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return clamp(offset, 0, max(0, n-h))
}

func (m Model) tablesKey(msg tea.KeyPressMsg, km KeyMap) (Model, tea.Cmd) {
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
		m.picker.cursor, m.picker.offset = 0, 0
		m.picker = m.picker.refilter()
	}
	return m, nil
}

// The status bar shows what fits in this order: esc comes before the
// arrows because q types into the filter here, so esc is the way out.
var tablesMode = modeDef{name: "tables", typing: true, keys: []binding{
	inBar("open", "open table"), inBar("cancel", "clear filter / quit (q types)"), inBar("help"), inBar("scan", "scan"), inBar("listUp"), inBar("listDown"),
	bind("pageUp"), bind("pageDown"), bind("listTop"), bind("listBottom"),
}}
