package ui

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
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
