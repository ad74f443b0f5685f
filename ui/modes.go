package ui

import "dynascope/ui/keymap"

// allModes is every mode the UI has, each declared beside the code that
// handles its keys (the keymap's declaration is ui/keymap): the clash
// check and the settings' overrides go through all of them, and
// TestEveryModeIsListed holds this list to the modes declared.
var allModes = []*keymap.Mode{
	modeTables, modePrompt, modeGroups, modeItems, modeLog, modeCondition, modeLimit, modeFilter,
	modeIndexes, modeDetail, modeHelp, modeLoading, modeConfirm, modePatterns, modeParams, modeSave,
	modeCode, modeCaps, modeSampling, modeOverview, modeExport, modeExporting,
	modeRequestFilter, modeProjection, modeBulkAsk, modeBulk,
	modeEdit, modeEditValue, modeWriteConfirm, modeWriteDone, modeJump, modeLinks, modeIndexMap, modeLive,
}
