// Package widget holds the UI's small drawing parts that know nothing of
// DynamoDB or of the root model: text fitting (cell widths, cutting and
// padding to a width, wrapping), the rounded box every pane and overlay is
// drawn in, the one-line text field and the form of a few such fields.
//
// It imports only ui/theme (the styles it draws with) and textfmt (every
// string it shows is sanitised); never ui, dynamo or any package that
// sends a request, and no os: imports_test.go holds it to that. Keys come
// in as key.Bindings (FormKeys), so the UI's keymap stays the UI's.
package widget
