// Package workbench reads and writes NoSQL Workbench data models: a model
// read into the tables, indexes, facets and items that seed and demo load, a
// model written back, and a model built from a sampled table's layout
// (export.go, the one part that sends requests, through a dynamo.Client).
//
// It imports dynamo, itemcodec and keys; never ui, config or the command
// line.
package workbench

// NoSQL Workbench data models (format 3.0): reading one into the tables,
// indexes, items and facets it describes (the parts of a table are read in
// parts.go). Writing one is in write.go.
//
// The reader is strict about what it uses: a bad type ("AttributeType":
// "String"), a missing key or an index on an undeclared attribute fails
// here, naming the table, facet and field, rather than producing a table
// that silently lacks an index. Fields it does not know (the visualizer's
// ModelSchema and SavedQuery, or a typo such as "TableFacet") are skipped
// and named in Ignored, so the caller's note line still shows a typo.
// Fields Workbench writes that mean nothing to a local copy (DataAccess,
// BillingMode, ProvisionedCapacitySettings, SampleDataFormats) are accepted
// silently.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// WorkbenchVersion is the NoSQL Workbench model format written here.
const WorkbenchVersion = "3.0"

// WorkbenchVersions are the format versions read here: they share one shape
// (1.0 and 2.0 add the DataAccess and AWSService fields 3.0 keeps), and ""
// is the 2019 preview export, which wrote no version.
var WorkbenchVersions = []string{"3.0", "2.0", "1.0", ""}

// maxWorkbenchBytes bounds a model file: Workbench models hold sample data,
// not tables, and a runaway file should fail before it fills memory.
const maxWorkbenchBytes = 64 << 20

// WorkbenchModel is a NoSQL Workbench data model: its name and its tables.
type WorkbenchModel struct {
	Name        string
	Author      string
	Description string
	// Created and Modified are Workbench's own date text ("Jan 2, 2025,
	// 03:04 PM"), kept as written; see WorkbenchDate.
	Created, Modified string
	// Version is the format version the file gave ("3.0", "2.0", "1.0"), or
	// "" for the 2019 preview export, which has none.
	Version string
	Tables  []WorkbenchTable
	// Ignored names the fields of the file that no format version has
	// (Workbench's visualizer adds ModelSchema, SavedQuery); they are
	// skipped, and a caller tells the user which.
	Ignored []string
	// Skipped are the items left out under WorkbenchReadOptions.SkipInvalid.
	Skipped []SkippedItem
	// Repaired are the items read with repairs under
	// WorkbenchReadOptions.Repair, in the model's order.
	Repaired []RepairedItem
	// Repairable counts the items refused or skipped that Repair would
	// read, for the sentence that offers it.
	Repairable int
	// Repeated names the non-key attributes a table declared more than once
	// with one type ("table Main: type, name"); Workbench 2.0 lists an
	// attribute once per entity that uses it, so a caller notes it, once.
	Repeated []string
}

// WorkbenchTable is one table of a model: what to create, what to load into
// it, and the facets (access patterns) that name its entity types.
type WorkbenchTable struct {
	Spec       dynamo.TableSpec
	Attributes []WorkbenchAttribute // the declared non-key attributes, in model order
	// Items are every item of the table, the table-level TableData first and
	// then each facet's, one per primary key.
	Items  []dynamo.Item
	Facets []Facet
}

// WorkbenchAttribute is one declared attribute: its name and DynamoDB type
// (S, N, B, BOOL, NULL, M, L, SS, NS or BS).
type WorkbenchAttribute struct {
	Name string
	Type string
}

// Facet is one Workbench facet: an access pattern's name, the aliases it
// gives the key attributes, and its sample data.
type Facet struct {
	Name       string
	PKAlias    string
	SKAlias    string
	Attributes []string      // the facet's NonKeyAttributes
	Items      []dynamo.Item // the facet's own TableData
	// Prefixes are the sort-key entity prefixes (keys.EntityType) found in
	// Items, in DynamoDB's order: the entity types the facet names.
	Prefixes []string
}

// EntityNames maps each sort-key entity prefix of the table's facets to the
// facet's name, so a view can show "Order" where it would show "ORDER#". When
// two facets share a prefix the first facet in the model keeps it.
func (t WorkbenchTable) EntityNames() map[string]string {
	names := map[string]string{}
	for _, f := range t.Facets {
		for _, p := range f.Prefixes {
			if _, ok := names[p]; !ok {
				names[p] = f.Name
			}
		}
	}
	return names
}

