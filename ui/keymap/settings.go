package keymap

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Key overrides from the settings file: `keys: {reverse: R}` rebinds an
// action. Actions are named after the KeyMap's fields, first letter lower
// case ("reverse", "editCondition", "nextPage").

// named maps each action name to its binding: KeyMap's fields (keymap.go).
func (k *KeyMap) named() map[string]*key.Binding {
	all := k.All()
	out := make(map[string]*key.Binding, len(all))
	for i, b := range all {
		out[actions[i].name] = b
	}
	return out
}

// CheckStates are the states a keymap is checked in for clashes.
var CheckStates = []State{
	{},
	{CanGoBack: true, Busy: true, More: true, HasItem: true, Patterns: true, EmptyField: true},
	{Busy: true},
	{More: true, HasItem: true},
}

// Clashes lists, for every mode of modes and every state, two enabled
// bindings that share a key, and printable keys bound where typing goes to
// a field (but ? where the mode says help takes it, HelpTyped).
func (k KeyMap) Clashes(modes []*Mode) []string {
	var out []string
	seenMsg := map[string]bool{}
	report := func(s string) {
		if !seenMsg[s] {
			seenMsg[s] = true
			out = append(out, s)
		}
	}
	for _, md := range modes {
		for _, st := range CheckStates {
			km := k.ForMode(md, st)
			seen := map[string]string{}
			for _, b := range km.All() {
				if !b.Enabled() {
					continue
				}
				h := b.Help()
				for _, ks := range b.Keys() {
					if other, dup := seen[ks]; dup {
						report(fmt.Sprintf("%s is both %q and %q in the %s view", ks, other, h.Desc, md))
					}
					seen[ks] = h.Desc
					if md.Typing && len([]rune(ks)) == 1 && !(md.HelpTyped && ks == "?") {
						report(fmt.Sprintf("%s would be typed, not pressed, in the %s view", ks, md))
					}
				}
			}
		}
	}
	return out
}

// WithOverrides rebinds the actions the settings name. An unknown action,
// or an override that makes keys clash in one of modes, is left out (the
// default stays), and the one sentence returned says so; "" when all
// applied.
func (k KeyMap) WithOverrides(over map[string][]string, modes []*Mode) (KeyMap, string) {
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
		if c := k.Clashes(modes); len(c) > 0 {
			*b = old
			if c2 := k.Clashes(modes); len(c2) < len(c) {
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
