package ui

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/request"
	"dynascope/ui/widget"
)

// uiFiles parses the package's non-test files.
func uiFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) { return goFiles(t, "*.go") }

// overlayFiles parses ui/overlay's non-test files, named overlay/NAME.
func overlayFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	return goFiles(t, "overlay/*.go")
}

// goFiles parses the non-test Go files that match pattern.
func goFiles(t *testing.T, pattern string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.ToSlash(name)] = f
	}
	return fset, files
}

// exprText is a type expression as written.
func exprText(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	if err := printer.Fprint(&b, fset, e); err != nil {
		return "?"
	}
	return b.String()
}

// mentionsModel tells whether a type expression names the root model.
func mentionsModel(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.SelectorExpr); ok {
			return false // another package's Model (help.Model), not the root's
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == "Model" {
			found = true
		}
		return !found
	})
	return found
}

// TestOverlayUpdatesTakeNoModel holds overlays to returning what they want:
// every Update of an overlay type takes (Env, tea.Msg) and returns
// (Overlay, Want), its View and Mode draw and decide from an Env too; no
// overlay holds the root model in a field; and the Env it is given has no
// way to the root model either (no field whose type names Model, nor a
// store, editor or context to send requests through). So no overlay can
// change root state or send a request itself. (An overlay in ui/overlay
// cannot even name the root model: that package does not import ui.)
func TestOverlayUpdatesTakeNoModel(t *testing.T) {
	fset, files := uiFiles(t)
	ofset, ofiles := overlayFiles(t)
	type set struct {
		fset   *token.FileSet
		files  map[string]*ast.File
		prefix string // how the file names the overlay package
	}
	overlayTypes := map[string]bool{}
	updates := 0
	for _, s := range []set{{fset, files, "overlay."}, {ofset, ofiles, ""}} {
		for name, f := range s.files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || !slices.Contains([]string{"Update", "View", "Mode", "Relayout"}, fd.Name.Name) {
					continue
				}
				recv := strings.TrimPrefix(exprText(s.fset, fd.Recv.List[0].Type), "*")
				if s.prefix != "" && !strings.HasSuffix(recv, "Overlay") {
					continue // a pane of the root, not an overlay
				}
				var params, results []string
				for _, p := range fd.Type.Params.List {
					for range max(1, len(p.Names)) {
						params = append(params, exprText(s.fset, p.Type))
					}
				}
				if fd.Type.Results != nil {
					for _, r := range fd.Type.Results.List {
						results = append(results, exprText(s.fset, r.Type))
					}
				}
				got := strings.Join(params, ", ") + " -> " + strings.Join(results, ", ")
				want := strings.ReplaceAll(map[string]string{
					"Update": "@Env, tea.Msg -> @Overlay, @Want", "View": "@Env, int, int -> string",
					"Mode": "@Env -> *keymap.Mode", "Relayout": "@Env -> @Overlay",
				}[fd.Name.Name], "@", s.prefix)
				if got != want {
					t.Errorf("%s: %s.%s is (%s), want (%s)", name, recv, fd.Name.Name, got, want)
				}
				if fd.Name.Name == "Update" {
					overlayTypes[recv] = true
					updates++
				}
			}
		}
	}
	if updates < 16 {
		t.Fatalf("found %d overlay updates; the sixteen overlays have one each", updates)
	}
	for _, s := range []set{{fset, files, "overlay."}, {ofset, ofiles, ""}} {
		for name, f := range s.files {
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				switch {
				case overlayTypes[ts.Name.Name]:
					for _, fl := range st.Fields.List {
						if mentionsModel(fl.Type) {
							t.Errorf("%s: overlay %s holds %s, the root model", name, ts.Name.Name, exprText(s.fset, fl.Type))
						}
					}
				case name == "overlay/env.go" && ts.Name.Name == "Env":
					for _, fl := range st.Fields.List {
						typ := exprText(s.fset, fl.Type)
						if mentionsModel(fl.Type) || strings.Contains(typ, "Store") || strings.Contains(typ, "Editor") || strings.Contains(typ, "context.") || strings.Contains(typ, "sender") {
							t.Errorf("%s: Env's field of type %s is a way to the root or to the network", name, typ)
						}
					}
				}
				return true
			})
		}
	}
}

// TestEveryWantIsDone: each action type an overlay can return (a type of
// ui/overlay with the isWant method) has its case in one of the root's do
// steps (the Model methods named do…, actions.go), once, so that none is
// dropped in silence or handled twice.
func TestEveryWantIsDone(t *testing.T) {
	ofset, ofiles := overlayFiles(t)
	declared := map[string]bool{}
	for _, f := range ofiles {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == "isWant" {
				declared["overlay."+exprText(ofset, fd.Recv.List[0].Type)] = true
			}
		}
	}
	fset, files := uiFiles(t)
	handled := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || exprText(fset, fd.Recv.List[0].Type) != "Model" || !strings.HasPrefix(fd.Name.Name, "do") {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSwitchStmt)
				if !ok {
					return true
				}
				for _, c := range ts.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						w := exprText(fset, e)
						if prev, twice := handled[w]; twice {
							t.Errorf("%s is handled in Model.%s and in Model.%s", w, prev, fd.Name.Name)
						}
						handled[w] = fd.Name.Name
					}
				}
				return true
			})
		}
	}
	if len(declared) < 40 {
		t.Fatalf("found %d action types in ui/overlay", len(declared))
	}
	for w := range declared {
		if _, ok := handled[w]; !ok {
			t.Errorf("no do step of the root model has a case for %s", w)
		}
	}
}