// Table returns the model's table of that name.
func (m WorkbenchModel) Table(name string) (WorkbenchTable, bool) {
	for _, t := range m.Tables {
		if t.Spec.Name == name {
			return t, true
		}
	}
	return WorkbenchTable{}, false
}

// TableNames lists the model's tables in model order.
func (m WorkbenchModel) TableNames() []string {
	names := make([]string, len(m.Tables))
	for i, t := range m.Tables {
		names[i] = t.Spec.Name
	}
	return names
}

// ParseWorkbench reads a NoSQL Workbench data model of any format version
// (3.0, 2.0, 1.0, or the version-less 2019 preview export). Errors are
// UserErrors that name the table, index, facet, item or field at fault; the
// first invalid item is one of them.
func ParseWorkbench(r io.Reader) (WorkbenchModel, error) {
	return ReadWorkbench(r, WorkbenchReadOptions{})
}

// WorkbenchReadOptions tune ReadWorkbench.
type WorkbenchReadOptions struct {
	// SkipInvalid leaves out an item that cannot be loaded (a value that is
	// not DynamoDB JSON, an undeclared attribute, a missing key) and records
	// it in the model's Skipped, instead of refusing the whole model.
	SkipInvalid bool
	// Repair reads the values published models get wrong (a doubled type,
	// plain JSON inside an M or an L: itemcodec.RepairAttributes) and
	// records each item's repairs in the model's Repaired.
	Repair bool
}

// RepairedItem is an item read other than as written under
// WorkbenchReadOptions.Repair: Where names the table, facet and item as
// SkippedItem's does, Repairs each value repaired.
type RepairedItem struct {
	Where   string
	Repairs []itemcodec.Repair
}

// Sentence is the one line a user reads about the repaired item.
func (r RepairedItem) Sentence() string {
	parts := make([]string, len(r.Repairs))
	for i, x := range r.Repairs {
		parts[i] = x.String()
	}
	return "repaired " + r.Where + ": " + strings.Join(parts, "; ") + "."
}

// SkippedItem is an input item left out of a load, and why: Where names
// the table, facet or line and the item's number, Err the attribute and
// the problem.
type SkippedItem struct {
	Where string
	Err   error
}

// Sentence is the one line a user reads about the skipped item.
func (s SkippedItem) Sentence() string {
	return "skipped " + s.Where + ": " + strings.TrimSuffix(strings.TrimPrefix(s.Err.Error(), s.Where+": "), ".") + "."
}

// wbParser holds what reading a model gathers besides the model: the
// fields it did not know, and the items it skipped.
type wbParser struct {
	opt        WorkbenchReadOptions
	ignored    []string
	skipped    []SkippedItem
	repeated   []string
	repaired   []RepairedItem
	repairable int
}

// ignore notes a field that no format version has where it was found.
// Workbench's visualizer adds some (ModelSchema, SavedQuery); a typo lands
// here too, which is why the note names every one.
func (p *wbParser) ignore(field string) {
	if !slices.Contains(p.ignored, field) {
		p.ignored = append(p.ignored, field)
	}
}

// ReadWorkbench is ParseWorkbench with options.
func ReadWorkbench(r io.Reader, o WorkbenchReadOptions) (WorkbenchModel, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxWorkbenchBytes+1))
	if err != nil {
		return WorkbenchModel{}, err
	}
	if len(b) > maxWorkbenchBytes {
		return WorkbenchModel{}, &dynamo.UserError{Msg: fmt.Sprintf("the model is larger than %d MB; a Workbench model holds sample data, load bulk data with --file.", maxWorkbenchBytes>>20)}
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	root, err := itemcodec.ReadJSONNode(dec)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("more data after the model")
		}
	}
	if err != nil {
		return WorkbenchModel{}, &dynamo.UserError{Msg: fmt.Sprintf("the model is not valid JSON (line %d): %v.", lineAt(b, dec.InputOffset()), err), Err: err}
	}
	if f, ok := itemcodec.ItemFileFormat(root); ok {
		return WorkbenchModel{}, &dynamo.UserError{Msg: fmt.Sprintf("the file is not a NoSQL Workbench model (it has no ModelName and DataModel) but a file of items, %s; load it with --file instead of --workbench.", f.Describe())}
	}
	p := &wbParser{opt: o}
	m, err := p.model(root)
	m.Ignored, m.Skipped, m.Repeated, m.Repaired, m.Repairable = p.ignored, p.skipped, p.repeated, p.repaired, p.repairable
	return m, err
}

