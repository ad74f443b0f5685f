package overlay

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The live pane: T on a partition shows the partition's writes as they
// arrive from the table's stream (live.go), newest at the bottom, each line
// in its entity type's colour; the items pane above it changes in place.
// q or esc closes it and stops the tail.

// Live is the live pane: the partition's writes from the stream, under
// its items.
type Live struct{}

// ID names the overlay.
func (Live) ID() ID { return LiveID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Live) Mode(Env) *keymap.Mode { return modeLive }

// Hides says which lines of the screen the overlay takes over.
func (Live) Hides() Hidden { return Hidden{} }

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Live) Update(e Env, msg tea.Msg) (Overlay, Want) {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(msg, e.Keys.Log):
			return o, OpenLogList{}
		case key.Matches(msg, e.Keys.Live, e.Keys.Back, e.Keys.Cancel):
			return o, Then{StopLive{}, Close{}}
		}
	}
	return o, nil
}

// livePricing is DynamoDB's documented rule for stream reads, as help and
// the pane say it.
const livePricing = "each GetRecords is one streams read request unit, billed apart from table reads (the first 2,500,000 a month in each region are free); other stream calls are free"

// View draws the partition's items (the root's items pane) above the live
// lines: a write shows in both at once.
func (o Live) View(e Env, w, h int) string {
	if h < 12 {
		return o.lines(e, w, h)
	}
	top := h / 2
	return e.DrawItems(w, top) + "\n" + o.lines(e, w, h-top)
}

// lines is the box of the live lines, w×h.
func (Live) lines(e Env, w, h int) string {
	st := e.St
	l := e.Live
	var lines []string
	switch {
	case l.Err != "":
		for _, s := range widget.WrapLines(l.Err, w-2) {
			lines = append(lines, st.Err.Render(s))
		}
	case l.Starting:
		lines = append(lines, st.Muted.Render("  reading the stream's shards…"))
	case len(l.Lines) == 0:
		lines = append(lines, st.Muted.Render(widget.Fit("  waiting for writes to "+textfmt.Sanitize(l.PK)+" — "+livePricing, w-2)))
	}
	shown := max(1, h-2-len(lines))
	from := max(0, len(l.Lines)-shown)
	for _, ln := range l.Lines[from:] {
		text := widget.Fit(ln.Text, w-2)
		if ln.Mine {
			text = widget.Fit(ln.Text+"  (yours)", w-2)
		}
		lines = append(lines, st.Entity(ln.Colour).Render(text))
	}
	state := "live"
	if !l.Running && !l.Starting {
		state = "stopped"
	}
	title := fmt.Sprintf("Writes to %s · %s · %s · %s GetRecords", textfmt.Sanitize(l.PK), state, textfmt.Plural(l.Seen, "record", "records"), fmt.Sprint(l.Polls))
	if l.KeysOnly {
		title += " · keys only"
	}
	if l.Others > 0 {
		title += fmt.Sprintf(" · %d of other partitions left out", l.Others)
	}
	return widget.Box(st, title, lines, w, h, true)
}

// LiveHelpNote is what help adds where T works (the live pane, the
// partition's panes): how stream reads are priced.
const LiveHelpNote = " The live pane (T) reads the table's stream, not the table: " + livePricing + "; an idle shard is polled once a second."

var modeLive = &keymap.Mode{Name: "live pane", Note: LiveHelpNote, Keys: []keymap.Binding{
	keymap.InBar("help"), keymap.InBar("back", "close, stop the tail"), keymap.InBar("log"),
	keymap.Bind("live", "close the live pane"), keymap.Bind("cancel", "close, stop the tail"),
}}
