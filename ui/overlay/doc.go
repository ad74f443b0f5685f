// Package overlay holds the UI's overlays: the views drawn over the screen
// on the root's overlay stack (help, one item, the request log, the
// patterns, saving a pattern, the code of a request, the overview and its
// index map, an export, a Scan or PartiQL read, editing and writing an
// item, where to open an item, the partitions its keys name, the live
// pane, why an empty result is empty, a bulk change of the marked items). Each is a value type in a file of its own holding its state, its
// keys (a keymap.Mode), its Update and its View.
//
// An overlay sees only what the root gives it: an Env built for each
// message and frame (sizes, styles, keymap, the table, the patterns, the
// state of the root's jobs it shows, as values), and it asks for
// everything else with an action (actions.go) that its Update returns; the
// root alone turns actions into requests, with their ids, cancel functions
// and the request log.
//
// It imports ui/keymap, ui/request, ui/theme and ui/widget, and the
// packages that own what it shows (dynamo's types, edit, patterns,
// indexes, codegen, itemcodec, keys, textfmt); never the root ui package,
// which imports it (imports_test.go holds it to that; go list -f
// '{{.Imports}}' ./ui/overlay shows it), and no os.
//
// # Adding an overlay
//
//  1. Add its ID (overlay.go) and its keymap.Mode, declared in its file and
//     listed in Modes (modes.go): the actions it turns on, their help
//     there, which the status bar shows (help, the status bar and the
//     clash check follow). A new action of the keymap is a KeyMap field
//     (ui/keymap).
//  2. In its file, a value type holding the state of one opening (a form,
//     a cursor, a phase) with ID, Mode, Update, View and Hides, and a
//     constructor the root opens it with (NewX). A list moves its cursor
//     through widget.List; a text that scrolls uses the keymap's Step and
//     widget.ScrollOffset.
//  3. What it reads of the root is a field of Env (env.go), filled in by the
//     root's env (ui's stack.go): values only, never the root model, a
//     store, an editor or a context (TestOverlaysTakeAnEnv).
//  4. In Update, change o and return it with an action: nil for none,
//     Close{} to close it, Then{ShowInfo{Text: "not sent"}, Close{}}, a
//     request (RunBulk, SendWrite, …) for the root to send. Something the
//     root has no action for yet is a new type in actions.go and a case in
//     one of the root's do steps (ui's actions.go; TestEveryWantIsDone fails
//     until it has one). A form is widget.Form: form.Handle(msg,
//     e.Keys.FormKeys()) says submit, cancel, moved or typed, and
//     keymap.FormMode declares its keys (save.go is the smallest example).
//  5. State that outlives one opening or that a reply in flight changes
//     (the overview's sample, an export in flight) is the root's, and the
//     overlay reads it from Env (Overview, Export); what a reply changes of
//     the overlay itself is a method returning the new state (Bulk.Done,
//     Write.Answered), which the root's reply handler calls. An overlay
//     about one item whose cursor should survive leaving the partition
//     (which closes every overlay) is a CursorKeeper.
//
// No overlay does I/O: what it wants read or written it asks for with an
// action, and the root returns the command. actions_test.go tests the
// overlays' Update → action with no root model.
package overlay
