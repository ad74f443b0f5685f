// Package overlay holds the UI's overlays: the views drawn over the screen
// on the root's overlay stack (help, one item, the request log, the
// patterns, saving a pattern, the code of a request, the overview and its
// index map, an export, a Scan or PartiQL read, editing and writing an
// item, where to open an item, the partitions its keys name, the live
// pane). Each is a value type in a file of its own holding its state, its
// keys (a keymap.Mode), its Update and its View.
//
// An overlay sees only what the root gives it: an Env built for each
// message and frame (sizes, styles, keymap, the table, the patterns, the
// state of the root's jobs it shows, as values), and it asks for
// everything else with an action (actions.go) that its Update returns; the
// root alone turns actions into requests, with their ids, cancel functions
// and the request log.
//
// It imports ui/keymap, ui/theme and ui/widget, and the packages that own
// what it shows (dynamo's types, edit, patterns, indexes, codegen,
// itemcodec, keys, textfmt); never the root ui package, which imports it
// (imports_test.go holds it to that), and no os.
package overlay
