package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// The help screen and the one line of keys in the status bar. Both are built
// from the keymap of the current mode, so a disabled binding never shows.

// helpBox is the full help of the mode the user asked in.
func (m Model) helpBox(w, h int) string {
	km := m.keys.forMode(m.helpMode, m.keyState())
	hm := m.help
	hm.SetWidth(w - 4)
	lines := []string{" " + m.st.muted.Render("Keys for "+m.helpMode.String()+" — mouse: the wheel scrolls, a click selects"), ""}
	for _, l := range strings.Split(hm.FullHelpView(km.FullHelp()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "")
	for _, l := range wrapText("Capacity figures are DynamoDB's own, from ConsumedCapacity. Item sizes and read costs in the item view are computed locally. Nothing here writes to a table; S writes the patterns file only.", w-4) {
		lines = append(lines, " "+m.st.muted.Render(l))
	}
	return box(m.st, "Help", lines, w, h, true)
}

// shortHelp is as many of the bindings as fit in w cells, in order.
// (help.Model's short view can overrun its width when the ellipsis does not fit.)
func (m Model) shortHelp(bindings []key.Binding, w int) string {
	st := m.st.help
	sep := st.ShortSeparator.Render(" • ")
	var b strings.Builder
	used := 0
	for _, kb := range bindings {
		if !kb.Enabled() {
			continue
		}
		item := st.ShortKey.Render(kb.Help().Key) + " " + st.ShortDesc.Render(kb.Help().Desc)
		if used > 0 {
			item = sep + item
		}
		iw := width(item)
		if used+iw > w {
			break
		}
		b.WriteString(item)
		used += iw
	}
	return b.String()
}
