package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/ui/widget"
)

// The log overlay: L on a partition shows the whole request log (kept by
// the root model, requestlog.go), each request with its cost; C shows the
// code of the one selected, y copies it as an aws CLI command.

type logOverlay struct{}

func (logOverlay) id() overlayID        { return overlayLog }
func (logOverlay) mode(overlayEnv) mode { return modeLog }
func (logOverlay) hides() hidden        { return hidden{log: true} }

func (logOverlay) view(e overlayEnv, w, h int) string { return e.drawLog(w, h) }

// openLog shows the log, its cursor on a request in view.
func (m Model) openLog() Model {
	m.log = m.log.move(0, m.layout().bodyH-2)
	return m.push(logOverlay{})
}

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
		if d, ok := scrollDelta(msg, km, h); ok {
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

// expanded is the whole log in a box of w×h, scrollable.
func (l requestLog) expanded(st styles, table string, w, h int) string {
	inner := w - 2
	shown := max(1, h-2)
	offset := scrollOffset(l.offset, l.cursor, shown, len(l.reqs))
	var lines []string
	cw := l.widths(offset, min(len(l.reqs), offset+shown))
	for i := offset; i < len(l.reqs) && i < offset+shown; i++ {
		s := l.line(st, i+1, table, cw, inner)
		if i == l.cursor {
			s = st.Sel.Render(ansi.Strip(widget.Fit(s, inner)))
		}
		lines = append(lines, s)
	}
	if len(l.reqs) == 0 {
		lines = append(lines, st.Muted.Render("    no requests yet"))
	}
	// The figures before the legend: where the title is cut, the legend goes.
	title := fmt.Sprintf("Requests · %s · %s RCU — %s", plural(len(l.reqs), "request", "requests"), fmtRCU(l.total.Total), strings.TrimPrefix(l.title(inner), "Requests — "))
	if l.writes > 0 {
		// The writes first: the legend after them may be cut.
		title = fmt.Sprintf("Requests · %s · %s RCU · %s, %s WCU — %s", plural(len(l.reqs), "request", "requests"), fmtRCU(l.total.Total),
			plural(l.writes, "write", "writes"), fmtRCU(l.wcu), strings.TrimPrefix(l.title(inner), "Requests — "))
	}
	return widget.Box(st, title, lines, w, h, true)
}

var logMode = modeDef{name: "log", keys: keysOf(
	[]binding{inBar("help"), inBar("back", "close"), inBar("code", "code for the selected request"), inBar("copyCommand")},
	moveKeys,
	[]binding{bind("log", "close request log"), bind("cancel", "close")},
)}
