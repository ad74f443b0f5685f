package pane

import (
	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
	"fmt"
	"strings"
)

// TableRow is one table of the picker; its description arrives later.
type TableRow struct {
	Name      string
	Table     dynamo.Table
	Described bool
	Err       error
}

// TablePicker lists the tables of the account and region. Typing filters by
// name (table names may hold any letter, so letters never navigate here).
type TablePicker struct {
	Rows    []TableRow
	Filter  widget.LineEdit
	List    widget.List // over rows, those matching the filter shown
	Listed  bool
	ListErr string
}

// SetNames lists the tables named, none described yet.
func (p TablePicker) SetNames(names []string) TablePicker {
	p.Rows = make([]TableRow, len(names))
	for i, n := range names {
		p.Rows[i] = TableRow{Name: n}
	}
	p.Listed = true
	return p.Refilter()
}

// Described fills in the descriptions that arrived: one table or error
// for each of names.
func (p TablePicker) Described(names []string, tables []dynamo.Table, errs []error) TablePicker {
	at := make(map[string]int, len(p.Rows))
	for i, r := range p.Rows {
		at[r.Name] = i
	}
	for i, n := range names {
		if j, ok := at[n]; ok {
			p.Rows[j].Table, p.Rows[j].Err, p.Rows[j].Described = tables[i], errs[i], true
		}
	}
	return p
}

// Refilter shows the tables whose name holds the filter, case-folded.
func (p TablePicker) Refilter() TablePicker {
	f := strings.ToLower(p.Filter.String())
	var keep func(i int) bool
	if f != "" {
		keep = func(i int) bool { return strings.Contains(strings.ToLower(p.Rows[i].Name), f) }
	}
	p.List = p.List.Filter(len(p.Rows), keep)
	return p
}

// Selected is the table under the cursor.
func (p TablePicker) Selected() (string, bool) {
	i, ok := p.List.Selected()
	if !ok {
		return "", false
	}
	return p.Rows[i].Name, true
}

// Move moves the cursor by delta in a list of listH rows.
func (p TablePicker) Move(delta, listH int) TablePicker {
	p.List = p.List.SetHeight(listH).Move(delta)
	return p
}

// PickerListHeight is how many table rows the picker shows in h lines.
func PickerListHeight(h int) int { return max(1, h-5) }

// View draws the picker in a box of w×h: the filter, then a row per table.
func (p TablePicker) View(st theme.Styles, w, h int) string {
	inner := w - 2
	l := p.List.SetHeight(PickerListHeight(h))

	lines := []string{
		" " + st.Muted.Render("filter ") + p.Filter.View(st, max(1, inner-9), ""),
		"",
	}
	nameW, keyW, ixW := len("table"), len("key schema"), len("indexes")
	for pos := range l.Len() {
		r := p.Rows[l.Index(pos)]
		nameW = max(nameW, widget.Width(textfmt.Sanitize(r.Name)))
		if r.Described {
			ks, _ := r.Table.Schema("")
			keyW = max(keyW, widget.Width(textfmt.Sanitize(ks.KeyText())))
			ixW = max(ixW, widget.Width(indexList(r.Table)))
		}
	}
	countW, sizeW := 11, 10
	nameW = min(nameW, max(12, inner/3))
	keyW = min(keyW, 26)
	ixW = widget.Clamp(ixW, 6, max(6, inner-2-nameW-keyW-countW-sizeW-8))
	row := func(name, ks, ix, count, size string) string {
		return " " + widget.Fit(name, nameW) + "  " + widget.Fit(ks, keyW) + "  " + widget.Fit(ix, ixW) + "  " + widget.PadLeft(count, countW) + "  " + widget.PadLeft(size, sizeW)
	}
	lines = append(lines, st.ColHeader.Render(row("table", "key schema", "indexes", "items ~", "size ~")))
	switch {
	case p.ListErr != "":
		lines = append(lines, " "+st.Err.Render(p.ListErr))
	case !p.Listed:
		lines = append(lines, " "+st.Muted.Render("listing tables…"))
	case len(p.Rows) == 0:
		lines = append(lines, " "+st.Muted.Render("no tables here; check --region and --endpoint-url, or create one with 'dynascope seed --demo'"))
	case l.Len() == 0:
		lines = append(lines, " "+st.Muted.Render("no table matches the filter"))
	}
	lines = append(lines, l.View(inner, widget.Delegate{Render: func(vr widget.Row, inner int) []string {
		r := p.Rows[vr.Index]
		name := textfmt.Sanitize(r.Name)
		var ks, ix, count, size string
		switch {
		case r.Err != nil && dynamo.IsAccessDenied(r.Err):
		case r.Err != nil:
			ks = "—"
			ix = textfmt.Sanitize(r.Err.Error())
		case !r.Described:
			ks = "…"
		default:
			k, _ := r.Table.Schema("")
			ks = textfmt.Sanitize(k.KeyText())
			ix = indexList(r.Table)
			count = fmt.Sprintf("%d", r.Table.ItemCount)
			size = textfmt.HumanBytes(r.Table.SizeBytes)
		}
		line := row(name, ks, ix, count, size)
		if r.Err != nil && dynamo.IsAccessDenied(r.Err) {
			// Partial permission is normal: the row says so across the
			// columns, and the others are listed as usual.
			line = " " + widget.Fit(name, nameW) + "  " + widget.Fit("no permission to describe (DescribeTable is denied)", max(1, inner-nameW-4))
		}
		if vr.Cursor {
			line = st.Sel.Render(widget.Fit(line, inner))
		}
		return []string{line}
	}})...)
	title := fmt.Sprintf("Tables · %d", len(p.Rows))
	if p.Filter.String() != "" {
		title = fmt.Sprintf("Tables · %d of %d", l.Len(), len(p.Rows))
	}
	return widget.Box(st, title, lines, w, h, true)
}

// indexList names a table's indexes and their kinds: "GSI1 GSI, LSI1 LSI".
func indexList(t dynamo.Table) string {
	var names []string
	for _, x := range t.Indexes {
		names = append(names, textfmt.Sanitize(x.Name)+" "+string(x.Kind))
	}
	if len(names) == 0 {
		return "—"
	}
	return strings.Join(names, ", ")
}
