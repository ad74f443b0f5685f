package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
)

// The log overlay: L on a partition shows the whole request log (kept by
// the root model, requestlog.go), each request with its cost; C shows the
// code of the one selected, y copies it as an aws CLI command.

type logOverlay struct{}

func (logOverlay) id() overlayID                { return overlayLog }
func (logOverlay) mode(overlayEnv) *keymap.Mode { return modeLog }
func (logOverlay) hides() hidden                { return hidden{log: true} }

func (logOverlay) view(e overlayEnv, w, h int) string { return e.drawLog(w, h) }

// update moves the log's cursor, which the root keeps with the log: the
// code view (C) and the collapsed log read it.
func (o logOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	h := max(1, e.bodyH-2)
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if d := wheelDelta(msg); d != 0 {
			return o, moveLog{delta: d, h: h}
		}
	case tea.KeyPressMsg:
		km := e.keys
		if d, ok := km.Step(msg, h); ok {
			return o, moveLog{delta: d, h: h}
		}
		switch {
		case key.Matches(msg, km.CopyCommand):
			return o, copyRequest{}
		case key.Matches(msg, km.Code):
			return o, openLoggedCode{}
		case key.Matches(msg, km.Log, km.Back, km.Cancel):
			return o, closeOverlay{}
		}
	}
	return o, nil
}

var modeLog = &keymap.Mode{Name: "log", Keys: keymap.KeysOf(
	[]keymap.Binding{keymap.InBar("help"), keymap.InBar("back", "close"), keymap.InBar("code", "code for the selected request"), keymap.InBar("copyCommand")},
	keymap.MoveKeys,
	[]keymap.Binding{keymap.Bind("log", "close request log"), keymap.Bind("cancel", "close")},
)}
