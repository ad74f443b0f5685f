package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
)

// Snapshots of the partition view, escape sequences stripped (colours are
// checked elsewhere; they would make these brittle). Durations come from the
// fake store, so nothing here depends on the clock. Update with -update.
func TestGoldenPartition(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("open/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openExample(t, sz[0], sz[1])
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("latest_order/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			orders := example()[:2]
			hs := openExample(t, sz[0], sz[1],
				canned{items: orders, cap: halfRCU()},
				canned{items: []dynamo.Item{orders[1], orders[0]}, cap: halfRCU()},
				canned{items: orders[1:], last: dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}, cap: halfRCU()},
			)
			hs.keys("j", "enter", "r", "l", "1", "enter", "tab")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
	t.Run("detail/120x35", func(t *testing.T) {
		hs := openExample(t, 120, 35)
		hs.keys("tab", "j", "enter")
		golden.RequireEqual(t, []byte(hs.screen()))
	})
	t.Run("tables/120x35", func(t *testing.T) {
		hs := newHarness(t, Options{Region: "eu-west-1", Profile: "dev"}, 120, 35)
		hs.store.names = []string{"App", "Orders"}
		hs.send(tablesListedMsg{names: hs.store.names})
		hs.run(describeTablesCmd(hs.m.ctx, hs.store, hs.store.names))
		golden.RequireEqual(t, []byte(hs.screen()))
	})
}
