package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
)

// The overlay stack (overlay.go says what an overlay is): the root keeps
// the overlays opened, the last on top, gives the top one what it may read
// (env) and carries out what it asks (Model.do, actions.go). The stack is
// copied on every change: an older copy of the model keeps the stack it
// had.

// top is the overlay on top, nil when none is open.
func (m Model) top() overlay.Overlay {
	if len(m.overlays) == 0 {
		return nil
	}
	return m.overlays[len(m.overlays)-1]
}

// topID is the id of the overlay on top, overlayNone when none is open.
func (m Model) topID() overlay.ID {
	if o := m.top(); o != nil {
		return o.ID()
	}
	return overlay.None
}

// push opens o over whatever is shown.
func (m Model) push(o overlay.Overlay) Model {
	m.overlays = append(slices.Clip(m.overlays), m.keptCursor(o))
	return m
}

// setTop replaces the top overlay, after an update changed it.
func (m Model) setTop(o overlay.Overlay) Model {
	if len(m.overlays) == 0 {
		return m.push(o)
	}
	m.overlays = slices.Clone(m.overlays)
	m.overlays[len(m.overlays)-1] = o
	return m
}

// pop closes the top overlay.
func (m Model) pop() Model {
	if n := len(m.overlays); n > 0 {
		m.overlays = slices.Clip(m.overlays[:n-1])
	}
	return m
}

// remove closes every overlay of that id, wherever it is on the stack.
func (m Model) remove(id overlay.ID) Model {
	m.overlays = slices.DeleteFunc(slices.Clone(m.overlays), func(o overlay.Overlay) bool { return o.ID() == id })
	return m
}

// closeOverlays closes them all.
func (m Model) closeOverlays() Model {
	m.overlays = nil
	return m
}

// findOverlay is the topmost overlay of type T, and whether there is one.
func findOverlay[T overlay.Overlay](m Model) (T, bool) {
	for i := len(m.overlays) - 1; i >= 0; i-- {
		if o, ok := m.overlays[i].(T); ok {
			return o, true
		}
	}
	var zero T
	return zero, false
}

// replaceOverlay puts o in the place of the topmost overlay of its type.
func replaceOverlay[T overlay.Overlay](m Model, o T) Model {
	for i := len(m.overlays) - 1; i >= 0; i-- {
		if _, ok := m.overlays[i].(T); ok {
			m.overlays = slices.Clone(m.overlays)
			m.overlays[i] = o
			return m
		}
	}
	return m
}

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
		DrawLog:   func(w, h int) string { return m.log.expanded(m.st, m.table.Name, w, h) },
		DrawItems: func(w, h int) string { return m.items.view(m.st, w, h, false, m.itemsTitle(m.layout()), m.colourOf) },
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
