package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
)

// What the overlays see of the root and how it answers them: the Env the
// top overlay is given for each message and frame (the root's state as
// values, the keys of its mode), the message handed to it, and the
// redrawing of overlays that keep a layout for the width. The stack
// itself is stack.go's; what an overlay asks for is done in actions.go.

// relayoutOverlays redraws the overlays that keep a drawing for the width.
func (m Model) relayoutOverlays() Model {
	for i, o := range m.overlays {
		if r, ok := o.(overlay.Relayouter); ok {
			m.overlays = slices.Clone(m.overlays)
			m.overlays[i] = r.Relayout(m.stateEnv())
		}
	}
	return m
}

// env builds what the top overlay may read: the root's state and the keys
// of the overlay's mode.
func (m Model) env() overlay.Env {
	e := m.stateEnv()
	e.Keys = m.keyMap()
	return e
}

// stateEnv is what an overlay may read of the root but its keys, which
// follow from its mode: what its mode is decided from.
func (m Model) stateEnv() overlay.Env {
	lay := m.layout()
	e := overlay.Env{
		St: m.st, W: lay.w, BodyH: lay.bodyH,
		Table: m.table, Index: m.index, Patterns: m.patterns,
		Version: m.opts.Settings.VersionAttribute, Overview: m.overview, Exporting: m.export.running,
		Export: overlay.ExportProgress{Done: m.export.done, N: m.export.src.n, Path: m.export.path},
		Keymap: m.keymap, KeyState: m.keyState(), Help: m.help, Price: m.opts.Settings.PricePerMillionReads, PatternsPath: m.patternsPath, PatternsErr: m.opts.PatternsErr, EntityNames: m.opts.EntityNames,
		DrawLog:   func(w, h int) string { return m.log.Expanded(m.st, m.table.Name, w, h) },
		DrawItems: func(w, h int) string { return m.items.View(m.st, w, h, false, m.itemsTitle(m.layout()), m.colourOf) },
		Live: overlay.LiveView{PK: m.query.PK, Lines: m.live.lines, Seen: m.live.seen, Polls: m.live.polls, Others: m.live.others,
			Err: m.live.err, Starting: m.live.starting, Running: m.live.id != 0, KeysOnly: m.live.info.ViewType == "KEYS_ONLY"},
	}
	if m.opts.Editor != nil {
		e.Target = m.opts.Editor.Target()
	}
	return e
}

// updateTop gives msg to the overlay on top and does what it asks.
func (m Model) updateTop(o overlay.Overlay, msg tea.Msg) (Model, tea.Cmd) {
	next, a := o.Update(m.env(), msg)
	return m.setTop(next).do(a)
}

// toggleHelp opens help on the mode md, or closes it when it is on top.
func (m Model) toggleHelp(md *keymap.Mode) Model {
	if m.topID() == overlay.HelpID {
		return m.pop()
	}
	return m.push(overlay.NewHelp(md))
}
