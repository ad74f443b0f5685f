package cli

// layout --index-map: for each secondary index, what it holds of a bounded
// sample of whole items — share (sparse), entity types (overloaded),
// partitions and the largest one's share (skew), what it projects, and the
// items that carry a key attribute but cannot be in it (violations).
//
// The layout sample reads keys only, and the index keys are other
// attributes, so the map takes a Scan of its own: asked for by a flag and
// announced with its caps, never read unasked.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/keys"
	"dynascope/textfmt"
)

// indexMapJSON is layout's "indexMap", there only with --index-map.
type indexMapJSON struct {
	Sample           trySampleJSON   `json:"sample"`
	Indexes          []indexEntry    `json:"indexes"`
	Requests         int             `json:"requests"`
	ConsumedCapacity capacityObject  `json:"consumedCapacity"`
	stats            []indexes.Stats // for the table format
}

type indexEntry struct {
	Name             string             `json:"name"`
	Kind             string             `json:"kind"` // gsi | lsi
	PartitionKey     keyAttrJSON        `json:"partitionKey"`
	SortKey          *keyAttrJSON       `json:"sortKey"`
	Projection       string             `json:"projection"`
	Projected        []string           `json:"projected"` // the attributes every entry keeps, and INCLUDE's; ["*"] for ALL
	Members          int                `json:"members"`
	Share            float64            `json:"share"`
	Sparse           bool               `json:"sparse"`
	Partitions       int                `json:"partitions"`
	LargestPartition *tryPartitionJSON  `json:"largestPartition"`
	EntityTypes      []tryEntityJSON    `json:"entityTypes"`
	Overloaded       bool               `json:"overloaded"`
	Violations       []tryViolationJSON `json:"violations"`
	ViolationCount   int                `json:"violationCount"`
}

// sampleIndexMap reads the map's sample, announcing it first.
func sampleIndexMap(ctx context.Context, c *dynamo.Client, t dynamo.Table, maxItems int, maxRCU float64, declared keys.Declared, stderr io.Writer) (*indexMapJSON, error) {
	if len(t.Indexes) == 0 {
		return &indexMapJSON{Indexes: []indexEntry{}, ConsumedCapacity: newCapacityObject(dynamo.Capacity{})}, nil
	}
	fmt.Fprintf(stderr, "index map of table %s: up to %d items / %s RCU, whole items (one Scan)\n", textfmt.Sanitize(t.Name), maxItems, jsonFloat(maxRCU))
	items, res, err := dynamo.SampleItems(ctx, c.Scan, t.Name, maxItems, maxRCU)
	if err != nil && len(items) == 0 {
		return nil, err
	}
	m := &indexMapJSON{
		Sample: trySampleJSON{Items: len(items), RCU: res.Capacity().Total, Complete: res.Stop == dynamo.StopComplete,
			Stop: string(res.Stop), MaxItems: maxItems, MaxRCU: maxRCU},
		Indexes: []indexEntry{}, Requests: len(res.Requests), ConsumedCapacity: newCapacityObject(res.Capacity()),
	}
	m.stats = indexes.Compute(t, items, declared)
	for _, s := range m.stats {
		ix := s.Index
		e := indexEntry{Name: ix.Name, Kind: strings.ToLower(string(ix.Kind)), PartitionKey: *newKeyAttrJSON(&ix.PK), SortKey: newKeyAttrJSON(ix.SK),
			Projection: ix.Projection, Projected: indexes.KeyNames(t, ix), Members: s.Members, Share: s.Share,
			Sparse: s.Members < s.Items, Partitions: s.Partitions, Overloaded: s.Overloaded(), ViolationCount: s.ViolationCount}
		switch ix.Projection {
		case "ALL":
			e.Projected = []string{"*"}
		case "INCLUDE":
			e.Projected = append(e.Projected, ix.NonKeyAttr...)
		}
		e.LargestPartition, e.EntityTypes, e.Violations = statsParts(s)
		m.Indexes = append(m.Indexes, e)
	}
	return m, err
}

func writeIndexMapText(b *bytes.Buffer, m *indexMapJSON) {
	if m == nil {
		return
	}
	fmt.Fprintf(b, "\nINDEX MAP (a sample of %s, stopped: %s)\n", textfmt.Plural(m.Sample.Items, "item", "items"), m.Sample.Stop)
	if len(m.Indexes) == 0 {
		b.WriteString("  the table has no secondary indexes\n")
		return
	}
	tw := newColumns(b)
	fmt.Fprintln(tw, "  INDEX\tKIND\tPROJECTION\tMEMBERS\tPARTITIONS\tLARGEST\tENTITY TYPES\tVIOLATIONS")
	for _, e := range m.Indexes {
		largest := "-"
		if e.LargestPartition != nil {
			largest = fmt.Sprintf("%s %.0f%%", cell(string(e.LargestPartition.Key), 32), e.LargestPartition.Share*100)
		}
		var types []string
		for _, t := range e.EntityTypes {
			types = append(types, fmt.Sprintf("%s %d", cell(t.marked(), 24), t.Items))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d (%.1f%%)\t%d\t%s\t%s\t%d\n", cell(e.Name, 32), e.Kind, e.Projection, e.Members, e.Share*100,
			e.Partitions, largest, strings.Join(types, " · "), e.ViolationCount)
	}
	_ = tw.Flush()
	for _, e := range m.Indexes {
		for _, v := range e.Violations {
			fmt.Fprintf(b, "  %s: %s %s\n", cell(e.Name, 32), cell(string(v.Key), 64), cell(v.Why, 160))
		}
	}
	fmt.Fprintf(b, "  %s · %s RCU\n", textfmt.Plural(m.Requests, "request", "requests"), jsonFloat(m.ConsumedCapacity.Total))
}
