//go:build ignore

// mutate.go is the part of `make mutate` (scripts/mutate.sh) that gremlins
// cannot do, and the report of both.
//
//	go run scripts/mutate.go run -pkg ./dynamo -run REGEXP [-skip REGEXP] -o out.json answer.go progress.go estimate.go:EstimateRead
//	go run scripts/mutate.go report -equivalent docs/equivalent-mutants.md DIR=out.json ...
//
// run plants gremlins' default mutants (the same token swaps: arithmetic,
// comparison boundary and negation, ++/--, a negated value) one at a time in
// the named files, or only inside the named functions of a file, and runs
// the package's tests matching -run against each through go test -overlay,
// so the worktree is never changed and only the tests that own the
// behaviour run: gremlins mutates whole packages and runs all their tests,
// which for dynamo would take an hour of DynamoDB Local. It writes gremlins'
// JSON output format.
//
// report prints, per package, efficacy (killed of killed and lived) and
// mutator coverage (reached by a test, of all), with every survivor and
// every mutant no test reaches, leaving out the equivalent mutants listed in
// the reviewed file. It exits 1 when a package is under -min percent.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/mutate.go run|report ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = runCmd(os.Args[2:])
	case "report":
		err = reportCmd(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: run or report", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

// output is gremlins' JSON output format (the part the report reads).
type output struct {
	Files []outFile `json:"files"`
}

type outFile struct {
	Name      string     `json:"file_name"`
	Mutations []mutation `json:"mutations"`
}

type mutation struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// swaps are gremlins' default mutators: each token and what it becomes.
var swaps = map[token.Token][]struct {
	kind string
	to   token.Token
}{
	token.ADD: {{"ARITHMETIC_BASE", token.SUB}},
	token.SUB: {{"INVERT_NEGATIVES", token.ADD}, {"ARITHMETIC_BASE", token.ADD}},
	token.MUL: {{"ARITHMETIC_BASE", token.QUO}},
	token.QUO: {{"ARITHMETIC_BASE", token.MUL}},
	token.REM: {{"ARITHMETIC_BASE", token.MUL}},
	token.GEQ: {{"CONDITIONALS_BOUNDARY", token.GTR}, {"CONDITIONALS_NEGATION", token.LSS}},
	token.GTR: {{"CONDITIONALS_BOUNDARY", token.GEQ}, {"CONDITIONALS_NEGATION", token.LEQ}},
	token.LEQ: {{"CONDITIONALS_BOUNDARY", token.LSS}, {"CONDITIONALS_NEGATION", token.GTR}},
	token.LSS: {{"CONDITIONALS_BOUNDARY", token.LEQ}, {"CONDITIONALS_NEGATION", token.GEQ}},
	token.EQL: {{"CONDITIONALS_NEGATION", token.NEQ}},
	token.NEQ: {{"CONDITIONALS_NEGATION", token.EQL}},
	token.INC: {{"INCREMENT_DECREMENT", token.DEC}},
	token.DEC: {{"INCREMENT_DECREMENT", token.INC}},
}

type mutant struct {
	file      string // path as given
	off       int    // byte offset of the token
	from, to  token.Token
	kind      string
	line, col int
	at        token.Position // where coverage is looked up
	status    string
}

func runCmd(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	pkg := fs.String("pkg", "", "the package directory, ./dynamo")
	run := fs.String("run", "", "the tests to run, as go test -run")
	skip := fs.String("skip", "", "the tests not to run, as go test -skip")
	out := fs.String("o", "", "the JSON file to write")
	workers := fs.Int("workers", 2, "mutants tested at once")
	coeff := fs.Int("timeout-coefficient", 5, "a mutant's tests may take this many times the unmutated run")
	dry := fs.Bool("dry-run", false, "list the mutants a test reaches without testing them")
	_ = fs.Parse(args)
	if *pkg == "" || *out == "" || fs.NArg() == 0 {
		return errors.New("run needs -pkg, -o and the files to mutate")
	}
	testArgs := []string{"test", "-count=1", "-failfast"}
	if *run != "" {
		testArgs = append(testArgs, "-run", *run)
	}
	if *skip != "" {
		testArgs = append(testArgs, "-skip", *skip)
	}
	tmp, err := os.MkdirTemp("", "dynascope-mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// The unmutated run: it must pass, it times the tests, and its coverage
	// tells which mutants a test reaches at all.
	profile := filepath.Join(tmp, "cover.out")
	began := time.Now()
	cmd := exec.Command("go", append(append([]string{}, testArgs...), "-coverprofile", profile, *pkg)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("the tests fail without a mutant:\n%s", b)
	}
	// Timed again with the build cached: the tests' own time bounds a
	// mutant's test run (an endless loop is a kill); its build may take
	// as long as the first, uncached one did.
	build := time.Since(began)
	began = time.Now()
	if b, err := exec.Command("go", append(append([]string{}, testArgs...), *pkg)...).CombinedOutput(); err != nil {
		return fmt.Errorf("the tests fail without a mutant:\n%s", b)
	}
	testLimit := time.Duration(*coeff)*time.Since(began) + 10*time.Second
	limit := testLimit + build + time.Minute
	covered, err := readProfile(profile)
	if err != nil {
		return err
	}

	var muts []*mutant
	for _, target := range fs.Args() {
		name, funcs, _ := strings.Cut(target, ":")
		ms, err := find(filepath.Join(*pkg, name), funcs)
		if err != nil {
			return err
		}
		muts = append(muts, ms...)
	}
	var todo []*mutant
	for _, m := range muts {
		if covered(m.file, m.at.Line, m.at.Column) {
			todo = append(todo, m)
		} else {
			m.status = "NOT COVERED"
		}
	}
	fmt.Fprintf(os.Stderr, "mutate: %d mutants in %s, %d reached by its tests; each test run may take %s\n", len(muts), *pkg, len(todo), testLimit.Round(time.Second))

	if *dry {
		for _, m := range todo {
			m.status = "RUNNABLE"
			fmt.Fprintf(os.Stderr, "%12s %s at %s:%d:%d\n", m.status, m.kind, m.file, m.line, m.col)
		}
		return write(*out, *pkg, muts)
	}
	// An interrupt ends the run with what was tested so far written out.
	stop, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	jobs := make(chan *mutant)
	var wg sync.WaitGroup
	for w := range max(*workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range jobs {
				m.status = try(m, filepath.Join(tmp, strconv.Itoa(w)), testArgs, *pkg, testLimit, limit)
				if stop.Err() != nil {
					m.status = "NOT TESTED" // its tests were interrupted too
					continue
				}
				fmt.Fprintf(os.Stderr, "%12s %s at %s:%d:%d\n", m.status, m.kind, m.file, m.line, m.col)
			}
		}()
	}
send:
	for _, m := range todo {
		select {
		case jobs <- m:
		case <-stop.Done():
			break send
		}
	}
	close(jobs)
	wg.Wait()
	for _, m := range todo {
		if m.status == "" {
			m.status = "NOT TESTED"
		}
	}
	return write(*out, *pkg, muts)
}

// find lists the mutants of a file, or of the named functions in it
// (comma-separated; a method by its name alone).
func find(path, funcs string) ([]*mutant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, fn := range strings.Split(funcs, ",") {
		if fn != "" {
			want[fn] = true
		}
	}
	// Coverage is looked up at the statement that holds a mutant: an if or
	// for header, a case's expressions and what follows a function literal
	// on its line lie outside every block of a profile (gremlins counts
	// their mutants as never reached), but they run whenever the statement
	// is reached; a case's, whenever its switch is.
	anchor := map[token.Pos]token.Pos{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n.(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr, *ast.IncDecStmt:
		default:
			return true
		}
		for i := len(stack) - 1; i >= 0; i-- {
			switch st := stack[i].(type) {
			case *ast.FuncLit:
				return true // its body's blocks are in the profile
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				continue
			case ast.Stmt:
				anchor[n.Pos()] = st.Pos()
				return true
			}
		}
		return true
	})
	var muts []*mutant
	add := func(n ast.Node, pos token.Pos, tok token.Token) {
		for _, s := range swaps[tok] {
			p := fset.Position(pos)
			m := &mutant{file: path, off: p.Offset, from: tok, to: s.to, kind: s.kind, line: p.Line, col: p.Column, at: p}
			if a, ok := anchor[n.Pos()]; ok {
				m.at = fset.Position(a) // line 0: anywhere in the file
			}
			muts = append(muts, m)
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && len(want) > 0 && !want[fd.Name.Name] {
			continue
		}
		if _, ok := d.(*ast.GenDecl); ok {
			if len(want) > 0 {
				continue
			}
			// A constant or a package variable has no block of its own:
			// it is reached when any code of its file is.
			ast.Inspect(d, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok || n == nil {
					return false // a function's body has blocks of its own
				}
				anchor[n.Pos()] = token.NoPos
				return true
			})
		}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op == token.ADD && (isString(n.X) || isString(n.Y)) {
					return true // joining text: "a" - "b" does not compile
				}
				add(n, n.OpPos, n.Op)
			case *ast.UnaryExpr:
				if n.Op == token.SUB {
					add(n, n.OpPos, n.Op)
				}
			case *ast.IncDecStmt:
				add(n, n.TokPos, n.Tok)
			}
			return true
		})
	}
	return muts, nil
}

