package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The export form writes into the folder the process gives (ExportDir: the
// working folder on the command line, a folder of its own in the demo),
// and says the whole path before and after (issue 37.13: the demo wrote
// "App-CUST_42.jsonl" into the working folder, its checkout, and said
// only that name). At 120x35 and 80x24.
func TestExportWritesIntoExportDir(t *testing.T) {
	for _, size := range [][2]int{{120, 35}, {80, 24}} {
		dir := filepath.Join(t.TempDir(), "demo-exports")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		o := Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000", ExportDir: dir}
		hs := newHarness(t, o, size[0], size[1], canned{items: example(), cap: halfRCU()})
		hs.keys("x")
		def := filepath.Join(dir, "App-CUST_42.jsonl")
		if got := strings.ReplaceAll(flat(hs.screen()), " ", ""); !strings.Contains(got, "writes"+def) {
			t.Errorf("%dx%d: the form does not show the whole path %s:\n%s", size[0], size[1], def, hs.screen())
		}
		// A name typed without a folder is written into the same folder.
		hs.keys("tab", "ctrl+u")
		hs.typeText("mine.jsonl")
		want := filepath.Join(dir, "mine.jsonl")
		if got := strings.ReplaceAll(flat(hs.screen()), " ", ""); !strings.Contains(got, "writes"+want) {
			t.Errorf("%dx%d: the form does not show %s for a bare name:\n%s", size[0], size[1], want, hs.screen())
		}
		hs.keys("enter")
		if _, err := os.Stat(want); err != nil {
			t.Errorf("%dx%d: %v", size[0], size[1], err)
		}
		if status := "exported 3 items to " + want + " (local file only)"; hs.m.status.info != status {
			t.Errorf("%dx%d: status %q, want %q", size[0], size[1], hs.m.status.info, status)
		}
	}
}
