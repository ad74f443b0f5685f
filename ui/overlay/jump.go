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
	cursor  int
}

// NewJump lists where it can be opened, the cursor on the first place it
// is in.
func NewJump(it dynamo.Item, targets []JumpTarget) Jump {
	o := Jump{item: it, targets: targets}
	for i, tg := range targets {
		if tg.Why == "" {
			o.cursor = i
			break
		}
	}
	return o
}

// Target is the place under the cursor, which enter opens.
func (o Jump) Target() JumpTarget {
	if o.cursor < 0 || o.cursor >= len(o.targets) {
		return JumpTarget{}
	}
	return o.targets[o.cursor]
}

func (Jump) ID() ID { return JumpID }

func (Jump) Mode(Env) *keymap.Mode { return modeJump }

func (Jump) Hides() Hidden { return Hidden{} }

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

func (o Jump) Update(e Env, msg tea.Msg) (Overlay, Want) {
	var act string
	o.cursor, act = listKey(e.Keys, msg, o.cursor, len(o.targets))
	switch act {
	case "open":
		tg := o.targets[o.cursor]
		if tg.Why != "" {
			return o, ShowInfo{Text: "the item is not in " + tg.Label + ": " + textfmt.Sanitize(tg.Why)}
		}
		return o, JumpTo{It: o.item, To: tg}
	case "close":
		return o, Close{}
	}
	return o, nil
}

func (o Jump) View(e Env, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.St.Muted.Render("Open the item's partition there, the cursor on the item; esc there comes back."), ""}
	for i, tg := range o.targets {
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

func (o Jump) Subject() dynamo.Item { return o.item }

func (o Jump) CursorAt() int { return o.cursor }

func (o Jump) WithCursor(c int) Overlay {
	o.cursor = widget.Clamp(c, 0, len(o.targets)-1)
	return o
}
