package workbench

// Writing a NoSQL Workbench data model (format 3.0), the inverse of
// ParseWorkbench: what this writes, ParseWorkbench reads back unchanged.

import (
	"encoding/json"
	"io"
	"maps"
	"slices"
	"time"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// WorkbenchDate formats a time as Workbench writes DateCreated and
// DateLastModified ("Jan 2, 2025, 03:04 PM").
func WorkbenchDate(t time.Time) string { return t.Format("Jan 2, 2006, 03:04 PM") }

// The file's shape, field by field in the order Workbench writes them.
type (
	wbModelJSON struct {
		ModelName     string        `json:"ModelName"`
		ModelMetadata wbMetaJSON    `json:"ModelMetadata"`
		DataModel     []wbTableJSON `json:"DataModel"`
	}
	wbMetaJSON struct {
		Author           string `json:"Author"`
		DateCreated      string `json:"DateCreated"`
		DateLastModified string `json:"DateLastModified"`
		Description      string `json:"Description"`
		AWSService       string `json:"AWSService"`
		Version          string `json:"Version"`
	}
	wbTableJSON struct {
		TableName              string            `json:"TableName"`
		KeyAttributes          wbKeysJSON        `json:"KeyAttributes"`
		NonKeyAttributes       []wbAttrJSON      `json:"NonKeyAttributes"`
		TableFacets            []wbFacetJSON     `json:"TableFacets"`
		GlobalSecondaryIndexes []wbIndexJSON     `json:"GlobalSecondaryIndexes"`
		TableData              []json.RawMessage `json:"TableData"`
		DataAccess             wbDataAccessJSON  `json:"DataAccess"`
		BillingMode            string            `json:"BillingMode"`
	}
	wbKeysJSON struct {
		PartitionKey wbAttrJSON  `json:"PartitionKey"`
		SortKey      *wbAttrJSON `json:"SortKey,omitempty"`
	}
	wbAttrJSON struct {
		AttributeName string `json:"AttributeName"`
		AttributeType string `json:"AttributeType"`
	}
	wbFacetJSON struct {
		FacetName         string            `json:"FacetName"`
		KeyAttributeAlias wbAliasJSON       `json:"KeyAttributeAlias"`
		TableData         []json.RawMessage `json:"TableData"`
		NonKeyAttributes  []string          `json:"NonKeyAttributes"`
		DataAccess        wbDataAccessJSON  `json:"DataAccess"`
	}
	wbAliasJSON struct {
		PartitionKeyAlias string `json:"PartitionKeyAlias"`
		SortKeyAlias      string `json:"SortKeyAlias,omitempty"`
	}
	wbIndexJSON struct {
		IndexName     string           `json:"IndexName"`
		KeyAttributes wbKeysJSON       `json:"KeyAttributes"`
		Projection    wbProjectionJSON `json:"Projection"`
	}
	wbProjectionJSON struct {
		ProjectionType   string   `json:"ProjectionType"`
		NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
	}
	// wbDataAccessJSON is Workbench's {"MySql": {}}: it marks where sample
	// data came from, and Workbench writes it on every table and facet.
	wbDataAccessJSON struct {
		MySQL struct{} `json:"MySql"`
	}
)

// WriteWorkbench writes the model as a NoSQL Workbench 3.0 file. Each item
// goes in exactly one place: in the TableData of the first facet that holds
// it, or else in the table's TableData. Attributes the items carry that the
// table does not declare are declared with the type of their first non-NULL
// value, and index keys are declared too, since Workbench (and
// ParseWorkbench) want every attribute declared. Facets without
// NonKeyAttributes get those of their items. Tables are written on demand
// (PAY_PER_REQUEST): that is how dynascope creates them.
func WriteWorkbench(w io.Writer, m WorkbenchModel) error {
	out := wbModelJSON{
		ModelName: m.Name,
		ModelMetadata: wbMetaJSON{
			Author: m.Author, DateCreated: m.Created, DateLastModified: m.Modified,
			Description: m.Description, AWSService: "Amazon DynamoDB", Version: WorkbenchVersion,
		},
		DataModel: []wbTableJSON{},
	}
	for _, t := range m.Tables {
		out.DataModel = append(out.DataModel, workbenchTableJSON(t))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func wbKeys(pk dynamo.KeyAttr, sk *dynamo.KeyAttr) wbKeysJSON {
	k := wbKeysJSON{PartitionKey: wbAttrJSON{pk.Name, pk.Type}}
	if sk != nil {
		k.SortKey = &wbAttrJSON{sk.Name, sk.Type}
	}
	return k
}

// completeTable fills in what a written model must hold and the model may
// leave out: the declaration of every attribute an item or index key uses,
// and each facet's NonKeyAttributes. It is what WriteWorkbench writes, so
// a completed table reads back equal to itself.
func completeTable(t WorkbenchTable) WorkbenchTable {
	t.Attributes = declaredAttributes(t)
	if t.Facets != nil {
		t.Facets = completeFacets(t)
	}
	return t
}

// declaredAttributes are the non-key attributes a written table declares:
// those the model declares with a type, the index keys, every attribute an
// item gives, each with its first real type; NULL for one that has none.
func declaredAttributes(t WorkbenchTable) []WorkbenchAttribute {
	s := t.Spec
	isKey := func(n string) bool { return isKeyOf(s, n) }
	declared := map[string]bool{}
	var attrs []WorkbenchAttribute
	declare := func(name, typ string) {
		if !isKey(name) && !declared[name] {
			declared[name] = true
			attrs = append(attrs, WorkbenchAttribute{name, typ})
		}
	}
	// First every attribute with a real type...
	typed := func(name, typ string) {
		if typ != "" && typ != "NULL" {
			declare(name, typ)
		}
	}
	for _, a := range t.Attributes {
		typed(a.Name, a.Type) // a NULL one is declared below if no item gives it a real type
	}
	for _, g := range s.GSIs {
		typed(g.PK.Name, g.PK.Type)
		if g.SK != nil {
			typed(g.SK.Name, g.SK.Type)
		}
	}
	all := slices.Clone(t.Items)
	for _, f := range t.Facets {
		all = append(all, f.Items...)
	}
	for _, it := range all {
		for _, name := range slices.Sorted(maps.Keys(it)) {
			typed(name, itemcodec.AttributeTypeName(it[name]))
		}
	}
	// ...then one that is NULL wherever it appears, which still needs a
	// declaration.
	for _, a := range t.Attributes {
		declare(a.Name, a.Type)
	}
	for _, it := range all {
		for _, name := range slices.Sorted(maps.Keys(it)) {
			declare(name, "NULL")
		}
	}
	return attrs
}

// completeFacets are t's facets with their key aliases, each item in the
// first facet that holds its key only, and NonKeyAttributes from the items
// where the model gives none.
func completeFacets(t WorkbenchTable) []Facet {
	s := t.Spec
	tbl := dynamo.Table{Name: s.Name, PK: s.PK, SK: s.SK}
	placed := map[string]bool{}
	facets := make([]Facet, len(t.Facets))
	for i, f := range t.Facets {
		if f.PKAlias == "" {
			f.PKAlias = s.PK.Name
		}
		if f.SKAlias == "" && s.SK != nil {
			f.SKAlias = s.SK.Name
		}
		names := map[string]bool{}
		var items []dynamo.Item
		for _, it := range f.Items {
			k, err := dynamo.PrimaryKey(tbl, it)
			if err == nil && placed[k] {
				continue
			}
			placed[k] = true
			items = append(items, it)
			for n := range it {
				if !isKeyOf(s, n) {
					names[n] = true
				}
			}
		}
		f.Items = items
		if f.Attributes == nil {
			f.Attributes = sortedSet(names)
		}
		facets[i] = f
	}
	return facets
}

// isKeyOf tells whether name is a key attribute of the table s.
func isKeyOf(s dynamo.TableSpec, name string) bool {
	return name == s.PK.Name || s.SK != nil && name == s.SK.Name
}

func workbenchTableJSON(t WorkbenchTable) wbTableJSON {
	t = completeTable(t)
	s := t.Spec
	tj := wbTableJSON{
		TableName:              s.Name,
		KeyAttributes:          wbKeys(s.PK, s.SK),
		NonKeyAttributes:       []wbAttrJSON{},
		TableFacets:            []wbFacetJSON{},
		GlobalSecondaryIndexes: []wbIndexJSON{},
		TableData:              []json.RawMessage{},
		BillingMode:            "PAY_PER_REQUEST",
	}
	for _, a := range t.Attributes {
		tj.NonKeyAttributes = append(tj.NonKeyAttributes, wbAttrJSON{a.Name, a.Type})
	}
	tbl := dynamo.Table{Name: s.Name, PK: s.PK, SK: s.SK}
	inFacet := map[string]bool{}
	for _, f := range t.Facets {
		fj := wbFacetJSON{
			FacetName:         f.Name,
			KeyAttributeAlias: wbAliasJSON{PartitionKeyAlias: f.PKAlias, SortKeyAlias: f.SKAlias},
			TableData:         []json.RawMessage{},
			NonKeyAttributes:  f.Attributes,
		}
		if fj.NonKeyAttributes == nil {
			fj.NonKeyAttributes = []string{}
		}
		for _, it := range f.Items {
			if k, err := dynamo.PrimaryKey(tbl, it); err == nil {
				inFacet[k] = true
			}
			fj.TableData = append(fj.TableData, itemcodec.DynamoJSON(it))
		}
		tj.TableFacets = append(tj.TableFacets, fj)
	}
	for _, it := range t.Items {
		if k, err := dynamo.PrimaryKey(tbl, it); err == nil && inFacet[k] {
			continue
		}
		tj.TableData = append(tj.TableData, itemcodec.DynamoJSON(it))
	}
	for _, g := range s.GSIs {
		p := g.Projection
		if p == "" {
			p = "ALL"
		}
		ij := wbIndexJSON{IndexName: g.Name, KeyAttributes: wbKeys(g.PK, g.SK), Projection: wbProjectionJSON{ProjectionType: p}}
		if p == "INCLUDE" {
			ij.Projection.NonKeyAttributes = g.NonKeyAttr
		}
		tj.GlobalSecondaryIndexes = append(tj.GlobalSecondaryIndexes, ij)
	}
	return tj
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
