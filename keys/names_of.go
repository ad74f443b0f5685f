package keys

import (
	"slices"
	"strings"
)

// Naming one key. Every surface that names the type of an item or of a key
// (the groups, the layout, the UI's panes, the live pane, tail, index try)
// takes the name from here, so that for one partition they agree: a key is
// named as the groups of its partition name its type. Names holds those
// groups; Name finds the key's group (by its class, the bare label a prefix
// group folded in, or the run of ids a value group holds) and returns the
// group's name. A key of a type the groups do not hold is named as
// UniqueNames would name its type beside them, so it never takes a name
// one of them has ("ORDER|" beside an "ORDER" of "ORDER#").

// Names names the keys of one partition as its groups do.
type Names struct {
	pk, keyType, delim string
	groups             []Group
	declared           Declared // nil: by the groups alone
}

// NamesOf is the names of partition pk whose groups, grouped under delim
// from sort keys of DynamoDB type keyType ("S", "N", "B"), are groups (as
// an EntityTable or a discovery returns them).
func NamesOf(pk string, groups []Group, keyType, delim string) Names {
	return Names{pk: pk, keyType: keyType, delim: delim, groups: groups}
}

// NamesOfKeys names the sort keys of partition pk (in any order) by the
// entity table of them all, as `groups` names them when it has read every
// one: sorted as DynamoDB sorts them, the delimiter inferred when delim is
// "", bare labels and runs of ids folded.
func NamesOfKeys(pk string, sortKeys []string, keyType, delim string) Names {
	sorted := slices.Clone(sortKeys)
	slices.SortFunc(sorted, func(a, b string) int { return CompareKeys(a, b, keyType) })
	sorted = slices.Compact(sorted)
	if delim == "" {
		delim = InferDelimiter(sorted)
	}
	if keyType == "" {
		keyType = "S" // keys without a type are text
	}
	page := make([]LoadedKey, len(sorted))
	for i, k := range sorted {
		page[i].SK = k
	}
	return NewEntityTable(keyType, false).Reset(pk, false).Load(page, delim, false).Names(delim)
}

// Groups are the partition's groups, as given.
func (n Names) Groups() []Group { return n.groups }

// Name is the name of sort key sk's type in the partition.
func (n Names) Name(sk string) string {
	if n.declared != nil {
		if name, ok := n.declared(n.pk, sk); ok {
			return name
		}
		n.groups, n.declared = n.inferredGroups(), nil
	}
	if g, ok := n.Group(sk); ok {
		return g.Entity
	}
	c := ClassifyTyped(sk, n.keyType, n.delim)
	own := Group{Entity: c.Entity, Prefix: c.Prefix, Kind: c.Kind, Exact: c.Exact, Count: 1, First: sk, Last: sk}
	if c.Kind == KindValue && c.Entity != NumberEntity && c.Entity != BinaryEntity {
		own.Entity = RunName(sk, sk)
	} else if c.Exact && IDShape(sk) != "" {
		own = Group{Entity: IDShape(sk), Kind: KindValue, Count: 1, First: sk, Last: sk}
	}
	all := UniqueNames(append(slices.Clone(n.groups), own))
	return all[len(all)-1].Entity
}

// Group is the group of the partition that holds sort key sk; false when
// none of the groups does.
func (n Names) Group(sk string) (Group, bool) {
	if i := groupOf(n.groups, ClassifyTyped(sk, n.keyType, n.delim), sk, n.keyType); i >= 0 {
		return n.groups[i], true
	}
	return Group{}, false
}

// groupOf is the index of the group that holds sort key sk of class c (of
// DynamoDB type keyType), -1 when none does: the label group of its class
// or the prefix group its bare label folded into; for a value or an id,
// the value group whose run holds it; a number, a binary key or a
// digit-led key past the ends seen, the value group of those.
func groupOf(groups []Group, c Class, sk, keyType string) int {
	idLike := c.Kind == KindValue || c.Exact && (IDShape(sk) != "" || lowerName.MatchString(sk))
	for i, g := range groups {
		switch {
		case g.Kind == KindValue && idLike && inRun(g, sk, keyType):
			return i
		case g.Kind == KindLabel && g.ID() == c.ID():
			return i
		case g.Bare && c.Exact && c.Prefix == bareOf(g):
			return i
		}
	}
	if c.Kind == KindValue { // numbers, binary, or a digit-led key past the ends seen
		for i, g := range groups {
			if g.Kind == KindValue && (keyType == "N" || keyType == "B" || isDigit(g.First[0])) {
				return i
			}
		}
	}
	return -1
}

