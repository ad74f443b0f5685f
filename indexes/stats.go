package indexes

// What an index holds of a sample of a table's items: the figures of the
// index map and of a proposed index.

import (
	"math"
	"sort"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// MaxViolations is how many violating items Stats keeps as examples; the
// count goes on past it.
const MaxViolations = 20

// writeUnitBytes is the size one write capacity unit covers.
const writeUnitBytes = 1024

// Stats is what one index holds of a sample of the table's items.
type Stats struct {
	Index          dynamo.Index
	Items          int     // items of the sample looked at
	Members        int     // of them in the index
	Share          float64 // Members / Items; 0 for an empty sample
	Partitions     int     // distinct partition key values among the members
	Largest        Partition
	EntityTypes    []EntityCount // entity types of the members, most items first
	Violations     []ViolationItem
	ViolationCount int // all of them; Violations keeps the first MaxViolations
	// WCU is what writing the members' index entries costs: 1 WCU per KB of
	// each member's projected item, rounded up per item.
	MeanWCU float64
	MaxWCU  int
	// ProjectedBytes sums the members' projected sizes: the index's size.
	ProjectedBytes int
}

// Partition is one partition of an index and its share of the members.
type Partition struct {
	Key   string // the partition key value as text
	Items int
	Share float64
}

// EntityCount is how many members are of one entity type. With
// declarations (Of1's declared), Declared says a declaration named the
// type; Undeclared that declarations are in use and none matched its
// items' keys, so Entity is the inferred name.
type EntityCount struct {
	Entity               string
	Items                int
	Declared, Undeclared bool
}

// ViolationItem is an item of the sample that carries an index key
// attribute but cannot be in the index.
type ViolationItem struct {
	Key       dynamo.Item // the item's table key
	Attr      string
	Violation Violation
	Why       string
}

// Compute is Stats of each index of the table over the sample's items,
// their entity types named as Of1 names them.
func Compute(t dynamo.Table, items []dynamo.Item, declared keys.Declared) []Stats {
	out := make([]Stats, 0, len(t.Indexes))
	for _, ix := range t.Indexes {
		out = append(out, Of1(t, ix, items, declared))
	}
	return out
}

// Of1 is Stats of one index (existing or proposed) over the items. An
// item's entity type is the declaration its table key matches, when
// declared (the application's entities, on the table's keys) is given;
// otherwise, or when none matches (then marked Undeclared), the name the
// groups of its table partition give it, as far as the sample holds that
// partition (keys.NamesOfKeys); on a table without a sort key, by its
// partition key's family, as the layout names it.
func Of1(t dynamo.Table, ix dynamo.Index, items []dynamo.Item, declared keys.Declared) Stats {
	s := Stats{Index: ix, Items: len(items), EntityTypes: []EntityCount{}, Violations: []ViolationItem{}}
	entity := entityNames(t, items, declared)
	parts := map[string]int{}
	entities := map[EntityCount]int{}
	wcu := 0
	for _, it := range items {
		m := Check(t, ix, it)
		if m.Violation != NoViolation {
			s.ViolationCount++
			if len(s.Violations) < MaxViolations {
				s.Violations = append(s.Violations, ViolationItem{Key: tableKey(t, it), Attr: m.Attr, Violation: m.Violation, Why: m.Why})
			}
		}
		if !m.Member {
			continue
		}
		s.Members++
		parts[itemcodec.KeyString(m.Keys[0].Value)]++
		entities[entity(it)]++
		size := ProjectedSize(t, ix, it)
		s.ProjectedBytes += size
		w := (size + writeUnitBytes - 1) / writeUnitBytes
		wcu += w
		s.MaxWCU = max(s.MaxWCU, w)
	}
	if s.Items > 0 {
		s.Share = round3(float64(s.Members) / float64(s.Items))
	}
	if s.Members > 0 {
		s.MeanWCU = math.Round(float64(wcu)/float64(s.Members)*100) / 100
	}
	s.Partitions = len(parts)
	for k, n := range parts {
		if n > s.Largest.Items || n == s.Largest.Items && k < s.Largest.Key {
			s.Largest = Partition{Key: k, Items: n}
		}
	}
	if s.Members > 0 {
		s.Largest.Share = round3(float64(s.Largest.Items) / float64(s.Members))
	}
	for e, n := range entities {
		e.Items = n
		s.EntityTypes = append(s.EntityTypes, e)
	}
	sort.Slice(s.EntityTypes, func(i, j int) bool {
		a, b := s.EntityTypes[i], s.EntityTypes[j]
		return a.Items > b.Items || a.Items == b.Items && a.Entity < b.Entity
	})
	return s
}

// Marked is the type's name as text shows it: UndeclaredMark before an
// inferred name where declarations are in use and none matched.
func (e EntityCount) Marked() string {
	if e.Undeclared {
		return keys.UndeclaredMark + e.Entity
	}
	return e.Entity
}

// Overloaded reports whether the index holds more than one entity type.
func (s Stats) Overloaded() bool { return len(s.EntityTypes) > 1 }

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

func tableKey(t dynamo.Table, it dynamo.Item) dynamo.Item {
	k := dynamo.Item{t.PK.Name: it[t.PK.Name]}
	if t.SK != nil {
		k[t.SK.Name] = it[t.SK.Name]
	}
	return k
}

// KeyMatch is a key condition reduced to what a sample can test: the
// literal start of its partition key value (all of it when Exact), and of
// its sort key condition when it has one.
type KeyMatch struct {
	PKPrefix string
	Exact    bool
	NeedSK   bool   // the condition has a sort-key part
	SKPrefix string // the literal start a sort key must have ("" for any)
}

// Matching counts the index's members among the items whose keys there
// could answer the condition: the proposal serves a pattern when some do.
func Matching(t dynamo.Table, ix dynamo.Index, items []dynamo.Item, km KeyMatch) int {
	if km.NeedSK && ix.SK == nil {
		return 0
	}
	n := 0
	for _, it := range items {
		m := Check(t, ix, it)
		if !m.Member {
			continue
		}
		pk := itemcodec.KeyString(m.Keys[0].Value)
		if km.Exact && pk != km.PKPrefix || !strings.HasPrefix(pk, km.PKPrefix) {
			continue
		}
		if km.NeedSK && !strings.HasPrefix(itemcodec.KeyString(m.Keys[1].Value), km.SKPrefix) {
			continue
		}
		n++
	}
	return n
}

// entityNames names the items' entity types: by the declaration its table
// key matches, when declared is given, else (or when none does) as
// inferredNames does.
func entityNames(t dynamo.Table, items []dynamo.Item, declared keys.Declared) func(dynamo.Item) EntityCount {
	inferred := inferredNames(t, items)
	if declared == nil {
		return func(it dynamo.Item) EntityCount { return EntityCount{Entity: inferred(it)} }
	}
	return func(it dynamo.Item) EntityCount {
		sk := ""
		if t.SK != nil {
			sk = itemcodec.KeyString(it[t.SK.Name])
		}
		if name, ok := declared(itemcodec.KeyString(it[t.PK.Name]), sk); ok {
			return EntityCount{Entity: name, Declared: true}
		}
		return EntityCount{Entity: inferred(it), Undeclared: true}
	}
}

// inferredNames names the items' entity types: each by the sample's keys
// of its own table partition, as `groups` and the layout name them.
func inferredNames(t dynamo.Table, items []dynamo.Item) func(dynamo.Item) string {
	if t.SK == nil {
		return func(it dynamo.Item) string {
			return keys.FamilyEntity(itemcodec.KeyString(it[t.PK.Name]), t.PK.Type)
		}
	}
	sks := map[string][]string{}
	for _, it := range items {
		pk := itemcodec.KeyString(it[t.PK.Name])
		sks[pk] = append(sks[pk], itemcodec.KeyString(it[t.SK.Name]))
	}
	names := make(map[string]keys.Names, len(sks))
	for pk, ks := range sks {
		names[pk] = keys.NamesOfKeys(pk, ks, t.SK.Type, "")
	}
	return func(it dynamo.Item) string {
		return names[itemcodec.KeyString(it[t.PK.Name])].Name(itemcodec.KeyString(it[t.SK.Name]))
	}
}
