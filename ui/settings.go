package ui

import "dynascope/config"

// applySettings puts the settings file's choices into a new model: the
// theme, key overrides (a problem with them becomes the start-up notice),
// and the read price the status line turns RCUs into money with. The
// default Limit and the sampling caps are read where they apply.
func (m *Model) applySettings(s config.Settings) {
	switch s.Theme {
	case "dark":
		m.dark, m.fixedTheme = true, true
	case "light":
		m.dark, m.fixedTheme = false, true
	case "none":
		m.noColor, m.fixedTheme = true, true
	}
	m.keymap, m.status.Note = m.keymap.WithOverrides(s.Keys, allModes)
	m.status.Price = s.PricePerMillionReads
}
