package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/workbench"
)

func TestKeyOverrides(t *testing.T) {
	s := config.DefaultSettings()
	s.Keys = map[string][]string{"reverse": {"R"}}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Settings: s}, 120, 35, canned{items: example(), cap: halfRCU()},
		canned{items: example(), cap: halfRCU()})
	hs.lacks("! settings")
	hs.keys("r") // no longer reverses
	if n := len(hs.store.queries()); n != 1 {
		t.Fatalf("r still sent a query (%d)", n)
	}
	hs.keys("R")
	qs := hs.store.queries()
	if len(qs) != 2 || !qs[1].Reverse {
		t.Fatalf("R did not reverse: %+v", qs)
	}
	full := hs.m.help.FullHelpView(hs.m.keyMap().FullHelp())
	if !strings.Contains(full, "R") || !strings.Contains(full, "reverse order") {
		t.Errorf("help does not show R reverse order:\n%s", full)
	}
}

// An unknown action and a clashing key are each left out, in one sentence
// shown at start-up until the first key.
func TestKeyOverrideProblems(t *testing.T) {
	s := config.DefaultSettings()
	s.Keys = map[string][]string{"revrse": {"R"}, "reverse": {"e"}, "count": {"%"}, "open": {"x"}}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Settings: s}, 120, 35, canned{items: example(), cap: halfRCU()})
	line := strings.TrimSpace(ansi.Strip(strings.Join(hs.m.status.ErrorLines(hs.m.st, 400), "")))
	for _, want := range []string{`there is no action "revrse"`, "reverse: e clashes", "so it keeps r", "open: x clashes", "so it keeps enter"} {
		if !strings.Contains(line, want) {
			t.Errorf("notice %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "count") {
		t.Errorf("the harmless override of count is reported: %q", line)
	}
	if strings.Contains(line, ". ") || !strings.HasSuffix(line, ".") {
		t.Errorf("not one sentence: %q", line)
	}
	if got := hs.m.keymap.Count.Keys(); len(got) != 1 || got[0] != "%" {
		t.Errorf("count is bound to %v", got)
	}
	if got := hs.m.keymap.Reverse.Keys(); len(got) != 1 || got[0] != "r" {
		t.Errorf("reverse is bound to %v after a clash", got)
	}
	hs.contains("! settings: keys:")
	hs.keys("j")
	hs.lacks("! settings")
	if c := hs.m.keymap.Clashes(allModes); len(c) > 0 {
		t.Errorf("the keymap applied has clashes: %v", c)
	}
}

func TestThemeSetting(t *testing.T) {
	for _, c := range []struct {
		theme         string
		dark, noColor bool
	}{{"dark", true, false}, {"light", false, false}, {"none", false, true}} {
		s := config.DefaultSettings()
		s.Theme = c.theme
		m := New(Options{Settings: s})
		if !m.fixedTheme || c.theme != "none" && m.dark != c.dark || c.noColor && !m.noColor {
			t.Errorf("theme %s: dark %v, no colour %v", c.theme, m.dark, m.noColor)
		}
		// The terminal's background does not override a theme chosen.
		m2, _ := m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
		if m2.(Model).dark != m.dark {
			t.Errorf("theme %s: the background changed it", c.theme)
		}
	}
	m := New(Options{})
	m2, _ := m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	if m2.(Model).dark {
		t.Error("auto: a white background is not light")
	}
}

func TestDefaultLimitSetting(t *testing.T) {
	s := config.DefaultSettings()
	s.DefaultLimit = 50
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Settings: s}, 120, 35, canned{items: example(), cap: halfRCU()})
	if qs := hs.store.queries(); len(qs) != 1 || qs[0].Limit != 50 {
		t.Fatalf("opened with %+v, want Limit 50", qs)
	}
	hs.contains("Limit=50")
}

func TestCostInStatusLine(t *testing.T) {
	s := config.DefaultSettings() // 0.125 USD per million reads
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Settings: s}, 120, 35, canned{items: example(), cap: dynamo.Capacity{Total: 2, Table: 2}})
	hs.contains("Σ 2 RCU ≈ $0.00000025 on-demand · 1 request")
	// Without a price (no settings), no cost.
	hs = openExample(t, 120, 35)
	hs.lacks("on-demand")
}

// A NoSQL Workbench model's facet names stand beside the classifier's names
// of the entity types, which are the same however the model was loaded; the
// prefix stays in sight.
func TestEntityNamesFromWorkbench(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "cli", "testdata", "workbench", "shop.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	model, err := workbench.ParseWorkbench(f)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := model.Table("Shop")
	names := tb.EntityNames()
	if names["ORDER#"] != "Order" || names["PROFILE"] != "Customer" {
		t.Fatalf("EntityNames = %v", names)
	}
	o := Options{Table: "App", PK: "CUST#42", EntityNames: names}
	hs := newHarness(t, o, 120, 35, canned{items: example(), cap: halfRCU()})
	// The classifier's name first, as groups and layout print it; the
	// model's own label beside it.
	hs.contains("ORDER (Order)", "PROFILE (Customer)", "ORDER#", "= PROFILE")
	// Narrow: one line per type, the names and the prefix on it.
	hs = newHarness(t, o, 60, 20, canned{items: example(), cap: halfRCU()})
	hs.contains("ORDER (Order) ORDER#", "PROFILE (Customer)")
}
