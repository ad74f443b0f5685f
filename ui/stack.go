package ui

import (
	"slices"

	"dynascope/ui/overlay"
)

// The overlay stack (ui/overlay says what an overlay is): the root keeps
// the overlays opened, the last on top; env.go gives the top one what it
// may read and actions.go carries out what it asks. The stack is copied on
// every change: an older copy of the model keeps the stack it had.

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
