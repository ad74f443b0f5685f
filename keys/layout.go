package keys

// A table's single-table layout, reconstructed from a sample of its keys.
//
// Partition-key families. Each partition key belongs to one family, decided
// by the key alone:
//
//   - An ElectroDB key ("$taskapp#team_purple") belongs to its template,
//     every facet value replaced by "*": "$taskapp#team_*".
//   - A key with a structural delimiter (see keyDelimiter) belongs to the text
//     before it: "CUST#42" is family "CUST#*" (Entity "CUST", Prefix "CUST#").
//     Each key uses its own delimiter, so "CUST#1" and "user:7" are families
//     "CUST#*" and "user:*" and the lint reports the mix. When the text
//     before it is an id (IDShape: a nanoid, UUID, ULID), the id is the
//     varying part: "wLnnMe1XFvAleTXmDPSCv#ATTENDEES" is family
//     "*#ATTENDEES" (Entity "ATTENDEES", no Prefix).
//   - A key without one that is a label and a number ("user42", "user-42")
//     belongs to "user*" / "user-*".
//   - A key that reads as a name ("CONFIG", "GLOBAL": letters, no digits) is
//     a family of its own — unless the sample holds more than
//     maxExactFamilies such names, in which case the table is keyed by names
//     (user names, slugs) rather than by typed prefixes and they all join "*".
//   - Anything else (UUIDs, numbers, dates, numeric and binary key types) joins
//     the catch-all family "*".
//
// A key that starts with a delimiter ("#META") is classified by what follows
// it, the delimiter kept in the prefix.
//
// Sort-key types under a family are the groups of Classify, each key under
// the delimiter InferDelimiter finds in its own partition's keys, so the
// overview names a partition's types as `groups` and the UI do: label types
// ("ORDER#", "#METADATA#", "PROFILE") and one value group of the keys that
// start with a digit, named by RunName of the family's first and last such
// key. An ElectroDB sort key is typed by its entity instead
// ("$organization#user_1#..." is entity "user", prefix "$organization#user_1").
// Numeric and binary sort keys form one value group each (NumberEntity,
// BinaryEntity).
//
// A digit-led or letter-led id is typed by the value group its own
// partition's keys put it in (Names over the partition's sampled keys), so
// the layout of one partition lists the groups `groups` lists.
//
// The overview is a summary over many partitions, so it departs from
// GroupSortKeys in one place: a family with more than maxExactTypes exact
// types (user names, letter-led ids) folds them into one NoPrefixEntity type.

import (
	"sort"
	"strings"
)

// NoPrefixEntity names the catch-all family of partition keys that carry no entity prefix (ids, dates, UUIDs), and a family's many exact sort-key types folded into one.
const NoPrefixEntity = "(no prefix)"

// DefaultLargest is how many of the largest partitions a layout lists unless told otherwise.
const DefaultLargest = 10

// Limits beyond which name-like keys stop being families or types of their
// own; see the package notes above.
const (
	maxExactFamilies = 10
	maxExactTypes    = 20
)

// KeyItem is one sampled item: its key as text and what else the layout uses.
type KeyItem struct {
	PK, SK  string        // strings as is, numbers' digits, binary as base64; SK "" without a sort key
	Library LibraryEntity // zero when the item carries no library attribute
	Size    int           // the item's exact size in bytes; 0 when not measured
}

// PageRead is one Scan page of a sample: the bytes it read bound the size of its largest item from below.
type PageRead struct {
	First, Count int // Items[First : First+Count] came in this page
	MinBytes     int // DynamoDB read at least this many bytes for them (from consumed capacity)
}

// LayoutInput is a sample of a table's (or an index's) keys.
type LayoutInput struct {
	PKType, SKType string // "S", "N" or "B"; SKType "" when there is no sort key
	Items          []KeyItem
	Pages          []PageRead // optional; only meaningful for samples of the table itself
	Largest        int        // how many largest partitions to list; DefaultLargest when 0
	// Declared names the sort-key types by the application's declared
	// entities: an item whose keys match one is of that entity's type
	// (under its inferred prefix); every other type is marked Undeclared.
	// Nil: by inference alone.
	Declared Declared
}

