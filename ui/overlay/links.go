package overlay

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The follow-the-keys overlay: F on an item lists the partitions its keys
// name (links.go finds and confirms them) with what each confirmation
// found; enter asks the root to open a confirmed one.

// Link is one partition an item may name.
type Link struct {
	PK, From string // the partition, and what in the item names it
	Checked  bool   // its Limit 1 Query has answered
	Found    bool   // and found an item
	Err      string // or failed, sanitised
}

// Links lists the candidates and what their confirmation found.
type Links struct {
	req   int // the confirmations' id
	links []Link
	list  widget.List // over links
	item  dynamo.Item
}

// NewLinks lists links, the candidates item names, whose confirmations
// (request req) are on their way.
func NewLinks(req int, links []Link, item dynamo.Item) Links {
	return Links{req: req, links: links, item: item, list: widget.NewList(len(links))}
}

// Req is the id of the confirmations the list waits for.
func (o Links) Req() int { return o.req }

// Confirmed shows what the confirmations found; the cursor goes to the
// first partition that is there, unless it is on one already.
func (o Links) Confirmed(links []Link) Links {
	o.links, o.list = links, o.list.SetLen(len(links))
	if i := slices.IndexFunc(o.links, func(l Link) bool { return l.Found }); i >= 0 && !o.links[o.list.Cursor()].Found {
		o.list = o.list.MoveTo(i)
	}
	return o
}

// Mode is the keymap mode the overlay is in, by its phase.
func (Links) Mode(Env) *keymap.Mode { return modeLinks }

// Hides says which lines of the screen the overlay takes over.
func (Links) Hides() Hidden { return Hidden{} }

// ID names the overlay.
func (o Links) ID() ID { return LinksID }

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Links) Update(e Env, msg tea.Msg) (Overlay, Want) {
	var act string
	o.list, act = listKey(e.Keys, msg, o.list)
	i, ok := o.list.Selected()
	switch {
	case act == "open" && ok:
		l := o.links[i]
		if !l.Found {
			return o, ShowInfo{Text: "partition " + textfmt.Sanitize(l.PK) + " is not confirmed: nothing to open"}
		}
		return o, JumpTo{It: o.item, To: JumpTarget{PK: l.PK, Label: "linked partition " + textfmt.Sanitize(l.PK)}}
	case act == "close":
		return o, Close{}
	}
	return o, nil
}

// View draws the overlay w×h from what the root gives it.
func (o Links) View(e Env, w, h int) string {
	inner := w - 2
	lines := []string{" " + e.St.Muted.Render("Partitions this item's keys and values name, each confirmed with one Limit 1 Query."), ""}
	lines = append(lines, listLines(o.list, inner, func(i int, cursor bool) string {
		l := o.links[i]
		state := "confirming…"
		switch {
		case l.Err != "":
			state = "failed: " + l.Err
		case l.Checked && l.Found:
			state = "✓ there"
		case l.Checked:
			state = "✗ empty"
		}
		line := widget.Fit("   "+textfmt.Sanitize(l.PK)+"  ("+textfmt.Sanitize(l.From)+")  "+state, inner)
		switch {
		case cursor:
			line = e.St.Sel.Render(line)
		case l.Checked && !l.Found:
			line = e.St.Muted.Render(line)
		}
		return line
	})...)
	return widget.Box(e.St, "Follow the keys", lines, w, h, true)
}

var modeLinks = &keymap.Mode{Name: "follow the keys", Keys: []keymap.Binding{
	keymap.InBar("open", "open there"), keymap.InBar("back", "close"),
	keymap.Bind("up"), keymap.Bind("down"), keymap.Bind("cancel", "close"), keymap.Bind("help"),
}}

// Subject is the item the overlay is about (CursorKeeper).
func (o Links) Subject() dynamo.Item { return o.item }

// CursorAt is the row the cursor is on (CursorKeeper).
func (o Links) CursorAt() int { return o.list.Cursor() }

// WithCursor puts the cursor on row c, clamped (CursorKeeper).
func (o Links) WithCursor(c int) Overlay {
	o.list = o.list.MoveTo(c)
	return o
}
