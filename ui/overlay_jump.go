package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The open-in-index overlay: I on an item lists where it can be opened —
// each index it is in, or the base table from an index entry — and enter
// asks the root to open it there (xray.go jumps).

// jumpTarget is one place I can open the item in.
type jumpTarget struct {
	index  string // "" for the base table
	pk, sk string // the item's key values there, as text ("" sk without a sort key)
	label  string
	why    string // why it cannot be opened there; "" when it can
}

// jumpOverlay chooses where to open the item.
type jumpOverlay struct {
	item    dynamo.Item
	targets []jumpTarget
	cursor  int
}

func (jumpOverlay) id() overlayID { return overlayJump }

func (jumpOverlay) mode(overlayEnv) *keymap.Mode { return modeJump }

func (jumpOverlay) hides() hidden { return hidden{} }

// listKey is the keys of a list overlay of n rows: the cursor moved, or
// open (enter) or closing (q, esc) asked.
func listKey(km keymap.KeyMap, msg tea.Msg, cursor, n int) (int, string) {
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

func (o jumpOverlay) view(e overlayEnv, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.st.Muted.Render("Open the item's partition there, the cursor on the item; esc there comes back."), ""}
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
			l = e.st.Sel.Render(l)
		case tg.why != "":
			l = e.st.Muted.Render(l)
		}
		lines = append(lines, l)
	}
	return widget.Box(e.st, "Open the item in", lines, w, h, true)
}

var modeJump = &keymap.Mode{Name: "open in index", Keys: []keymap.Binding{
	keymap.InBar("open", "open there"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

func (o jumpOverlay) subject() dynamo.Item { return o.item }

func (o jumpOverlay) cursorAt() int { return o.cursor }

func (o jumpOverlay) withCursor(c int) overlay {
	o.cursor = clamp(c, 0, len(o.targets)-1)
	return o
}