// Layout is the single-table layout a sample shows.
type Layout struct {
	Items, Partitions int
	Families          []Family    // most items first
	Largest           []Partition // the largest partitions seen, most items first
	Findings          []Finding   // in the order of Rules, then family
}

// Family is one partition-key family: "CUST#*" with the partitions and sort-key types seen in it.
type Family struct {
	Pattern    string // "CUST#*", "$taskapp#team_*", "CONFIG", "*"
	Entity     string // "CUST"; NoPrefixEntity, NumberEntity or BinaryEntity for the catch-all
	Prefix     string // what every partition key of the family starts with; "" for the catch-all
	Exact      bool   // the family is one partition-key value
	Partitions int
	Items      int
	Largest    Partition      // its largest partition
	Delimiter  string         // the delimiter most of its sort keys use; "" when none does
	Types      []SortKeyType  // in sort-key order; without a sort key one type named as the family (WholeItemEntity), the partitions' items
	Libraries  []LibraryCount // library entities on its items, most items first
	Label      string         // Entity; without a sort key also the library entities its items carry
	Disagree   bool           // without a sort key: a library entity disagrees with Entity
}

// SortKeyType is one entity type of sort keys under a family: "ORDER" with prefix "ORDER#".
type SortKeyType struct {
	Entity     string
	Prefix     string // what begins_with selects the type by; "" for NoPrefixEntity and value groups
	Kind       Kind   // KindValue for a value group (its Entity the shape, as RunName names it)
	Exact      bool   // a label type that is one key value ("PROFILE")
	Items      int
	Partitions int    // how many partitions of the family hold it
	First      string // the smallest sort key seen, in DynamoDB's order
	Last       string // the largest
	Libraries  []LibraryCount
	Label      string // "ORDER (ElectroDB: order v1)"; Entity when no library names it
	Disagree   bool   // a library entity disagrees with Entity
	// Declared: a declared entity named it (LayoutInput.Declared);
	// Undeclared: declarations are in use and its keys match none. Both
	// false without declarations.
	Declared, Undeclared bool
}

// declaredType marks a type ID's entity as a declared entity's name.
const declaredType = "\x01"

// LibraryCount is how many items of a family or type carry one library entity.
type LibraryCount struct {
	LibraryEntity
	Items int
}

// Partition is one partition seen, with its family and how many of its items the sample holds.
type Partition struct {
	PK     string
	Family string // the family's Pattern
	Items  int
}

// KeyRef names one item's key, for findings to point at.
type KeyRef struct {
	PK, SK string
	HasSK  bool
}

// familyID is how a partition key is classified before families are built.
type familyID struct {
	pattern, entity, prefix string
	exact                   bool
}

type typeID struct{ entity, prefix string }

type familyAcc struct {
	f     Family
	parts map[string]int // partition -> items
	types map[typeID]*typeAcc
	libs  map[LibraryEntity]int
	items []int // indices into the input
}

type typeAcc struct {
	t     SortKeyType
	parts map[string]bool
	libs  map[LibraryEntity]int
	items []int
}

