package ui

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
)

// Every enabled binding has help, and no two enabled bindings share a key in
// one mode, whatever else is going on; typing modes leave printable keys to
// the field (Clashes, the check the settings overrides go through).
func TestKeymapHelpAndNoClashes(t *testing.T) {
	km := keymap.Default()
	for _, c := range km.Clashes(allModes) {
		t.Error(c)
	}
	for _, md := range allModes {
		for _, st := range keymap.CheckStates {
			k := km.ForMode(md, st)
			enabled := 0
			for _, b := range k.All() {
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
	for _, md := range allModes {
		if md.Name == "" {
			t.Errorf("a mode has no name: %+v", md)
		}
	}
	for _, u := range keymap.Undeclared(allModes) {
		t.Error(u)
	}
}

// Every mode declared (a package-level var mode… of the package, or of
// ui/overlay) is in its package's list (paneModes, overlay.Modes), once,
// so that allModes has them all for the clash check and the settings'
// overrides.
func TestEveryModeIsListed(t *testing.T) {
	_, files := uiFiles(t)
	_, ofiles := overlayFiles(t)
	declared, listed := map[string]bool{}, map[string]bool{}
	for _, set := range []struct {
		files map[string]*ast.File
		list  string
	}{{files, "paneModes"}, {ofiles, "Modes"}} {
		for _, f := range set.files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, sp := range gd.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if strings.HasPrefix(id.Name, "mode") && len(id.Name) > 4 && unicode.IsUpper(rune(id.Name[4])) {
							declared[set.list+"."+id.Name] = true
						}
						if id.Name == set.list {
							for _, e := range vs.Values[i].(*ast.CompositeLit).Elts {
								listed[set.list+"."+e.(*ast.Ident).Name] = true
							}
						}
					}
				}
			}
		}
	}
	for name := range declared {
		if !listed[name] {
			t.Errorf("mode %s is not in its list", name)
		}
	}
	distinct := map[*keymap.Mode]bool{}
	for _, md := range allModes {
		distinct[md] = true
	}
	if len(declared) < 30 || len(distinct) != len(allModes) || len(listed) != len(allModes) {
		t.Errorf("%d modes declared, %d listed, %d in allModes, %d distinct", len(declared), len(listed), len(allModes), len(distinct))
	}
}

// A clash is found: two actions on one key in one mode, and a letter bound
// where the mode types.
func TestClashesFound(t *testing.T) {
	km := keymap.Default()
	km.Reverse.SetKeys("e")
	km.Cancel.SetKeys("x")
	c := strings.Join(km.Clashes(allModes), "\n")
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

// Help says how stream reads are priced where T works: the partition's
// panes and the live pane, and nowhere else.
func TestHelpNotesTheLivePanesPricing(t *testing.T) {
	for _, md := range allModes {
		want := md == modeGroups || md == modeItems || md.Name == "live pane"
		if got := md.Note == overlay.LiveHelpNote; got != want {
			t.Errorf("%s: help's note on the live pane %v, want %v", md, got, want)
		}
	}
	hs := openExample(t, 120, 35)
	hs.keys("?")
	text := strings.ReplaceAll(ansi.Strip(hs.screen()), "│", " ") // the box's sides between wrapped lines
	if got := strings.Join(strings.Fields(text), " "); !strings.Contains(got, "The live pane (T) reads the table's stream") {
		t.Errorf("help on the partition does not say how the live pane reads:\n%s", hs.screen())
	}
}