// isString tells a string literal, or a sum that holds one.
func isString(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (isString(e.X) || isString(e.Y))
	case *ast.ParenExpr:
		return isString(e.X)
	}
	return false
}

// try runs the tests against one mutant, the file replaced by an overlay.
func try(m *mutant, dir string, testArgs []string, pkg string, testLimit, limit time.Duration) string {
	src, err := os.ReadFile(m.file)
	if err != nil {
		return "NOT VIABLE"
	}
	var b bytes.Buffer
	b.Write(src[:m.off])
	b.WriteString(m.to.String())
	b.Write(src[m.off+len(m.from.String()):])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "NOT VIABLE"
	}
	mutated := filepath.Join(dir, filepath.Base(m.file))
	abs, _ := filepath.Abs(m.file)
	overlay := filepath.Join(dir, "overlay.json")
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: mutated}})
	if os.WriteFile(mutated, b.Bytes(), 0o644) != nil || os.WriteFile(overlay, ov, 0o644) != nil {
		return "NOT VIABLE"
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args := append(append([]string{}, testArgs...), "-overlay", overlay, "-timeout", testLimit.String(), pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	outb, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		return "TIMED OUT"
	case err == nil:
		return "LIVED"
	case bytes.Contains(outb, []byte("[build failed]")) || bytes.Contains(outb, []byte("[setup failed]")):
		return "NOT VIABLE"
	}
	return "KILLED"
}

