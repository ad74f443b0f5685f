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
	// Missing is why the table asked for did not open (the table named by
	// --table does not exist), sanitised; Want is that name, and Suggested
	// the listed table nearest it, which the cursor starts on.
	Missing, Want, Suggested string
}

// NotFound is the picker opened because table want does not exist: it
// says sentence above the list and, once the tables are listed, offers the
// nearest name.
func NotFound(want, sentence string) TablePicker {
	return TablePicker{Want: want, Missing: textfmt.Sanitize(sentence)}
}

// SetNames lists the tables named, none described yet.
func (p TablePicker) SetNames(names []string) TablePicker {
	p.Rows = make([]TableRow, len(names))
	for i, n := range names {
		p.Rows[i] = TableRow{Name: n}
	}
	p.Listed = true
	p = p.Refilter()
	if p.Want != "" {
		p.Suggested = textfmt.Nearest(p.Want, names)
		for i, n := range names {
			if n == p.Suggested {
				p.List = p.List.Select(i)
			}
		}
	}
	return p
}

// Opened is the picker once a table opens: a missing one is no longer said.
func (p TablePicker) Opened() TablePicker {
	p.Missing, p.Want, p.Suggested = "", "", ""
	return p
}

// MissingError is the sentence a program quitting from the picker of a
// missing table ends with, the suggestion in it; nil when the picker was
// not opened for one.
func (p TablePicker) MissingError() error {
	if p.Missing == "" {
		return nil
	}
	msg := p.Missing
	if p.Suggested != "" {
		msg = strings.TrimSuffix(msg, ".") + textfmt.Suggest(p.Want, []string{p.Suggested}) + "."
	}
	return &textfmt.UserError{Msg: msg}
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

// PickerListHeight is how many table rows the picker shows in h lines,
// with nothing said above its filter.
func PickerListHeight(h int) int { return max(1, h-5) }

// ListHeight is how many table rows the picker shows in a box of w×h.
func (p TablePicker) ListHeight(w, h int) int { return PickerListHeight(h - p.missingRows(w-2)) }

// FirstRow is the line of the box of width w on which the first row of the
// list is drawn: after the frame, what is said of a missing table, the
// filter, a blank line and the header.
func (p TablePicker) FirstRow(w int) int { return 4 + p.missingRows(w-2) }

// missingLines are what is said of a missing table above the filter, in
// inner cells, unstyled: the sentence, then the offer and a blank line.
func (p TablePicker) missingLines(inner int) (sentence, offer []string) {
	if p.Missing == "" {
		return nil, nil
	}
	o := "pick one of the tables here"
	if p.Suggested != "" {
		o = "did you mean " + textfmt.Sanitize(p.Suggested) + "? it is selected: enter opens it"
	}
	// Listing reads no item: one ListTables, and the DescribeTable of each
	// row that the picker always sends.
	o += " · listing the tables read no items · esc quits"
	return widget.WrapLines(p.Missing, inner-2), append(widget.WrapLines(o, inner-2), "")
}

// missingRows is how many lines missingLines takes in inner cells.
func (p TablePicker) missingRows(inner int) int {
	a, b := p.missingLines(inner)
	return len(a) + len(b)
}

// View draws the picker in a box of w×h: the filter, then a row per table.
func (p TablePicker) View(st theme.Styles, w, h int) string {
	inner := w - 2
	l := p.List.SetHeight(p.ListHeight(w, h))

	var lines []string
	sentence, offer := p.missingLines(inner)
	for _, l := range sentence {
		lines = append(lines, " "+st.Err.Render(l))
	}
	for _, l := range offer {
		lines = append(lines, " "+st.Muted.Render(l))
	}
	lines = append(lines,
		" "+st.Muted.Render("filter ")+p.Filter.View(st, max(1, inner-9), ""),
		"",
	)
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
