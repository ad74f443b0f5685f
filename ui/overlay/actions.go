package overlay

import (
	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/ui/request"
	"dynascope/ui/widget"
)

// What an overlay asks the root to do: an action. An overlay's Update
// returns one (nil for nothing); the root's Model.do is the one place that
// carries them out, so the root alone sends requests, hands out their ids,
// keeps their cancel functions and the request log. Each action is a
// small value type below, declared here where both sides see it; the root
// has a case for every one (TestEveryWantIsDone, in the root package).

// Want is an action. Only this package declares them (isWant).
type Want interface{ isWant() }

// Then is several actions, done in order, their commands batched.
type Then []Want

// The stack.
type (
	// Close closes the overlay on top.
	Close struct{}
	// Open opens O over it.
	Open struct{ O Overlay }
	// Remove closes every overlay of these ids.
	Remove struct{ IDs []ID }
)

// The status line and the clipboard.
type (
	// ShowInfo says Text in the status line.
	ShowInfo struct{ Text string }
	// ShowError shows Text as the status line's error ("" clears it).
	ShowError struct{ Text string }
	// CopyText copies Text to the clipboard (OSC 52), saying Info.
	CopyText struct{ Text, Info string }
)

// What the root does for an item, a request or a partition.
type (
	// CopyItem copies the item as JSON.
	CopyItem struct{ It dynamo.Item }
	// CopyGetItem copies the item's GetItem as an aws command.
	CopyGetItem struct{ It dynamo.Item }
	// CopyRequest copies the current request as an aws command.
	CopyRequest struct{}
	// OpenJumpList lists where the item can be opened.
	OpenJumpList struct{ It dynamo.Item }
	// OpenLinkList lists the partitions the item's keys name, and sends
	// their confirmations.
	OpenLinkList struct{ It dynamo.Item }
	// EditItem opens the edit overlay on It, or on a copy of it to put
	// under a new key (AsNew), titled Title.
	EditItem struct {
		It    dynamo.Item
		AsNew bool
		Title string
	}
	// DeleteItem shows the delete of It for confirmation.
	DeleteItem struct{ It dynamo.Item }
	// UndoLast shows the undo of the session's last write for confirmation.
	UndoLast struct{}
	// JumpTo opens To's partition from the item It on.
	JumpTo struct {
		It dynamo.Item
		To JumpTarget
	}
	// OpenCode shows the code of a request, saying where it is From.
	OpenCode struct {
		In   request.Input
		From string
	}
	// OpenPatternCode shows the code of a pattern's request, under a
	// comment line naming its parameters and their values (Note).
	OpenPatternCode struct {
		R    patterns.Resolved
		From string
		Note string
	}
	// OpenLoggedCode shows the code of the request selected in the log.
	OpenLoggedCode struct{}
	// OpenLogList shows the request log.
	OpenLogList struct{}
	// MoveLog moves the log's cursor by Delta, in a box H lines high.
	MoveLog struct{ Delta, H int }
	// StopLive stops the live pane's tail.
	StopLive struct{}
	// ChooseIndex queries that index (or the table, for ""), asking for
	// its partition.
	ChooseIndex struct{ Name string }
	// OpenIndexMap shows the overview's index map.
	OpenIndexMap struct{}
	// OpenPartitionAt opens partition PK of Index.
	OpenPartitionAt struct{ Index, PK string }
	// SwitchConnection connects to To and opens the table picker there.
	SwitchConnection struct{ To config.Choice }
)

