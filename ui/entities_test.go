package ui

import (
	"fmt"
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
