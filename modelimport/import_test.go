package modelimport

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynascope/textfmt"
)

func importFile(t *testing.T, path string) *Result {
	t.Helper()
	r, err := Import(context.Background(), path)
	if err != nil {
		t.Fatalf("Import(%s): %v", path, err)
	}
	return r
}

// The demo's design (customers, orders, shipments) written once as a
// OneTable schema and once as ElectroDB models gives the same section, byte
// for byte (every field of GSI1's keys required: OneTable leaves out a key
// whose template lacks a field, ElectroDB writes an index's keys, partly
// empty, once any of its attributes is given, so an optional field would
// read differently). The OneTable schema names its type field __edb_e__ (OneTable's
// params.typeField), the attribute ElectroDB writes, so that the two
// applications would write the same items.
func TestOneTableAndElectroDBOfOneDesignGiveOneSection(t *testing.T) {
	t.Parallel()
	one := importFile(t, "testdata/shop.onetable.json")
	electro := importFile(t, "testdata/shop.electrodb.json")
	if one.Library != "OneTable" || electro.Library != "ElectroDB" {
		t.Fatalf("libraries %q and %q", one.Library, electro.Library)
	}
	a, b := one.Section(), electro.Section()
	if !bytes.Equal(a, b) {
		t.Fatalf("the sections differ:\n--- OneTable\n%s--- ElectroDB\n%s", a, b)
	}
	want := `entities:
  - name: Customer
    entityAttribute: {name: __edb_e__, value: Customer}
    keys:
      PK: "CUST#{customerId}"
      SK: "PROFILE"
    params:
      customerId: number
  - name: Order
    entityAttribute: {name: __edb_e__, value: Order}
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderDate}#{orderId}"
      GSI1PK: "WH#{warehouseId}"
      GSI1SK: "OPEN#{orderDate}#{orderId}"
    params:
      customerId: number
      orderDate: text
      orderId: text
      warehouseId: number
  - name: Shipment
    entityAttribute: {name: __edb_e__, value: Shipment}
    keys:
      PK: "ORDER#{orderId}"
      SK: "SHIPMENT#{shipDate}"
    params:
      orderId: text
      shipDate: text
`
	if string(a) != want {
		t.Fatalf("section:\n%s\nwant:\n%s", a, want)
	}
}

// ElectroDB's default key format, as its source builds it (entity.js
// _makeKeyFixings and _makeKey): the partition key $service, the sort key
// $entity_version, each composite attribute #label_value (the label, or
// the attribute's name), all lower-cased; a collection prefixes the sort
// key with $collection#entity_version.
func TestElectroDBDefaultKeyFormat(t *testing.T) {
	t.Parallel()
	e := importFile(t, "testdata/mallstore.electrodb.json").Entities[0]
	want := map[string]string{
		"pk":     "$mallstoredirectory#sid_{storeId}",
		"sk":     "$mallstores_1#mid_{mallId}#bid_{buildingId}#uid_{unitId}",
		"gsi1pk": "$mallstoredirectory#mid_{mallId}",
		"gsi1sk": "$floors#mallstores_1#floor_{floor}",
	}
	checkKeys(t, e, want)
	if p := e.Params[e.param("floor")]; p.Type != "padded" || p.Width != 3 {
		t.Errorf("floor (padding length 3, char 0) is %+v, want padded to 3", p)
	}
	if e.EntityAttr == nil || *e.EntityAttr != (Attr{"__edb_e__", "MallStores"}) {
		t.Errorf("entity attribute %+v, want __edb_e__ = MallStores", e.EntityAttr)
	}
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "lower case") {
		t.Errorf("notes %q, want the one sentence on lower-cased values", e.Notes)
	}
	// The older model form (service, entity, version at the top) is the
	// one ElectroDB's documentation shows: "$mallstoredirectory_1#sid_…"
	// and "$mallstores#mid_…".
	beta := importFile(t, "testdata/mallstore.beta.electrodb.json").Entities[0]
	checkKeys(t, beta, map[string]string{
		"pk": "$mallstoredirectory_1#sid_{storeId}",
		"sk": "$mallstores#mid_{mallId}#bid_{buildingId}#uid_{unitId}",
	})
}

