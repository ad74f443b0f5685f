package overlay

import (
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/ui/keymap"
)

// Overlays are the views drawn over the screen: help, one item, the request
// log, the patterns, the code of a request, the overview, an export. Each is
// a type that implements Overlay, in a file named after it (detail.go,
// help.go, …) that holds its keys, update and view. The root model keeps
// them on a stack: keys, pasted text and the mouse wheel go to the top one,
// and closing it shows the one below again (the code of a logged request
// goes back to the log, help to where it was asked from).
//
// An overlay never changes the root. Its Update is given its own state and
// an Env (what it may read of the root, built for each message) and returns
// its new state and an action (actions.go): close, open that overlay, run
// this request, copy this text, say this in the status line. The root puts
// the new state on the stack and interprets the action (its Model.do), so
// request ids, cancelling and the request log stay in the root alone.

// ID names an overlay, for the code that asks what is open.
type ID int

// The overlays.
const (
	None          ID = iota
	DetailID         // one item
	HelpID           // the keys of the mode help was asked in
	IndexesID        // choosing the table or an index
	LogID            // the request log, expanded
	PatternsID       // the access patterns of the patterns file, and a pattern's parameters
	SaveID           // saving the current request as a pattern
	CodeID           // the code of a request: aws CLI, boto3, Go
	OverviewID       // the table overview: a sample's layout
	ExportID         // exporting the loaded items to a file
	BulkID           // a Scan or a PartiQL SELECT: its cost, then its items
	EditID           // an item's attributes as typed text, being edited
	WriteID          // a write shown before it is sent, then what it did
	JumpID           // where to open an item: an index or the base table
	LinksID          // the partitions an item's keys name, confirmed
	IndexMapID       // the overview's index map
	LiveID           // the partition's writes from the stream
	ConnectionsID    // switching to another connection
	ExplainID        // why an empty result is empty: the nearest keys that exist
	BulkEditID       // a bulk change of the marked items: the change, its preview, its writes
)

// Overlay is one view on the overlay stack.
type Overlay interface {
	ID() ID
	// Mode is the keymap mode the keyboard is in while this overlay is on
	// top; it may depend on the overlay's phase (a form, a sample running)
	// and on what it reads of the root (e, whose Keys are not set: they
	// follow from the mode).
	Mode(e Env) *keymap.Mode
	// Update handles a key, pasted text or a mouse wheel message while the
	// overlay is on top (ctrl+c and ? are the root's): it returns the
	// overlay's new state and what it asks the root to do (nil for
	// nothing). It reads the root only through e.
	Update(e Env, msg tea.Msg) (Overlay, Want)
	// View draws the overlay's body, w×h cells, from what it may read of
	// the root.
	View(e Env, w, h int) string
	// Hides says which of the screen's lines the body takes over.
	Hides() Hidden
}

// Hidden is what an overlay's body takes the place of.
type Hidden struct {
	Query bool // the query line (and its hint)
	Log   bool // the collapsed request log
}

// Relayouter is an overlay that keeps something drawn for the width, to
// redraw when the size or the styles change.
type Relayouter interface {
	Relayout(e Env) Overlay
}

// CursorKeeper is an overlay about one item whose cursor outlives its
// closing by a partition change: the root keeps the cursor for the item
// and gives it back the next time the overlay opens on it there.
type CursorKeeper interface {
	Overlay
	Subject() dynamo.Item   // the item it is about
	CursorAt() int          // where its cursor is
	WithCursor(int) Overlay // the overlay with the cursor there, clamped to its rows
}

// The overlays with more than the Overlay methods.
var (
	_ CursorKeeper = Links{}
	_ CursorKeeper = Jump{}
	_ Relayouter   = Detail{}
)
