package workbench

// The parts of a NoSQL Workbench table: indexes, facets and their items,
// read and checked against the table's declarations (workbench.go reads
// the model and its tables).

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
)

func (p *wbParser) gsi(n itemcodec.JSONNode, tableWhere string, declared map[string]string) (dynamo.Index, error) {
	where := tableWhere + ", an index"
	f, err := p.fields(n, where, []string{"IndexName", "KeyAttributes"}, []string{"Projection"})
	if err != nil {
		return dynamo.Index{}, err
	}
	name, err := wbString(f, "IndexName", where)
	if err != nil {
		return dynamo.Index{}, err
	}
	if name == "" {
		return dynamo.Index{}, wbErr(where, "IndexName is empty")
	}
	where = tableWhere + ", index " + name
	pk, sk, err := p.keyAttributes(f["KeyAttributes"], where)
	if err != nil {
		return dynamo.Index{}, err
	}
	for _, k := range []*dynamo.KeyAttr{&pk, sk} {
		if k == nil {
			continue
		}
		typ, ok := declared[k.Name]
		if !ok {
			return dynamo.Index{}, wbErr(where, "key attribute %s is not an attribute of the table; declare it in the table's NonKeyAttributes", k.Name)
		}
		if typ != k.Type {
			return dynamo.Index{}, wbErr(where, "key attribute %s has type %s here but %s in the table", k.Name, k.Type, typ)
		}
	}
	g := dynamo.Index{Name: name, Kind: dynamo.GSI, PK: pk, SK: sk, Projection: "ALL"}
	if pn, ok := f["Projection"]; ok {
		pw := where + ", Projection"
		pf, err := p.fields(pn, pw, []string{"ProjectionType"}, []string{"NonKeyAttributes"})
		if err != nil {
			return dynamo.Index{}, err
		}
		if g.Projection, err = wbString(pf, "ProjectionType", pw); err != nil {
			return dynamo.Index{}, err
		}
		include, err := wbArray(pf, "NonKeyAttributes", pw)
		if err != nil {
			return dynamo.Index{}, err
		}
		switch g.Projection {
		case "ALL", "KEYS_ONLY":
			if len(include) > 0 {
				return dynamo.Index{}, wbErr(pw, "NonKeyAttributes go with ProjectionType INCLUDE, not %s", g.Projection)
			}
		case "INCLUDE":
			for _, a := range include {
				if a.Kind != itemcodec.JSONString {
					return dynamo.Index{}, wbErr(pw, "NonKeyAttributes must hold attribute names, got %s", a.Kind)
				}
				g.NonKeyAttr = append(g.NonKeyAttr, a.Text)
			}
			if len(g.NonKeyAttr) == 0 {
				return dynamo.Index{}, wbErr(pw, "ProjectionType INCLUDE needs NonKeyAttributes")
			}
		default:
			return dynamo.Index{}, wbErr(pw, "ProjectionType is %q; want ALL, KEYS_ONLY or INCLUDE", g.Projection)
		}
	}
	return g, nil
}

func (p *wbParser) facet(n itemcodec.JSONNode, j int, tableWhere string, declared map[string]string, items *itemSet) (Facet, error) {
	var fc Facet
	where := fmt.Sprintf("%s, facet %d", tableWhere, j+1)
	f, err := p.fields(n, where, []string{"FacetName", "KeyAttributeAlias"}, []string{"NonKeyAttributes", "TableData", "DataAccess"})
	if err != nil {
		return fc, err
	}
	if fc.Name, err = wbString(f, "FacetName", where); err != nil {
		return fc, err
	}
	if strings.TrimSpace(fc.Name) == "" {
		return fc, wbErr(where, "FacetName is empty")
	}
	where = tableWhere + ", facet " + fc.Name
	aw := where + ", KeyAttributeAlias"
	af, err := p.fields(f["KeyAttributeAlias"], aw, []string{"PartitionKeyAlias"}, []string{"SortKeyAlias"})
	if err != nil {
		return fc, err
	}
	if fc.PKAlias, err = wbString(af, "PartitionKeyAlias", aw); err != nil {
		return fc, err
	}
	if fc.SKAlias, err = wbString(af, "SortKeyAlias", aw); err != nil {
		return fc, err
	}
	attrs, err := wbArray(f, "NonKeyAttributes", where)
	if err != nil {
		return fc, err
	}
	for _, a := range attrs {
		if a.Kind != itemcodec.JSONString {
			return fc, wbErr(where, "NonKeyAttributes must hold attribute names, got %s", a.Kind)
		}
		if _, ok := declared[a.Text]; !ok {
			return fc, wbErr(where, "NonKeyAttributes names %s, which the table does not declare", a.Text)
		}
		fc.Attributes = append(fc.Attributes, a.Text)
	}
	data, err := wbArray(f, "TableData", where)
	if err != nil {
		return fc, err
	}
	for k, in := range data {
		before := len(p.skipped)
		if err := p.item(items, in, fmt.Sprintf("%s, TableData item %d", where, k+1), declared); err != nil {
			return fc, err
		}
		if len(p.skipped) == before {
			fc.Items = append(fc.Items, items.last)
		}
	}
	return fc, nil
}

