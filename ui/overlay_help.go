package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The help overlay: every key of the mode it was asked in, built from that
// mode's keymap, so a disabled binding never shows. ? opens it anywhere ?
// is bound, and ? or esc closes it, back to the view it was asked from.

type helpOverlay struct {
	of mode // the mode whose keys it shows
}

func (helpOverlay) id() overlayID                   { return overlayHelp }
func (helpOverlay) mode(Model) mode                 { return modeHelp }
func (helpOverlay) hides() hidden                   { return hidden{query: true, log: true} }
func (o helpOverlay) view(m Model, w, h int) string { return m.helpBox(o.of, w, h) }

// toggleHelp opens help on the mode md, or closes it when it is on top.
func (m Model) toggleHelp(md mode) Model {
	if m.topID() == overlayHelp {
		return m.pop()
	}
	return m.push(helpOverlay{of: md})
}

func (o helpOverlay) update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keyMap().Back, m.keyMap().Cancel) {
		return m.pop(), nil // back to the view help was asked in
	}
	return m, nil
}

// helpBox is the full help of the mode the user asked in.
func (m Model) helpBox(md mode, w, h int) string {
	km := m.keys.forMode(md, m.keyState())
	hm := m.help
	hm.SetWidth(w - 4)
	lines := []string{" " + m.st.muted.Render("Keys for "+md.String()+" — mouse: the wheel scrolls, a click selects"), ""}
	for _, l := range strings.Split(hm.FullHelpView(km.FullHelp()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "")
	for _, l := range wrapText("Capacity figures are DynamoDB's own, from ConsumedCapacity. Item sizes and read costs in the item view are computed locally. Nothing here writes to a table; S writes the patterns file only.", w-4) {
		lines = append(lines, " "+m.st.muted.Render(l))
	}
	return box(m.st, "Help", lines, w, h, true)
}

var helpMode = modeDef{name: "help", keys: []binding{
	inBar("back", "close"), bind("help", "close help"), bind("cancel", "close"),
}}
