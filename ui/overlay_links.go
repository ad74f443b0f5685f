package ui

import (
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
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

func (linksOverlay) mode(overlayEnv) *keymap.Mode { return modeLinks }

func (linksOverlay) hides() hidden { return hidden{} }

func (o linksOverlay) id() overlayID { return overlayLinks }

func (o linksOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	var act string
	o.cursor, act = listKey(e.keys, msg, o.cursor, len(o.links))
	switch act {
	case "open":
		l := o.links[o.cursor]
		if !l.found {
			return o, showInfo{"partition " + sanitize(l.pk) + " is not confirmed: nothing to open"}
		}
		return o, jumpTo{o.item, jumpTarget{pk: l.pk, label: "linked partition " + sanitize(l.pk)}}
	case "close":
		return o, closeOverlay{}
	}
	return o, nil
}

func (o linksOverlay) view(e overlayEnv, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.st.Muted.Render("Partitions this item's keys and values name, each confirmed with one Limit 1 Query."), ""}
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
			line = e.st.Sel.Render(line)
		case l.checked && !l.found:
			line = e.st.Muted.Render(line)
		}
		lines = append(lines, line)
	}
	return widget.Box(e.st, "Follow the keys", lines, w, h, true)
}

var modeLinks = &keymap.Mode{Name: "follow the keys", Keys: []keymap.Binding{
	keymap.InBar("open", "open there"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

func (o linksOverlay) subject() dynamo.Item { return o.item }

func (o linksOverlay) cursorAt() int { return o.cursor }

func (o linksOverlay) withCursor(c int) overlay {
	o.cursor = clamp(c, 0, len(o.links)-1)
	return o
}
