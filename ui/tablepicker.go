package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
	"dynascope/ui/widget"
)

func (m Model) tablesKey(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	if l, ok := m.picker.List.SetHeight(m.picker.ListHeight(m.layout().w, m.layout().bodyH)).Key(msg, km.TypingListKeys()); ok {
		m.picker.List = l
		return m, nil
	}
	switch {
	case key.Matches(msg, km.Open):
		if name, ok := m.picker.Selected(); ok {
			if name != m.picker.Suggested {
				m.pendingPK = "" // --pk was meant for the table offered
			}
			return m.openTable(name)
		}
	case key.Matches(msg, km.Scan):
		if name, ok := m.picker.Selected(); ok {
			return m.openScan(name), nil
		}
	case key.Matches(msg, km.Cancel):
		if m.picker.Filter.String() == "" {
			return m, tea.Quit
		}
		m.picker.Filter = widget.LineEdit{}
		m.picker = m.picker.Refilter()
	default:
		return m.tablesText(msg)
	}
	return m, nil
}

func (m Model) tablesText(msg tea.Msg) (Model, tea.Cmd) {
	if f, ok := m.picker.Filter.Update(msg); ok {
		m.picker.Filter = f
		m.picker.List = m.picker.List.Home()
		m.picker = m.picker.Refilter()
	}
	return m, nil
}

// The status bar shows what fits in this order: esc comes before the
// arrows because q types into the filter here, so esc is the way out.
var modeTables = &keymap.Mode{Name: "tables", Typing: true, HelpTyped: true, Keys: []keymap.Binding{
	keymap.InBar("open", "open table"), keymap.InBar("cancel", "clear filter / quit (q types)"), keymap.InBar("help"), keymap.InBar("scan", "scan"), keymap.InBar("listUp"), keymap.InBar("listDown"),
	keymap.Bind("pageUp"), keymap.Bind("pageDown"), keymap.Bind("listTop"), keymap.Bind("listBottom"), keymap.Bind("connections"),
}}