func checkKeys(t *testing.T, e Entity, want map[string]string) {
	t.Helper()
	if len(e.Keys) != len(want) {
		t.Errorf("%s has %d keys, want %d", e.Name, len(e.Keys), len(want))
	}
	for _, k := range e.Keys {
		if got := templateText(k.Template); got != want[k.Attr] {
			t.Errorf("%s %s = %q, want %q", e.Name, k.Attr, got, want[k.Attr])
		}
	}
}

// A JS module is loaded by the machine's node: OneTable's own sample form,
// with String, Number and Date as types, a generated ulid, ${_type} and a
// padded ${seq:6}; isoDates makes a date an ISO date-time.
func TestOneTableJSModuleThroughNode(t *testing.T) {
	t.Parallel()
	needNode(t)
	r := importFile(t, "testdata/overview.onetable.mjs")
	if r.Library != "OneTable" || len(r.Entities) != 2 {
		t.Fatalf("read %s with %d entities", r.Library, len(r.Entities))
	}
	acct, inv := r.Entities[0], r.Entities[1]
	// gs1sk, account#${name}${id}, puts the name right before the id:
	// entities.Parse refuses that template (a name of any length cannot be
	// split from the id), so it is left out with its sentence.
	checkKeys(t, acct, map[string]string{"pk": "account#{id}", "sk": "account#", "gs1pk": "account#"})
	if len(acct.Notes) != 1 || !strings.HasPrefix(acct.Notes[0], "gs1sk is left out: ") || !strings.Contains(acct.Notes[0], "right before {id}") {
		t.Errorf("Account's notes %q, want the one on gs1sk", acct.Notes)
	}
	if len(acct.Params) != 1 {
		t.Errorf("Account's params %+v, want id alone (name was only in gs1sk)", acct.Params)
	}
	checkKeys(t, inv, map[string]string{"pk": "account#{accountId}", "sk": "invoice#{date}#{seq}", "gs1pk": "Invoice#", "gs1sk": "invoice#{date}#{seq}"})
	for _, c := range []struct {
		e    Entity
		name string
		want Param
	}{
		{acct, "id", Param{Name: "id", Type: "id", Shape: "ulid"}},
		{inv, "date", Param{Name: "date", Type: "datetime"}},
		{inv, "seq", Param{Name: "seq", Type: "padded", Width: 6}},
		{inv, "accountId", Param{Name: "accountId", Type: "text"}},
	} {
		if got := c.e.Params[c.e.param(c.name)]; got != c.want {
			t.Errorf("%s.%s = %+v, want %+v", c.e.Name, c.name, got, c.want)
		}
	}
	// OneTable writes a key only when its template's fields all have
	// values: gs1sk's date and seq are not required, so items may lack it.
	for _, k := range inv.Keys {
		if k.Optional != (k.Attr == "gs1sk") {
			t.Errorf("Invoice's %s optional = %v", k.Attr, k.Optional)
		}
	}
	if *inv.EntityAttr != (Attr{"_type", "Invoice"}) {
		t.Errorf("entity attribute %+v, want OneTable's default _type", inv.EntityAttr)
	}
}

