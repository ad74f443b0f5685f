package cli

// The object `dynascope index try` prints, and its table.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/patterns"
	"dynascope/textfmt"
)

type tryJSON struct {
	Table            string             `json:"table"`
	Proposal         proposalJSON       `json:"proposal"`
	Sample           trySampleJSON      `json:"sample"`
	Members          int                `json:"members"`
	Share            float64            `json:"share"`
	Partitions       int                `json:"partitions"`
	LargestPartition *tryPartitionJSON  `json:"largestPartition"` // null without members
	EntityTypes      []tryEntityJSON    `json:"entityTypes"`
	Violations       []tryViolationJSON `json:"violations"`
	ViolationCount   int                `json:"violationCount"`
	ProjectedBytes   int                `json:"projectedBytes"`
	WriteCost        writeCostJSON      `json:"writeCost"`
	Patterns         []tryPatternJSON   `json:"patterns"`
	Requests         int                `json:"requests"`
	ConsumedCapacity capacityObject     `json:"consumedCapacity"`
}

type proposalJSON struct {
	PartitionKey     string   `json:"partitionKey"`
	PartitionKeyType string   `json:"partitionKeyType"`
	SortKey          *string  `json:"sortKey"`
	SortKeyType      *string  `json:"sortKeyType"`
	Projection       string   `json:"projection"`
	NonKeyAttributes []string `json:"nonKeyAttributes,omitempty"`
}

type trySampleJSON struct {
	Items    int     `json:"items"`
	RCU      float64 `json:"rcu"`
	Complete bool    `json:"complete"`
	Stop     string  `json:"stop"`
	MaxItems int     `json:"maxItems"`
	MaxRCU   float64 `json:"maxRCU"`
}

type tryPartitionJSON struct {
	Key   json.RawMessage `json:"key"`
	Items int             `json:"items"`
	Share float64         `json:"share"`
}

type tryEntityJSON struct {
	Entity   string `json:"entity"`
	Declared *bool  `json:"declared,omitempty"` // with declared entities: whether one named it
	Items    int    `json:"items"`
}

// marked is the type's name as text shows it (indexes.EntityCount.Marked).
func (e tryEntityJSON) marked() string {
	return indexes.EntityCount{Entity: e.Entity, Undeclared: e.Declared != nil && !*e.Declared}.Marked()
}

type tryViolationJSON struct {
	Key       json.RawMessage `json:"key"`
	Attribute string          `json:"attribute"`
	Violation string          `json:"violation"`
	Why       string          `json:"why"`
}

type writeCostJSON struct {
	ExtraWCUPerWrite float64 `json:"extraWCUPerWrite"`
	MaxWCUPerWrite   int     `json:"maxWCUPerWrite"`
	Note             string  `json:"note"`
}

type tryPatternJSON struct {
	Name     string  `json:"name"`
	ServedBy *string `json:"servedBy"` // what serves it now: "table" or an index; null when its index does not exist
	Members  int     `json:"members"`  // sampled members whose keys fit its key condition
}

func tryObject(t dynamo.Table, ix dynamo.Index, items []dynamo.Item, res dynamo.ScanResult, opts *indexTryOptions, set *patterns.PatternSet, declared keys.Declared) tryJSON {
	s := indexes.Of1(t, ix, items, declared)
	out := tryJSON{
		Table: t.Name,
		Proposal: proposalJSON{PartitionKey: ix.PK.Name, PartitionKeyType: ix.PK.Type, Projection: ix.Projection,
			NonKeyAttributes: ix.NonKeyAttr},
		Sample: trySampleJSON{Items: len(items), RCU: res.Capacity().Total, Complete: res.Stop == dynamo.StopComplete,
			Stop: string(res.Stop), MaxItems: opts.MaxItems, MaxRCU: opts.MaxRCU},
		Members: s.Members, Share: s.Share, Partitions: s.Partitions,
		EntityTypes: []tryEntityJSON{}, Violations: []tryViolationJSON{}, ViolationCount: s.ViolationCount,
		ProjectedBytes: s.ProjectedBytes, Patterns: []tryPatternJSON{},
		Requests: len(res.Requests), ConsumedCapacity: newCapacityObject(res.Capacity()),
	}
	if ix.SK != nil {
		out.Proposal.SortKey, out.Proposal.SortKeyType = &ix.SK.Name, &ix.SK.Type
	}
	out.LargestPartition, out.EntityTypes, out.Violations = statsParts(s)
	out.WriteCost = writeCostJSON{ExtraWCUPerWrite: s.MeanWCU, MaxWCUPerWrite: s.MaxWCU, Note: fmt.Sprintf(
		"each put or delete of a member item also writes its %s entry to the index: 1 WCU per KB of the projected item, rounded up (%s WCU on average over the sample's %s, at most %d); an update that changes %s moves the entry between index partitions, a delete and a put: twice that; an update of attributes the index does not project adds nothing",
		ix.Projection, jsonFloat(s.MeanWCU), textfmt.Plural(s.Members, "member", "members"), s.MaxWCU, keyAttrNames(ix))}
	if set != nil {
		for _, p := range set.Patterns {
			if n := indexes.Matching(t, ix, items, keyMatchOf(p)); n > 0 {
				out.Patterns = append(out.Patterns, tryPatternJSON{Name: p.Name, ServedBy: servedBy(t, p), Members: n})
			}
		}
	}
	return out
}

