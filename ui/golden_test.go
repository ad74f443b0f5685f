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
	// A partition bigger than its first page: every type from the skip-scan,
	// counts as far as the loaded items tell.
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("big/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openBig(t, sz[0], sz[1])
			hs.keys("j", "j")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("count_asked/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openBig(t, sz[0], sz[1])
			hs.keys("j", "j", "#")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
	// A filtered page that read past 1 MB, as DynamoDB Local answers one:
	// the line under the query says what DynamoDB would take.
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("filter_paged/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			open := []dynamo.Item{
				{"PK": s("CUST#7"), "SK": s("ORDER#2025-12-02#B6490"), "status": s("OPEN")},
				{"PK": s("CUST#7"), "SK": s("ORDER#2025-12-08#B6535"), "status": s("OPEN")},
			}
			hs := openBig(t, sz[0], sz[1], canned{items: open, scanned: 4001, cap: dynamo.Capacity{Total: 294, Table: 294}})
			hs.keys("f")
			hs.typeText(`status = "OPEN"`)
			hs.keys("enter")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
	// The full-screen log: the selected line's detail under it, its whole
	// condition and why a first page is small (issues 37.6, 41.3).
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("log_first_screen/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openBig(t, sz[0], sz[1])
			hs.keys("L", "g")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("log_skip_scan/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openBig(t, sz[0], sz[1])
			hs.keys("L", "k", "k")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
	t.Run("counted/120x35", func(t *testing.T) {
		k := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#7"), "SK": s(sk)} }
		hs := openBig(t, 120, 35,
			canned{count: 1700, last: k("ORDER#01699"), cap: dynamo.Capacity{Total: 128.5, Table: 128.5}},
			canned{count: 1700, last: k("ORDER#03399"), cap: dynamo.Capacity{Total: 128.5, Table: 128.5}},
			canned{count: 600, cap: dynamo.Capacity{Total: 38, Table: 38}})
		hs.keys("j", "j", "#", "y")
		golden.RequireEqual(t, []byte(hs.screen()))
	})
	t.Run("detail/120x35", func(t *testing.T) {
		hs := openExample(t, 120, 35)
		hs.keys("tab", "j", "enter")
		golden.RequireEqual(t, []byte(hs.screen()))
	})
	// The patterns view, a pattern's parameters, saving, and the code of a
	// request, at the two usual sizes.
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("patterns/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs, _ := openWithPatterns(t, sz[0], sz[1])
			hs.keys("a", "j")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("parameters/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs, _ := openWithPatterns(t, sz[0], sz[1])
			choosePattern(hs, "orders in a month")
			hs.keys("enter", "tab")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("code/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			latest := example()[1]
			hs, _ := openWithPatterns(t, sz[0], sz[1], canned{items: []dynamo.Item{latest}, last: latest, cap: halfRCU()})
			hs.keys("a", "j", "enter", "enter", "C")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("code_python/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			latest := example()[1]
			hs, _ := openWithPatterns(t, sz[0], sz[1], canned{items: []dynamo.Item{latest}, last: latest, cap: halfRCU()})
			hs.keys("a", "j", "enter", "enter", "C", "tab")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
	t.Run("save/120x35", func(t *testing.T) {
		hs := openExample(t, 120, 35, canned{items: example()[:2], cap: halfRCU()})
		hs.m.patternsPath = "dynascope.yaml" // the temporary path would make the snapshot vary
		hs.keys("j", "enter", "S")
		hs.typeText("all orders")
		hs.keys("tab")
		hs.typeText("every order of a customer")
		golden.RequireEqual(t, []byte(hs.screen()))
	})
	t.Run("get_item/120x35", func(t *testing.T) {
		hs, _ := openWithPatterns(t, 120, 35, canned{items: example()[2:], cap: halfRCU()})
		choosePattern(hs, "customer profile")
		hs.keys("enter", "enter")
		golden.RequireEqual(t, []byte(hs.screen()))
	})
	t.Run("tables/120x35", func(t *testing.T) {
		hs := newHarness(t, Options{Region: "eu-west-1", Profile: "dev"}, 120, 35)
		hs.store.names = []string{"App", "Orders"}
		hs.send(tablesListedMsg{names: hs.store.names})
		hs.run(describeTablesCmd(hs.m.ctx, hs.store, hs.m.gen, hs.store.names))
		golden.RequireEqual(t, []byte(hs.screen()))
	})
}

// The types pane beside live records another writer made (issue 37.11):
// two orders inserted and the profile removed, as the stream carries them,
// leave ORDER 4 and PROFILE 0, as the items pane holds.
func TestGoldenLiveCounts(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openExample(t, sz[0], sz[1])
			key := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#42"), "SK": s(sk)} }
			order := func(sk, total string) dynamo.Item {
				return dynamo.Item{"PK": s("CUST#42"), "SK": s(sk), "total": n(total), "status": s("OPEN")}
			}
			hs.m.live.info = dynamo.StreamInfo{Table: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, ViewType: "NEW_AND_OLD_IMAGES"}
			hs.m = hs.m.liveRecords([]dynamo.StreamRecord{
				{Event: "INSERT", Keys: key("ORDER#2025-04-01#A20"), New: order("ORDER#2025-04-01#A20", "50")},
				{Event: "INSERT", Keys: key("ORDER#2025-05-01#A21"), New: order("ORDER#2025-05-01#A21", "60")},
				{Event: "REMOVE", Keys: key("PROFILE"), Old: example()[2]},
			})
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
}
