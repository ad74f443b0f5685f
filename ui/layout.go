package ui

import (
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// layout is where everything goes for the current size and state. Update
// uses it too (page sizes, mouse hits), so it depends on nothing View alone knows.
type layout struct {
	w, h    int
	compact bool // under 80×24: one pane at a time, one log line

	queryY, queryH int
	hintH          int
	noteH          int // the note of the pattern whose results are shown (projectionLines)
	bodyY, bodyH   int
	logY, logH     int
	logN           int // request lines in the collapsed log
	errY, errH     int
	statusY        int

	showGroups, showItems bool
	groupsW               int
	itemsX, itemsW        int
	itemRows              int // item rows the items pane shows
}

// minimum size drawn; a smaller terminal gets this much, clipped.
const minW, minH = 40, 10

func (m Model) layout() layout {
	l := layout{w: max(m.w, minW), h: max(m.h, minH)}
	l.compact = m.w < 80 || m.h < 24
	var hide overlay.Hidden
	if o := m.top(); o != nil {
		hide = o.Hides()
	}
	y := 1
	if m.screen == screenPartition && !hide.Query {
		l.queryY, l.queryH = y, 1
		y++
		if m.qline.Edit != pane.EditNone || m.readNote() != "" {
			// The hint while editing; under a filtered request, what it
			// kept of what it read.
			l.hintH = 1
			y++
		}
		l.noteH = len(m.projectionLines(l.w))
		y += l.noteH
	}
	l.statusY = l.h - 1
	l.errH = len(m.statusShown().ErrorLines(m.st, l.w))
	l.errY = l.statusY - l.errH
	if !hide.Log {
		switch {
		case l.compact:
			l.logN, l.logH = 1, 1
		case l.h < 28:
			l.logN, l.logH = 2, 3
		case l.h < 34:
			l.logN, l.logH = 3, 4
		default:
			// A tall terminal gives the log room too: 4 lines at 34 rows,
			// one more every 5 rows, up to 10 (9 at 60 rows).
			l.logN = min(10, 4+(l.h-34)/5)
			l.logH = l.logN + 1
		}
	}
	l.logY = l.errY - l.logH
	l.bodyY, l.bodyH = y, max(3, l.logY-y)

	l.itemsW = l.w
	if l.compact {
		l.showGroups, l.showItems = m.focus == paneGroups, m.focus == paneItems
		l.groupsW = l.w
	} else {
		l.showGroups, l.showItems = true, true
		l.groupsW = clamp(l.w/4, 24, 34)
		l.itemsX, l.itemsW = l.groupsW, l.w-l.groupsW
	}
	l.itemRows = max(1, l.bodyH-pane.ItemsChrome)
	return l
}

// groupRows is how many entity types the groups pane shows.
func (l layout) groupRows() int { return max(1, (l.bodyH-2)/groupRowHeight(l.compact)) }
