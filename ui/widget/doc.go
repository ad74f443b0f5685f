// Package widget holds the UI's small drawing parts that know nothing of
// DynamoDB or of the root model: text fitting (cell widths, cutting and
// padding to a width, wrapping), the rounded box every pane and overlay is
// drawn in, the one-line text field, the form of a few such fields, and
// the list every pane that shows rows moves through.
//
// It imports only ui/theme (the styles it draws with) and textfmt (every
// string it shows is sanitised); never ui, dynamo or any package that
// sends a request, and no os: imports_test.go holds it to that. Keys come
// in as key.Bindings (FormKeys, ListKeys), so the UI's keymap stays the
// UI's.
//
// # The list
//
// List keeps what a list of rows needs besides its rows: the cursor, the
// window of Height rows drawn (kept so the cursor stays in view), an
// optional filter and marks. The caller keeps its rows (a slice, a store
// of a hundred thousand items, rows computed from other state) and names
// them by index; the list never holds or copies them. Like the rest of
// the UI it is a value: every method returns the new List.
//
//	l := widget.NewList(len(rows)).SetHeight(shown)
//	l = l.Move(1)                  // or PageDown, Home, End, MoveTo, Select(row)
//	l, ok := l.Key(msg, listKeys)  // the movement keys as the keymap binds them
//	i, ok := l.Selected()          // the caller's row under the cursor
//	lines := l.View(w, widget.Delegate{Render: func(r widget.Row, w int) []string {
//		return []string{drawRow(rows[r.Index], r.Cursor, w)}
//	}})
//
// A pane whose rows change under it (pages arriving, a type found) gives
// the list their number again before using it (SetLen, or Filter with a
// predicate over the caller's rows: the cursor keeps its position,
// clamped); it sets the height it is drawn in before a move or a draw, as
// the layout tells it. Offset and Window derive the window from where it
// was last moved, so a list drawn after a resize still shows its cursor.
//
// A list of values offered under a text field (the partition prompt's
// history) lets its cursor rest on no row, above the first: AllowNone.
// Moving up from the first row leaves the list, Selected is then false and
// no row is drawn under the cursor.
//
// Marks are by a stable id the caller gives (an item's key, a table's
// name), so they stay when rows are added, sorted, paged in or filtered
// out: Mark, Unmark, Toggle, Marked, Marks, MarkCount. A Delegate with an
// ID func gets Row.Marked filled in when drawn.
//
// A view that scrolls lines of text rather than rows with a cursor (help,
// a code view) uses ListKeys.Step for the step a key makes and
// ScrollOffset for the window's first line.
package widget
