package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The live pane: T on a partition shows the partition's writes as they
// arrive from the table's stream (live.go), newest at the bottom, each line
// in its entity type's colour; the items pane above it changes in place.
// q or esc closes it and stops the tail.

type liveOverlay struct{}

func (liveOverlay) id() overlayID                { return overlayLive }
func (liveOverlay) mode(overlayEnv) *keymap.Mode { return modeLive }
func (liveOverlay) hides() hidden                { return hidden{} }

func (o liveOverlay) update(e overlayEnv, msg tea.Msg) (overlay, want) {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(msg, e.keys.Log):
			return o, openLogList{}
		case key.Matches(msg, e.keys.Live, e.keys.Back, e.keys.Cancel):
			return o, then{stopLive{}, closeOverlay{}}
		}
	}
	return o, nil
}

// liveView is what the live pane shows of the tail the root runs
// (liveState, live.go): the partition's lines and the tail's counts.
type liveView struct {
	pk                  string // the partition tailed
	lines               []liveLine
	seen, polls, others int
	err                 string
	starting, running   bool
	keysOnly            bool // the stream carries keys only
}

// livePricing is DynamoDB's documented rule for stream reads, as help and
// the pane say it.
const livePricing = "each GetRecords is one streams read request unit, billed apart from table reads (the first 2,500,000 a month in each region are free); other stream calls are free"

// view draws the partition's items (the root's items pane) above the live
// lines: a write shows in both at once.
func (o liveOverlay) view(e overlayEnv, w, h int) string {
	if h < 12 {
		return o.lines(e, w, h)
	}
	top := h / 2
	return e.drawItems(w, top) + "\n" + o.lines(e, w, h-top)
}

// lines is the box of the live lines, w×h.
func (liveOverlay) lines(e overlayEnv, w, h int) string {
	st := e.st
	l := e.live
	var lines []string
	switch {
	case l.err != "":
		for _, s := range widget.WrapLines(l.err, w-2) {
			lines = append(lines, st.Err.Render(s))
		}
	case l.starting:
		lines = append(lines, st.Muted.Render("  reading the stream's shards…"))
	case len(l.lines) == 0:
		lines = append(lines, st.Muted.Render(widget.Fit("  waiting for writes to "+sanitize(l.pk)+" — "+livePricing, w-2)))
	}
	shown := max(1, h-2-len(lines))
	from := max(0, len(l.lines)-shown)
	for _, ln := range l.lines[from:] {
		text := widget.Fit(ln.text, w-2)
		if ln.mine {
			text = widget.Fit(ln.text+"  (yours)", w-2)
		}
		lines = append(lines, st.Entity(ln.colour).Render(text))
	}
	state := "live"
	if !l.running && !l.starting {
		state = "stopped"
	}
	title := fmt.Sprintf("Writes to %s · %s · %s · %s GetRecords", sanitize(l.pk), state, plural(l.seen, "record", "records"), fmt.Sprint(l.polls))
	if l.keysOnly {
		title += " · keys only"
	}
	if l.others > 0 {
		title += fmt.Sprintf(" · %d of other partitions left out", l.others)
	}
	return widget.Box(st, title, lines, w, h, true)
}

// liveHelpNote is what help adds where T works (the live pane, the
// partition's panes): how stream reads are priced.
const liveHelpNote = " The live pane (T) reads the table's stream, not the table: " + livePricing + "; an idle shard is polled once a second."

var modeLive = &keymap.Mode{Name: "live pane", Note: liveHelpNote, Keys: []keymap.Binding{
	keymap.InBar("help"), keymap.InBar("back", "close, stop the tail"), keymap.InBar("log"),
	keymap.Bind("live", "close the live pane"), keymap.Bind("cancel", "close, stop the tail"),
}}
