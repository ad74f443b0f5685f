package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/edit"
	"dynascope/ui/widget"
)

// The edit overlay: an item's attributes as typed text — E on an item, d
// to duplicate it under a new key, N for a new item of an entity type.
// enter edits a value (and its type) in a form, a adds an attribute, x
// marks one for removal, and w checks the draft and shows the write for
// confirmation (overlay_write.go). Nothing is sent from here.

type editOverlay struct {
	d      draft
	title  string
	cursor int
	offset int
	form   *form // editing a row; nil while choosing one
	row    int   // the row the form edits; -1 for a new attribute
	err    string
	errRow int // the row err is about; -1 for none
}

func (editOverlay) id() overlayID { return overlayEdit }
func (o editOverlay) mode(Model) mode {
	if o.form != nil {
		return modeEditValue
	}
	return modeEdit
}
func (editOverlay) hides() hidden { return hidden{query: true, log: true} }

// openEdit opens a draft; the writer must be there (the keys that get
// here are enabled only then).
func (m Model) openEdit(d draft, title string) (Model, tea.Cmd) {
	if m.opts.Editor == nil {
		return m, nil
	}
	if m.index != "" {
		// An index holds a projection: an edit or a copy of it could
		// miss attributes the item has.
		m.status.err = "items are edited on the base table, where they are whole: i chooses it."
		return m, nil
	}
	return m.push(editOverlay{d: d, title: title, errRow: -1}), nil
}

// editSelected edits the item under the cursor; asNew duplicates it.
func (m Model) editSelected(asNew bool) (Model, tea.Cmd) {
	it, ok := m.items.selected()
	if !ok || !m.haveTable {
		return m, nil
	}
	title := "Edit · " + sanitize(keyOf(it, m.items.keyName))
	if asNew {
		title = "Duplicate under a new key · " + sanitize(keyOf(it, m.items.keyName))
	}
	return m.openEdit(newDraft(m.table, it, asNew), title)
}

// newEntityItem starts a new item of the entity type under the groups
// cursor, with the attributes its loaded items have.
func (m Model) newEntityItem() (Model, tea.Cmd) {
	if !m.haveTable || m.query.PK == "" || m.index != "" {
		m.status.err = "a new item is made on the base table's partition: open one (i chooses the table)."
		return m, nil
	}
	prefix, items := m.entityItems(m.groups.cursor())
	title := "New item"
	if prefix != "" {
		title += " · " + sanitize(prefix)
	}
	return m.openEdit(entityDraft(m.table, m.query.PK, prefix, items), title)
}

