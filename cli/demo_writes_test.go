package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"dynascope/config"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// demo --allow-writes gives the UI a writer on the demo's engine, whose
// journal is the run's own and goes with it; without the flag, none.
func TestDemoEditor(t *testing.T) {
	conn := &config.Connection{Endpoint: dynamotest.Endpoint(t), Name: config.NoConnection}
	if e, done, err := demoEditor(context.Background(), conn, false); e != nil || err != nil {
		t.Fatalf("without --allow-writes: %v, %v", e, err)
	} else {
		done()
	}
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "dynascope-demo-*"))
	e, done, err := demoEditor(context.Background(), conn, true)
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := e.(*edit.Writer); !ok || w.Target().Endpoint != conn.Endpoint {
		t.Errorf("the writer %T writes to %v, not the demo's %q", e, e.Target(), conn.Endpoint)
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "dynascope-demo-*"))
	made := slices.DeleteFunc(after, func(d string) bool { return slices.Contains(before, d) })
	if len(made) != 1 {
		t.Fatalf("the demo's journal directory: %v", made)
	}
	done()
	if _, err := os.Stat(made[0]); !os.IsNotExist(err) {
		t.Errorf("the demo's journal %s outlives it: %v", made[0], err)
	}
}
