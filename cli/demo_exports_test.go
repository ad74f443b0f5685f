package cli

import (
	"os"
	"path/filepath"
	"testing"

	"dynascope/ui"
)

// The demo's exports (x) go to demo-exports in the user's cache folder, made
// when the demo starts, not the working folder, which for `make demo` is the
// checkout (issue 37.13); without a cache folder, the temporary folder's. The
// command line's UI keeps the working folder, said in full.
func TestDemoExportDir(t *testing.T) {
	xdg, home, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("DYNASCOPE_LOCAL_DIR", "")
	t.Setenv("TMPDIR", tmp)
	for _, c := range []struct {
		name, xdg, home, want string
	}{
		{"XDG_CACHE_HOME", xdg, home, filepath.Join(xdg, "dynascope", "demo-exports")},
		{"HOME", "", home, filepath.Join(home, ".cache", "dynascope", "demo-exports")},
		{"a relative XDG_CACHE_HOME", "cache", home, filepath.Join(home, ".cache", "dynascope", "demo-exports")},
		{"neither", "", "", filepath.Join(tmp, "dynascope", "demo-exports")},
	} {
		t.Setenv("XDG_CACHE_HOME", c.xdg)
		t.Setenv("HOME", c.home)
		got := demoExportDir()
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
			continue
		}
		if fi, err := os.Stat(got); err != nil || !fi.IsDir() {
			t.Errorf("%s: %s not made: %v", c.name, got, err)
		}
	}

	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got := uiEnvironment(ui.Options{}, "auto").ExportDir; got != wd {
		t.Errorf("the command line's UI exports into %q, want the working folder %q", got, wd)
	}
}