// lineAt turns a byte offset into a 1-based line number.
func lineAt(b []byte, off int64) int {
	off = min(max(off, 0), int64(len(b)))
	return bytes.Count(b[:off], []byte("\n")) + 1
}

func wbErr(where, format string, args ...any) error {
	return &dynamo.UserError{Msg: where + ": " + fmt.Sprintf(format, args...) + "."}
}

// wbFields checks that n is an object holding only known fields and every
// required one, and returns the fields by name.
func (p *wbParser) fields(n itemcodec.JSONNode, where string, required, optional []string) (map[string]itemcodec.JSONNode, error) {
	if n.Kind != itemcodec.JSONObject {
		return nil, wbErr(where, "want an object, got %s", n.Kind)
	}
	if n.Dup != "" {
		return nil, wbErr(where, "field %q appears twice", n.Dup)
	}
	m := make(map[string]itemcodec.JSONNode, len(n.Keys))
	for i, k := range n.Keys {
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			p.ignore(k)
			continue
		}
		m[k] = n.Elems[i]
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			return nil, wbErr(where, "field %q is missing", k)
		}
	}
	return m, nil
}

// wbString returns a string field; a missing optional field is "".
func wbString(m map[string]itemcodec.JSONNode, key, where string) (string, error) {
	n, ok := m[key]
	if !ok {
		return "", nil
	}
	if n.Kind != itemcodec.JSONString {
		return "", wbErr(where, "field %q must be a string, got %s", key, n.Kind)
	}
	return n.Text, nil
}

// wbArray returns an array field's elements; a missing field is empty.
func wbArray(m map[string]itemcodec.JSONNode, key, where string) ([]itemcodec.JSONNode, error) {
	n, ok := m[key]
	if !ok {
		return nil, nil
	}
	if n.Kind != itemcodec.JSONArray {
		return nil, wbErr(where, "field %q must be an array, got %s", key, n.Kind)
	}
	return n.Elems, nil
}

func (p *wbParser) model(root itemcodec.JSONNode) (WorkbenchModel, error) {
	var m WorkbenchModel
	top, err := p.fields(root, "the model", []string{"ModelName", "DataModel"}, []string{"ModelMetadata"})
	if err != nil {
		return m, err
	}
	if m.Name, err = wbString(top, "ModelName", "the model"); err != nil {
		return m, err
	}
	if meta, ok := top["ModelMetadata"]; ok {
		const where = "the model's ModelMetadata"
		f, err := p.fields(meta, where, nil, []string{"Author", "DateCreated", "DateLastModified", "Description", "AWSService", "Version"})
		if err != nil {
			return m, err
		}
		if _, err := wbString(f, "AWSService", where); err != nil {
			return m, err
		}
		if m.Created, err = wbString(f, "DateCreated", where); err != nil {
			return m, err
		}
		if m.Modified, err = wbString(f, "DateLastModified", where); err != nil {
			return m, err
		}
		if m.Author, err = wbString(f, "Author", where); err != nil {
			return m, err
		}
		if m.Description, err = wbString(f, "Description", where); err != nil {
			return m, err
		}
		if m.Version, err = wbString(f, "Version", where); err != nil {
			return m, err
		}
		if !slices.Contains(WorkbenchVersions, m.Version) {
			return m, wbErr(where, "Version is %q; dynascope reads NoSQL Workbench models of version %s", m.Version, strings.Join(WorkbenchVersions[:3], ", "))
		}
	}
	tables, err := wbArray(top, "DataModel", "the model")
	if err != nil {
		return m, err
	}
	if len(tables) == 0 {
		return m, wbErr("the model", "DataModel holds no table")
	}
	facetNames := map[string]string{} // facet name -> its table, unique across the model
	for i, tn := range tables {
		t, err := p.table(tn, i, facetNames)
		if err != nil {
			return m, err
		}
		if _, dup := m.Table(t.Spec.Name); dup {
			return m, wbErr("the model", "table %s appears twice in DataModel", t.Spec.Name)
		}
		m.Tables = append(m.Tables, t)
	}
	return m, nil
}

var wbTableFields = []string{
	"NonKeyAttributes", "TableFacets", "GlobalSecondaryIndexes", "TableData",
	"DataAccess", "SampleDataFormats", "BillingMode", "ProvisionedCapacitySettings",
}