// AnalyzeLayout reconstructs the layout a sample of keys shows: families,
// their partitions and sort-key types, the largest partitions, and the
// findings of the key-layout lint. It is deterministic in the set of items.
func AnalyzeLayout(in LayoutInput) Layout {
	if in.Largest <= 0 {
		in.Largest = DefaultLargest
	}
	lay := Layout{Items: len(in.Items), Families: []Family{}, Largest: []Partition{}, Findings: []Finding{}}
	parts := map[string]int{}
	for _, it := range in.Items {
		parts[it.PK]++
	}
	lay.Partitions = len(parts)

	ids := classifyPartitions(parts, in.PKType)
	delims := partitionDelimiters(in)
	fams := map[string]*familyAcc{}
	for i, it := range in.Items {
		id := ids[it.PK]
		fa := fams[id.pattern]
		if fa == nil {
			fa = &familyAcc{
				f:     Family{Pattern: id.pattern, Entity: id.entity, Prefix: id.prefix, Exact: id.exact},
				parts: map[string]int{}, types: map[typeID]*typeAcc{}, libs: map[LibraryEntity]int{},
			}
			fams[id.pattern] = fa
		}
		fa.f.Items++
		fa.parts[it.PK]++
		fa.items = append(fa.items, i)
		if it.Library.Library != "" {
			fa.libs[it.Library]++
		}
	}

	accs := make([]*familyAcc, 0, len(fams))
	for _, fa := range fams {
		fa.f.Partitions = len(fa.parts)
		fa.f.Largest = largestOf(fa.parts, fa.f.Pattern)
		fa.f.Libraries = tally(fa.libs)
		fa.f.Label = fa.f.Entity
		if in.SKType != "" {
			buildTypes(fa, in, delims)
		} else {
			// Without a sort key the family is the entity type, so it is
			// what a library attribute names.
			fa.f.Label, fa.f.Disagree = label(fa.f.Entity, fa.f.Libraries)
			fa.f.Types = []SortKeyType{{Entity: fa.f.Entity, Kind: KindValue, Items: fa.f.Items, Partitions: fa.f.Partitions,
				Libraries: fa.f.Libraries, Label: fa.f.Entity}} // the family's label says what a library names
		}
		accs = append(accs, fa)
	}
	sort.Slice(accs, func(i, j int) bool {
		if accs[i].f.Items != accs[j].f.Items {
			return accs[i].f.Items > accs[j].f.Items
		}
		return accs[i].f.Pattern < accs[j].f.Pattern
	})
	for _, fa := range accs {
		lay.Families = append(lay.Families, fa.f)
	}

	all := make([]Partition, 0, len(parts))
	for pk, n := range parts {
		all = append(all, Partition{PK: pk, Family: ids[pk].pattern, Items: n})
	}
	sortPartitions(all)
	lay.Largest = all[:min(in.Largest, len(all))]

	lay.Findings = lint(in, accs, all)
	return lay
}

// classifyPartitions puts every partition key into its family.
func classifyPartitions(parts map[string]int, pkType string) map[string]familyID {
	ids := make(map[string]familyID, len(parts))
	exact := 0
	for pk := range parts {
		id := partitionFamily(pk, pkType)
		if id.exact {
			exact++
		}
		ids[pk] = id
	}
	if exact > maxExactFamilies {
		for pk, id := range ids {
			if id.exact {
				ids[pk] = catchAll("S")
			}
		}
	}
	return ids
}

func catchAll(keyType string) familyID {
	switch keyType {
	case "N":
		return familyID{pattern: "*", entity: NumberEntity}
	case "B":
		return familyID{pattern: "*", entity: BinaryEntity}
	}
	return familyID{pattern: "*", entity: NoPrefixEntity}
}

