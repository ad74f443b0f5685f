package main

import (
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// allowedImports is the direction of the layers: for each package, the
// packages of dynascope its non-test code may import. A package missing
// here fails the test, so a new one states its place when it is added.
// Tests may import more (dynamotest, another package's helpers).
var allowedImports = map[string][]string{
	"textfmt":           {},
	"yamlfile":          {},
	"keys":              {},
	"itemcodec/number":  {},
	"dynamo/dynamotest": {},
	"keys/keystest":     {},
	"itemcodec":         {"itemcodec/number", "textfmt"},
	"filterexpr":        {"itemcodec/number"},
	"partiql":           {"textfmt"},
	"dynamo":            {"filterexpr", "itemcodec", "itemcodec/number", "keys", "partiql", "textfmt"},
	"config":            {"dynamo", "textfmt", "yamlfile"},
	"entities":          {"filterexpr", "itemcodec/number", "textfmt", "yamlfile"},
	"patterns":          {"dynamo", "entities", "filterexpr", "indexes", "keys", "textfmt", "yamlfile"},
	"codegen":           {"dynamo", "itemcodec", "partiql"},
	"demodata":          {"dynamo"},
	"dynamolocal":       {"dynamo"},
	"edit":              {"codegen", "dynamo", "itemcodec", "itemcodec/number"},
	"workbench":         {"dynamo", "itemcodec", "keys", "textfmt"},
	"modelimport":       {"entities", "textfmt"},
	"indexes":           {"dynamo", "itemcodec", "keys"},
	"explain":           {"dynamo", "entities", "itemcodec", "keys"},
	"ui/theme":          {},
	"ui/widget":         {"textfmt", "ui/theme"},
	"ui/keymap":         {"ui/widget"},
	"ui/request":        {"codegen", "dynamo", "patterns", "textfmt"},
	"ui/overlay": {"codegen", "config", "dynamo", "edit", "explain", "indexes", "itemcodec", "keys", "partiql", "patterns", "textfmt",
		"ui/keymap", "ui/request", "ui/theme", "ui/widget"},
	"ui/pane": {"config", "dynamo", "edit", "itemcodec", "keys", "patterns", "textfmt",
		"ui/keymap", "ui/overlay", "ui/request", "ui/theme", "ui/widget"},
	"ui": {"codegen", "config", "dynamo", "edit", "explain", "filterexpr", "indexes", "itemcodec", "keys", "partiql", "patterns", "textfmt",
		"ui/keymap", "ui/overlay", "ui/pane", "ui/request", "ui/theme", "ui/widget"},
	"cli": {"codegen", "config", "demodata", "dynamo", "dynamolocal", "edit", "entities", "explain", "filterexpr", "indexes", "itemcodec", "itemcodec/number", "keys", "modelimport", "partiql", "patterns",
		"textfmt", "ui", "workbench", "yamlfile"},
}

// mainImports is all that package main (main.go: the signal context and the
// exit) may import of ours: the command line, which nothing else imports.
var mainImports = []string{"cli"}

// noIO lists packages whose non-test code may not import these standard
// packages: the UI does no I/O of its own (no files, no environment); it
// gets what it needs through Options and the packages that own the files
// (config's history, itemcodec's export files, patterns).
var noIO = map[string][]string{
	"ui":         {"os", "os/exec", "io/ioutil", "syscall"},
	"ui/theme":   {"os", "os/exec", "io/ioutil", "syscall"},
	"ui/widget":  {"os", "os/exec", "io/ioutil", "syscall"},
	"ui/keymap":  {"os", "os/exec", "io/ioutil", "syscall"},
	"ui/overlay": {"os", "os/exec", "io/ioutil", "syscall"},
	"ui/request": {"os", "os/exec", "io/ioutil", "syscall"},
	"ui/pane":    {"os", "os/exec", "io/ioutil", "syscall"},
}

// commandDirs hold programs: the benchmarks and their data, the scripts'
// tools. They may import any library package but cli; nothing but
// themselves imports them.
var commandDirs = []string{"bench", "scripts"}

// TestImportDirection reads the imports of every package in the module
// (non-test files) and holds them to allowedImports, and every library
// package to a doc comment that says what it must not import.
func TestImportDirection(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			rel = ""
		}
		var ours []string
		for _, imp := range pkg.Imports {
			if imp == "dynascope" || strings.HasPrefix(imp, "dynascope/") {
				ours = append(ours, strings.TrimPrefix(imp, "dynascope/"))
			}
		}
		if rel != "" && slices.Contains(ours, "cli") {
			t.Errorf("dynascope/%s imports dynascope/cli; only main.go may", rel)
		}
		if rel == "" {
			for _, imp := range ours {
				if !slices.Contains(mainImports, imp) {
					t.Errorf("main.go imports dynascope/%s; it may import only %v (the command line lives in cli)", imp, mainImports)
				}
			}
			return nil
		}
		if isCommandDir(rel) {
			return nil
		}
		allowed, ok := allowedImports[rel]
		if !ok {
			t.Errorf("package %s (dynascope/%s) is not in allowedImports; add it with the packages it may import", pkg.Name, rel)
			return nil
		}
		seen[rel] = true
		for _, imp := range pkg.Imports {
			if slices.Contains(noIO[rel], imp) {
				t.Errorf("dynascope/%s imports %s; it does no I/O of its own (see noIO)", rel, imp)
			}
		}
		for _, imp := range ours {
			if !slices.Contains(allowed, imp) {
				t.Errorf("dynascope/%s imports dynascope/%s; it may import only %v", rel, imp, allowed)
			}
		}
		if doc := packageDoc(t, path, pkg.GoFiles); !strings.HasPrefix(doc, "Package "+pkg.Name+" ") || !strings.Contains(doc, "import") {
			t.Errorf("dynascope/%s: its package doc comment should say what it holds and what it must not import; it is %q", rel, doc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range allowedImports {
		if !seen[rel] {
			if _, err := os.Stat(rel); err != nil {
				t.Errorf("allowedImports names dynascope/%s, which is not there any more", rel)
			}
		}
	}
}

// packageDoc is the package's doc comment, from whichever file holds it.
func packageDoc(t *testing.T, dir string, files []string) string {
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			return f.Doc.Text()
		}
	}
	return ""
}

func isCommandDir(rel string) bool {
	for _, d := range commandDirs {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// TestArchitectureTable holds ARCHITECTURE.md's package table to
// allowedImports: every package enforced has a row, and its "imports of
// ours" column lists exactly what the package may import.
func TestArchitectureTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Fields(strings.Trim(strings.TrimSpace(cells[1]), "`"))[0]
		name = strings.TrimSuffix(name, "`")
		var imports []string
		for _, imp := range strings.Split(cells[len(cells)-2], ",") {
			if imp = strings.TrimSpace(imp); imp != "" && imp != "none" {
				imports = append(imports, imp)
			}
		}
		rows[name] = imports
	}
	for pkg, allowed := range allowedImports {
		got, ok := rows[pkg]
		if !ok {
			t.Errorf("ARCHITECTURE.md has no row for package %s", pkg)
			continue
		}
		want := slices.Sorted(slices.Values(allowed))
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("ARCHITECTURE.md says %s imports %v; imports_test.go allows %v", pkg, got, want)
		}
	}
	if got := rows["main"]; !slices.Equal(got, mainImports) {
		t.Errorf("ARCHITECTURE.md says main imports %v; imports_test.go allows %v", got, mainImports)
	}
}
