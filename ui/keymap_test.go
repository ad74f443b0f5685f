package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Every enabled binding has help, and no two enabled bindings share a key in
// one mode, whatever else is going on.
func TestKeymapHelpAndNoClashes(t *testing.T) {
	km := DefaultKeyMap()
	states := []keyState{
		{},
		{canGoBack: true, busy: true, more: true, hasItem: true, patterns: true},
		{busy: true},
		{more: true, hasItem: true},
	}
	for md := range modeNames {
		for _, st := range states {
			k := km.forMode(md, st)
			seen := map[string]string{}
			enabled := 0
			for _, b := range k.all() {
				if !b.Enabled() {
					continue
				}
				enabled++
				h := b.Help()
				if h.Key == "" || h.Desc == "" {
					t.Errorf("%s: binding %v has no help", md, b.Keys())
				}
				for _, key := range b.Keys() {
					if other, dup := seen[key]; dup {
						t.Errorf("%s %+v: key %q is both %q and %q", md, st, key, other, h.Desc)
					}
					seen[key] = h.Desc
				}
			}
			if enabled == 0 {
				t.Errorf("%s: no key enabled", md)
			}
			if !k.Quit.Enabled() {
				t.Errorf("%s: ctrl+c does not quit", md)
			}
			// Typing modes must leave printable keys to the field.
			if md.textEntry() {
				for key := range seen {
					if len([]rune(key)) == 1 && key != "?" || (md != modeTables && key == "?") {
						t.Errorf("%s: %q is bound although the mode types text", md, key)
					}
				}
			}
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
