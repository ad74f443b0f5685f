package cli

// --debug in the terminal UI: the screen is the UI's, so the lines go to a
// file, named on stderr when the UI exits.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
)

// uiDebugLog points --debug at the UI's log file for the session; done
// closes it and names it on stderr. Without --debug it does nothing.
func uiDebugLog(conn *config.Connection, stderr io.Writer) (done func(), err error) {
	if conn.Debug == dynamo.DebugOff {
		return func() {}, nil
	}
	path, closeLog, err := openDebugLog(conn)
	if err != nil {
		return nil, err
	}
	return func() {
		_ = closeLog()
		fmt.Fprintf(stderr, "dynascope: the --debug lines of this session are in %s\n", path)
	}, nil
}

// openDebugLog points --debug at the UI's log file, debug.log in the state
// directory (beside the journal), one session's lines each time.
func openDebugLog(conn *config.Connection) (string, func() error, error) {
	dir, err := edit.StateDir()
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, "debug.log")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("cannot write the --debug log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("cannot write the --debug log: %w", err)
	}
	conn.DebugTo = f
	return path, f.Close, nil
}
