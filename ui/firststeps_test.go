package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/config"
)

// firstStart opens CUST#42 as a newcomer would: the harness's user is past
// the first steps, this one has taken none.
func firstStart(t *testing.T, w, h int, o Options, more ...canned) *harness {
	t.Helper()
	o.Table, o.PK = "App", "CUST#42"
	hs := newHarness(t, o, w, h, append([]canned{{items: example(), cap: halfRCU()}}, more...)...)
	hs.m.firstStepsDone = false
	return hs
}

// 37.15: on a first start the partition screen names the keys to begin
// with on one line, until one of them is used; with a history it does not.
func TestFirstStepsOnFirstStart(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := firstStart(t, sz[0], sz[1], Options{Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"})
			hs.contains("› start with: p partition · e sort-key condition · r reverse order · ? help")
			golden.RequireEqual(t, []byte(hs.screen()))
			hs.keys("j", "tab", "tab") // moving about is not a first step
			hs.contains("› start with")
		})
	}
	for _, k := range []string{"p", "e", "r", "?"} {
		t.Run("gone after "+k, func(t *testing.T) {
			hs := firstStart(t, 120, 35, Options{}, canned{items: example(), cap: halfRCU()})
			hs.keys(k)
			hs.keys("esc")
			if hs.m.screen != screenPartition {
				hs.keys("esc")
			}
			hs.lacks("start with:")
		})
	}
	t.Run("not with a history", func(t *testing.T) {
		dir := t.TempDir()
		if err := config.SaveHistory(dir, "App", []historyEntry{{PK: "CUST#7"}}); err != nil {
			t.Fatal(err)
		}
		hs := firstStart(t, 120, 35, Options{ConfigDir: dir})
		hs.lacks("start with:")
	})
}
