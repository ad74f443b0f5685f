package overlay

import "dynascope/ui/keymap"

// Modes is every mode the overlays declare, each beside the overlay that
// handles its keys: the root lists them with its panes' (its allModes), so
// that the clash check and the settings' overrides go through them.
var Modes = []*keymap.Mode{
	modeHelp, modeLog, modeSave, modeIndexes, modeJump, modeLinks, modeLive, modeIndexMap,
	modeDetail, modePatterns, modeParams, modeCode,
	modeCaps, modeSampling, modeOverview, modeExport, modeExporting,
	modeBulkAsk, modeBulk, modeEdit, modeEditValue, modeWriteConfirm, modeWriteReapplied, modeWriteDone, modeWriteRefused, modeWriteNothing,
	modeConnections, modeExplain, modeBulkChoose, modeBulkPreview, modeBulkUndo, modeBulkSending,
}
