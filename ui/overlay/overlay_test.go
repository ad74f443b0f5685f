package overlay

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOverlaysTakeAnEnv holds overlays to returning what they want: every
// Update of an overlay takes (Env, tea.Msg) and returns (Overlay, Want),
// its View and Mode draw and decide from an Env too, and the Env has no
// way to the root or to the network (no store, editor, context or sender
// among its fields). This package cannot name the root model at all: it
// does not import ui (imports_test.go). So no overlay can change root
// state or send a request itself.
func TestOverlaysTakeAnEnv(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	text := func(e ast.Expr) string {
		var b strings.Builder
		if err := printer.Fprint(&b, fset, e); err != nil {
			return "?"
		}
		return b.String()
	}
	want := map[string]string{
		"Update": "Env, tea.Msg -> Overlay, Want", "View": "Env, int, int -> string",
		"Mode": "Env -> *keymap.Mode", "Relayout": "Env -> Overlay",
	}
	updates := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || !slices.Contains([]string{"Update", "View", "Mode", "Relayout"}, d.Name.Name) {
					continue
				}
				var params, results []string
				for _, p := range d.Type.Params.List {
					for range max(1, len(p.Names)) {
						params = append(params, text(p.Type))
					}
				}
				if d.Type.Results != nil {
					for _, r := range d.Type.Results.List {
						results = append(results, text(r.Type))
					}
				}
				if got := strings.Join(params, ", ") + " -> " + strings.Join(results, ", "); got != want[d.Name.Name] {
					t.Errorf("%s: %s.%s is (%s), want (%s)", name, text(d.Recv.List[0].Type), d.Name.Name, got, want[d.Name.Name])
				}
				if d.Name.Name == "Update" {
					updates++
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "Env" {
						continue
					}
					for _, fl := range ts.Type.(*ast.StructType).Fields.List {
						typ := text(fl.Type)
						for _, way := range []string{"Store", "Editor", "context.", "sender", "tea.Cmd"} {
							if strings.Contains(typ, way) {
								t.Errorf("Env's field of type %s is a way to the root or to the network", typ)
							}
						}
					}
				}
			}
		}
	}
	if updates < 16 {
		t.Fatalf("found %d overlay updates; the sixteen overlays have one each", updates)
	}
}
