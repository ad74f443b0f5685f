package main

import (
	"context"
	"io"
)

// runExtra routes the commands that need no connection: `config`,
// `completion`, `version` and the `--version` flag. It reports whether it
// handled the command line; run (main.go) calls it before its own switch.
func runExtra(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) (bool, error) {
	switch {
	case cmd == "" && len(args) > 0 && (args[0] == "--version" || args[0] == "-version"):
		return true, cmdVersion(args[1:], stdout)
	case cmd == "version":
		return true, cmdVersion(args, stdout)
	case cmd == "config":
		return true, cmdConfig(args, stdout, stderr)
	case cmd == "completion":
		return true, cmdCompletion(ctx, args, stdout, stderr)
	}
	return false, nil
}
