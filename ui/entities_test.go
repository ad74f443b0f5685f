package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
)

// 39.3: with the demo's entities declared, the types pane names each type
// by the declaration its keys match and marks the undeclared one (an order
// written with last year's delimiter) ~; the item detail decodes the keys
// into their parameters. The same names as groups prints (cli's tests).
func TestGoldenEntities(t *testing.T) {
	items := append(example()[:2], dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER|2023-05-01|X1"), "total": n("5")}, example()[2])
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		open := func(t *testing.T) *harness {
			set, path := demoPatterns(t)
			return newHarness(t, Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000",
				Patterns: set, PatternsPath: path}, sz[0], sz[1], canned{items: items, cap: halfRCU()})
		}
		t.Run(fmt.Sprintf("types/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := open(t)
			screen := hs.screen()
			for _, want := range []string{"▌ Order ", "▌ ~ORDER| ", "▌ Customer "} {
				if !strings.Contains(screen, want) {
					t.Errorf("the types pane lacks %q:\n%s", want, screen)
				}
			}
			golden.RequireEqual(t, []byte(screen))
		})
		t.Run(fmt.Sprintf("detail/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := open(t)
			hs.keys("tab", "j", "enter")
			screen := hs.screen()
			for _, want := range []string{"Entity Order", "customerId = 42", "orderDate = 2025-03-01", "orderId = A17"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the detail lacks %q:\n%s", want, screen)
				}
			}
			golden.RequireEqual(t, []byte(screen))
		})
		t.Run(fmt.Sprintf("undeclared_detail/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := open(t)
			hs.keys("tab", "j", "j", "enter")
			screen := hs.screen()
			if !strings.Contains(screen, "Entity · undeclared: its keys match no declared entity") {
				t.Errorf("the detail of an undeclared item:\n%s", screen)
			}
			golden.RequireEqual(t, []byte(screen))
		})
	}
}

// Without a patterns file's entities for the table, nothing is marked.
func TestNoDeclarationsNoMark(t *testing.T) {
	hs := openExample(t, 120, 35)
	if screen := hs.screen(); strings.Contains(screen, "~") || !strings.Contains(screen, "▌ ORDER ") {
		t.Errorf("marked without declarations:\n%s", screen)
	}
}

// 39.3 with 40.1: space on a types-pane row a declaration names marks
// exactly the loaded items whose keys match that declaration, as the
// CLI's update --entity selects them: on CUST#42 Order's two orders and
// not the one written with last year's delimiter; on PRODUCT#SKU-1025,
// where an undeclared v2x splits the versions into two rows both named
// ProductVersion, either row marks all four versions (by inference the
// first marked v0 … v2 only) and never v2x. Undeclared rows mark by
// inference, as before; the keys of a declared type's prefix in another
// shape (ORDER#2025-02-02|A99 beside Order's) are a row of their own,
// ~ORDER, which marks them and not Order's.
func TestMarkDeclaredType(t *testing.T) {
	noted := false
	defer func() {
		if !noted {
			t.Error("no ~ORDER row beside Order was marked")
		}
	}()
	for _, c := range []struct {
		pk    string
		sks   []string
		marks [][]string // after space on each row below the partition's, in order
	}{
		{"CUST#42", []string{"ADDRESS#home", "ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "ORDER|2023-05-01|X1", "PROFILE"},
			[][]string{{"ADDRESS#home"}, {"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17"}, {"ORDER|2023-05-01|X1"}, {"PROFILE"}}},
		// An order of the ORDER# prefix in another shape is a row of its
		// own (~ORDER) after Order's: Order marks the declared orders,
		// ~ORDER the one that matches no declaration.
		{"CUST#42", []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "ORDER#2025-03-01#A17", "PROFILE"},
			[][]string{{"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17"}, {"ORDER#2025-02-02|A99"}, {"PROFILE"}}},
		{"PRODUCT#SKU-1025", []string{"v0", "v1", "v2", "v2x", "v3"},
			[][]string{{"v0", "v1", "v2", "v3"}, {"v2x"}, {"v0", "v1", "v2", "v3"}}},
	} {
		var items []dynamo.Item
		for _, sk := range c.sks {
			items = append(items, dynamo.Item{"PK": s(c.pk), "SK": s(sk)})
		}
		set, path := demoPatterns(t)
		hs := newHarness(t, Options{Table: "App", PK: c.pk, Region: "us-east-1", Endpoint: "http://127.0.0.1:8000",
			Patterns: set, PatternsPath: path}, 120, 35, canned{items: items, cap: halfRCU()})
		if rows := len(hs.m.groups.types()); rows != len(c.marks) {
			t.Fatalf("%s: %d type rows, want %d:\n%s", c.pk, rows, len(c.marks), hs.screen())
		}
		for i, want := range c.marks {
			hs.keys("j", "space")
			row := hs.m.groups.types()[i]
			if got := markedSKs(hs); !slices.Equal(got, want) {
				t.Errorf("%s: space on %s (declared %v) marked %v, want %v", c.pk, row.Entity, row.Declared, got, want)
			}
			hs.contains(fmt.Sprintf("marked %d loaded %s items", len(want), row.Entity))
			if row.Undeclared && row.Shared && row.Entity == "ORDER" {
				hs.contains("marked 1 loaded ORDER items")
				hs.lacks("Order, 1 undeclared") // its items are all undeclared: no share to tell
				noted = true
			}
			hs.keys("U")
		}
	}
}

// 39.3: a key of Order's prefix in another shape (ORDER#2025-02-02|A99)
// is a row of its own, ~ORDER, after Order with the declared orders: each
// counts its own loaded items, and each says that its condition, begins_with
// ORDER#, holds the other too; counting it says it counts them together.
func TestGoldenDriftedType(t *testing.T) {
	var items []dynamo.Item
	for _, sk := range []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "ORDER#2025-03-01#A17", "PROFILE"} {
		items = append(items, dynamo.Item{"PK": s("CUST#42"), "SK": s(sk)})
	}
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			set, path := demoPatterns(t)
			hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000",
				Patterns: set, PatternsPath: path}, sz[0], sz[1], canned{items: items, cap: halfRCU()})
			hs.keys("j")
			hs.contains("▌ Order ", "ORDER# + ~ORDER", "▌ ~ORDER ", "ORDER# + Order", "▌ Customer ", "ORDER# holds ~ORDER", "too: # counts both")
			var got []string
			for i, r := range hs.m.groups.types() {
				got = append(got, fmt.Sprintf("%s %s", r.Marked(), hs.m.groups.countText(i+1)))
			}
			if strings.Join(got, ", ") != "Order 2, ~ORDER 1, Customer 1" {
				t.Errorf("the types: %v", got)
			}
			golden.RequireEqual(t, []byte(hs.screen()))
			hs.keys("#")
			hs.contains("count ORDER# (Order, ~ORDER): reads every item of ORDER#")
			if ask := hs.m.status.Ask; !strings.Contains(ask, "(all 3 items loaded") {
				t.Errorf("the count's announcement: %s", ask)
			}
		})
	}
}
