package ui

import (
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/widget"
)

// The follow-the-keys overlay: F on an item lists the partitions its keys
// name (links.go finds and confirms them) with what each confirmation
// found; enter asks the root to open a confirmed one.

// link is one partition an item may name.
type link struct {
	pk, from string
	checked  bool
	found    bool
	err      string
}

// linksOverlay lists the candidates and what their confirmation found.
type linksOverlay struct {
	req    int // the confirmations' id
	links  []link
	cursor int
	item   dynamo.Item
}

func (linksOverlay) Mode(overlay.Env) *keymap.Mode { return modeLinks }

func (linksOverlay) Hides() overlay.Hidden { return overlay.Hidden{} }

func (o linksOverlay) ID() overlay.ID { return overlay.LinksID }

func (o linksOverlay) Update(e overlay.Env, msg tea.Msg) (overlay.Overlay, overlay.Want) {
	var act string
	o.cursor, act = listKey(e.Keys, msg, o.cursor, len(o.links))
	switch act {
	case "open":
		l := o.links[o.cursor]
		if !l.found {
			return o, overlay.ShowInfo{Text: "partition " + sanitize(l.pk) + " is not confirmed: nothing to open"}
		}
		return o, overlay.JumpTo{It: o.item, To: overlay.JumpTarget{PK: l.pk, Label: "linked partition " + sanitize(l.pk)}}
	case "close":
		return o, overlay.Close{}
	}
	return o, nil
}

func (o linksOverlay) View(e overlay.Env, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.St.Muted.Render("Partitions this item's keys and values name, each confirmed with one Limit 1 Query."), ""}
	for i, l := range o.links {
		state := "confirming…"
		switch {
		case l.err != "":
			state = "failed: " + l.err
		case l.checked && l.found:
			state = "✓ there"
		case l.checked:
			state = "✗ empty"
		}
		line := widget.Fit("   "+sanitize(l.pk)+"  ("+sanitize(l.from)+")  "+state, inner)
		switch {
		case i == o.cursor:
			line = e.St.Sel.Render(line)
		case l.checked && !l.found:
			line = e.St.Muted.Render(line)
		}
		lines = append(lines, line)
	}
	return widget.Box(e.St, "Follow the keys", lines, w, h, true)
}

var modeLinks = &keymap.Mode{Name: "follow the keys", Keys: []keymap.Binding{
	keymap.InBar("open", "open there"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

func (o linksOverlay) Subject() dynamo.Item { return o.item }

func (o linksOverlay) CursorAt() int { return o.cursor }

func (o linksOverlay) WithCursor(c int) overlay.Overlay {
	o.cursor = clamp(c, 0, len(o.links)-1)
	return o
}