// itemSet collects a table's items, one per primary key. The same item in
// two places (a table-level copy of a facet's item) is kept once; two
// different items under one key are an error, since one would be lost.
type itemSet struct {
	table dynamo.Table
	items []dynamo.Item
	last  dynamo.Item    // the item put last (or found already there)
	where []string       // where each item came from, for the error
	index map[string]int // primary key -> position in items
}

func newItemSet(s dynamo.TableSpec) *itemSet {
	return &itemSet{table: dynamo.Table{Name: s.Name, PK: s.PK, SK: s.SK}, index: map[string]int{}}
}

// item reads one item of TableData into the set; an invalid one fails the
// model, or is recorded as skipped under SkipInvalid. Under Repair its
// repairs are recorded; without it, an item that Repair would read is
// counted, and its error says so.
func (p *wbParser) item(s *itemSet, n itemcodec.JSONNode, where string, declared map[string]string) error {
	it, repairs, err := s.parse(n, where, declared, p.opt.Repair)
	if err == nil {
		err = s.put(it, where)
	}
	if err == nil && len(repairs) > 0 {
		p.repaired = append(p.repaired, RepairedItem{Where: where, Repairs: repairs})
	}
	if err != nil && !p.opt.Repair {
		if _, fixes, rerr := s.parse(n, where, declared, true); rerr == nil && len(fixes) > 0 {
			p.repairable++
			err = &repairableError{err: err, first: fixes[0]}
		}
	}
	if err != nil && p.opt.SkipInvalid {
		p.skipped = append(p.skipped, SkippedItem{Where: where, Err: err})
		return nil
	}
	return err
}

// repairableError is an item refused as written that --repair reads.
type repairableError struct {
	err   error
	first itemcodec.Repair
}

func (e *repairableError) Error() string {
	return strings.TrimSuffix(e.err.Error(), ".") + "; --repair reads it (" + e.first.What + ")."
}

func (e *repairableError) Unwrap() error { return e.err }

// parse reads one item of TableData and checks it against the table: its
// key attributes present and typed, every attribute declared with its type
// (NULL stands for a missing value of any type, as Workbench writes it).
// With repair, the values that do not read are repaired and listed.
func (s *itemSet) parse(n itemcodec.JSONNode, where string, declared map[string]string, repair bool) (dynamo.Item, []itemcodec.Repair, error) {
	if n.Kind != itemcodec.JSONObject {
		return nil, nil, wbErr(where, "an item must be an object of typed values, got %s", n.Kind)
	}
	var it dynamo.Item
	var repairs []itemcodec.Repair
	var err error
	if repair {
		it, repairs, err = itemcodec.RepairAttributes(n, "")
	} else {
		it, err = itemcodec.ParseAttributes(n, "")
	}
	if err != nil {
		return nil, nil, wbErr(where, "%v", err)
	}
	if _, err := dynamo.PrimaryKey(s.table, it); err != nil {
		return nil, nil, wbErr(where, "%v", err)
	}
	for _, name := range slices.Sorted(maps.Keys(it)) {
		typ := itemcodec.AttributeTypeName(it[name])
		want, ok := declared[name]
		switch {
		case !ok:
			return nil, nil, wbErr(where, "attribute %s is not declared; add it to the table's NonKeyAttributes", name)
		case typ != want && typ != "NULL":
			return nil, nil, wbErr(where, "attribute %s is %s but the table declares it %s", name, typ, want)
		}
	}
	return it, repairs, nil
}

func (s *itemSet) has(key string) bool {
	_, ok := s.index[key]
	return ok
}

func (s *itemSet) put(it dynamo.Item, where string) error {
	k, _ := dynamo.PrimaryKey(s.table, it) // checked by parse
	if j, ok := s.index[k]; ok {
		if !bytes.Equal(itemcodec.DynamoJSON(s.items[j]), itemcodec.DynamoJSON(it)) {
			return wbErr(where, "another item with the same primary key, different attributes, is %s; keep one", strings.TrimPrefix(s.where[j], "table "+s.table.Name+", "))
		}
		s.last = s.items[j]
		return nil
	}
	s.index[k] = len(s.items)
	s.items = append(s.items, it)
	s.last = it
	s.where = append(s.where, where)
	return nil
}

