package overlay

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The log overlay: L on a partition shows the whole request log (kept by
// the root model, a ui/pane.RequestLog), each request with its cost; C shows the
// code of the one selected, y copies it as an aws CLI command.

// Log is the request log, expanded; the log is the root's.
type Log struct{}

// ID names the overlay.
func (Log) ID() ID { return LogID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Log) Mode(Env) *keymap.Mode { return modeLog }

// Hides says which lines of the screen the overlay takes over.
func (Log) Hides() Hidden { return Hidden{Log: true} }

// View draws the overlay w×h from what the root gives it.
func (Log) View(e Env, w, h int) string { return e.DrawLog(w, h) }

// Update moves the log's cursor, which the root keeps with the log: the
// code view (C) and the collapsed log read it.
func (o Log) Update(e Env, msg tea.Msg) (Overlay, Want) {
	h := max(1, e.BodyH-2)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if d := widget.WheelDelta(msg); d != 0 {
			return o, MoveLog{Delta: d, H: h}
		}
	case tea.KeyPressMsg:
		km := e.Keys
		if d, ok := km.Step(msg, h); ok {
			return o, MoveLog{Delta: d, H: h}
		}
		switch {
		case key.Matches(msg, km.CopyCommand):
			return o, CopyRequest{}
		case key.Matches(msg, km.Code):
			return o, OpenLoggedCode{}
		case key.Matches(msg, km.Log, km.Back, km.Cancel):
			return o, Close{}
		}
	}
	return o, nil
}

var modeLog = &keymap.Mode{Name: "log", Keys: keymap.KeysOf(
	[]keymap.Binding{keymap.InBar("help"), keymap.InBar("back", "close"), keymap.InBar("code", "code for the selected request"), keymap.InBar("copyCommand")},
	keymap.MoveKeys,
	[]keymap.Binding{keymap.Bind("log", "close request log"), keymap.Bind("cancel", "close")},
)}
