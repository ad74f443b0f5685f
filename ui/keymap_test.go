package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Every enabled binding has help, and no two enabled bindings share a key in
// one mode, whatever else is going on; typing modes leave printable keys to
// the field (clashes, the check the settings overrides go through).
func TestKeymapHelpAndNoClashes(t *testing.T) {
	km := DefaultKeyMap()
	for _, c := range km.clashes() {
		t.Error(c)
	}
	for md := range modes {
		for _, st := range checkStates {
			k := km.forMode(md, st)
			enabled := 0
			for _, b := range k.all() {
				if !b.Enabled() {
					continue
				}
				enabled++
				if h := b.Help(); h.Key == "" || h.Desc == "" {
					t.Errorf("%s: binding %v has no help", md, b.Keys())
				}
			}
			if enabled == 0 {
				t.Errorf("%s: no key enabled", md)
			}
			if !k.Quit.Enabled() {
				t.Errorf("%s: ctrl+c does not quit", md)
			}
		}
	}
}

// Every mode names actions KeyMap declares, and has a name for help.
func TestModesNameDeclaredActions(t *testing.T) {
	for md, def := range modes {
		if def.name == "" {
			t.Errorf("mode %d has no name", md)
		}
		for _, b := range def.keys {
			if _, ok := actionIndex[b.action]; !ok {
				t.Errorf("%s turns on %q, which KeyMap does not declare", md, b.action)
			}
		}
	}
	for i := mode(0); i <= modeExporting; i++ {
		if _, ok := modes[i]; !ok {
			t.Errorf("mode %d is not declared in modes", i)
		}
	}
}

// A clash is found: two actions on one key in one mode, and a letter bound
// where the mode types.
func TestClashesFound(t *testing.T) {
	km := DefaultKeyMap()
	km.Reverse.SetKeys("e")
	km.Cancel.SetKeys("x")
	c := strings.Join(km.clashes(), "\n")
	for _, want := range []string{`e is both`, `in the groups view`, `x would be typed, not pressed, in the tables view`} {
		if !strings.Contains(c, want) {
			t.Errorf("clashes lack %q:\n%s", want, c)
		}
	}
}

// Help lists exactly the enabled bindings: a disabled one vanishes.
func TestHelpFollowsEnabledBindings(t *testing.T) {
	hs := openExample(t, 120, 35)
	full := ansi.Strip(hs.m.help.FullHelpView(hs.m.keyMap().FullHelp()))
	for _, want := range []string{"reverse order", "query this entity type", "edit sort-key condition"} {
		if !strings.Contains(full, want) {
			t.Errorf("help lacks %q:\n%s", want, full)
		}
	}
	if strings.Contains(full, "next page") {
		t.Error("help shows n although the results have no next page")
	}
	if strings.Contains(full, "copy item as JSON") {
		t.Error("help shows y on the entity types, where there is no item")
	}
}
