package workbench

// Exporting a sampled table as a NoSQL Workbench model: the layout that a
// sample reconstructs (partition-key families and their sort-key entity
// types) becomes the facets, DescribeTable gives the keys and indexes, and
// one small Query per entity type fetches a few example items.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// WorkbenchSampleItems is how many example items a facet gets: enough to
// show an entity's attributes, few enough that the export reads next to
// nothing (one Query with this Limit per entity type).
const WorkbenchSampleItems = 3

// WorkbenchExport is a model built from a sample, and what building it cost.
type WorkbenchExport struct {
	Model WorkbenchModel
	// Dropped counts example items left out because an attribute had
	// another type in an earlier item: Workbench declares one type per
	// attribute, and DynamoDB does not.
	Dropped  int
	Requests []dynamo.Request
}

// WorkbenchFromSample builds a one-table NoSQL Workbench model of the
// sampled table: a facet per partition-key family and sort-key entity type
// of the layout (a facet per family for a table without a sort key), each
// with up to perType example items read by one Query, and the table's
// global secondary indexes. Local secondary indexes are left out: Workbench
// models have none. A sample of an index cannot be exported; sample the
// table. now dates the model.
func WorkbenchFromSample(ctx context.Context, c *dynamo.Client, smp dynamo.Sample, lay keys.Layout, perType int, now time.Time) (WorkbenchExport, error) {
	var out WorkbenchExport
	if smp.Index != "" {
		return out, &dynamo.UserError{Msg: fmt.Sprintf("a NoSQL Workbench model describes the table; sample table %s itself, not its index %s.", smp.Table, smp.Index)}
	}
	if perType < 1 {
		perType = WorkbenchSampleItems
	}
	t, err := c.DescribeTable(ctx, smp.Table)
	if err != nil {
		return out, err
	}
	spec := dynamo.TableSpec{Name: t.Name, PK: t.PK, SK: t.SK}
	for _, ix := range t.Indexes {
		if ix.Kind == dynamo.GSI {
			spec.GSIs = append(spec.GSIs, dynamo.Index{Name: ix.Name, Kind: dynamo.GSI, PK: ix.PK, SK: ix.SK, Projection: ix.Projection, NonKeyAttr: ix.NonKeyAttr})
		}
	}
	wt := WorkbenchTable{Spec: spec}
	types := map[string]string{} // attribute -> the type its first item gave it
	for _, g := range spec.GSIs {
		types[g.PK.Name] = g.PK.Type
		if g.SK != nil {
			types[g.SK.Name] = g.SK.Type
		}
	}
	set := newItemSet(spec)
	names := map[string]bool{}
	for _, fam := range lay.Families {
		kinds := fam.Types
		if t.SK == nil || len(kinds) == 0 {
			kinds = []keys.SortKeyType{{}}
		}
		for _, kind := range kinds {
			q, ok := exampleQuery(smp, fam, kind, t)
			if !ok {
				continue
			}
			q.Limit = int32(perType)
			page, err := c.Query(ctx, q)
			out.Requests = append(out.Requests, page.Request)
			if err != nil {
				return out, err
			}
			f := Facet{Name: facetName(fam, kind, t.SK != nil, names), PKAlias: fam.Pattern}
			if t.SK != nil {
				f.SKAlias = skAlias(kind)
			}
			for _, it := range page.Items {
				if !typesAgree(it, types) {
					out.Dropped++
					continue
				}
				if k, _ := dynamo.PrimaryKey(set.table, it); set.has(k) {
					continue // an item two types' queries both read stays with the first
				}
				_ = set.put(it, "facet "+f.Name) // a new key: cannot clash
				f.Items = append(f.Items, it)
			}
			wt.Facets = append(wt.Facets, f)
		}
	}
	wt.Items = set.items
	wt = completeTable(wt)
	setFacetPrefixes(&wt)
	out.Model = WorkbenchModel{
		Name:        t.Name,
		Author:      "dynascope",
		Description: fmt.Sprintf("The layout of %s as dynascope reconstructed it from a sample of %d items: one facet per partition-key family and sort-key entity type, with up to %d example items each.", t.Name, len(smp.Items), perType),
		Created:     WorkbenchDate(now),
		Modified:    WorkbenchDate(now),
		Version:     WorkbenchVersion,
		Tables:      []WorkbenchTable{wt},
	}
	return out, nil
}

// exampleQuery is the one Query that reads examples of an entity type: in a
// partition the sample saw it in, begins_with its prefix, BETWEEN the ends of
// a value group, or its one value when it has no prefix.
func exampleQuery(smp dynamo.Sample, fam keys.Family, kind keys.SortKeyType, t dynamo.Table) (dynamo.QueryInput, bool) {
	pk := fam.Largest.PK
	if t.SK != nil {
		pk = ""
		for _, it := range smp.Items {
			if it.SK == kind.First && inFamily(it.PK, fam) {
				pk = it.PK
				break
			}
		}
		if pk == "" {
			return dynamo.QueryInput{}, false
		}
	}
	q := dynamo.QueryInput{Table: t.Name, PK: pk}
	switch {
	case t.SK == nil:
	case kind.Kind == keys.KindValue && t.SK.Type == "S":
		q.SK = dynamo.GroupCondition(keys.Group{Kind: keys.KindValue, First: kind.First, Last: kind.Last}, "S")
	case kind.Prefix != "" && t.SK.Type == "S":
		q.SK = dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{kind.Prefix}}
	default:
		q.SK = dynamo.SKCond{Op: dynamo.SKEq, Values: []string{kind.First}}
	}
	return q, true
}

func inFamily(pk string, fam keys.Family) bool {
	if fam.Exact {
		return pk == fam.Prefix || fam.Prefix == "" && pk == fam.Pattern
	}
	return strings.HasPrefix(pk, fam.Prefix)
}

// facetName names a facet after its family and type ("CUST_ORDER"), with
// only the characters every Workbench version takes, unique in the model.
func facetName(fam keys.Family, kind keys.SortKeyType, hasSK bool, used map[string]bool) string {
	clean := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		return strings.Trim(b.String(), "_")
	}
	name := clean(fam.Entity)
	if hasSK && kind.Entity != "" {
		name = strings.Trim(name+"_"+clean(kind.Entity), "_")
	}
	if name == "" {
		name = "Items"
	}
	base := name
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	used[name] = true
	return name
}

func skAlias(kind keys.SortKeyType) string {
	if kind.Prefix == "" || kind.Exact {
		return kind.First
	}
	return kind.Prefix + "*"
}

// typesAgree tells whether the item's attributes have the types earlier
// items gave them, and records the types of new ones.
func typesAgree(it dynamo.Item, types map[string]string) bool {
	for name, av := range it {
		typ := itemcodec.AttributeTypeName(av)
		if have, ok := types[name]; ok && have != typ && typ != "NULL" && have != "NULL" {
			return false
		}
	}
	for name, av := range it {
		if typ := itemcodec.AttributeTypeName(av); types[name] == "" || types[name] == "NULL" {
			types[name] = typ
		}
	}
	return true
}