// setFacetPrefixes finds each facet's sort-key entity prefixes, with one
// delimiter inferred over the whole table so that facets agree on it.
func setFacetPrefixes(t *WorkbenchTable) {
	if t.Spec.SK == nil || t.Spec.SK.Type != "S" {
		return // numbers and binary have no prefixes to name
	}
	var all []string
	for _, it := range t.Items {
		all = append(all, itemcodec.KeyString(it[t.Spec.SK.Name]))
	}
	delim := keys.InferDelimiter(all)
	for i := range t.Facets {
		f := &t.Facets[i]
		f.Prefixes = nil
		for _, it := range f.Items {
			_, p := keys.EntityType(itemcodec.KeyString(it[t.Spec.SK.Name]), delim)
			if p != "" && !slices.Contains(f.Prefixes, p) { // a value group has no prefix to name
				f.Prefixes = append(f.Prefixes, p)
			}
		}
		slices.Sort(f.Prefixes) // Go compares strings by bytes, as DynamoDB does
	}
}

// nonKeyAttributes reads the table's NonKeyAttributes into t.Attributes,
// and returns every attribute name the table knows with its type, keys
// first.
func (p *wbParser) nonKeyAttributes(f map[string]itemcodec.JSONNode, where string, t *WorkbenchTable) (map[string]string, error) {
	pk, sk := t.Spec.PK, t.Spec.SK
	declared := map[string]string{pk.Name: pk.Type}
	if sk != nil {
		declared[sk.Name] = sk.Type
	}
	attrs, err := wbArray(f, "NonKeyAttributes", where)
	if err != nil {
		return nil, err
	}
	var repeated []string
	for j, an := range attrs {
		at := fmt.Sprintf("%s, NonKeyAttributes[%d]", where, j)
		a, err := p.attrDef(an, at, false)
		if err != nil {
			return nil, err
		}
		if a.Name == pk.Name || sk != nil && a.Name == sk.Name {
			return nil, wbErr(at, "%s is the table's key attribute; key attributes are declared in KeyAttributes only", a.Name)
		}
		if prev, dup := declared[a.Name]; dup {
			// Workbench 2.0 lists an attribute once per entity using it:
			// the same type again is the same declaration.
			if prev != a.Type {
				return nil, wbErr(at, "attribute %s is declared as both %s and %s; an attribute name has one type in a model, so rename one of them", a.Name, prev, a.Type)
			}
			if !slices.Contains(repeated, a.Name) {
				repeated = append(repeated, a.Name)
			}
			continue
		}
		declared[a.Name] = a.Type
		t.Attributes = append(t.Attributes, WorkbenchAttribute(a))
	}
	if len(repeated) > 0 {
		p.repeated = append(p.repeated, where+": "+strings.Join(repeated, ", "))
	}
	return declared, nil
}

// indexes reads the table's GlobalSecondaryIndexes into spec, and checks
// the whole spec.
func (p *wbParser) indexes(f map[string]itemcodec.JSONNode, where string, declared map[string]string, spec *dynamo.TableSpec) error {
	gsis, err := wbArray(f, "GlobalSecondaryIndexes", where)
	if err != nil {
		return err
	}
	for _, gn := range gsis {
		g, err := p.gsi(gn, where, declared)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(spec.GSIs, func(o dynamo.Index) bool { return o.Name == g.Name }) {
			return wbErr(where, "index %s appears twice", g.Name)
		}
		spec.GSIs = append(spec.GSIs, g)
	}
	return spec.Validate()
}

// facets reads the TableFacets of table, whose names must be new to
// facetNames (facet name -> its table), where they are added.
func (p *wbParser) facets(f map[string]itemcodec.JSONNode, table string, declared map[string]string, items *itemSet, facetNames map[string]string) ([]Facet, error) {
	where := "table " + table
	facets, err := wbArray(f, "TableFacets", where)
	if err != nil {
		return nil, err
	}
	var out []Facet
	for j, fn := range facets {
		fc, err := p.facet(fn, j, where, declared, items)
		if err != nil {
			return nil, err
		}
		if other, dup := facetNames[fc.Name]; dup {
			return nil, wbErr(where, "facet %s is already a facet of table %s; facet names must be unique across the model", fc.Name, other)
		}
		facetNames[fc.Name] = table
		out = append(out, fc)
	}
	return out, nil
}