// buildTypes groups a family's sort keys into types, each key by Classify
// under the delimiter its partition's keys use (delims), as the UI and
// `groups` do for one partition.
func buildTypes(fa *familyAcc, in LayoutInput, delims map[string]string) {
	var exact []typeID
	counts := map[string]int{}
	lists := listPartitions(fa, in)
	names := partitionNames(fa, in, delims)
	for _, i := range fa.items {
		it := in.Items[i]
		id, isExact := sortKeyType(it.SK, in.SKType, delims[it.PK], it.Library)
		if g, ok := names[it.PK].Group(it.SK); ok && id.entity == valueType {
			if g.Kind == KindValue {
				id = valueTypeOf(g) // the run of ids its partition's groups hold it in
			} else if c := Classify(it.SK, delims[it.PK]); c.Exact {
				id, isExact = typeID{entity: c.Entity, prefix: c.Prefix}, true // an id-shaped bare label its prefix type folds in
			}
		}
		if lists[it.PK] {
			id, isExact = typeID{entity: nameType}, false
		}
		if in.Declared != nil {
			if name, ok := in.Declared(it.PK, it.SK); ok {
				id, isExact = typeID{entity: declaredType + name, prefix: id.prefix}, false
			}
		}
		if id.prefix != "" && !isExact && id.entity != valueType {
			counts[delims[it.PK]]++
		}
		ta := fa.types[id]
		if ta == nil {
			ta = &typeAcc{t: SortKeyType{Entity: id.entity, Prefix: id.prefix, Kind: KindLabel, Exact: isExact, First: it.SK, Last: it.SK},
				parts: map[string]bool{}, libs: map[LibraryEntity]int{}}
			fa.types[id] = ta
			if isExact {
				exact = append(exact, id)
			}
		}
		ta.add(i, it, in.SKType)
	}
	if len(exact) > maxExactTypes {
		none := typeID{entity: NoPrefixEntity}
		for _, id := range exact {
			ta := fa.types[id]
			delete(fa.types, id)
			into := fa.types[none]
			if into == nil {
				into = &typeAcc{t: SortKeyType{Entity: NoPrefixEntity, Kind: KindLabel, First: ta.t.First, Last: ta.t.Last},
					parts: map[string]bool{}, libs: map[LibraryEntity]int{}}
				fa.types[none] = into
			}
			for _, i := range ta.items {
				into.add(i, in.Items[i], in.SKType)
			}
		}
	}
	best := 0
	for _, d := range Delimiters {
		if counts[d] > best {
			fa.f.Delimiter, best = d, counts[d]
		}
	}
	fa.f.Types = []SortKeyType{}
	for id, ta := range fa.types {
		switch name, declared := strings.CutPrefix(id.entity, declaredType); {
		case declared:
			ta.t.Entity, ta.t.Declared = name, true
			if id.prefix == "" {
				ta.t.Kind = KindValue
			}
		case in.Declared != nil:
			ta.t.Undeclared = true
		}
		switch id.entity {
		case valueType:
			ta.t.Kind, ta.t.Entity = KindValue, RunName(ta.t.First, ta.t.Last)
		case nameType:
			ta.t.Kind, ta.t.Entity = KindValue, ShapeName
		default:
			if shape, ok := strings.CutPrefix(id.entity, valueType); ok {
				ta.t.Kind, ta.t.Entity = KindValue, shape
			}
		}
		if in.SKType == "N" || in.SKType == "B" {
			ta.t.Kind = KindValue
		}
		ta.t.Partitions = len(ta.parts)
		ta.t.Libraries = tally(ta.libs)
		ta.t.Label, ta.t.Disagree = label(ta.t.Entity, ta.t.Libraries)
		fa.f.Types = append(fa.f.Types, ta.t)
	}
	sort.Slice(fa.f.Types, func(i, j int) bool {
		a, b := fa.f.Types[i], fa.f.Types[j]
		if c := CompareKeys(a.First, b.First, in.SKType); c != 0 {
			return c < 0
		}
		return a.Prefix < b.Prefix
	})
	if in.SKType == "S" {
		fa.f.Types = uniqueTypeNames(foldBareTypes(fa, in))
	}
}

// partitionNames are the names of each partition of the family, from its
// own keys in the sample (NamesOfKeys), for string sort keys.
func partitionNames(fa *familyAcc, in LayoutInput, delims map[string]string) map[string]Names {
	if in.SKType != "S" {
		return nil
	}
	sks := fa.sortKeys(in)
	out := make(map[string]Names, len(sks))
	for pk, ks := range sks {
		out[pk] = NamesOfKeys(pk, ks, "S", delims[pk])
	}
	return out
}

// sortKeys are the family's sort keys in the sample, by partition.
func (fa *familyAcc) sortKeys(in LayoutInput) map[string][]string {
	sks := map[string][]string{}
	for _, i := range fa.items {
		it := in.Items[i]
		sks[it.PK] = append(sks[it.PK], it.SK)
	}
	return sks
}

// valueTypeOf is the type of the keys of a partition's value group g: the
// value type of digit-led keys (named by the family's ends), or, for a run
// of letter-led ids FoldIDs made (its last key a letter), a type of that
// run's name, so the layout of one partition lists the runs its groups do.
func valueTypeOf(g Group) typeID {
	lo, hi := min(g.First, g.Last), max(g.First, g.Last)
	if lo != "" && isDigit(lo[0]) && hi != "" && isDigit(hi[0]) {
		return typeID{entity: valueType}
	}
	return typeID{entity: valueType + g.Entity}
}