// Requests and jobs: the root hands out the id and keeps the cancel.
type (
	// SendBulkChange sends a bulk change's plans (edit.Writer.ApplyBulk)
	// at Rate predicted WCU per second, under one journal entry.
	SendBulkChange struct {
		Plans []*edit.Plan
		Rate  float64
		// Undo is the bulk entry these plans take back (edit.UndoPlans
		// gave them and Items); nil for a change.
		Undo  *edit.Entry
		Items []edit.EntryItem
	}
	// StopBulkChange stops the bulk change in flight after its writes in
	// flight.
	StopBulkChange struct{}
	// SavePattern appends P to the patterns file.
	SavePattern struct{ P patterns.Pattern }
	// RunPattern sends a pattern's request with its parameters.
	RunPattern struct {
		P      patterns.Pattern
		Params map[string]string
	}
	// KeepPatterns remembers where the patterns list was left.
	KeepPatterns struct{ Cursor, Offset int }
	// ScanIndexMap sends the index map's Scan.
	ScanIndexMap struct {
		Table    string
		MaxItems int
		MaxRCU   float64
	}
	// PlanBulk describes the table (and plans the statement) of a bulk
	// read: In holds its Scan (table, filter, projection) or its SELECT.
	PlanBulk struct{ In request.Input }
	// RunBulk sends the bulk read, or goes on with it: one of its Scan
	// and its SELECT is set (the root adds what reports each page).
	RunBulk struct {
		Scan    *dynamo.ScanInput
		PartiQL *dynamo.PartiQLInput
	}
	// StopBulk cancels the bulk read in flight: its reply brings what was read.
	StopBulk struct{}
	// StopExplain cancels the why-empty reads in flight; what they read
	// is logged.
	StopExplain struct{}
	// SendWrite sends a confirmed write (an undo when Undo is set).
	SendWrite struct {
		Plan *edit.Plan
		Undo *edit.Entry
	}
	// ReapplyWrite reads the item of the refused Plan again (strongly
	// consistent, and at a key change's new key) and shows the plan's
	// changes put on it as it is now (Write.Reapplied).
	ReapplyWrite struct{ Plan *edit.Plan }
	// StartExport writes the rows of Src to a new file at Path.
	StartExport struct {
		Src    ExportSource
		Path   string
		Format itemcodec.ExportFormat
	}
	// StopExport cancels the export in flight; it removes its file.
	StopExport struct{}
	// StartSample sends the overview's sample with the caps in In.
	StartSample struct{ In dynamo.SampleInput }
	// StopSample cancels the sample, keeping what was read.
	StopSample struct{}
	// OverviewErr says why the caps are refused; "" clears it.
	OverviewErr struct{ Text string }
	// ShowCaps shows the overview's caps again, to sample anew.
	ShowCaps struct{}
	// ShowLayout goes back to the layout sampled before.
	ShowLayout struct{}
	// KeepOverview remembers the overview's cursor and caps for the next
	// opening.
	KeepOverview struct {
		Cursor int
		Form   widget.Form
	}
)

func (Then) isWant()             {}
func (SendBulkChange) isWant()   {}
func (StopBulkChange) isWant()   {}
func (Close) isWant()            {}
func (Open) isWant()             {}
func (Remove) isWant()           {}
func (ShowInfo) isWant()         {}
func (ShowError) isWant()        {}
func (CopyText) isWant()         {}
func (CopyItem) isWant()         {}
func (CopyGetItem) isWant()      {}
func (CopyRequest) isWant()      {}
func (OpenJumpList) isWant()     {}
func (OpenLinkList) isWant()     {}
func (EditItem) isWant()         {}
func (DeleteItem) isWant()       {}
func (UndoLast) isWant()         {}
func (JumpTo) isWant()           {}
func (OpenCode) isWant()         {}
func (OpenLoggedCode) isWant()   {}
func (OpenPatternCode) isWant()  {}
func (OpenLogList) isWant()      {}
func (MoveLog) isWant()          {}
func (StopLive) isWant()         {}
func (ChooseIndex) isWant()      {}
func (OpenIndexMap) isWant()     {}
func (OpenPartitionAt) isWant()  {}
func (SwitchConnection) isWant() {}
func (SavePattern) isWant()      {}
func (RunPattern) isWant()       {}
func (KeepPatterns) isWant()     {}
func (ScanIndexMap) isWant()     {}
func (PlanBulk) isWant()         {}
func (RunBulk) isWant()          {}
func (StopBulk) isWant()         {}
func (StopExplain) isWant()      {}
func (SendWrite) isWant()        {}
func (ReapplyWrite) isWant()     {}
func (StartExport) isWant()      {}
func (StopExport) isWant()       {}
func (StartSample) isWant()      {}
func (StopSample) isWant()       {}
func (OverviewErr) isWant()      {}
func (ShowCaps) isWant()         {}
func (ShowLayout) isWant()       {}
func (KeepOverview) isWant()     {}