func (o editOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	km := e.keys
	if o.form != nil {
		f, ev := o.form.Handle(msg, formKeys(km))
		o.form = &f
		switch ev {
		case widget.FormCancel:
			o.form = nil
		case widget.FormSubmit:
			o = o.setRow(f)
		}
		return o, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	n := len(o.d.rows)
	switch {
	case key.Matches(k, km.Up):
		o.cursor = max(0, o.cursor-1)
	case key.Matches(k, km.Down):
		o.cursor = min(n-1, o.cursor+1)
	case key.Matches(k, km.Top):
		o.cursor = 0
	case key.Matches(k, km.Bottom):
		o.cursor = n - 1
	case key.Matches(k, km.Open):
		if o.cursor < n {
			r := o.d.rows[o.cursor]
			f := widget.NewForm([]string{"value", "type"}, []string{r.text, r.typ})
			o.form, o.row = &f, o.cursor
		}
	case key.Matches(k, km.AddAttribute):
		f := widget.NewForm([]string{"name", "type", "value"}, []string{"", "S", ""})
		o.form, o.row = &f, -1
	case key.Matches(k, km.RemoveAttribute):
		if o.cursor < n {
			o.d.rows = slices.Clone(o.d.rows)
			o.d.rows[o.cursor].removed = !o.d.rows[o.cursor].removed
		}
	case key.Matches(k, km.WriteItem):
		p, row, err := o.d.plan(e.version)
		if err != nil {
			o.err, o.errRow = sanitize(err.Error()), row
			if row >= 0 {
				o.cursor = row
			}
			return o, nil
		}
		o.err, o.errRow = "", -1
		return o, openOverlay{newWriteOverlay(p, nil)}
	case key.Matches(k, km.Cancel, km.Back):
		return o, then{showInfo{"edit discarded; nothing was sent"}, closeOverlay{}}
	}
	return o, nil
}

// setRow takes a submitted form into the draft; a value DynamoDB would
// refuse is one sentence under the form, which stays open.
func (o editOverlay) setRow(f form) editOverlay {
	v := f.Values()
	typ := strings.ToUpper(strings.TrimSpace(v["type"]))
	name := ""
	if o.row >= 0 {
		name = o.d.rows[o.row].name
	} else {
		name = strings.TrimSpace(v["name"])
		if name == "" {
			o.err, o.errRow = "the new attribute needs a name", -1
			return o
		}
		for _, r := range o.d.rows {
			if r.name == name && !r.removed {
				o.err, o.errRow = fmt.Sprintf("the item has %s already; edit it instead", sanitize(name)), -1
				return o
			}
		}
	}
	if _, err := edit.ParseValue(name, typ, v["value"]); err != nil {
		o.err, o.errRow = sanitize(err.Error()), o.row
		return o
	}
	o.d.rows = slices.Clone(o.d.rows)
	if o.row >= 0 {
		r := &o.d.rows[o.row]
		r.typ, r.text, r.removed = typ, v["value"], false
	} else {
		o.d.rows = append(o.d.rows, draftRow{name: name, typ: typ, text: v["value"]})
		o.cursor = len(o.d.rows) - 1
	}
	o.form, o.err, o.errRow = nil, "", -1
	return o
}

func (o editOverlay) view(m Model, w, h int) string {
	st := m.st
	inner := w - 2
	nameW, typeW := 4, 4
	for _, r := range o.d.rows {
		nameW = max(nameW, widget.Width(sanitize(r.name)))
	}
	nameW = min(nameW, max(8, inner/3))
	var lines []string
	for i, r := range o.d.rows {
		mark := "   "
		switch change := o.d.change(i); {
		case r.removed:
			mark = st.Err.Render("-  ")
		case change == "+":
			mark = st.OK.Render("+  ")
		case change == "~" && r.key:
			mark = st.Warn.Render("~k ")
		case change == "~":
			mark = st.Warn.Render("~  ")
		case r.key:
			mark = st.Accent.Render(" k ")
		}
		text := r.text
		if r.typ == "NULL" {
			text = ""
		}
		cur := "  "
		if i == o.cursor {
			cur = "› "
		}
		line := cur + mark + widget.Fit(sanitize(r.name), nameW) + " " + st.TypeName.Render(widget.Fit(r.typ, typeW)) + " " + widget.Fit(sanitize(text), max(1, inner-nameW-typeW-8))
		if i == o.cursor && o.form == nil {
			line = st.Sel.Render(widget.Fit(ansi.Strip(line), inner-1))
		}
		if i == o.errRow {
			line = st.Err.Render(widget.Fit(ansi.Strip(line), inner-1))
		}
		lines = append(lines, " "+line)
	}
	var foot []string
	if o.form != nil {
		what := "new attribute"
		if o.row >= 0 {
			what = sanitize(o.d.rows[o.row].name)
		}
		foot = append(foot, " "+st.Accent.Render(what)+st.Muted.Render(" · type is one of "+strings.Join(edit.Types, " ")))
		foot = append(foot, o.form.View(st, inner)...)
	}
	if o.err != "" {
		for _, l := range widget.WrapLines(o.err, inner-2) {
			foot = append(foot, " "+st.Err.Render(l))
		}
	}
	if o.form == nil {
		foot = append(foot, " "+st.Muted.Render("~ changed · + added · - removed · k key (changing it moves the item) · nothing is sent before w shows the write"))
	}
	shown := max(1, h-2-len(foot))
	off := clamp(o.offset, 0, max(0, len(lines)-shown))
	if o.cursor < off {
		off = o.cursor
	}
	if o.cursor >= off+shown {
		off = o.cursor - shown + 1
	}
	body := lines[min(off, len(lines)):min(len(lines), off+shown)]
	return widget.Box(st, o.title, append(append([]string(nil), body...), foot...), w, h, true)
}

var editItemMode = modeDef{name: "edit item", keys: []binding{
	// The status bar shows what fits in this order (fit by priority): the
	// keys that act on the item first, worded short enough for 120 columns.
	inBar("open", "edit"), inBar("writeItem", "show write"), inBar("cancel", "discard"), inBar("removeAttribute", "remove/keep"), inBar("addAttribute", "add"), inBar("help"),
	bind("up"), bind("down"), bind("top"), bind("bottom"), bind("back", "discard"),
}}

var editItemValueMode = formMode("edit value", "set", "cancel")
