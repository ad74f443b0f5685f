package ui

import (
	tea "charm.land/bubbletea/v2"

	"dynascope/ui/keymap"
)

// Overlays are the views drawn over the screen: help, one item, the request
// log, the patterns, the code of a request, the overview, an export. Each is
// a type that implements overlay, in a file named after it
// (overlay_detail.go, overlay_help.go, …) that holds its keys, update and
// view. The root model keeps them on a stack: keys, pasted text and the
// mouse wheel go to the top one, and closing it shows the one below again
// (the code of a logged request goes back to the log, help to where it was
// asked from).
//
// An overlay never changes the root. Its update is given its own state and
// an overlayEnv (what it may read of the root, built for each message) and
// returns its new state and an action (actions.go): close, open that
// overlay, run this request, copy this text, say this in the status line.
// The root puts the new state on the stack and interprets the action
// (Model.do), so request ids, cancelling and the request log stay in the
// root alone. TestOverlayUpdatesTakeNoModel holds every update to that.
//
// To add an overlay:
//
//  1. Add its overlayID below, and its keymap.Mode, declared in the
//     overlay's file and listed in allModes (modes.go): the actions it
//     turns on, their help there, which the status bar shows (help, the
//     status bar and the clash check follow). A new action is a KeyMap
//     field (ui/keymap).
//  2. In overlay_<name>.go, a value type holding the state of one opening
//     (a form, a cursor) with id, mode, update, view and hides.
//  3. Open it from the root with m.push(o) (or return openOverlay{o} from
//     another overlay). In update, change o and return it with an action:
//     nil for none, closeOverlay{} to close it, a request action (runBulk,
//     sendWrite, …) for the root to send. Something the root has no action
//     for yet is a new action type in actions.go and a case in Model.do. A
//     form is the form widget (ui/widget): form.Handle(msg, formKeys(km))
//     says submit, cancel, moved or typed, and formMode (form.go) declares
//     its keys (overlay_save.go is the smallest example).
//  4. State that outlives one opening or that a reply in flight changes
//     (the overview's sample, an export in flight) is a named job on the
//     root model (sampleJob, exportJob); the reply's handler changes the
//     overlay with replaceOverlay, or closes it with m.remove(id). An
//     overlay about one item whose cursor should survive leaving the
//     partition (which closes every overlay) is a cursorKeeper
//     (cursors.go).
//
// No overlay does IO in update: what it wants read or written it asks for
// with an action, and the root returns the command.

// overlayID names an overlay, for the code that asks what is open.
type overlayID int

const (
	overlayNone     overlayID = iota
	overlayDetail             // one item
	overlayHelp               // the keys of the mode help was asked in
	overlayIndexes            // choosing the table or an index
	overlayLog                // the request log, expanded
	overlayPatterns           // the access patterns of the patterns file, and a pattern's parameters
	overlaySave               // saving the current request as a pattern
	overlayCode               // the code of a request: aws CLI, boto3, Go
	overlayOverview           // the table overview: a sample's layout
	overlayExport             // exporting the loaded items to a file
	overlayBulk               // a Scan or a PartiQL SELECT: its cost, then its items
	overlayEdit               // an item's attributes as typed text, being edited (overlay_edit.go)
	overlayWrite              // a write shown before it is sent, then what it did (overlay_write.go)
	overlayJump               // where to open an item: an index or the base table (overlay_jump.go)
	overlayLinks              // the partitions an item's keys name, confirmed (overlay_links.go)
	overlayIndexMap           // the overview's index map (overlay_indexmap.go)
	overlayLive               // the partition's writes from the stream (overlay_live.go)
)

// overlay is one view on the overlay stack.
type overlay interface {
	id() overlayID
	// mode is the keymap mode the keyboard is in while this overlay is on
	// top; it may depend on the overlay's phase (a form, a sample running)
	// and on what it reads of the root (e, whose keys are not set: they
	// follow from the mode).
	mode(e overlayEnv) *keymap.Mode
	// update handles a key, pasted text or a mouse wheel message while the
	// overlay is on top (ctrl+c and ? are the root's): it returns the
	// overlay's new state and what it asks the root to do (nil for
	// nothing). It reads the root only through e.
	update(e overlayEnv, msg tea.Msg) (overlay, want)
	// view draws the overlay's body, w×h cells, from what it may read of
	// the root.
	view(e overlayEnv, w, h int) string
	// hides says which of the screen's lines the body takes over.
	hides() hidden
}

// hidden is what an overlay's body takes the place of.
type hidden struct {
	query bool // the query line (and its hint)
	log   bool // the collapsed request log
}

// relayouter is an overlay that keeps something drawn for the width, to
// redraw when the size or the styles change.
type relayouter interface {
	relayout(e overlayEnv) overlay
}
