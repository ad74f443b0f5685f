package keys

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// One name per group. Classify names a key by its label alone, so keys a
// migration left side by side ("ORDER#1" and "ORDER|2023-05-01|18c1") are
// two groups both called ORDER, and so are "#META#x" and "META#x", or a
// key "ORDER" that no neighbour folds (FoldBare) beside "ORDER#1".
// Whoever reads a name (the UI's rows, groups' text and JSON, the layout,
// a Workbench facet) must be able to tell them apart, so every function
// here that returns a partition's groups ends with UniqueNames: the group
// a practitioner means by the plain name keeps it, each other one is named
// by its prefix ("ORDER|", "#META#"). Groups are told apart by ID, which
// does not depend on the name, so a renamed group still merges with the
// keys of a later page.

// UniqueNames renames groups of one partition (in any order) so that no
// two share an Entity. Of the groups one name would fit, it stays with the
// prefix type whose delimiter comes first in Delimiters (the one
// InferDelimiter prefers: ORDER# over ORDER| and ORDER/; one of the user's
// own after those), then a value group, then an exact type, then a type that starts with a delimiter or
// has no delimiter at its end; each other is named by its prefix
// ("ORDER|", "#META#"), an exact type whose prefix is its name as
// "NAME (exact)", and anything still taken gets a number ("hex id (2)").
// A name UniqueNames gave before is undone first (ownName), so a group
// renamed for a clash that a fold has since removed gets its name back.
// The result does not depend on the groups' order; groups is not modified.
func UniqueNames(groups []Group) []Group {
	out := slices.Clone(groups)
	names := make([]string, len(out))
	for i, g := range out {
		names[i] = ownName(g)
	}
	for i, n := range uniqueNames(out, names) {
		out[i].Entity = n
	}
	return out
}

// uniqueNames is UniqueNames on the groups' names given apart, for callers
// whose types are not Groups (the layout's).
func uniqueNames(groups []Group, names []string) []string {
	out := slices.Clone(names)
	holders := map[string][]int{}
	for i, n := range names {
		holders[n] = append(holders[n], i)
	}
	taken := make(map[string]bool, len(holders))
	var shared []string
	for n, at := range holders {
		taken[n] = true
		if len(at) > 1 {
			shared = append(shared, n)
		}
	}
	sort.Strings(shared)
	for _, n := range shared {
		at := holders[n]
		sort.Slice(at, func(a, b int) bool {
			ga, gb := groups[at[a]], groups[at[b]]
			if ra, rb := nameRank(ga), nameRank(gb); ra != rb {
				return ra < rb
			}
			if ga.Prefix != gb.Prefix {
				return ga.Prefix < gb.Prefix
			}
			return ga.First < gb.First
		})
		for _, i := range at[1:] {
			alt := otherName(groups[i], n)
			for k := 2; alt == "" || taken[alt]; k++ {
				alt = fmt.Sprintf("%s (%d)", n, k)
			}
			taken[alt] = true
			out[i] = alt
		}
	}
	return out
}

// nameRank orders the groups one name fits: the lowest keeps it.
func nameRank(g Group) int {
	switch {
	case g.Kind == KindValue:
		return len(Delimiters) + 1
	case g.Exact:
		return len(Delimiters) + 2
	case g.Prefix == "" || leadingDelimiter(g.Prefix) != "":
		return len(Delimiters) + 3
	}
	for i, d := range Delimiters {
		if strings.HasSuffix(g.Prefix, d) {
			return i
		}
	}
	return len(Delimiters) // a delimiter of the user's own (--delimiter "~")
}

// otherName is what a group that does not keep name is called instead; ""
// when only a number tells it apart.
func otherName(g Group, name string) string {
	switch {
	case g.Kind == KindValue:
		return ""
	case g.Prefix != "" && g.Prefix != name:
		return g.Prefix
	case g.Exact:
		return name + " (exact)"
	}
	return ""
}

// ownName is a group's name before UniqueNames renamed it: a prefix type
// named by its prefix ("ORDER|", "#META#") or numbered is its label again,
// an exact type "X (exact)" or numbered is X, a value group numbered ("hex
// id (2)") its shape. A key that happens to read "X (2)" keeps its name:
// only what UniqueNames could have made of the group's own label or shape
// is undone. FoldIDs can turn the exact type a prefix type clashed with
// into an id; without this, the prefix type kept the prefix it was named by.
func ownName(g Group) string {
	var own []string // what the group is called before any renaming
	switch {
	case g.Kind == KindValue:
		if i := strings.LastIndex(g.Entity, " ("); i > 0 && isShape(g.Entity[:i]) && numbered(g.Entity, g.Entity[:i]) {
			return g.Entity[:i]
		}
		return g.Entity
	case g.Exact:
		own = []string{g.Prefix, strings.TrimPrefix(g.Prefix, leadingDelimiter(g.Prefix))}
	default:
		b := bareOf(g)
		if b == "" {
			return g.Entity
		}
		own = []string{strings.TrimPrefix(b, leadingDelimiter(b))}
	}
	for _, n := range own {
		switch {
		case g.Entity == n,
			!g.Exact && g.Entity == g.Prefix,
			g.Exact && g.Entity == n+" (exact)",
			numbered(g.Entity, n) || !g.Exact && numbered(g.Entity, g.Prefix):
			return n
		}
	}
	return g.Entity
}

// numbered tells whether name is base with the number UniqueNames adds ("hex id (2)").
func numbered(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base+" (")
	if !ok {
		return false
	}
	d, ok := strings.CutSuffix(rest, ")")
	return ok && d != "" && isDigits(d)
}

// ValueGroupName tells whether name is one a value group is given (its
// keys' shape: "timestamp", "uuid", "NUMBER", "hex id (2)"): such a group
// has no literal prefix to select its keys by.
func ValueGroupName(name string) bool {
	if isShape(name) {
		return true
	}
	if i := strings.LastIndex(name, " ("); i > 0 {
		return isShape(name[:i]) && numbered(name, name[:i])
	}
	return false
}

// isShape tells a value group's own name: a shape, numbers, binary, names.
func isShape(n string) bool {
	switch n {
	case ShapeTimestamp, ShapeDate, ShapeEpochSecond, ShapeEpochMilli, ShapeNumber, ShapeUUID, ShapeULID,
		ShapeKSUID, ShapeHex, ShapeValue, ShapeNanoID, ShapeName, ShapeVersion, ShapeNumbered, NumberEntity, BinaryEntity:
		return true
	}
	return false
}