// readProfile returns whether a position lies in a block a test ran.
func readProfile(path string) (func(file string, line, col int) bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type block struct{ l0, c0, l1, c1 int }
	blocks := map[string][]block{} // by base name: the profile names import paths
	sc := bufio.NewScanner(f)
	re := regexp.MustCompile(`^(.*):(\d+)\.(\d+),(\d+)\.(\d+) \d+ (\d+)$`)
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil || m[6] == "0" {
			continue
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		blocks[filepath.Base(m[1])] = append(blocks[filepath.Base(m[1])], block{n(2), n(3), n(4), n(5)})
	}
	return func(file string, line, col int) bool {
		if line == 0 {
			return len(blocks[filepath.Base(file)]) > 0
		}
		for _, b := range blocks[filepath.Base(file)] {
			after := line > b.l0 || line == b.l0 && col >= b.c0
			before := line < b.l1 || line == b.l1 && col <= b.c1
			if after && before {
				return true
			}
		}
		return false
	}, sc.Err()
}

func write(path, pkg string, muts []*mutant) error {
	var o output
	at := map[string]int{}
	for _, m := range muts {
		rel, _ := filepath.Rel(pkg, m.file)
		i, ok := at[rel]
		if !ok {
			i = len(o.Files)
			at[rel] = i
			o.Files = append(o.Files, outFile{Name: rel})
		}
		o.Files[i].Mutations = append(o.Files[i].Mutations, mutation{Type: m.kind, Status: m.status, Line: m.line, Column: m.col})
	}
	b, err := json.MarshalIndent(o, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// equivalentRE is one entry of the reviewed list:
// - `keys/prefix.go:42:7 CONDITIONALS_BOUNDARY` reason
var equivalentRE = regexp.MustCompile("^- `([^` ]+:\\d+:\\d+) ([A-Z_]+)`")

func reportCmd(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	eqPath := fs.String("equivalent", "", "the reviewed list of equivalent mutants")
	minPct := fs.Float64("min", 0, "exit 1 when a package's efficacy or coverage is below this percent")
	_ = fs.Parse(args)
	equivalent := map[string]bool{}
	if *eqPath != "" {
		b, err := os.ReadFile(*eqPath)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if m := equivalentRE.FindStringSubmatch(line); m != nil {
				equivalent[m[1]+" "+m[2]] = true
			}
		}
	}
	used := map[string]bool{}
	type tally struct {
		killed, lived, notCovered, timedOut, notViable, equivalent, notTested int
		lines                                                                 []string
	}
	pkgs := map[string]*tally{}
	var order []string
	for _, a := range fs.Args() {
		dir, path, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q is not DIR=FILE.json", a)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("no results for %s (%v)", dir, err)
		}
		var o output
		if err := json.Unmarshal(b, &o); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		for _, f := range o.Files {
			file := filepath.ToSlash(filepath.Join(dir, f.Name))
			p := filepath.ToSlash(filepath.Dir(file))
			t := pkgs[p]
			if t == nil {
				t = &tally{}
				pkgs[p] = t
				order = append(order, p)
			}
			for _, m := range f.Mutations {
				at := fmt.Sprintf("%s:%d:%d", file, m.Line, m.Column)
				if equivalent[at+" "+m.Type] {
					used[at+" "+m.Type] = true
					t.equivalent++
					continue
				}
				switch m.Status {
				case "KILLED":
					t.killed++
				case "TIMED OUT":
					t.timedOut++
				case "LIVED":
					t.lived++
					t.lines = append(t.lines, fmt.Sprintf("  LIVED       %s %s", m.Type, at))
				case "NOT COVERED":
					t.notCovered++
					t.lines = append(t.lines, fmt.Sprintf("  NOT COVERED %s %s", m.Type, at))
				case "NOT VIABLE":
					t.notViable++
				case "NOT TESTED":
					t.notTested++
				}
			}
		}
	}
	sort.Strings(order)
	failed := false
	fmt.Println()
	fmt.Println("package               efficacy  coverage  killed lived not-covered equivalent")
	for _, p := range order {
		t := pkgs[p]
		k := t.killed + t.timedOut
		eff := pct(k, k+t.lived)
		cov := pct(k+t.lived, k+t.lived+t.notCovered)
		fmt.Printf("%-20s %8.1f%% %8.1f%% %7d %5d %11d %10d\n", p, eff, cov, k, t.lived, t.notCovered, t.equivalent)
		if t.notTested > 0 {
			fmt.Printf("%-20s (interrupted: %d mutants not tested, left out above)\n", "", t.notTested)
		}
		if eff < *minPct || cov < *minPct {
			failed = true
		}
	}
	for _, p := range order {
		if t := pkgs[p]; len(t.lines) > 0 {
			fmt.Printf("\n%s:\n%s\n", p, strings.Join(t.lines, "\n"))
		}
	}
	var stale []string
	for e := range equivalent {
		file, _, _ := strings.Cut(e, ":")
		if _, reported := pkgs[filepath.ToSlash(filepath.Dir(file))]; reported && !used[e] {
			stale = append(stale, e)
		}
	}
	if len(stale) > 0 {
		sort.Strings(stale)
		fmt.Printf("\nentries of %s that match no mutant (the code moved; review them): %s\n", *eqPath, strings.Join(stale, ", "))
	}
	if failed {
		return fmt.Errorf("a package is under %.0f%% efficacy or coverage", *minPct)
	}
	return nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}
