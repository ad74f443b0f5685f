package overlay

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

// The help overlay: every key of the mode it was asked in, built from that
// mode's keymap, so a disabled binding never shows. ? opens it anywhere ?
// is bound, and ? or esc closes it, back to the view it was asked from.

// Help shows the keys of one mode.
type Help struct {
	of     *keymap.Mode // the mode whose keys it shows
	offset int          // first line shown, when the help is taller than the box
}

// NewHelp is the help of mode of, from its top.
func NewHelp(of *keymap.Mode) Help { return Help{of: of} }

// ID names the overlay.
func (Help) ID() ID { return HelpID }

// Mode is the keymap mode the overlay is in, by its phase.
func (Help) Mode(Env) *keymap.Mode { return modeHelp }

// Hides says which lines of the screen the overlay takes over.
func (Help) Hides() Hidden { return Hidden{Query: true, Log: true} }

// View draws the overlay w×h from what the root gives it.
func (o Help) View(e Env, w, h int) string {
	lines := helpLines(e, o.of, w)
	shown := max(1, h-2)
	if len(lines) <= shown {
		return widget.Box(e.St, "Help", lines, w, h, true)
	}
	off := widget.Clamp(o.offset, 0, len(lines)-shown)
	title := fmt.Sprintf("Help · lines %d–%d of %d", off+1, off+shown, len(lines))
	return widget.Box(e.St, title, lines[off:off+shown], w, h, true)
}

// Update handles a key, pasted text or a wheel message and returns
// what the overlay asks of the root.
func (o Help) Update(e Env, msg tea.Msg) (Overlay, Want) {
	shown := max(1, e.BodyH-2)
	n := len(helpLines(e, o.of, e.W))
	scroll := func(d int) (Overlay, Want) {
		o.offset = widget.Clamp(o.offset+d, 0, max(0, n-shown))
		return o, nil
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		return scroll(widget.WheelDelta(msg))
	case tea.KeyPressMsg:
		if d, ok := e.Keys.Step(msg, shown); ok {
			return scroll(d)
		}
		if key.Matches(msg, e.Keys.Back, e.Keys.Cancel) {
			return o, Close{} // back to the view help was asked in
		}
	}
	return o, nil
}

var modeHelp = &keymap.Mode{Name: "help", Keys: []keymap.Binding{
	keymap.InBar("back", "close"), keymap.Bind("help", "close help"), keymap.Bind("cancel", "close"),
	keymap.Bind("up", "scroll up"), keymap.Bind("down", "scroll down"), keymap.Bind("pageUp"), keymap.Bind("pageDown"), keymap.Bind("top"), keymap.Bind("bottom"),
}}

// helpBands lays the help's columns side by side in bands at most w cells
// wide, one band under another: help.Model alone cuts the columns that do
// not fit with "…", which on a 120-column terminal hid the partition's last
// two (the overview, export, help, back and quit keys).
func helpBands(hm help.Model, cols [][]key.Binding, w int) []string {
	hm.SetWidth(0) // no cutting: the bands fit
	sep := widget.Width(hm.Styles.FullSeparator.Render(hm.FullSeparator))
	var out []string
	var bandCols [][]key.Binding
	used := 0
	flush := func() {
		if len(bandCols) == 0 {
			return
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, strings.Split(hm.FullHelpView(bandCols), "\n")...)
		bandCols, used = nil, 0
	}
	for _, c := range cols {
		cw := lipgloss.Width(hm.FullHelpView([][]key.Binding{c})) // the widest line
		if cw == 0 {
			continue // nothing enabled in it
		}
		if len(bandCols) > 0 && used+sep+cw > w {
			flush()
		}
		if len(bandCols) > 0 {
			used += sep
		}
		bandCols = append(bandCols, c)
		used += cw
	}
	flush()
	return out
}

// helpLines is the full help of the mode the user asked in, md, for a box
// w wide: the keymap as the root has it, for that mode in the root's state.
func helpLines(e Env, md *keymap.Mode, w int) []string {
	km := e.Keymap.ForMode(md, e.KeyState)
	lines := []string{" " + e.St.Muted.Render("Keys for "+md.String()+" — mouse: the wheel scrolls, a click selects"), ""}
	for _, l := range helpBands(e.Help, km.FullHelp(), w-4) {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "")
	note := "Capacity figures are DynamoDB's own, from ConsumedCapacity. Item sizes and read costs in the item view are computed locally. Nothing here writes to a table; S writes the patterns file only."
	if e.KeyState.Writes {
		note = "Capacity figures are DynamoDB's own, from ConsumedCapacity. Item sizes and read costs in the item view are computed locally. Writes are on: every write is shown before it is sent and is conditional on the item as read; u undoes the last one. S writes the patterns file."
	}
	note += md.Note
	for _, l := range widget.WrapLines(note, w-4) {
		lines = append(lines, " "+e.St.Muted.Render(l))
	}
	return lines
}