// uniqueTypeNames names a family's types so that no two share a name, as
// UniqueNames names a partition's groups ("ORDER" and "ORDER|").
func uniqueTypeNames(ts []SortKeyType) []SortKeyType {
	gs := make([]Group, len(ts))
	names := make([]string, len(ts))
	for i, t := range ts {
		gs[i] = Group{Entity: t.Entity, Prefix: t.Prefix, Kind: t.Kind, Exact: t.Exact, First: t.First, Last: t.Last}
		names[i] = t.Entity
	}
	for i, n := range uniqueNames(gs, names) {
		if n != ts[i].Entity {
			ts[i].Entity = n
			ts[i].Label, ts[i].Disagree = label(n, ts[i].Libraries)
		}
	}
	return ts
}

// foldBareTypes folds an exact type ("METADATA") into the prefix type of its
// label next to it ("METADATA#"), as FoldBare folds a partition's groups.
func foldBareTypes(fa *familyAcc, in LayoutInput) []SortKeyType {
	out := fa.f.Types[:0:0]
	for _, t := range fa.f.Types {
		n := len(out)
		g := Group{Entity: t.Entity, Prefix: t.Prefix, Kind: t.Kind}
		if n == 0 || t.Kind != KindLabel || out[n-1].Entity != t.Entity || out[n-1].Prefix == "" || bareOf(g) != out[n-1].Prefix {
			out = append(out, t)
			continue
		}
		e := fa.types[typeID{entity: out[n-1].Entity, prefix: out[n-1].Prefix}]
		p := fa.types[typeID{entity: t.Entity, prefix: t.Prefix}]
		if e == nil || p == nil {
			out = append(out, t)
			continue
		}
		for pk := range e.parts {
			p.parts[pk] = true
		}
		for l, c := range e.libs {
			p.libs[l] += c
		}
		t.Items += e.t.Items
		t.First = e.t.First
		t.Partitions = len(p.parts)
		t.Libraries = tally(p.libs)
		t.Label, t.Disagree = label(t.Entity, t.Libraries)
		p.items = append(p.items, e.items...)
		out[n-1] = t
	}
	return out
}

func (ta *typeAcc) add(i int, it KeyItem, skType string) {
	ta.t.Items++
	ta.parts[it.PK] = true
	ta.items = append(ta.items, i)
	if it.Library.Library != "" {
		ta.libs[it.Library]++
	}
	if CompareKeys(it.SK, ta.t.First, skType) < 0 {
		ta.t.First = it.SK
	}
	if CompareKeys(it.SK, ta.t.Last, skType) > 0 {
		ta.t.Last = it.SK
	}
}

func tally(m map[LibraryEntity]int) []LibraryCount {
	out := make([]LibraryCount, 0, len(m))
	for l, n := range m {
		out = append(out, LibraryCount{LibraryEntity: l, Items: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Items != out[j].Items {
			return out[i].Items > out[j].Items
		}
		return out[i].String() < out[j].String()
	})
	return out
}

// label names a family or type by its key entity and the library entities
// its items carry, and tells whether any of those disagrees.
func label(entity string, libs []LibraryCount) (string, bool) {
	if len(libs) == 0 {
		return entity, false
	}
	names := make([]string, len(libs))
	disagree := false
	for i, l := range libs {
		names[i] = l.String()
		if !l.Agrees(entity) {
			disagree = true
		}
	}
	return entity + " (" + strings.Join(names, "; ") + ")", disagree
}

func largestOf(parts map[string]int, family string) Partition {
	var best Partition
	for pk, n := range parts {
		if n > best.Items || n == best.Items && pk < best.PK {
			best = Partition{PK: pk, Family: family, Items: n}
		}
	}
	return best
}

func sortPartitions(ps []Partition) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Items != ps[j].Items {
			return ps[i].Items > ps[j].Items
		}
		return ps[i].PK < ps[j].PK
	})
}
