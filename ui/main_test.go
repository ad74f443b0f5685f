package ui

import (
	"os"
	"testing"
)

// TestMain keeps the tests' key-schema cache (dynamo.Connect writes one) out
// of the user's cache directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dynascope-ui-test-cache-")
	if err == nil {
		os.Setenv("XDG_CACHE_HOME", dir)
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}
