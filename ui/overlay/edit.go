package overlay

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The edit overlay: an item's attributes as typed text — E on an item, d
// to duplicate it under a new key, N for a new item of an entity type.
// enter edits a value (and its type) in a form, a adds an attribute, x
// marks one for removal, and w checks the draft and shows the write for
// confirmation (write.go). Nothing is sent from here. The draft,
// the item being edited as text, is the overlay's own, below.

// Edit is an item's attributes as typed text, being edited.
type Edit struct {
	d      Draft
	title  string
	list   widget.List  // over the draft's rows; the box shows the cursor's
	form   *widget.Form // editing a row; nil while choosing one
	row    int          // the row the form edits; -1 for a new attribute
	err    string
	errRow int // the row err is about; -1 for none
}

// NewEdit edits draft d, titled title.
func NewEdit(d Draft, title string) Edit {
	return Edit{d: d, title: title, errRow: -1, list: widget.NewList(len(d.rows))}
}

// ID names the overlay.
func (Edit) ID() ID { return EditID }

// Mode is the keymap mode the overlay is in, by its phase.
func (o Edit) Mode(Env) *keymap.Mode {
	if o.form != nil {
		return modeEditValue
	}
	return modeEdit
}

// Hides says which lines of the screen the overlay takes over.
func (Edit) Hides() Hidden { return Hidden{Query: true, Log: true} }

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Edit) Update(e Env, msg tea.Msg) (Overlay, Want) {
	km := e.Keys
	if o.form != nil {
		f, ev := o.form.Handle(msg, km.FormKeys())
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
	if l, ok := o.list.Key(k, km.ListKeys()); ok {
		o.list = l
		return o, nil
	}
	cur, onRow := o.list.Selected()
	switch {
	case key.Matches(k, km.Open):
		if onRow {
			r := o.d.rows[cur]
			f := widget.NewForm([]string{"value", "type"}, []string{r.text, r.typ})
			o.form, o.row = &f, cur
		}
	case key.Matches(k, km.AddAttribute):
		f := widget.NewForm([]string{"name", "type", "value"}, []string{"", "S", ""})
		o.form, o.row = &f, -1
	case key.Matches(k, km.RemoveAttribute):
		if onRow {
			o.d.rows = slices.Clone(o.d.rows)
			o.d.rows[cur].removed = !o.d.rows[cur].removed
		}
	case key.Matches(k, km.WriteItem):
		p, row, err := o.d.plan(e.Version)
		if err != nil {
			o.err, o.errRow = textfmt.Sanitize(err.Error()), row
			if row >= 0 {
				o.list = o.list.MoveTo(row)
			}
			return o, nil
		}
		o.err, o.errRow = "", -1
		return o, Open{O: NewWrite(p, nil)}
	case key.Matches(k, km.Cancel, km.Back):
		return o, Then{ShowInfo{Text: "edit discarded; nothing was sent"}, Close{}}
	}
	return o, nil
}

// setRow takes a submitted form into the draft; a value DynamoDB would
// refuse is one sentence under the form, which stays open.
func (o Edit) setRow(f widget.Form) Edit {
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
				o.err, o.errRow = fmt.Sprintf("the item has %s already; edit it instead", textfmt.Sanitize(name)), -1
				return o
			}
		}
	}
	if _, err := edit.ParseValue(name, typ, v["value"]); err != nil {
		o.err, o.errRow = textfmt.Sanitize(err.Error()), o.row
		return o
	}
	o.d.rows = slices.Clone(o.d.rows)
	if o.row >= 0 {
		r := &o.d.rows[o.row]
		r.typ, r.text, r.removed = typ, v["value"], false
	} else {
		o.d.rows = append(o.d.rows, draftRow{name: name, typ: typ, text: v["value"]})
		o.list = o.list.SetLen(len(o.d.rows)).MoveTo(len(o.d.rows) - 1)
	}
	o.form, o.err, o.errRow = nil, "", -1
	return o
}