// inRun tells whether sk lies in value group g's run of keys (its ends in
// either order); a list of names holds only names, a run of ids only keys
// of its shape or digit-led ones.
func inRun(g Group, sk, keyType string) bool {
	lo, hi := g.First, g.Last
	if CompareKeys(lo, hi, keyType) > 0 {
		lo, hi = hi, lo
	}
	if CompareKeys(sk, lo, keyType) < 0 || CompareKeys(sk, hi, keyType) > 0 {
		return false
	}
	switch {
	case g.Entity == ShapeName:
		return lowerName.MatchString(sk)
	case sk != "" && !isDigit(sk[0]):
		return strings.HasPrefix(g.Entity, IDShape(sk)) && IDShape(sk) != ""
	}
	return true
}

// A stream record is one item at a time: tail and the UI's live pane see
// no partition, only the record's keys. SeenNames remembers, for each
// partition, the sort keys it was asked about, and names a key as the
// groups of a partition holding exactly those keys name it: a partition
// whose keys all use "|" has ORDER, as groups says, and once "ORDER#…"
// has been seen beside "ORDER|…" the latter is ORDER| from then on. A
// name can thus change once, when a record shows the partition holds a
// type that takes the name first (UniqueNames' order); a reader who wants
// the partition's own names reads its groups.

// SeenLimits bound what SeenNames remembers: partitions, and keys a
// partition. Past them, a key is named with what is remembered.
const (
	SeenPartitions = 10000
	SeenKeys       = 1000
)

// SeenNames names the keys of stream records by the partitions' keys seen
// so far; see above. The zero value is not ready: use NewSeenNames.
type SeenNames struct {
	declared       Declared // nil: by the partitions' keys alone
	keyType, delim string
	keys           map[string][]string // partition -> its sort keys seen, sorted
	names          map[string]Names    // partition -> the names of those keys
}

// NewSeenNames names keys of DynamoDB type keyType, under delim ("" infers
// it from each partition's keys seen).
func NewSeenNames(keyType, delim string) *SeenNames {
	return &SeenNames{keyType: keyType, delim: delim, keys: map[string][]string{}, names: map[string]Names{}}
}

// Name remembers sort key sk under partition pk and names it.
func (s *SeenNames) Name(pk, sk string) string {
	inferred := s.inferred(pk, sk) // a declared key is remembered too: it names the others
	if s.declared != nil {
		if name, ok := s.declared(pk, sk); ok {
			return name
		}
	}
	return inferred
}

// inferred remembers sort key sk under partition pk and names it as the
// keys seen of the partition name it.
func (s *SeenNames) inferred(pk, sk string) string {
	ks, known := s.keys[pk]
	i, found := slices.BinarySearchFunc(ks, sk, func(a, b string) int { return CompareKeys(a, b, s.keyType) })
	if !found && len(ks) < SeenKeys && (known || len(s.keys) < SeenPartitions) {
		s.keys[pk] = slices.Insert(ks, i, sk)
		// A further key of a prefix type already named, under the same
		// delimiter, changes no name (a prefix type's name does not depend
		// on its keys); any other key may (the delimiter inferred, a value
		// run's shape, a fold, a clash), so the names are made again.
		n, cached := s.names[pk]
		if g, ok := n.Group(sk); !cached || !ok || g.Kind != KindLabel || g.Exact || g.Bare ||
			s.delim == "" && InferDelimiter(s.keys[pk]) != n.delim {
			delete(s.names, pk)
		}
	}
	n, ok := s.names[pk]
	if !ok {
		n = NamesOfKeys(pk, s.keys[pk], s.keyType, s.delim)
		if _, kept := s.keys[pk]; kept {
			s.names[pk] = n // past SeenPartitions, neither keys nor names are kept
		}
	}
	return n.Name(sk)
}
