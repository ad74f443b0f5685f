package overlay

import (
	"charm.land/bubbles/v2/help"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/patterns"
	"dynascope/ui/keymap"
	"dynascope/ui/theme"
)

// Env is the root as an overlay may see it: values the root builds for
// each message and each frame (its Model.env), so nothing an overlay does
// with it reaches the root. It holds no store, editor, context or sender:
// an overlay that wants something read or written returns an action.
type Env struct {
	Keys     keymap.KeyMap // the keys of the overlay's mode, as the keymap has them now
	St       theme.Styles
	W, BodyH int // the screen's width and the body's height (the root's layout)

	Table    dynamo.Table // the table open (zero before one is)
	Index    string       // the index open, "" for the table
	Patterns *patterns.PatternSet
	Version  string      // the settings' version attribute, for a write's condition
	Target   edit.Target // where a write would go, for its aws command; zero without a writer

	Overview  OverviewState // the overview's sample and layout
	Exporting bool          // an export is in flight
	Export    ExportProgress
	Price     float64 // the settings' USD per million reads; 0 for none (costText)
	// EntityNames are the NoSQL Workbench model's names of entity types, by
	// sort-key prefix (typeText).
	EntityNames map[string]string
	// PatternsPath is where S saves; "" when no file is known.
	PatternsPath string
	PatternsErr  error // why the patterns file could not be read; nil when it was
	// The keymap whole (with the settings' overrides), the state that
	// turns its bindings on, and the help model that draws them: help
	// shows the keys of the mode it was asked in.
	Keymap   keymap.KeyMap
	KeyState keymap.State
	Help     help.Model
	Live     LiveView // the live pane's tail
	// DrawItems draws the root's items pane w×h, unfocused: the live pane
	// shows it above its lines. It reads a copy of the root and changes
	// nothing.
	DrawItems func(w, h int) string
	// DrawLog draws the root's request log expanded in a box w×h: the log
	// overlay shows it. It reads a copy of the root and changes nothing.
	DrawLog func(w, h int) string
}

// ExportProgress is how far the export in flight has got: Done of N items
// written to Path.
type ExportProgress struct {
	Done, N int
	Path    string
}

// LiveView is what the live pane shows of the tail the root runs: the
// partition's lines and the tail's counts.
type LiveView struct {
	PK                  string // the partition tailed
	Lines               []LiveLine
	Seen, Polls, Others int
	Err                 string
	Starting, Running   bool
	KeysOnly            bool // the stream carries keys only
}

// LiveLine is one stream record as the live pane shows it.
type LiveLine struct {
	Text   string // sanitised
	Colour int    // the entity type's colour, as in the types pane
	Mine   bool   // written by this session's editor
}
