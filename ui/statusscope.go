package ui

import (
	tea "charm.land/bubbletea/v2"
)

// A status message belongs to the screen it was made on: "copied the
// request …" said on the partition must not stand under the overview, nor
// "saved pattern …" over a Scan. Update notes where each new message was
// made and drops it once another screen is showing, so no setter of
// status.info has to know about screens.

func (m Model) place() place { return place{m.screen, m.topID()} }

// Update routes the message (route) and keeps the status message on its screen.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before := m.status.Info
	tm, cmd := m.route(msg)
	n, ok := tm.(Model)
	if !ok {
		return tm, cmd
	}
	switch here := n.place(); {
	case n.status.Info == "":
	case n.status.Info != before:
		n.infoOn = here
	case n.infoOn != here:
		n.status.Info = ""
	}
	return n, cmd
}
