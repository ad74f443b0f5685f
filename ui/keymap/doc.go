// Package keymap is the UI's one declaration of its keys: every action
// (KeyMap's fields, with their keys, help and help column as struct tags)
// and the modes that turn them on (Mode, declared beside the code that
// handles a mode's keys, in ui and in ui/overlay). ForMode, the help
// screen, the status bar (BarKeys), the settings' overrides
// (WithOverrides) and the clash check (Clashes) are derived from those two
// alone, and the keys the widgets act on (a form's, a list's) are handed
// to them from here as bindings.
//
// It imports ui/widget only (for the form's and the list's key sets);
// never the root ui package nor ui/overlay, which both declare their
// modes with it.
package keymap
