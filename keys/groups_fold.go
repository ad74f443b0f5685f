package keys

import (
	"slices"
	"strings"
)

// A bare label and the same label with a suffix ("METADATA" and
// "METADATA#v1", "TYPES" and "TYPES#v2") are one entity type to whoever
// wrote them: a version or detail added later. Classify sees one key at a
// time and calls the first an exact type, so the groups are folded
// afterwards: an exact group right beside (in DynamoDB's order) the prefix
// group of its label and a delimiter joins it, and the group is Bare. Only
// neighbours fold, because only then are the two one contiguous run of keys,
// which a BETWEEN of the group's ends selects and a skip-scan walks past.

// BareLabel is the exact key a prefix group folds in: its prefix without
// the delimiter that ends it ("METADATA" of "METADATA#"); "" when none can.
func BareLabel(g Group) string { return bareOf(g) }

func bareOf(g Group) string {
	if g.Kind != KindLabel || g.Exact || g.Entity == "" {
		return ""
	}
	// Read from the prefix alone, as the name may be UniqueNames' ("ORDER|"):
	// Delimiters lists "::" before ":", so the first that ends the prefix is
	// the one that ends its label; a prefix that is delimiters only ("##")
	// has no bare label.
	for _, d := range Delimiters {
		if b, ok := strings.CutSuffix(g.Prefix, d); ok {
			if b == "" || slices.Contains(Delimiters, b) {
				return ""
			}
			return b
		}
	}
	return ""
}

// foldsInto tells whether exact group e folds into prefix group p.
func foldsInto(e, p Group) bool {
	return e.Kind == KindLabel && e.Exact && bareOf(p) != "" && e.Prefix == bareOf(p)
}

// FoldBare folds each exact group into the prefix group of its label next
// to it (see above); groups are in DynamoDB's order, forward or reverse.
// The folded group keeps the prefix group's Entity and Prefix and is Bare;
// its count is the sum (unknown, -1, when either is); its First and Last
// are the run's ends. groups is not modified.
func FoldBare(groups []Group) []Group {
	return UniqueNames(groupsOf(foldBareRows(rowsOf(groups))))
}

// foldBareRows is FoldBare on an entity table's rows, which fold what they
// hold besides: the folded row holds the bare label's items and finds its
// keys (Aliases).
func foldBareRows(rows []TypeRow) []TypeRow {
	out := make([]TypeRow, 0, len(rows))
	for _, r := range rows {
		n := len(out)
		switch {
		case n > 0 && foldsInto(out[n-1].Group, r.Group): // the bare key came first (forward)
			e := out[n-1]
			r.First = e.First
			out[n-1] = withBare(r, e)
		case n > 0 && foldsInto(r.Group, out[n-1].Group) && !out[n-1].Bare: // it came last (reverse)
			out[n-1].Last = r.Last
			out[n-1] = withBare(out[n-1], r)
		default:
			out = append(out, r)
		}
	}
	return out
}

// withBare is prefix row p holding exact row e, its bare label, too. p
// keeps its own Discovered: the end of the run a skip-scan found is p's.
func withBare(p, e TypeRow) TypeRow {
	p.Bare, p.Count = true, addCounts(e.Count, p.Count)
	p.Aliases = append(append(slices.Clip(p.Aliases), e.ID()), e.Aliases...)
	p.Loaded += e.Loaded
	p.Bytes += e.Bytes
	p.AtLeast += e.AtLeast
	p.Libraries = addLibraries(p.Libraries, e.Libraries)
	return p
}

// addLibraries is have with each of more it does not hold yet, in order.
func addLibraries(have, more []LibraryEntity) []LibraryEntity {
	for _, l := range more {
		if !slices.Contains(have, l) {
			have = append(slices.Clip(have), l)
		}
	}
	return have
}

// foldRows applies the naming rules to rows in DynamoDB's order: bare
// labels folded into their prefix types, runs of ids into one value type,
// and one name each. A prefix row whose run a skip-scan found ending at its
// bare label holds it, however the two met (a walk's end, a page merged).
func foldRows(pk string, rows []TypeRow) []TypeRow {
	rows = foldIDRows(pk, foldBareRows(rows))
	gs := groupsOf(rows)
	for i, g := range UniqueNames(gs) {
		rows[i].Entity = g.Entity
		if b := bareOf(g); b != "" && (g.First == b || g.Last == b) {
			rows[i].Bare = true
		}
	}
	return rows
}

// rowsOf and groupsOf turn groups into rows holding nothing else, and rows
// back into their groups.
func rowsOf(groups []Group) []TypeRow {
	out := make([]TypeRow, len(groups))
	for i, g := range groups {
		out[i].Group = g
	}
	return out
}

func groupsOf(rows []TypeRow) []Group {
	out := make([]Group, len(rows))
	for i, r := range rows {
		out[i] = r.Group
	}
	return out
}

func addCounts(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}