// DynamoDB-Toolbox v0 definitions in a CommonJS module: a string default,
// a default function that is a template string (both argument styles), a
// prefix, composite-key attributes; a function that computes something
// else is said per entity, in one sentence, and left out.
func TestToolboxV0ModuleThroughNode(t *testing.T) {
	t.Parallel()
	needNode(t)
	r := importFile(t, "testdata/users.toolbox.cjs")
	if r.Library != "DynamoDB-Toolbox" || len(r.Entities) != 2 || r.Entities[0].Name != "User" {
		t.Fatalf("read %s: %+v", r.Library, r.Entities)
	}
	checkKeys(t, r.Entities[0], map[string]string{"pk": "USER#{userId}", "sk": "PROFILE", "gsi1pk": "EMAIL#{email}", "gsi1sk": "USER"})
	s := r.Entities[1]
	checkKeys(t, s, map[string]string{"pk": "USER#{pk}", "sk": "{started}#{device}"})
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "gsi1pk") || !strings.Contains(s.Notes[0], "could not be derived") {
		t.Errorf("Session's notes %q, want one sentence on gsi1pk", s.Notes)
	}
	if !strings.Contains(string(r.Section()), "# Session: gsi1pk's default is a function") {
		t.Errorf("the section does not carry the note:\n%s", r.Section())
	}
}

// DynamoDB-Toolbox v1+'s EntityDTO (testdata/pokemon.toolbox-dto.json is
// what Pokemon.build(EntityDTO) printed with dynamodb-toolbox 2.x, for an
// entity whose gsi1sk is .link(({ level, pokemonId }) => `LEVEL#…`)):
// savedAs, the prefix transformer and a value default are derived; the
// DTO drops links, so gsi1sk is read as the value given and a sentence says
// why it may be wrong.
func TestToolboxDTO(t *testing.T) {
	t.Parallel()
	e := importFile(t, "testdata/pokemon.toolbox-dto.json").Entities[0]
	checkKeys(t, e, map[string]string{"PK": "TRAINER#{trainerId}", "SK": "POKEMON#{pokemonId}", "gsi1pk": "POKEMONS", "gsi1sk": "{gsi1sk}"})
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "gsi1sk has no default in the DTO, which does not carry links") {
		t.Errorf("notes %q, want one on gsi1sk's link", e.Notes)
	}
	if *e.EntityAttr != (Attr{"_et", "Pokemon"}) {
		t.Errorf("entity attribute %+v", e.EntityAttr)
	}
}

func TestTemplateOfFunc(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src, want string
	}{
		{"(data) => `USER#${data.id}`", "USER#{id}"},
		{"data => `USER#${data.id}#${data['n']}`", "USER#{id}#{n}"},
		{"({ id, sk }) => `A#${id}|${sk}`", "A#{id}|{sk}"},
		{"function (d) { return `X#${d.x}`; }", "X#{x}"},
		{"({ id }) => (`P{${id}}`)", "P{{{id}}}"},
		{"(d) => d.token.slice(0, 8)", ""},
		{"(d) => `U#${d.id.toUpperCase()}`", ""},
		{"({ id: x }) => `U#${x}`", ""},
		{"(d) => `U#${other}`", ""},
		{"() => new Date().toISOString()", ""},
	} {
		segs, ok := templateOfFunc(c.src)
		got := ""
		if ok {
			got = templateText(join(segs))
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.src, got, c.want)
		}
	}
}

