package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/widget"
)

// The help overlay: every key of the mode it was asked in, built from that
// mode's keymap, so a disabled binding never shows. ? opens it anywhere ?
// is bound, and ? or esc closes it, back to the view it was asked from.

type helpOverlay struct {
	of     mode // the mode whose keys it shows
	offset int  // first line shown, when the help is taller than the box
}

func (helpOverlay) id() overlayID        { return overlayHelp }
func (helpOverlay) mode(overlayEnv) mode { return modeHelp }
func (helpOverlay) hides() hidden        { return hidden{query: true, log: true} }

func (o helpOverlay) view(e overlayEnv, w, h int) string {
	lines := e.helpLines(o.of, w)
	shown := max(1, h-2)
	if len(lines) <= shown {
		return widget.Box(e.st, "Help", lines, w, h, true)
	}
	off := clamp(o.offset, 0, len(lines)-shown)
	title := fmt.Sprintf("Help · lines %d–%d of %d", off+1, off+shown, len(lines))
	return widget.Box(e.st, title, lines[off:off+shown], w, h, true)
}

func (o helpOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	shown := max(1, e.bodyH-2)
	n := len(e.helpLines(o.of, e.w))
	scroll := func(d int) (overlay, want) {
		o.offset = clamp(o.offset+d, 0, max(0, n-shown))
		return o, nil
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		return scroll(wheelDelta(msg))
	case tea.KeyPressMsg:
		if d, ok := scrollDelta(msg, e.keys, shown); ok {
			return scroll(d)
		}
		if key.Matches(msg, e.keys.Back, e.keys.Cancel) {
			return o, closeOverlay{} // back to the view help was asked in
		}
	}
	return o, nil
}

var helpMode = modeDef{name: "help", keys: []binding{
	inBar("back", "close"), bind("help", "close help"), bind("cancel", "close"),
	bind("up", "scroll up"), bind("down", "scroll down"), bind("pageUp"), bind("pageDown"), bind("top"), bind("bottom"),
}}
