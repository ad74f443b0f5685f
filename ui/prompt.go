package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
)

func (m Model) promptKey(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.ListUp):
		m.prompt = m.prompt.Browse(1)
	case key.Matches(msg, km.ListDown):
		m.prompt = m.prompt.Browse(-1)
	case key.Matches(msg, km.Complete):
		m.prompt = m.prompt.Complete()
	case key.Matches(msg, km.OverviewCtrl):
		return m.openOverview(), nil
	case key.Matches(msg, km.Scan):
		return m.openScan(m.table.Name), nil
	case key.Matches(msg, km.Open):
		return m.openPartition(m.prompt.Input.String())
	case key.Matches(msg, km.Cancel):
		switch {
		case m.results.pages() > 0 || m.query.PK != "":
			// Back to the partition that was open; the index it was read
			// through may have been switched here, so restore it.
			m.index = m.query.Index
			ks, _ := m.table.Schema(m.index)
			m.setSchema(ks)
			m.screen = screenPartition
		case m.opts.Table == "":
			m.screen = screenTables
		default:
			return m, tea.Quit
		}
	default:
		return m.promptText(msg)
	}
	return m, nil
}

func (m Model) promptText(msg tea.Msg) (Model, tea.Cmd) {
	if in, ok := m.prompt.Input.Update(msg); ok {
		m.prompt.Input = in
		m.prompt.Err = ""
		m.prompt = m.prompt.Refilter()
	}
	return m, nil
}

// The status bar shows what fits in this order: the keys of the prompt
// itself before the ones that leave it.
var modePrompt = &keymap.Mode{Name: "prompt", Typing: true, Keys: []keymap.Binding{
	keymap.InBar("open", "open partition"), keymap.InBar("complete", "complete (again: next)"), keymap.InBar("overviewCtrl"),
	keymap.InBar("cancel", "back"), keymap.InBar("scan", "scan table"), keymap.InBar("listUp", "older"), keymap.InBar("listDown", "newer"),
	keymap.Bind("connections"),
}}
