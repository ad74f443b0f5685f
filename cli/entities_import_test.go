package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynascope/patterns"
)

// Arguments become the options of entities import through runF, with no
// network and without reading the model.
func TestNewEntitiesImportCmd(t *testing.T) {
	file := patterns.PatternsFile
	checkOptions(t, newEntitiesImportCmd, func(o *entitiesImportOptions) bool {
		set := o.Out != nil && o.Err != nil
		o.Out, o.Err = nil, nil
		return set
	}, []optionsCase[entitiesImportOptions]{
		{args: []string{"schema.json"}, want: entitiesImportOptions{Model: "schema.json", File: file}},
		{args: []string{"src/entities.js", "--write", "--patterns", "app.yaml"}, want: entitiesImportOptions{Model: "src/entities.js", Write: true, File: "app.yaml"}},
		{args: nil, usage: "entities import needs the model file: dynascope entities import FILE."},
		{args: []string{"a.json", "b.json"}, usage: `entities import takes one file, not 2 ("b.json" is extra).`},
	})
}

// The two models of one design print the same section; the count and the
// library go to stderr.
func TestEntitiesImportPrintsTheSection(t *testing.T) {
	one, oneErr, err := cli(t, "entities", "import", "../modelimport/testdata/shop.onetable.json")
	if err != nil {
		t.Fatal(err)
	}
	electro, electroErr, err := cli(t, "entities", "import", "../modelimport/testdata/shop.electrodb.json")
	if err != nil {
		t.Fatal(err)
	}
	if one != electro || !strings.HasPrefix(one, "entities:\n  - name: Customer\n") {
		t.Fatalf("OneTable printed\n%s\nElectroDB printed\n%s", one, electro)
	}
	if oneErr != "3 entities from ../modelimport/testdata/shop.onetable.json (OneTable).\n" || !strings.Contains(electroErr, "(ElectroDB).") {
		t.Errorf("stderr %q and %q", oneErr, electroErr)
	}
	if _, err := exec.LookPath("node"); err == nil {
		_, stderr, err := cli(t, "entities", "import", "../modelimport/testdata/users.toolbox.cjs")
		if err != nil || stderr != "2 entities from ../modelimport/testdata/users.toolbox.cjs (DynamoDB-Toolbox); 1 note (what could not be derived, or how the library writes a key) as comments in the section.\n" {
			t.Errorf("Toolbox: %q, %v", stderr, err)
		}
	}
	help, _, err := cli(t, "entities", "import", "--help")
	if err != nil || !strings.Contains(help, "loaded by the machine's node, and that runs the module's code: name only a\nfile you would run yourself") {
		t.Errorf("help does not say the JS module is run:\n%s", help)
	}
}

// --write puts the section into the patterns file: the file keeps its
// other lines, loads, and names the entities; the demo file's patterns
// still list.
func TestEntitiesImportWrite(t *testing.T) {
	demo, err := os.ReadFile("../dynascope.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := os.WriteFile(path, demo, 0o644); err != nil {
		t.Fatal(err)
	}
	section, _, err := cli(t, "entities", "import", "../modelimport/testdata/shop.electrodb.json")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := cli(t, "entities", "import", "../modelimport/testdata/shop.electrodb.json", "--write", "--patterns", path)
	if err != nil {
		t.Fatal(err)
	}
	if out != "Wrote the entities: section to "+path+": 3 entities from ../modelimport/testdata/shop.electrodb.json (ElectroDB).\n" {
		t.Errorf("stdout %q", out)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), section) {
		t.Fatalf("the file does not hold the section:\n%s", got)
	}
	set, err := patterns.LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	if names := set.Entities.Names(); strings.Join(names, ",") != "Customer,Order,Shipment" {
		t.Errorf("the file declares %v", names)
	}
	before, err := patterns.ParsePatterns("demo", demo)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Patterns) != len(before.Patterns) || set.Table != before.Table {
		t.Errorf("the file's patterns changed: %d, want %d", len(set.Patterns), len(before.Patterns))
	}
	// Written again, the section replaces itself: the file is the same.
	if _, _, err := cli(t, "entities", "import", "../modelimport/testdata/shop.electrodb.json", "--write", "--patterns", path); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(path); string(again) != string(got) {
		t.Errorf("a second --write changed the file:\n%s", again)
	}
}

