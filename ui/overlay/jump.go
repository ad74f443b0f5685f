package overlay

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The open-in-index overlay: I on an item lists where it can be opened —
// each index it is in, or the base table from an index entry — and enter
// asks the root to open it there (xray.go jumps).

// JumpTarget is one place an item can be opened in: an index, or the base
// table (from an index entry), or a partition its keys name.
type JumpTarget struct {
	Index  string // "" for the base table
	PK, SK string // the item's key values there, as text ("" SK without a sort key)
	Label  string
	Why    string // why it cannot be opened there; "" when it can
}

// Jump chooses where to open the item.
type Jump struct {
	item    dynamo.Item
	targets []JumpTarget
	list    widget.List // over targets
}

// NewJump lists where it can be opened, the cursor on the first place it
// is in.
func NewJump(it dynamo.Item, targets []JumpTarget) Jump {
	o := Jump{item: it, targets: targets, list: widget.NewList(len(targets))}
	for i, tg := range targets {
		if tg.Why == "" {
			o.list = o.list.MoveTo(i)
			break
		}
	}
	return o
}

// Target is the place under the cursor, which enter opens.
func (o Jump) Target() JumpTarget {
	i, ok := o.list.Selected()
	if !ok {
		return JumpTarget{}
	}
	return o.targets[i]
}

// ID names the overlay.
func (Jump) ID() ID { return JumpID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Jump) Mode(Env) *keymap.Mode { return modeJump }

// Hides says which lines of the screen the overlay takes over.
func (Jump) Hides() Hidden { return Hidden{} }

// listKey is what a key does in a list overlay: it moves l's cursor (by
// the movement keys the overlay's mode turns on), or asks to open (enter)
// or to close (q, esc).
func listKey(km keymap.KeyMap, msg tea.Msg, l widget.List) (widget.List, string) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, ""
	}
	if moved, ok := l.Key(k, km.ListKeys()); ok {
		return moved, ""
	}
	switch {
	case key.Matches(k, km.Open):
		return l, "open"
	case key.Matches(k, km.Back, km.Cancel):
		return l, "close"
	}
	return l, ""
}

// listLines draws every row of l (a list overlay shows them all), row
// drawing row i.
func listLines(l widget.List, w int, row func(i int, cursor bool) string) []string {
	return l.SetHeight(l.Len()).View(w, widget.Delegate{Render: func(r widget.Row, w int) []string {
		return []string{row(r.Index, r.Cursor)}
	}})
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Jump) Update(e Env, msg tea.Msg) (Overlay, Want) {
	var act string
	o.list, act = listKey(e.Keys, msg, o.list)
	switch act {
	case "open":
		tg := o.Target()
		if tg.Why != "" {
			return o, ShowInfo{Text: "the item is not in " + tg.Label + ": " + textfmt.Sanitize(tg.Why)}
		}
		return o, JumpTo{It: o.item, To: tg}
	case "close":
		return o, Close{}
	}
	return o, nil
}

// View draws the overlay w×h from what the root gives it.
func (o Jump) View(e Env, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.St.Muted.Render("Open the item's partition there, the cursor on the item; esc there comes back."), ""}
	lines = append(lines, listLines(o.list, inner, func(i int, cursor bool) string {
		tg := o.targets[i]
		l := "   " + tg.Label
		if tg.Why != "" {
			l += " — not in it: " + textfmt.Sanitize(tg.Why)
		} else {
			l += " · " + textfmt.Sanitize(tg.PK)
			if tg.SK != "" {
				l += " / " + textfmt.Sanitize(tg.SK)
			}
		}
		l = widget.Fit(l, inner)
		switch {
		case cursor:
			l = e.St.Sel.Render(l)
		case tg.Why != "":
			l = e.St.Muted.Render(l)
		}
		return l
	})...)
	return widget.Box(e.St, "Open the item in", lines, w, h, true)
}

var modeJump = &keymap.Mode{Name: "open in index", Keys: []keymap.Binding{
	keymap.InBar("open", "open there"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

// Subject is the item the overlay is about (CursorKeeper).
func (o Jump) Subject() dynamo.Item { return o.item }

// CursorAt is the row the cursor is on (CursorKeeper).
func (o Jump) CursorAt() int { return o.list.Cursor() }

// WithCursor puts the cursor on row c, clamped (CursorKeeper).
func (o Jump) WithCursor(c int) Overlay {
	o.list = o.list.MoveTo(c)
	return o
}
