package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/itemcodec"
)

// openExport opens CUST#42 and the export form, the file in a temporary folder.
func openExportForm(t *testing.T, name string) (*harness, string) {
	t.Helper()
	hs := openExample(t, 120, 35)
	hs.keys("x")
	hs.contains("Export", "Write the 3 loaded items to a local file", "format › jsonl", "App-CUST_42.jsonl")
	path := filepath.Join(t.TempDir(), name)
	hs.keys("tab", "ctrl+u")
	hs.typeText(path)
	return hs, path
}

func TestExportWritesLoadedItems(t *testing.T) {
	hs, path := openExportForm(t, "out.jsonl")
	q := len(hs.store.queries())
	hs.keys("enter")
	hs.lacks("Write the 3")
	if want := "exported 3 items to " + path + " (local file only)"; hs.m.status.Info != want {
		t.Errorf("status: %q, want %q", hs.m.status.Info, want)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[2], `"SK":"PROFILE"`) {
		t.Errorf("file holds:\n%s", b)
	}
	if len(hs.store.queries()) != q {
		t.Error("exporting sent a request")
	}
	// The file exists now: a second export to it is refused, the file kept.
	hs.keys("x", "tab", "ctrl+u")
	hs.typeText(path)
	hs.keys("enter")
	hs.contains("✗ export to ")
	// The whole sentence, however the box wraps it (the temporary folder's
	// name varies in length): it ends there, with no "file already exists".
	if want := "export to " + path + ": the file exists; choose another name (nothing is overwritten)"; exportErr(hs.m) != want {
		t.Errorf("export form says %q, want %q", exportErr(hs.m), want)
	}
	hs.lacks("already exists")
	if b2, _ := os.ReadFile(path); string(b2) != string(b) {
		t.Error("the existing file changed")
	}
}

func TestExportFormatsAndFilter(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.filterLoaded("ORDER")
	hs.keys("x")
	hs.contains("Write the 2 filtered items")
	// Typing another format renames the file to match.
	hs.keys("ctrl+u")
	hs.typeText("csv")
	hs.contains("App-CUST_42.csv")
	path := filepath.Join(t.TempDir(), "orders.csv")
	hs.keys("tab", "ctrl+u")
	hs.typeText(path)
	hs.keys("enter")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "PK,SK,") {
		t.Errorf("csv:\n%s", b)
	}
	// An unknown format is refused with the known ones.
	hs.keys("x", "ctrl+u")
	hs.typeText("xml")
	hs.keys("enter")
	hs.contains(`the format must be one of jsonl, ddbjson, ddbjson-batch, csv, not "xml".`)
	hs.keys("esc")
	hs.lacks("Export ")
}

// Esc stops an export; its partial file is removed.
func TestExportCancelRemovesFile(t *testing.T) {
	hs, path := openExportForm(t, "out.json")
	hs.keys("shift+tab", "ctrl+u")
	hs.typeText(string(itemcodec.ExportBatch))
	cmd := hs.step(keyPress("enter"))
	hs.contains("0 of 3 items written", "esc stops and removes the partial file")
	hs.keys("esc")
	hs.run(cmd)
	// "removed" before the path, which a long folder name cuts short.
	hs.contains("export stopped after 0 items; removed /")
	if want := "export stopped after 0 items; removed " + path; hs.m.status.Info != want {
		t.Errorf("status: %q, want %q", hs.m.status.Info, want)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the partial file is still there: %v", err)
	}
}

func TestExportWithoutItems(t *testing.T) {
	hs := newHarness(t, Options{Table: "App", PK: "CUST#9"}, 120, 35, canned{cap: halfRCU()})
	hs.keys("x")
	hs.contains("no items loaded to export")
	hs.lacks("Write the")
}

// The UI quits (Ctrl-C, SIGHUP, SIGTERM) while an export writes: Run waits
// for it to remove its partial file and returns the sentence, so the exit
// code says the export was interrupted. No file of any name is left.
func TestExportInterruptedByQuit(t *testing.T) {
	hs, path := openExportForm(t, "out.jsonl")
	cmd := hs.step(keyPress("enter"))
	hs.contains("0 of 3 items written")
	// What Run does when the program ends: mark closing, cancel, wait.
	hs.m.exports.close()
	hs.m.export.cancel()
	go cmd()
	err := hs.m.exports.wait(5 * time.Second)
	want := "export to " + path + " interrupted after 0 of 3 items; the partial file was removed."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A finished export has its name and no .partial beside it.
func TestExportWritesUnderPartialName(t *testing.T) {
	hs, path := openExportForm(t, "out.jsonl")
	hs.keys("enter")
	left, _ := os.ReadDir(filepath.Dir(path))
	if len(left) != 1 || left[0].Name() != "out.jsonl" {
		t.Errorf("after the export the folder holds %v", left)
	}
}