// statsParts are the parts of Stats that index try and the layout's index
// map print alike.
func statsParts(s indexes.Stats) (*tryPartitionJSON, []tryEntityJSON, []tryViolationJSON) {
	var largest *tryPartitionJSON
	ents, viols := []tryEntityJSON{}, []tryViolationJSON{}
	if s.Members > 0 {
		av, _ := dynamo.KeyValue(s.Index.PK, "partition key", s.Largest.Key)
		largest = &tryPartitionJSON{Key: itemcodec.MarshalPlainValue(av), Items: s.Largest.Items, Share: s.Largest.Share}
	}
	for _, e := range s.EntityTypes {
		ents = append(ents, tryEntityJSON{Entity: e.Entity, Declared: declaredFlag(keys.Group{Declared: e.Declared, Undeclared: e.Undeclared}), Items: e.Items})
	}
	for _, v := range s.Violations {
		viols = append(viols, tryViolationJSON{Key: itemcodec.PlainJSON(v.Key), Attribute: v.Attr, Violation: string(v.Violation), Why: v.Why})
	}
	return largest, ents, viols
}

func keyAttrNames(ix dynamo.Index) string {
	if ix.SK == nil {
		return ix.PK.Name
	}
	return ix.PK.Name + " or " + ix.SK.Name
}

// keyMatchOf reduces a pattern's key condition to its literal parts: what
// comes before the first {parameter}.
func keyMatchOf(p patterns.Pattern) indexes.KeyMatch {
	lit := func(s string) (string, bool) {
		before, _, found := strings.Cut(s, "{")
		return before, !found
	}
	km := indexes.KeyMatch{}
	km.PKPrefix, km.Exact = lit(p.PK)
	if p.SK.Op != dynamo.SKNone {
		km.NeedSK = true
		if (p.SK.Op == dynamo.SKBeginsWith || p.SK.Op == dynamo.SKEq) && len(p.SK.Values) > 0 {
			km.SKPrefix, _ = lit(p.SK.Values[0])
		}
	}
	return km
}

func servedBy(t dynamo.Table, p patterns.Pattern) *string {
	s := "table"
	if p.Index != "" {
		if _, ok := t.IndexByName(p.Index); !ok {
			return nil
		}
		s = p.Index
	}
	return &s
}

func writeTryTable(b *bytes.Buffer, o tryJSON) {
	sk := ""
	if o.Proposal.SortKey != nil {
		sk = " / " + *o.Proposal.SortKey + " " + *o.Proposal.SortKeyType
	}
	fmt.Fprintf(b, "proposed index on %s: %s %s%s, %s\n", textfmt.Sanitize(o.Table), textfmt.Sanitize(o.Proposal.PartitionKey),
		o.Proposal.PartitionKeyType, textfmt.Sanitize(sk), o.Proposal.Projection)
	fmt.Fprintf(b, "sample: %s, %s RCU, stopped: %s\n\n", textfmt.Plural(o.Sample.Items, "item", "items"), jsonFloat(o.Sample.RCU), o.Sample.Stop)
	fmt.Fprintf(b, "members      %d (%.1f%% of the sample)\n", o.Members, o.Share*100)
	fmt.Fprintf(b, "partitions   %d\n", o.Partitions)
	if o.LargestPartition != nil {
		fmt.Fprintf(b, "largest      %s: %d items (%.1f%% of the members)\n", cell(string(o.LargestPartition.Key), 64), o.LargestPartition.Items, o.LargestPartition.Share*100)
	}
	var types []string
	for _, e := range o.EntityTypes {
		types = append(types, fmt.Sprintf("%s %d", cell(e.marked(), 32), e.Items))
	}
	if len(types) == 0 {
		types = []string{"none: no sampled item has the proposed keys"}
	}
	fmt.Fprintf(b, "entity types %s\n", strings.Join(types, " · "))
	fmt.Fprintf(b, "write cost   +%s WCU per write of a member (at most %d)\n", jsonFloat(o.WriteCost.ExtraWCUPerWrite), o.WriteCost.MaxWCUPerWrite)
	if o.ViolationCount > 0 {
		fmt.Fprintf(b, "\n%s the index would skip:\n", textfmt.Plural(o.ViolationCount, "item", "items"))
		tw := newColumns(b)
		for _, v := range o.Violations {
			fmt.Fprintf(tw, "  %s\t%s\n", cell(string(v.Key), 64), cell(v.Why, 120))
		}
		_ = tw.Flush()
	}
	if len(o.Patterns) > 0 {
		b.WriteString("\npatterns it could serve:\n")
		for _, p := range o.Patterns {
			by := "no index yet"
			if p.ServedBy != nil {
				by = "now: " + *p.ServedBy
			}
			fmt.Fprintf(b, "  %s (%s; %s)\n", cell(p.Name, 64), cell(by, 64), textfmt.Plural(p.Members, "sampled member", "sampled members"))
		}
	}
	fmt.Fprintf(b, "\n%s · %s RCU\n", textfmt.Plural(o.Requests, "request", "requests"), jsonFloat(o.ConsumedCapacity.Total))
}
