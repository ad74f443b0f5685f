package ui

import (
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
)

// allModes is every mode the UI has, each declared beside the code that
// handles its keys (the keymap's declaration is ui/keymap): the panes'
// here, the overlays' in ui/overlay (overlay.Modes). The clash check and
// the settings' overrides go through all of them, and
// TestEveryModeIsListed holds these lists to the modes declared.
var allModes = append(paneModes, overlay.Modes...)

// paneModes are the modes of the root's screens and panes.
var paneModes = []*keymap.Mode{
	modeTables, modePrompt, modeGroups, modeItems, modeCondition, modeLimit, modeFilter,
	modeRequestFilter, modeProjection, modeLoading, modeConfirm, modeMarkConfirm,
}
