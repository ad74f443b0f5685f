// Package ui is the terminal UI: one root Model (Bubble Tea v2) holding value
// panes, overlays and the keymap, whose Update turns a key press into a
// tea.Cmd that asks the Store (a dynamo.Client in the program, never with a
// write method) and whose View draws the frame. Replies carry the id of the
// request they answer, so stale ones are dropped. ARCHITECTURE.md follows a
// key press through it.
//
// It imports dynamo, keys, config, patterns, codegen, itemcodec and textfmt;
// never the command line (package main), which starts it.
package ui
