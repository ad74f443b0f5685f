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

func (Indexes) ID() ID                { return IndexesID }
func (Indexes) Mode(Env) *keymap.Mode { return modeIndexes }
func (Indexes) Hides() Hidden         { return Hidden{} }

func (o Indexes) View(e Env, w, h int) string {
	return o.p.viewBox(e.St, e.Table, e.Index, w, h)
}

func (o Indexes) Update(e Env, msg tea.Msg) (Overlay, Want) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil
	}
	km := e.Keys
	switch {
	case key.Matches(k, km.Up):
		o.p = o.p.move(-1, e.Table)
	case key.Matches(k, km.Down):
		o.p = o.p.move(1, e.Table)
	case key.Matches(k, km.Top):
		o.p = o.p.move(-1<<30, e.Table)
	case key.Matches(k, km.Bottom):
		o.p = o.p.move(1<<30, e.Table)
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
	cursor int // 0 is the table, i is Indexes[i-1]
}

func (p indexPicker) name(t dynamo.Table) string {
	if p.cursor <= 0 || p.cursor > len(t.Indexes) {
		return ""
	}
	return t.Indexes[p.cursor-1].Name
}

func (p indexPicker) move(delta int, t dynamo.Table) indexPicker {
	p.cursor = widget.Clamp(p.cursor+delta, 0, len(t.Indexes))
	return p
}

func pickerAt(t dynamo.Table, index string) indexPicker {
	for i, x := range t.Indexes {
		if x.Name == index {
			return indexPicker{cursor: i + 1}
		}
	}
	return indexPicker{}
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
		if i == p.cursor {
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