// Bad files: each is one sentence naming the file, and no section.
func TestBadModelFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, file, want string
		node             bool
	}{
		{"syntax", write("bad.json", "{\n  \"models\": {,\n}"), "line 2, column", false},
		{"truncated", write("short.json", `{"models": {`), "ends before its JSON does", false},
		{"unknown OneTable type", write("type.json", `{"indexes": {"primary": {"hash": "PK"}}, "models": {"A": {"PK": {"type": "strnig", "value": "A#${id}"}}}}`),
			`field PK has the unknown type "strnig"`, false},
		{"unknown ElectroDB type", write("etype.json", `{"model": {"entity": "A", "service": "s"}, "attributes": {"id": {"type": "text"}}, "indexes": {"p": {"pk": {"field": "pk", "composite": ["id"]}}}}`),
			`attribute id has the unknown type "text"`, false},
		{"OneTable model without keys", write("nokeys.json", `{"indexes": {"primary": {"hash": "PK", "sort": "SK"}}, "models": {"A": {"name": {"type": "string"}}}}`),
			"has no field for the table's partition key PK", false},
		{"OneTable schema without primary", write("noprimary.json", `{"indexes": {}, "models": {"A": {}}}`), "no primary index", false},
		{"ElectroDB without indexes", write("noidx.json", `{"model": {"entity": "A", "service": "s"}, "attributes": {"id": {"type": "string"}}, "indexes": {}}`),
			"has no indexes", false},
		{"Toolbox entity without derivable keys", write("tb.json", `{"name": "A", "attributes": {"pk": {"partitionKey": true, "default": {"$function": "f", "source": "(d) => d.x + 1"}}}}`),
			"no key could be derived", false},
		{"neither library", write("other.json", `{"TableName": "App"}`), "is not a OneTable schema", false},
		{"TypeScript", write("schema.ts", "export default {}"), "does not compile TypeScript; compile it to JavaScript", false},
		{"missing", filepath.Join(dir, "none.json"), "no such file", false},
		{"JS syntax error", write("broken.mjs", "export default { models: {,\n"), "node could not load", true},
		{"JS throws", write("throws.cjs", "throw new Error('no table configured')\n"), "no table configured", true},
	}
	for _, c := range cases {
		if c.node {
			needNode(t)
		}
		r, err := Import(context.Background(), c.file)
		var ue *textfmt.UserError
		if err == nil || !errors.As(err, &ue) {
			t.Errorf("%s: %v, %v; want a UserError", c.name, r, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, "cannot import "+c.file) || !strings.HasSuffix(msg, ".") || strings.Count(msg, "\n") > 0 {
			t.Errorf("%s: %q; want one sentence naming the file with %q", c.name, msg, c.want)
		}
	}
}

// A module that does not finish is stopped at the time limit.
func TestNodeTimeLimit(t *testing.T) {
	needNode(t)
	old := nodeTimeout
	nodeTimeout = 300 * 1e6
	defer func() { nodeTimeout = old }()
	p := filepath.Join(t.TempDir(), "forever.cjs")
	if err := os.WriteFile(p, []byte("for (;;) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Import(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "did not finish loading") {
		t.Fatalf("err = %v, want the time limit's sentence", err)
	}
}

// The module sees no credentials or proxy of the caller's environment.
func TestNodeEnvironmentIsBare(t *testing.T) {
	needNode(t)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-for-the-module")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9")
	p := filepath.Join(t.TempDir(), "env.cjs")
	src := "module.exports = {name: 'E', attributes: {pk: {partitionKey: true, default: JSON.stringify(Object.keys(process.env).sort())}}}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := importFile(t, p)
	env := templateText(r.Entities[0].Keys[0].Template)
	if strings.Contains(env, "AWS_") || strings.Contains(env, "PROXY") || !strings.Contains(env, "PATH") {
		t.Fatalf("the module saw %s", env)
	}
}

func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not on the PATH; the JS module tests need it")
		}
		t.Skip("node is not on the PATH")
	}
}

