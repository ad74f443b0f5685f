package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"dynascope/config"
	"dynascope/ui/overlay"
)

// Switching connection: ctrl+k opens the connections overlay over the
// choices the command line gave (Options.Connections); enter there asks
// for SwitchConnection, the root connects through Options.Switch, which
// the command line built (ui reads no settings, profiles or environment),
// and on success starts over on the new connection at the table picker:
// the same terminal, settings, patterns and request log, nothing else of
// the table left. Replies of the old connection that carry an id are
// stale by it (the ids go on from the old model's); those that carry none
// (the table list and its descriptions) carry the connection's generation.

// switchedMsg answers switchCmd.
type switchedMsg struct {
	to  config.Choice
	sw  Switched
	err error
}

func switchCmd(ctx context.Context, f func(context.Context, config.Choice) (Switched, error), to config.Choice) tea.Cmd {
	return func() tea.Msg {
		sw, err := f(ctx, to)
		return switchedMsg{to: to, sw: sw, err: err}
	}
}

// connectionLabel names the connection in use as the header and the
// picker do: the settings' connection, else the profile, else "" (the
// SDK's default credentials name nothing).
func (m Model) connectionLabel() string {
	switch {
	case m.opts.Connection != "":
		return config.Choice{Name: m.opts.Connection}.Label()
	case m.opts.Profile != "":
		return config.Choice{Name: m.opts.Profile, Profile: true}.Label()
	}
	return ""
}

// openConnections opens the picker, or says why it cannot be.
func (m Model) openConnections() Model {
	if m.opts.Switch == nil {
		m.status.Err = "switching connection is not offered here; start dynascope again with --connection or --profile."
		return m
	}
	return m.push(overlay.NewConnections(m.opts.Connections, m.connectionLabel()))
}

// switchConnection connects to the choice, unless a write or an export is
// in flight: their outcome must be seen on the connection they went to.
func (m Model) switchConnection(to config.Choice) (Model, tea.Cmd) {
	switch {
	case m.opts.Switch == nil:
		return m.openConnections(), nil
	case m.flight.busy(flightWrite):
		m.status.Err = "a write is in flight: wait for its answer before switching connection."
		return m, nil
	case m.export.running:
		m.status.Err = "an export is in flight: let it end or cancel it (x, then esc) before switching connection."
		return m, nil
	}
	m.status.Err, m.status.Info = "", "connecting to "+sanitize(to.Label())+"…"
	return m, switchCmd(m.ctx, m.opts.Switch, to)
}

// switched starts over on the new connection at the table picker, or
// says in the status line why it could not connect (the old one stays).
func (m Model) switched(msg switchedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		m.status.Info, m.status.Err = "", sanitize(msg.err.Error())
		return m, nil
	}
	m.cancelAll()
	m.flight.stop(flightBulk)
	m = m.stopLive()
	o := m.opts
	o.Store, o.Streams, o.Editor = msg.sw.Store, msg.sw.Streams, msg.sw.Editor
	o.Region, o.Endpoint, o.Profile, o.Connection = msg.sw.Region, msg.sw.Endpoint, msg.sw.Profile, msg.sw.Connection
	o.Table, o.Index, o.PK = "", "", ""
	n := New(o)
	// What belongs to the terminal and the session, not the connection.
	n.ctx, n.send, n.exports, n.after, n.clip = m.ctx, m.send, m.exports, m.after, m.clip
	n.w, n.h, n.log = m.w, m.h, m.log
	if !n.fixedTheme {
		n.dark = m.dark
		n.setStyles(newStyles(n.dark, n.noColor))
	}
	n.flight.seq = m.flight.seq // no reply of the old connection matches a new id
	n.gen = m.gen + 1
	n.status.Info = "connected to " + sanitize(msg.to.Label()) + "."
	n = n.relayout()
	return n, n.Init()
}
