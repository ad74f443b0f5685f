package keymap

import (
	"strings"
	"testing"
)

// Every binding has an action name for the settings file.
func TestEveryBindingHasAnActionName(t *testing.T) {
	km := Default()
	named := km.named()
	if len(named) != len(km.All()) {
		t.Fatalf("%d action names for %d bindings", len(named), len(km.All()))
	}
	for _, b := range km.All() {
		found := false
		for _, nb := range named {
			if nb == b {
				found = true
			}
		}
		if !found {
			t.Errorf("binding %v has no action name", b.Keys())
		}
	}
}

// A mode turns on its bindings and nothing else but ctrl+c; a binding
// turned on only in some states, and help worded by the state, follow it.
func TestForModeTurnsOnTheModesBindings(t *testing.T) {
	md := &Mode{Name: "test", Keys: []Binding{
		InBar("open", "open it"), Bind("down"),
		InBar("nextPage").OnlyIf(func(st State) bool { return st.More }),
		Bind("cancel").WordedBy(func(st State) string {
			if st.Busy {
				return "cancel request"
			}
			return ""
		}).KeysShown("escape"),
	}}
	km := Default().ForMode(md, State{})
	var on []string
	for _, b := range km.All() {
		if b.Enabled() {
			on = append(on, b.Help().Key+" "+b.Help().Desc)
		}
	}
	if got := strings.Join(on, ", "); got != "↓/j down, enter open it, escape cancel, ctrl+c quit" {
		t.Errorf("on in the mode: %s", got)
	}
	km = Default().ForMode(md, State{More: true, Busy: true})
	if !km.NextPage.Enabled() || km.Cancel.Help().Desc != "cancel request" {
		t.Errorf("with more and busy: n %v, esc %q", km.NextPage.Enabled(), km.Cancel.Help().Desc)
	}
	if bar := km.BarKeys(md); len(bar) != 2 || bar[0].Help().Desc != "open it" || bar[1].Help().Key != "n" {
		t.Errorf("the bar shows %v", bar)
	}
	if Default().ForMode(md, State{CanGoBack: true}).Back.Help().Desc != "back" || Default().ForMode(md, State{}).Back.Help().Desc != "quit" {
		t.Error("q's help does not follow whether it goes back")
	}
}

// Clashes finds two actions on one key in a mode and a letter bound where
// the mode types, but lets ? open help where the mode says so; an
// override that makes a clash is left out with a sentence, an unknown
// action too, and one that fits applies.
func TestClashesAndOverrides(t *testing.T) {
	typing := &Mode{Name: "typing", Typing: true, Keys: []Binding{InBar("open"), InBar("help")}}
	helpTyped := &Mode{Name: "picker", Typing: true, HelpTyped: true, Keys: []Binding{InBar("open"), InBar("help")}}
	list := &Mode{Name: "list", Keys: []Binding{InBar("open"), InBar("reverse"), InBar("editCondition")}}
	modes := []*Mode{typing, helpTyped, list}
	c := strings.Join(Default().Clashes(modes), "\n")
	if !strings.Contains(c, "? would be typed, not pressed, in the typing view") || strings.Contains(c, "picker") {
		t.Errorf("clashes:\n%s", c)
	}
	km := Default()
	km.Reverse.SetKeys("e")
	if c := strings.Join(km.Clashes(modes), "\n"); !strings.Contains(c, "e is both") || !strings.Contains(c, "in the list view") {
		t.Errorf("clashes with r on e:\n%s", c)
	}
	modes = []*Mode{helpTyped, list}
	got, problem := Default().WithOverrides(map[string][]string{"reverse": {"e"}, "nosuch": {"z"}, "open": {"ctrl+x"}}, modes)
	if got.Reverse.Keys()[0] != "r" || got.Open.Keys()[0] != "ctrl+x" {
		t.Errorf("after the overrides: reverse %v, open %v", got.Reverse.Keys(), got.Open.Keys())
	}
	for _, want := range []string{`there is no action "nosuch"`, "reverse: e clashes", "so it keeps r"} {
		if !strings.Contains(problem, want) {
			t.Errorf("the sentence %q lacks %q", problem, want)
		}
	}
}

// A mode that turns on an action KeyMap lacks is found.
func TestUndeclared(t *testing.T) {
	if u := Undeclared([]*Mode{{Name: "x", Keys: []Binding{Bind("up"), Bind("upp")}}}); len(u) != 1 || !strings.Contains(u[0], `x turns on "upp"`) {
		t.Errorf("undeclared: %v", u)
	}
}