// envFor is what the root would give an overlay: every key enabled, a
// 120×35 screen, the example table.
func envFor() overlay.Env {
	return overlay.Env{Keys: keymap.Default(), St: newStyles(true, true), W: 120, BodyH: 28, Table: appTable()}
}

func sameWant(t *testing.T, got, want overlay.Want) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("wants %#v,\nwant %#v", got, want)
	}
}

// The write overlay, with no root model: enter sends the planned write
// (the root gives it its id), esc says it was not sent, and closing it
// after the write closes the stale draft and item below.
func TestWriteOverlayWants(t *testing.T) {
	it := dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ada")}
	p, err := edit.NewPlan(edit.Change{Table: "App", Keys: appTable(), Old: it})
	if err != nil {
		t.Fatal(err)
	}
	o := newWriteOverlay(p, nil)
	next, w := o.Update(envFor(), keyPress("enter"))
	sameWant(t, w, overlay.SendWrite{Plan: p})
	if next.(writeOverlay).phase != writeSending {
		t.Fatalf("phase %v after enter, want sending", next.(writeOverlay).phase)
	}
	if _, w := next.Update(envFor(), keyPress("esc")); w != nil {
		t.Fatalf("esc while sending wants %#v; the answer closes it", w)
	}
	_, w = o.Update(envFor(), keyPress("esc"))
	sameWant(t, w, overlay.Then{overlay.ShowInfo{Text: "not sent"}, overlay.Close{}})

	done := o
	done.phase = writeDone
	_, w = done.Update(envFor(), keyPress("esc"))
	sameWant(t, w, overlay.Then{overlay.Close{}, overlay.Remove{IDs: []overlay.ID{overlay.EditID, overlay.DetailID}}})
}

// The bulk overlay asks for the plan, runs only after it is confirmed, and
// esc while it reads asks the root to cancel.
func TestBulkOverlayWants(t *testing.T) {
	o := bulkOverlay{kind: bulkScan, table: "App", form: widget.NewForm([]string{"filter", "projection"}, nil)}
	next, w := o.Update(envFor(), keyPress("enter"))
	b := next.(bulkOverlay)
	if b.phase != bulkPlanning {
		t.Fatalf("phase %v after enter on the form, want planning", b.phase)
	}
	sameWant(t, w, overlay.PlanBulk{In: request.Input{Table: dynamo.Table{}, Scan: &dynamo.ScanInput{Table: "App"}}})
	if _, w := b.Update(envFor(), keyPress("enter")); w != nil {
		t.Fatalf("enter while planning wants %#v: nothing runs before the plan is shown", w)
	}
	_, w = b.Update(envFor(), keyPress("esc"))
	sameWant(t, w, overlay.StopBulk{})

	b.phase = bulkConfirm
	next, w = b.Update(envFor(), keyPress("enter"))
	if r, ok := w.(overlay.RunBulk); !ok || r.Scan == nil || r.Scan.Table != "App" || r.PartiQL != nil || next.(bulkOverlay).phase != bulkRunning {
		t.Fatalf("enter on the plan wants %#v, want the read run", w)
	}
}

// The export form checks itself and asks for the export; the root runs it.
func TestExportOverlayWants(t *testing.T) {
	src := exportSource{n: 3}
	o := exportOverlay{src: src, named: itemcodec.ExportJSONL, form: widget.NewForm([]string{expFormat, expPath}, []string{"xml", "out.xml"})}
	next, w := o.Update(envFor(), keyPress("enter"))
	if w != nil || !strings.Contains(next.(exportOverlay).err, "the format must be one of") {
		t.Fatalf("a bad format wants %#v, says %q", w, next.(exportOverlay).err)
	}
	o.form = widget.NewForm([]string{expFormat, expPath}, []string{"csv", " out.csv "})
	_, w = o.Update(envFor(), keyPress("enter"))
	sameWant(t, w, overlay.StartExport{Src: src, Path: "out.csv", Format: itemcodec.ExportCSV})

	e := envFor()
	e.Exporting = true
	_, w = o.Update(e, keyPress("esc"))
	sameWant(t, w, overlay.StopExport{})
}

// The indexes overlay asks the root to query the index chosen, or only
// closes when it is the one open.
func TestIndexesOverlayWants(t *testing.T) {
	o := overlay.NewIndexes(appTable(), "")
	next, w := o.Update(envFor(), keyPress("j"))
	if w != nil {
		t.Fatalf("j wants %#v", w)
	}
	_, w = next.Update(envFor(), keyPress("enter"))
	sameWant(t, w, overlay.Then{overlay.Close{}, overlay.ChooseIndex{Name: "GSI1"}})
	_, w = o.Update(envFor(), keyPress("enter"))
	sameWant(t, w, overlay.Close{})
}

// A pattern without parameters runs at once, and the list's place is kept.
func TestPatternsOverlayWants(t *testing.T) {
	set := &patterns.PatternSet{Patterns: []patterns.Pattern{{Name: "profile", PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKEq, Values: []string{"PROFILE"}}}}}
	e := envFor()
	e.Patterns = set
	_, w := overlay.Patterns{}.Update(e, keyPress("enter"))
	r, ok := w.(overlay.Then)
	if !ok || len(r) != 2 || r[0] != (overlay.KeepPatterns{}) {
		t.Fatalf("enter wants %#v", w)
	}
	if run, ok := r[1].(overlay.RunPattern); !ok || run.P.Name != "profile" {
		t.Fatalf("enter wants %#v, want the pattern run", r[1])
	}
}
