package ui

import (
	"strings"
	"testing"
)

// In the table picker q types into the filter, so the status bar names esc
// as the way out, before the arrows, at every size the UI is tried at.
func TestTablePickerFooterSaysWhatQDoes(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		hs := newHarness(t, Options{Region: "eu-west-1", Profile: "dev"}, sz[0], sz[1])
		hs.store.names = []string{"App", "Orders"}
		hs.send(tablesListedMsg{names: hs.store.names})
		hs.run(describeTablesCmd(hs.m.ctx, hs.store, hs.m.gen, hs.store.names))
		hs.keys("q")
		lines := strings.Split(hs.screen(), "\n")
		bar := lines[len(lines)-1]
		if !strings.Contains(bar, "esc clear filter / quit (q types)") || strings.Contains(bar, "q quit") {
			t.Errorf("%dx%d: the status bar does not say what q and esc do: %q", sz[0], sz[1], bar)
		}
		hs.contains("filter q")
	}
}