// Every section imported from the test models loads through
// entities.Parse with the key attributes the models named, and the shop's
// names the demo's keys.
func TestImportedSectionsLoad(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/*")
	for _, f := range files {
		if filepath.Ext(f) != ".json" {
			if _, err := exec.LookPath("node"); err != nil {
				continue
			}
		}
		r := importFile(t, f)
		set, err := r.Set()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(set.Entities) != len(r.Entities) {
			t.Errorf("%s: %d entities load, %d imported", f, len(set.Entities), len(r.Entities))
		}
	}
	set, err := importFile(t, "testdata/shop.electrodb.json").Set()
	if err != nil {
		t.Fatal(err)
	}
	if got := set.TableKeys(); !slices.Equal(got, []string{"PK", "SK"}) {
		t.Errorf("table keys %v, want PK, SK (GSI1's are an index's)", got)
	}
	for _, c := range []struct {
		key              map[string]string
		entity, param, v string
	}{
		{map[string]string{"PK": "CUST#42", "SK": "PROFILE"}, "Customer", "customerId", "42"},
		{map[string]string{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17"}, "Order", "orderId", "A17"},
		{map[string]string{"PK": "ORDER#A17", "SK": "SHIPMENT#2025-03-03"}, "Shipment", "shipDate", "2025-03-03"},
	} {
		m, ok := set.Match(c.key)
		if !ok || m.Name() != c.entity || m.Param(c.param) != c.v {
			t.Errorf("%v: matched %v (%q), want %s with %s = %s", c.key, ok, m.Decoded(), c.entity, c.param, c.v)
		}
	}
	if _, ok := set.Match(map[string]string{"PK": "CUST#42", "SK": "ORDER|2023-01-01|A1"}); ok {
		t.Error("a key in the old delimiter matched a declaration")
	}
}

// An ElectroDB module: casing per key (upper, the default lower, none), an
// sk without composites ($entity_version alone), padding, and an index
// with a condition, whose keys the items may lack.
func TestElectroDBModuleThroughNode(t *testing.T) {
	t.Parallel()
	needNode(t)
	e := importFile(t, "testdata/orders.electrodb.cjs").Entities[0]
	checkKeys(t, e, map[string]string{
		"pk":     "$SHOP#ORDERID_{orderId}",
		"sk":     "$order_2",
		"gsi1pk": "$shop#warehouseid_{warehouseId}",
		"gsi1sk": "$Order_2#orderId_{orderId}#line_{line}",
	})
	var optional []string
	for _, k := range e.Keys {
		if k.Optional {
			optional = append(optional, k.Attr)
		}
	}
	if !slices.Equal(optional, []string{"gsi1pk", "gsi1sk"}) {
		t.Errorf("optional %v, want gsi1's keys (the index has a condition)", optional)
	}
	if p := e.Params[e.param("line")]; p != (Param{Name: "line", Type: "padded", Width: 4}) {
		t.Errorf("line is %+v", p)
	}
	if want := []string{"ElectroDB writes pk in upper case, so the values of orderId are stored in upper case"}; !slices.Equal(e.Notes, want) {
		t.Errorf("notes %q, want %q", e.Notes, want)
	}
}

// ElectroDB's sparse indexes, as electrodb 3.x writes them (put without
// the index's attributes leaves its keys out; put with some writes them
// all, a missing value empty: "$s#w_" , "W#"): optional when none of the
// index's attributes is required, else a sentence on the empty value.
func TestElectroDBSparseIndex(t *testing.T) {
	t.Parallel()
	model := func(wRequired string) string {
		return `{"model": {"entity": "E", "version": "1", "service": "s"},
		  "attributes": {"id": {"type": "string", "required": true}, "w": {"type": "number"` + wRequired + `}, "z": {"type": "string"}},
		  "indexes": {"t": {"pk": {"field": "pk", "composite": ["id"]}, "sk": {"field": "sk", "composite": []}},
		              "g": {"index": "gsi1", "pk": {"field": "gpk", "composite": ["w"], "template": "W#${w}"}, "sk": {"field": "gsk", "composite": ["ID"]}}}}`
	}
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse.json")
	partial := filepath.Join(dir, "partial.json")
	os.WriteFile(sparse, []byte(strings.Replace(model(""), `["ID"]`, `["z"]`, 1)), 0o644)
	os.WriteFile(partial, []byte(strings.Replace(model(""), `["ID"]`, `["id"]`, 1)), 0o644)
	e := importFile(t, sparse).Entities[0]
	if !e.Keys[2].Optional || !e.Keys[3].Optional || len(e.Notes) != 1 {
		t.Errorf("sparse: keys %+v, notes %q; want gpk and gsk optional", e.Keys, e.Notes)
	}
	e = importFile(t, partial).Entities[0]
	if e.Keys[2].Optional || e.Keys[3].Optional {
		t.Errorf("partial: keys %+v; gsi1 is written whenever id is given", e.Keys)
	}
	if !slices.Contains(e.Notes, "ElectroDB writes gpk with w empty when an item has the index's other attributes but not it") {
		t.Errorf("partial: notes %q", e.Notes)
	}
}