// View draws the overlay w×h from what the root gives it.
func (o Edit) View(e Env, w, h int) string {
	st := e.St
	inner := w - 2
	nameW, typeW := 4, 4
	for _, r := range o.d.rows {
		nameW = max(nameW, widget.Width(textfmt.Sanitize(r.name)))
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
		if i == o.list.Cursor() {
			cur = "› "
		}
		line := cur + mark + widget.Fit(textfmt.Sanitize(r.name), nameW) + " " + st.TypeName.Render(widget.Fit(r.typ, typeW)) + " " + widget.Fit(textfmt.Sanitize(text), max(1, inner-nameW-typeW-8))
		if i == o.list.Cursor() && o.form == nil {
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
			what = textfmt.Sanitize(o.d.rows[o.row].name)
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
	// The rows from the top as far as keeps the cursor's in sight.
	off := widget.ScrollOffset(0, o.list.Cursor(), shown, len(lines))
	body := lines[min(off, len(lines)):min(len(lines), off+shown)]
	return widget.Box(st, o.title, append(append([]string(nil), body...), foot...), w, h, true)
}

var modeEdit = &keymap.Mode{Name: "edit item", Keys: []keymap.Binding{
	// The status bar shows what fits in this order (fit by priority): the
	// keys that act on the item first, worded short enough for 120 columns.
	keymap.InBar("open", "edit"), keymap.InBar("writeItem", "show write"), keymap.InBar("cancel", "discard"), keymap.InBar("removeAttribute", "remove/keep"), keymap.InBar("addAttribute", "add"), keymap.InBar("help"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("top"), keymap.Bind("bottom"), keymap.Bind("back", "discard"),
}}

var modeEditValue = keymap.FormMode("edit value", "set", "cancel")

// draftRow is one attribute of a draft: its name, type and value as text.
type draftRow struct {
	name, typ, text string
	key             bool // a key attribute of the table
	removed         bool // marked for removal
}

// Draft is an item being edited: from an item read (old), or a new one.
type Draft struct {
	table dynamo.Table
	old   dynamo.Item // nil for a new item (or a duplicate)
	rows  []draftRow
	// blanks: a row left empty is no attribute (the form of a new item of
	// an entity type offers every attribute the type has).
	blanks bool
}

// NewDraft starts a draft from an item: its key attributes first, then
// the rest by name. asNew makes it a new item with the same attributes
// (duplicate under a new key).
func NewDraft(t dynamo.Table, it dynamo.Item, asNew bool) Draft {
	d := Draft{table: t}
	if !asNew {
		d.old = it
	}
	keys := edit.KeyNames(t)
	names := slices.Sorted(maps.Keys(it))
	slices.SortStableFunc(names, edit.KeysFirst(t))
	for _, n := range names {
		typ, text := edit.ValueInput(it[n])
		d.rows = append(d.rows, draftRow{name: n, typ: typ, text: text, key: slices.Contains(keys, n)})
	}
	return d
}

// ReappliedDraft edits the item as it is now (now) towards wanted: the
// user's changes put on it after a refused write (edit.Reapply), each
// shown as a change against the item now; an attribute wanted no longer
// is marked for removal.
func ReappliedDraft(t dynamo.Table, now, wanted dynamo.Item) Draft {
	d := NewDraft(t, wanted, false)
	d.old = now
	for _, n := range slices.Sorted(maps.Keys(now)) {
		if _, ok := wanted[n]; !ok {
			typ, text := edit.ValueInput(now[n])
			d.rows = append(d.rows, draftRow{name: n, typ: typ, text: text, removed: true})
		}
	}
	return d
}

// EntityDraft is a new item of an entity type: the partition's key, the
// sort key's prefix, and every other attribute the loaded items of that
// type have, with the type most of them have and an empty value.
func EntityDraft(t dynamo.Table, pk, prefix string, items []dynamo.Item) Draft {
	d := Draft{table: t, blanks: true}
	d.rows = append(d.rows, draftRow{name: t.PK.Name, typ: t.PK.Type, text: pk, key: true})
	if t.SK != nil {
		d.rows = append(d.rows, draftRow{name: t.SK.Name, typ: t.SK.Type, text: prefix, key: true})
	}
	counts := map[string]map[string]int{}
	for _, it := range items {
		for n, v := range it {
			if slices.Contains(edit.KeyNames(t), n) {
				continue
			}
			if counts[n] == nil {
				counts[n] = map[string]int{}
			}
			counts[n][itemcodec.AttributeTypeName(v)]++
		}
	}
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		typ, best := "S", 0
		for _, ty := range edit.Types {
			if c := counts[n][ty]; c > best {
				typ, best = ty, c
			}
		}
		d.rows = append(d.rows, draftRow{name: n, typ: typ})
	}
	return d
}

// item is the item the draft describes; the first value that DynamoDB
// would refuse is one sentence, and its row.
func (d Draft) item() (dynamo.Item, int, error) {
	it := dynamo.Item{}
	for i, r := range d.rows {
		if r.removed {
			if r.key {
				return nil, i, fmt.Errorf("%s is part of the key and cannot be removed; change its value to change the key", r.name)
			}
			continue
		}
		if r.name == "" {
			return nil, i, fmt.Errorf("row %d has no attribute name", i+1)
		}
		if _, dup := it[r.name]; dup {
			return nil, i, fmt.Errorf("%s appears twice", r.name)
		}
		if d.blanks && !r.key && strings.TrimSpace(r.text) == "" && r.typ != "NULL" {
			continue // an attribute of the entity type left empty: not part of the new item
		}
		av, err := edit.ParseValue(r.name, r.typ, r.text)
		if err != nil {
			return nil, i, err
		}
		it[r.name] = av
	}
	return it, -1, nil
}

// change is what the draft does to row i of an item read: "+" added, "-"
// removed, "~" changed, "" as read (and for a new item, where all is new).
func (d Draft) change(i int) string {
	r := d.rows[i]
	if d.old == nil {
		return ""
	}
	was, ok := d.old[r.name]
	switch {
	case r.removed && ok:
		return "-"
	case r.removed:
		return ""
	case !ok:
		return "+"
	}
	if av, err := edit.ParseValue(r.name, r.typ, r.text); err != nil || !edit.Equal(av, was) {
		return "~"
	}
	return ""
}

// plan is the change the draft makes, checked and ready to confirm.
func (d Draft) plan(version string) (*edit.Plan, int, error) {
	it, row, err := d.item()
	if err != nil {
		return nil, row, err
	}
	p, err := edit.NewPlan(edit.Change{Table: d.table.Name, Keys: d.table, Old: d.old, New: it, Version: version})
	return p, -1, err
}
