package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/widget"
)

// The indexes overlay: i on a partition chooses between the table and its
// secondary indexes.

type indexesOverlay struct{ p indexPicker }

func (indexesOverlay) ID() overlay.ID                { return overlay.IndexesID }
func (indexesOverlay) Mode(overlay.Env) *keymap.Mode { return modeIndexes }
func (indexesOverlay) Hides() overlay.Hidden         { return overlay.Hidden{} }

func (o indexesOverlay) View(e overlay.Env, w, h int) string {
	return o.p.viewBox(e.St, e.Table, e.Index, w, h)
}

func (o indexesOverlay) Update(e overlay.Env, msg tea.Msg) (overlay.Overlay, overlay.Want) {
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
			return o, overlay.Close{}
		}
		return o, overlay.Then{overlay.Close{}, overlay.ChooseIndex{Name: name}}
	case key.Matches(k, km.Back, km.Cancel):
		return o, overlay.Close{}
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
	p.cursor = clamp(p.cursor+delta, 0, len(t.Indexes))
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

func (p indexPicker) viewBox(st styles, t dynamo.Table, current string, w, h int) string {
	inner := w - 2
	ks, _ := t.Schema("")
	rows := [][4]string{{"table " + sanitize(t.Name), "", sanitize(ks.KeyText()), "every attribute"}}
	for _, x := range t.Indexes {
		xs := dynamo.KeySchema{Index: x.Name, PK: x.PK, SK: x.SK}
		proj := x.Projection
		if x.Projection == "INCLUDE" {
			proj = fmt.Sprintf("INCLUDE %d", len(x.NonKeyAttr))
		}
		rows = append(rows, [4]string{sanitize(x.Name), string(x.Kind), sanitize(xs.KeyText()), sanitize(proj)})
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
