package patterns

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"dynascope/dynamo"
)

// openOrders is the pattern the save tests append.
var openOrders = Pattern{
	Name: "open orders", Description: "a warehouse's work queue, oldest first", Index: "GSI1",
	PK: "WH#{warehouseId}", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"OPEN#"}},
	Example: map[string]string{"warehouseId": "1"},
}

const openOrdersText = `  - name: open orders
    description: a warehouse's work queue, oldest first
    index: GSI1
    pk: "WH#{warehouseId}"
    sk: {begins_with: "OPEN#"}
    example: {warehouseId: "1"}
`

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Comments, blank lines and order survive byte for byte; only the new
// pattern's lines are added, after the last pattern.
func TestSavePatternKeepsTheFile(t *testing.T) {
	cases := []struct{ name, before, after string }{
		{"comments and blank lines",
			`# Access patterns of the App table.
table: App # the demo table

patterns:
  # The profile and every order, in one request.
  - name: customer with orders
    pk: "CUST#{customerId}"   # pre-joined by partition
    example: {customerId: "42"}

  # Newest first, one item.
  - name: latest order
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    reverse: true
    limit: 1
    example: {customerId: "42"}
    # limit: 5 was too many

# end of patterns
`,
			`# Access patterns of the App table.
table: App # the demo table

patterns:
  # The profile and every order, in one request.
  - name: customer with orders
    pk: "CUST#{customerId}"   # pre-joined by partition
    example: {customerId: "42"}

  # Newest first, one item.
  - name: latest order
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    reverse: true
    limit: 1
    example: {customerId: "42"}
    # limit: 5 was too many

` + openOrdersText + `
# end of patterns
`},
		{"list before another key, no blank lines",
			"patterns:\n- name: a\n  pk: \"A\"\n# The table these patterns run on.\ntable: App\n",
			"patterns:\n- name: a\n  pk: \"A\"\n" + strings.ReplaceAll(openOrdersText, "\n  ", "\n")[2:] + "# The table these patterns run on.\ntable: App\n"},
		{"no newline at the end",
			"table: App\npatterns:\n  - name: a\n    pk: \"A\"",
			"table: App\npatterns:\n  - name: a\n    pk: \"A\"\n" + openOrdersText},
		{"empty list", "table: App\npatterns: []  # none yet\n",
			"table: App\npatterns:  # none yet\n" + openOrdersText},
		{"empty key", "table: App\npatterns:\n",
			"table: App\npatterns:\n" + openOrdersText},
		{"no patterns key", "# just the table\ntable: App\n",
			"# just the table\ntable: App\npatterns:\n" + openOrdersText},
		{"windows line endings", "table: App\r\npatterns:\r\n  - name: a\r\n    pk: \"A\"\r\n",
			"table: App\r\npatterns:\r\n  - name: a\r\n    pk: \"A\"\r\n" + strings.ReplaceAll(openOrdersText, "\n", "\r\n")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.before)
			if err := SavePattern(path, openOrders); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != c.after {
				t.Errorf("file after saving:\n%s\nwant:\n%s", got, c.after)
			}
			set, err := LoadPatterns(path)
			if err != nil {
				t.Fatal(err)
			}
			last := set.Patterns[len(set.Patterns)-1]
			if !samePattern(last, openOrders) || !reflect.DeepEqual(last.Example, openOrders.Example) {
				t.Errorf("read back %+v", last)
			}
		})
	}
}

func TestSavePatternCreatesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dynascope.yaml")
	q := dynamo.QueryInput{Table: "App", PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"ORDER#2025-01", "ORDER#2025-02 {x}"}}, Reverse: true, Limit: 10, Consistent: true}
	p := PatternFromQuery("January's orders", "saved from the UI", q)
	if err := SavePattern(path, p); err != nil {
		t.Fatal(err)
	}
	want := `patterns:
  - name: January's orders
    description: saved from the UI
    pk: "CUST#42"
    sk: {between: ["ORDER#2025-01", "ORDER#2025-02 {{x}}"]}
    reverse: true
    limit: 10
    consistent: true
`
	if got := readFile(t, path); got != want {
		t.Errorf("new file:\n%s\nwant:\n%s", got, want)
	}
	set, err := LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := set.Patterns[0].Resolve(dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}, nil)
	if err != nil || !reflect.DeepEqual(*r.Query, q) {
		t.Errorf("saved query reads back as %+v (%v), want %+v", r.Query, err, q)
	}
	g := PatternFromGet("profile", "", dynamo.GetInput{Table: "App", PK: "CUST#42", SK: "PROFILE"})
	if err := SavePattern(path, g); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != want+"  - name: profile\n    pk: \"CUST#42\"\n    sk: {eq: \"PROFILE\"}\n" {
		t.Errorf("after a second save:\n%s", got)
	}
}

// SavePattern refuses what would lose or break something, and then leaves
// the file as it was.
func TestSavePatternRefuses(t *testing.T) {
	const good = "table: App\npatterns:\n  - name: open orders\n    pk: \"WH#1\"\n"
	cases := []struct {
		name, before string
		p            Pattern
		want         string
	}{
		{"duplicate name", good, openOrders,
			`cannot save pattern "open orders" to PATH: the file already has a pattern of that name (line 3); choose another name.`},
		{"broken file", "table: App\npatterns:\n  - name: x\n    pk: a\n    revers: true\n", openOrders,
			`cannot save pattern "open orders" to PATH: the file has a mistake to fix first (PATH:5: pattern "x": unknown field "revers" (did you mean "reverse"?)).`},
		{"flow list", "table: App\npatterns: [{name: a, pk: b}]\n", openOrders,
			`cannot save pattern "open orders" to PATH: patterns: is not a block list (- name: ...), so a pattern cannot be appended to it.`},
		{"no name", good, Pattern{PK: "A"},
			`cannot save a pattern without a name to PATH; give it a name.`},
		{"placeholder without example", good, Pattern{Name: "by id", PK: "USER#{id}"},
			`cannot save pattern "by id" to PATH: PATH:5: pattern "by id": placeholder {id} has no value in example; add example: {id: ...} so that check can run it.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.before)
			err := SavePattern(path, c.p)
			if want := strings.ReplaceAll(c.want, "PATH", path); err == nil || err.Error() != want {
				t.Errorf("error\n got %v\nwant %s", err, want)
			}
			if got := readFile(t, path); got != c.before {
				t.Errorf("the file changed:\n%s", got)
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Errorf("left files behind: %v", entries)
			}
		})
	}
}

// The file's mode is kept, and a symbolic link keeps pointing at it.
func TestSavePatternKeepsModeAndLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(real, []byte("patterns:\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "dynascope.yaml")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := SavePattern(link, openOrders); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
	if got := readFile(t, real); got != "patterns:\n"+openOrdersText {
		t.Errorf("file:\n%s", got)
	}
}

// Saving into the shipped file keeps every byte of it, comments included.
func TestSavePatternIntoShippedFile(t *testing.T) {
	shipped, err := os.ReadFile("../" + PatternsFile)
	if err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, string(shipped))
	if err := SavePattern(path, openOrders); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != string(shipped)+"\n"+openOrdersText {
		t.Errorf("file after saving:\n%s", got)
	}
}
