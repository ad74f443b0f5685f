package cli

// demo --allow-writes: the demo with editing on. The writes go to the
// demo's own in-memory engine, and their journal to a file of the run's
// own, removed on exit: an entry of an engine that is gone could never be
// undone, and must not sit in the user's journal among real ones.

import (
	"context"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/edit"
	"dynascope/ui"
)

// demoWritesFlag registers demo's --allow-writes into allow.
func demoWritesFlag(cmd *cobra.Command, allow *bool) {
	cmd.Flags().BoolVar(allow, "allow-writes", false, "open the demo with editing on (E, d, D, N, u): every write is shown first, conditional on the item as read, and goes to the demo's own engine; its journal lasts as long as the demo")
}

// demoEditor is the UI's writer for the demo's engine when allowed, else
// nil; done removes its journal.
func demoEditor(ctx context.Context, conn *config.Connection, allow bool) (ui.Editor, func(), error) {
	if !allow {
		return nil, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "dynascope-demo-")
	if err != nil {
		return nil, nil, err
	}
	done := func() { _ = os.RemoveAll(dir) }
	o, err := conn.Options()
	if err != nil {
		done()
		return nil, nil, err
	}
	j, err := edit.OpenJournal(filepath.Join(dir, edit.JournalFile))
	if err != nil {
		done()
		return nil, nil, err
	}
	w, err := edit.Open(ctx, o, true, j)
	if err != nil {
		done()
		return nil, nil, err
	}
	return w, done, nil
}
