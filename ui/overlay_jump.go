package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/widget"
)

// The open-in-index overlay: I on an item lists where it can be opened —
// each index it is in, or the base table from an index entry — and enter
// asks the root to open it there (xray.go jumps).

// jumpOverlay chooses where to open the item.
type jumpOverlay struct {
	item    dynamo.Item
	targets []overlay.JumpTarget
	cursor  int
}

func (jumpOverlay) ID() overlay.ID { return overlay.JumpID }

func (jumpOverlay) Mode(overlay.Env) *keymap.Mode { return modeJump }

func (jumpOverlay) Hides() overlay.Hidden { return overlay.Hidden{} }

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

func (o jumpOverlay) Update(e overlay.Env, msg tea.Msg) (overlay.Overlay, overlay.Want) {
	var act string
	o.cursor, act = listKey(e.Keys, msg, o.cursor, len(o.targets))
	switch act {
	case "open":
		tg := o.targets[o.cursor]
		if tg.Why != "" {
			return o, overlay.ShowInfo{Text: "the item is not in " + tg.Label + ": " + sanitize(tg.Why)}
		}
		return o, overlay.JumpTo{It: o.item, To: tg}
	case "close":
		return o, overlay.Close{}
	}
	return o, nil
}

func (o jumpOverlay) View(e overlay.Env, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.St.Muted.Render("Open the item's partition there, the cursor on the item; esc there comes back."), ""}
	for i, tg := range o.targets {
		l := "   " + tg.Label
		if tg.Why != "" {
			l += " — not in it: " + sanitize(tg.Why)
		} else {
			l += " · " + sanitize(tg.PK)
			if tg.SK != "" {
				l += " / " + sanitize(tg.SK)
			}
		}
		l = widget.Fit(l, inner)
		switch {
		case i == o.cursor:
			l = e.St.Sel.Render(l)
		case tg.Why != "":
			l = e.St.Muted.Render(l)
		}
		lines = append(lines, l)
	}
	return widget.Box(e.St, "Open the item in", lines, w, h, true)
}

var modeJump = &keymap.Mode{Name: "open in index", Keys: []keymap.Binding{
	keymap.InBar("open", "open there"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

func (o jumpOverlay) Subject() dynamo.Item { return o.item }

func (o jumpOverlay) CursorAt() int { return o.cursor }

func (o jumpOverlay) WithCursor(c int) overlay.Overlay {
	o.cursor = clamp(c, 0, len(o.targets)-1)
	return o
}