// A model that cannot be read is one sentence, and --write leaves the file
// as it was.
func TestEntitiesImportRefuses(t *testing.T) {
	dir := t.TempDir()
	ts := filepath.Join(dir, "schema.ts")
	if err := os.WriteFile(ts, []byte("export default {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "dynascope.yaml")
	if err := os.WriteFile(path, []byte("table: App\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := cli(t, "entities", "import", ts, "--write", "--patterns", path)
	if err == nil || stdout != "" || err.Error() != "cannot import "+ts+": dynascope does not compile TypeScript; compile it to JavaScript (tsc) and import the .js file, or write the definitions as JSON." {
		t.Fatalf("%q, %v", stdout, err)
	}
	if got, _ := os.ReadFile(path); string(got) != "table: App\n" {
		t.Errorf("the patterns file changed: %q", got)
	}
}

// --models takes the entities from the models for the run: the file's
// patterns that name an entity take the models' declaration (orderDate is
// text there, a date in the file), and the file is not changed.
func TestModelsFlagReplacesTheFilesEntities(t *testing.T) {
	file := "testdata/patterns-entities.yaml"
	before, _ := os.ReadFile(file)
	types := func(args ...string) string {
		t.Helper()
		out, _, err := cli(t, append([]string{"patterns", "list", "--patterns", file, "--output", "json", "--query", "patterns[?name=='one order'].types.orderDate | [0]"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	if got := types(); got != `"date"` {
		t.Fatalf("the file's own entities give orderDate %s", got)
	}
	if got := types("--models", "../modelimport/testdata/shop.electrodb.json"); got != `"text"` {
		t.Fatalf("with --models orderDate is %s, want the models' text", got)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("--models changed the patterns file")
	}
	// A model that cannot be read is its one sentence.
	_, _, err := cli(t, "patterns", "list", "--patterns", file, "--models", "schema.ts")
	if err == nil || !strings.Contains(err.Error(), "does not compile TypeScript") {
		t.Fatalf("err = %v", err)
	}
}

// --models names the demo's items by the application's models, without a
// patterns file: the OneTable schema and the ElectroDB models of the
// demo's design name ORDER#A17's shipment Shipment and leave its line
// items undeclared (the models have no line item), and item decodes an
// order's keys the same through either.
func TestModelsNameTheDemosTypes(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	conn := []string{"--table", table, "--endpoint-url", ep}
	var outs []string
	for _, models := range []string{"modelimport/testdata/shop.onetable.json", "modelimport/testdata/shop.electrodb.json"} {
		out, _, err := cli(t, slices.Concat([]string{"groups", "--pk", "ORDER#A17", "--output", "table", "--models", models}, conn)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "\nShipment ") || !strings.Contains(out, "\n~ITEM ") {
			t.Errorf("%s: groups of ORDER#A17:\n%s", models, out)
		}
		item, _, err := cli(t, slices.Concat([]string{"item", "--pk", "CUST#42", "--sk", "ORDER#2025-03-01#A17", "--output", "json", "--query", "entity", "--models", models}, conn)...)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out, item)
	}
	if outs[0] != outs[2] || outs[1] != outs[3] {
		t.Errorf("the two models name the demo differently:\n%s\n%s\n%s\n%s", outs[0], outs[2], outs[1], outs[3])
	}
	var entity struct {
		Name     string
		Declared bool
		Params   map[string]string
	}
	if err := json.Unmarshal([]byte(outs[1]), &entity); err != nil {
		t.Fatalf("%v: %s", err, outs[1])
	}
	if entity.Name != "Order" || !entity.Declared || entity.Params["orderId"] != "A17" || entity.Params["customerId"] != "42" {
		t.Errorf("item's entity: %s", outs[1])
	}
}
