package ui

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Key overrides from the settings file: `keys: {reverse: R}` rebinds an
// action. Actions are named after the KeyMap's fields, first letter lower
// case ("reverse", "editCondition", "nextPage").

// named maps each action name to its binding: KeyMap's fields (keymap.go).
func (k *KeyMap) named() map[string]*key.Binding {
	all := k.all()
	out := make(map[string]*key.Binding, len(all))
	for i, b := range all {
		out[actions[i].name] = b
	}
	return out
}

// checkStates are the states a keymap is checked in for clashes.
var checkStates = []keyState{
	{},
	{canGoBack: true, busy: true, more: true, hasItem: true, patterns: true},
	{busy: true},
	{more: true, hasItem: true},
}

// clashes lists, for every mode and state, two enabled bindings that share
// a key, and printable keys bound where typing goes to a field.
func (k KeyMap) clashes() []string {
	var out []string
	seenMsg := map[string]bool{}
	report := func(s string) {
		if !seenMsg[s] {
			seenMsg[s] = true
			out = append(out, s)
		}
	}
	for _, md := range slices.Sorted(maps.Keys(modes)) {
		for _, st := range checkStates {
			km := k.forMode(md, st)
			seen := map[string]string{}
			for _, b := range km.all() {
				if !b.Enabled() {
					continue
				}
				h := b.Help()
				for _, ks := range b.Keys() {
					if other, dup := seen[ks]; dup {
						report(fmt.Sprintf("%s is both %q and %q in the %s view", ks, other, h.Desc, md))
					}
					seen[ks] = h.Desc
					if md.textEntry() && len([]rune(ks)) == 1 && !(md == modeTables && ks == "?") {
						report(fmt.Sprintf("%s would be typed, not pressed, in the %s view", ks, md))
					}
				}
			}
		}
	}
	return out
}

// withOverrides rebinds the actions the settings name. An unknown action,
// or an override that makes keys clash, is left out (the default stays),
// and the one sentence returned says so; "" when all applied.
func (k KeyMap) withOverrides(over map[string][]string) (KeyMap, string) {
	if len(over) == 0 {
		return k, ""
	}
	actions := make([]string, 0, len(over))
	for a := range over {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	var problems []string
	for _, a := range actions {
		b, ok := k.named()[a]
		if !ok {
			problems = append(problems, fmt.Sprintf("there is no action %q", a))
			continue
		}
		ks := over[a]
		old := *b
		b.SetKeys(ks...)
		b.SetHelp(strings.Join(ks, "/"), old.Help().Desc)
		// Only clashes this override brings count against it.
		if c := k.clashes(); len(c) > 0 {
			*b = old
			if c2 := k.clashes(); len(c2) < len(c) {
				problems = append(problems, fmt.Sprintf("%s: %s clashes (%s), so it keeps %s", a, strings.Join(ks, "/"), c[0], old.Help().Key))
				continue
			}
			*b = old
			b.SetKeys(ks...)
			b.SetHelp(strings.Join(ks, "/"), old.Help().Desc)
		}
	}
	if len(problems) == 0 {
		return k, ""
	}
	return k, "settings: keys: " + strings.Join(problems, "; ") + "."
}
