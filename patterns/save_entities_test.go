package patterns

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo"
)

// orderSection is an imported section: one entity on the demo's keys.
const orderSection = `entities:
  - name: Order
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderDate}#{orderId}"
      GSI1PK: "WH#{warehouseId}"
    params:
      customerId: number
      orderDate: text
      orderId: text
      warehouseId: number
`

const headOfFile = `# Access patterns of the App table.
table: App # the demo table

# The table's keys.
keys:
  table: PK S / SK S
  indexes: ["GSI1 GSI(GSI1PK S / GSI1SK S)"]
`

const patternsOfFile = `
# What the application asks.
patterns:
  - name: customer with orders
    pk: "CUST#{customerId}"   # pre-joined by partition
    example: {customerId: "42"}
`

// The section goes in place of the file's entities: (its comments above
// and the comments and blank lines of what follows kept), or after the
// rest of the file; nothing else of the file changes.
func TestSaveEntitiesKeepsTheFile(t *testing.T) {
	oldEntities := `
# Declared by hand, to be replaced.
entities:
  - name: Customer
    keys: {PK: "CUST#{customerId}", SK: "PROFILE"}
    params:
      customerId: number   # a comment inside goes with it
`
	cases := []struct{ name, before, after string }{
		{"no entities yet: added at the end", headOfFile + patternsOfFile, headOfFile + patternsOfFile + "\n" + orderSection},
		{"entities replaced in place", headOfFile + oldEntities + patternsOfFile,
			headOfFile + "\n# Declared by hand, to be replaced.\n" + orderSection + patternsOfFile},
		{"entities last, replaced", headOfFile + patternsOfFile + oldEntities, headOfFile + patternsOfFile + "\n# Declared by hand, to be replaced.\n" + orderSection},
		{"entities: with nothing", headOfFile + "entities:\n" + patternsOfFile, headOfFile + orderSection + patternsOfFile},
		{"entities: []", headOfFile + "entities: []   # none yet\n" + patternsOfFile, headOfFile + orderSection + patternsOfFile},
		{"no newline at the end", strings.TrimSuffix(headOfFile, "\n"), headOfFile + "\n" + orderSection},
		{"an empty file", "", orderSection},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.before)
			if err := SaveEntities(path, []byte(orderSection)); err != nil {
				t.Fatal(err)
			}
			got := readFile(t, path)
			if got != c.after {
				t.Fatalf("file:\n%s\nwant:\n%s", got, c.after)
			}
			set, err := LoadPatterns(path)
			if err != nil || len(set.Entities.Entities) != 1 || set.Entities.Entities[0].Name != "Order" {
				t.Fatalf("the file reads back as %v, %v", set, err)
			}
		})
	}
}

func TestSaveEntitiesKeepsCRLF(t *testing.T) {
	before := strings.ReplaceAll(headOfFile+patternsOfFile, "\n", "\r\n")
	path := writeTemp(t, before)
	if err := SaveEntities(path, []byte(orderSection)); err != nil {
		t.Fatal(err)
	}
	want := before + "\r\n" + strings.ReplaceAll(orderSection, "\n", "\r\n")
	if got := readFile(t, path); got != want {
		t.Fatalf("file:\n%q\nwant:\n%q", got, want)
	}
}

// A file that does not load, and a section the file's keys refuse, leave
// the file as it was, with one sentence.
func TestSaveEntitiesRefuses(t *testing.T) {
	wrongKey := strings.Replace(orderSection, "GSI1PK:", "GSI9PK:", 1)
	cases := []struct{ name, before, section, want string }{
		{"a broken file", "table: App\npatterns: [\n", orderSection, "the file has a mistake to fix first"},
		{"a key the file's keys: do not have", headOfFile, wrongKey, "GSI9PK is not a key attribute"},
		{"a section that does not load", headOfFile, "entities:\n  - name: A\n", "the section does not load"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.before)
			err := SaveEntities(path, []byte(c.section))
			var ue *dynamo.UserError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "cannot write the entities to "+path) {
				t.Fatalf("err = %v, want a sentence with %q", err, c.want)
			}
			if got := readFile(t, path); got != c.before {
				t.Fatalf("the file changed:\n%s", got)
			}
		})
	}
	// A file that does not exist yet is created.
	path := filepath.Join(t.TempDir(), "new.yaml")
	if err := SaveEntities(path, []byte(orderSection)); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != orderSection {
		t.Fatalf("new file:\n%s", got)
	}
}
