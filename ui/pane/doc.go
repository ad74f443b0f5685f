// Package pane holds the root's panes as types of their own: the request
// log, the status line, and the others as they move here. A pane never
// sees the root model: what it reads comes as values (its own state and
// arguments), and what it wants done comes back as its new state, or an
// action the root carries out. So the root (package ui) keeps the model,
// the routing, the handlers that call the panes, the requests and their
// ids; it imports this package, and this package imports nothing of the
// root (imports_test.go holds it to that).
//
// A pane's methods take and return the pane by value, as an overlay's do
// (ui/overlay); item data and server answers reach the screen through
// textfmt.Sanitize on their way, as everywhere in the UI.
package pane
