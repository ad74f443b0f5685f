package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Every view measures text by grapheme cluster (widget.Width): a family
// emoji joined by ZWJs (👨‍👩‍👧), a flag, a skin tone is one cluster of two
// cells. Bubble Tea's renderer, though, lays a frame out by wcwidth until
// the terminal reports Unicode mode 2027 (which tmux and most terminals
// never do): it counts 👨‍👩‍👧 as six cells, so a row fitted to the pane by
// the views' measure runs four cells past its right border, and the border
// is cut off. graphemeWidths is the report the renderer waits for, sent by
// the UI itself at start: the renderer then measures as the views do (and
// asks the terminal for mode 2027, which one that clusters honours).
func graphemeWidths() tea.Msg {
	return tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet}
}