// table reads the i-th table of DataModel in named steps: its name and
// keys, its declared attributes, its indexes, its items, its facets
// (whose names are unique across the model: facetNames holds those seen).
func (p *wbParser) table(n itemcodec.JSONNode, i int, facetNames map[string]string) (WorkbenchTable, error) {
	var t WorkbenchTable
	where := tableWhere(n, i)
	f, err := p.fields(n, where, []string{"TableName", "KeyAttributes"}, wbTableFields)
	if err != nil {
		return t, err
	}
	name, err := wbString(f, "TableName", where)
	if err != nil {
		return t, err
	}
	if err := checkTableName(name); err != nil {
		return t, wbErr(where, "%v", err)
	}
	where = "table " + name
	t.Spec.Name = name
	pk, sk, err := p.keyAttributes(f["KeyAttributes"], where)
	if err != nil {
		return t, err
	}
	t.Spec.PK, t.Spec.SK = pk, sk
	declared, err := p.nonKeyAttributes(f, where, &t)
	if err != nil {
		return t, err
	}
	if err := p.indexes(f, where, declared, &t.Spec); err != nil {
		return t, err
	}
	items := newItemSet(t.Spec)
	data, err := wbArray(f, "TableData", where)
	if err != nil {
		return t, err
	}
	for j, in := range data {
		if err := p.item(items, in, fmt.Sprintf("%s, TableData item %d", where, j+1), declared); err != nil {
			return t, err
		}
	}
	if t.Facets, err = p.facets(f, name, declared, items, facetNames); err != nil {
		return t, err
	}
	t.Items = items.items
	setFacetPrefixes(&t)
	return t, nil
}

// tableWhere names the i-th table of DataModel in every error, unknown
// fields included: by its name when it has a usable one.
func tableWhere(n itemcodec.JSONNode, i int) string {
	where := fmt.Sprintf("table %d of DataModel", i+1)
	for j, k := range n.Keys {
		if k == "TableName" && n.Elems[j].Kind == itemcodec.JSONString && checkTableName(n.Elems[j].Text) == nil {
			where = "table " + n.Elems[j].Text
		}
	}
	return where
}

// checkTableName applies DynamoDB's rule for table names, so a bad name
// fails with the model's words instead of a ValidationException.
func checkTableName(name string) error {
	if len(name) < 3 || len(name) > 255 {
		return fmt.Errorf("TableName %q must be 3 to 255 characters long", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Errorf("TableName %q may hold only letters, digits, '_', '-' and '.'", name)
		}
	}
	return nil
}

func (p *wbParser) keyAttributes(n itemcodec.JSONNode, where string) (dynamo.KeyAttr, *dynamo.KeyAttr, error) {
	where += ", KeyAttributes"
	f, err := p.fields(n, where, []string{"PartitionKey"}, []string{"SortKey"})
	if err != nil {
		return dynamo.KeyAttr{}, nil, err
	}
	pk, err := p.attrDef(f["PartitionKey"], where+".PartitionKey", true)
	if err != nil {
		return dynamo.KeyAttr{}, nil, err
	}
	var sk *dynamo.KeyAttr
	if sn, ok := f["SortKey"]; ok {
		s, err := p.attrDef(sn, where+".SortKey", true)
		if err != nil {
			return dynamo.KeyAttr{}, nil, err
		}
		if s.Name == pk.Name {
			return dynamo.KeyAttr{}, nil, wbErr(where, "the sort key %s is also the partition key", s.Name)
		}
		sk = &s
	}
	return pk, sk, nil
}

// parseAttrDef reads {"AttributeName": ..., "AttributeType": ...}; key
// attributes must be scalars.
func (p *wbParser) attrDef(n itemcodec.JSONNode, where string, key bool) (dynamo.KeyAttr, error) {
	f, err := p.fields(n, where, []string{"AttributeName", "AttributeType"}, nil)
	if err != nil {
		return dynamo.KeyAttr{}, err
	}
	name, err := wbString(f, "AttributeName", where)
	if err != nil {
		return dynamo.KeyAttr{}, err
	}
	typ, err := wbString(f, "AttributeType", where)
	if err != nil {
		return dynamo.KeyAttr{}, err
	}
	if name == "" {
		return dynamo.KeyAttr{}, wbErr(where, "AttributeName is empty")
	}
	if key {
		if typ != "S" && typ != "N" && typ != "B" {
			return dynamo.KeyAttr{}, wbErr(where, "key attribute %s has AttributeType %q; a key is S, N or B", name, typ)
		}
	} else if !itemcodec.IsTypeKey(typ) {
		return dynamo.KeyAttr{}, wbErr(where, "attribute %s has AttributeType %q; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS", name, typ)
	}
	return dynamo.KeyAttr{Name: name, Type: typ}, nil
}
