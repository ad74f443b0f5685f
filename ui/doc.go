// Package ui is the terminal UI: one root Model (Bubble Tea v2) holding value
// panes, the overlay stack and the keymap, whose Update turns a key press
// into a tea.Cmd that asks the Store (a dynamo.Client in the program, never
// with a write method) and whose View draws the frame. Replies carry the id
// of the request they answer, so stale ones are dropped. ARCHITECTURE.md
// follows a key press through it.
//
// It imports dynamo, edit, filterexpr, keys, config, patterns, codegen,
// indexes, itemcodec and textfmt, and its own rooms: ui/overlay (the
// overlays, what they may read, the actions they return), ui/keymap (the
// keymap declaration), ui/pane (the panes as types of their own, given
// values and returning their state), ui/request (a request in words and
// as code),
// ui/theme (the palette and the styles) and ui/widget (text fitting, the
// box, the line edit, the form, the list); never the command line (package
// cli), which starts it, nor workbench, and no os: imports_test.go holds
// it to that. None of its rooms imports it back.
//
// # The rules of this package
//
//   - No I/O in Update or View. A key that needs data returns a tea.Cmd
//     (commands.go) that captures its inputs by value, calls the Store or a
//     package that owns the file (config.LoadHistory, itemcodec.CreateNew,
//     patterns), and returns a message ending in Msg with the request id.
//     Never touch the model from a command; never call time.Now in View.
//   - Nothing from the process's environment: what the UI needs of it comes
//     in Options (ConfigDir, NoColor, Settings), filled in by the command
//     line.
//   - Every string from a table, a server or a file reaches the screen
//     through textfmt.Sanitize (sanitize) on its way: item data is
//     untrusted, and no escape sequence of it may reach the terminal.
//   - Keys are data: one KeyMap declaration (ui/keymap) and a keymap.Mode
//     per mode, declared beside the code that handles its keys and listed
//     in allModes (modes.go); help, the status bar, settings overrides and
//     the clash check are derived from them. A new key is a KeyMap field
//     and a line in the modes where it acts.
//   - Colours only through the styles built from the palette (ui/theme);
//     no colour literal elsewhere. NO_COLOR arrives as Options.NoColor.
//   - The root model alone keeps request ids, cancel functions and the
//     request log (a ui/pane.RequestLog only the root adds to): the ids and cancels of what is in
//     flight, and the check that drops a stale reply, are inFlight's
//     (inflight.go); panes ask the root for a request through its starters
//     (startQuery, …).
//   - Nothing here follows LastEvaluatedKey: a paged read steps a
//     dynamo.QueryPager one reply at a time (the items pane's result.pager,
//     the count), which says the next page's request and why a read
//     stopped; when the items pane asks for its next page is pagePolicy's
//     (paging.go).
//   - Overlays return what they want. They live in ui/overlay, which cannot
//     import this package: an overlay's Update gets its own state and an
//     overlay.Env the root builds (stack.go's env: sizes, styles, keys, the
//     table, the state of the root's jobs it shows, as values) and returns
//     its new state and an action (ui/overlay's actions.go): close, open
//     that overlay, copy this, run this request. The root's do steps
//     (actions.go) carry it out, the only place an action becomes a
//     request; TestEveryWantIsDone fails on an action none of them has a
//     case for.
//
// # Adding a pane or an overlay
//
// A pane is a type of ui/pane (pane.Items, pane.Prompt, pane.QueryLine,
// pane.TablePicker, pane.RequestLog, pane.Status; groupsPane is still the
// root's) whose methods are given values and return the pane: it never
// sees the Model. The root holds it in a field and calls it from handlers
// of one shape, func (m Model) handleX(msg) (Model, tea.Cmd), in a file
// named after the pane, beside its keymap.Mode listed in paneModes
// (modes.go). A file the handlers ask (model.go, results.go, jobs.go,
// layout.go, enter.go) names no handler, so the handlers point down at it. An overlay is a value type in ui/overlay, whose
// package comment says step by step how to add one; the root's side of it
// is an opener (open.go, or the file of the job it starts: bulk.go,
// code.go, editing.go, export.go, links.go, overview.go, xray.go), the
// do case of each action it returns (actions.go) and the handlers of the
// replies, which change it through its methods (findOverlay, then
// replaceOverlay). Keep every file under about 500 lines; split by pane,
// not by kind of code.
//
// # Which package owns what
//
// dynamo sends every request; edit every write (only with --allow-writes);
// keys names entity types and computes skip-scan ranges: the types pane's
// rows are the partition's keys.EntityTable, which `groups` and the rest
// name types by too, and the pane keeps only what the UI adds (the cursor,
// what the skip-scan and counts cost, the grouping by attribute); itemcodec sizes,
// encodes and writes items; codegen turns a request into code; patterns
// reads and saves dynascope.yaml; config holds settings, connections and
// the partition history. ui draws, and asks them: ui/theme holds the
// palette and the styles, ui/widget the parts that know nothing of
// DynamoDB (the box, text fitting, the line edit, the form and the list
// a pane or an overlay moves through: cursor, window, filter, marks),
// ui/keymap the keys, ui/request a request's words and code, ui/overlay
// the overlays, and ui itself the root, the panes, the overlay stack and
// everything that sends a request.
package ui
