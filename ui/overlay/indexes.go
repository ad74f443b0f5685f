package overlay

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/theme"
	"dynascope/ui/widget"
)

// The indexes overlay: i on a partition chooses between the table and its
// secondary indexes.

// Indexes chooses between the table and its secondary indexes.
type Indexes struct{ p indexPicker }

// NewIndexes lists table t's indexes, the one open (index) selected.
func NewIndexes(t dynamo.Table, index string) Indexes { return Indexes{p: pickerAt(t, index)} }

// ID names the overlay.
func (Indexes) ID() ID { return IndexesID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Indexes) Mode(Env) *keymap.Mode { return modeIndexes }

// Hides says which lines of the screen the overlay takes over.
func (Indexes) Hides() Hidden { return Hidden{} }

// View draws the overlay w×h from what the root gives it.
func (o Indexes) View(e Env, w, h int) string {
	return o.p.viewBox(e.St, e.Table, e.Index, w, h)
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Indexes) Update(e Env, msg tea.Msg) (Overlay, Want) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	km := e.Keys
	if l, ok := o.p.list.Key(k, km.ListKeys()); ok {
		o.p.list = l
		return o, nil
	}
	switch {
	case key.Matches(k, km.Open):
		name := o.p.name(e.Table)
		if name == e.Index {
			return o, Close{}
		}
		return o, Then{Close{}, ChooseIndex{Name: name}}
	case key.Matches(k, km.Back, km.Cancel):
		return o, Close{}
	}
	return o, nil
}

// indexPicker chooses between the table and its secondary indexes. The
// choice changes which attributes are the key, so a partition is asked anew.
type indexPicker struct {
	list widget.List // row 0 is the table, row i is Indexes[i-1]
}

func (p indexPicker) name(t dynamo.Table) string {
	i, _ := p.list.Selected()
	if i <= 0 || i > len(t.Indexes) {
		return ""
	}
	return t.Indexes[i-1].Name
}

func pickerAt(t dynamo.Table, index string) indexPicker {
	p := indexPicker{list: widget.NewList(len(t.Indexes) + 1)}
	for i, x := range t.Indexes {
		if x.Name == index {
			p.list = p.list.MoveTo(i + 1)
			break
		}
	}
	return p
}

func (p indexPicker) viewBox(st theme.Styles, t dynamo.Table, current string, w, h int) string {
	inner := w - 2
	ks, _ := t.Schema("")
	rows := [][4]string{{"table " + textfmt.Sanitize(t.Name), "", textfmt.Sanitize(ks.KeyText()), "every attribute"}}
	for _, x := range t.Indexes {
		xs := dynamo.KeySchema{Index: x.Name, PK: x.PK, SK: x.SK}
		proj := x.Projection
		if x.Projection == "INCLUDE" {
			proj = fmt.Sprintf("INCLUDE %d", len(x.NonKeyAttr))
		}
		rows = append(rows, [4]string{textfmt.Sanitize(x.Name), string(x.Kind), textfmt.Sanitize(xs.KeyText()), textfmt.Sanitize(proj)})
	}
	nameW := 10
	keyW := 10
	for _, r := range rows {
		nameW = max(nameW, widget.Width(r[0]))
		keyW = max(keyW, widget.Width(r[2]))
	}
	nameW = min(nameW, inner/3)
	lines := []string{
		" " + st.Muted.Render("A GSI or LSI has keys of its own: the partition key value is asked again."),
		"",
		st.ColHeader.Render("   " + widget.Fit("name", nameW) + "  " + widget.Fit("kind", 4) + "  " + widget.Fit("key", keyW) + "  projection"),
	}
	for i, r := range rows {
		mark := "  "
		if (i == 0 && current == "") || (i > 0 && t.Indexes[i-1].Name == current) {
			mark = "› "
		}
		l := " " + mark + widget.Fit(r[0], nameW) + "  " + widget.Fit(r[1], 4) + "  " + widget.Fit(r[2], keyW) + "  " + r[3]
		if i == p.list.Cursor() {
			l = st.Sel.Render(widget.Fit(l, inner))
		}
		lines = append(lines, l)
	}
	return widget.Box(st, "Query the table or an index", lines, w, h, true)
}

var modeIndexes = &keymap.Mode{Name: "indexes", Keys: []keymap.Binding{
	keymap.InBar("open", "use it"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("top"), keymap.Bind("bottom"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}
