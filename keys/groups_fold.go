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
	out := make([]Group, 0, len(groups))
	for _, g := range groups {
		n := len(out)
		switch {
		case n > 0 && foldsInto(out[n-1], g): // the bare key came first (forward)
			e := out[n-1]
			g.First, g.Bare, g.Count = e.First, true, addCounts(e.Count, g.Count)
			out[n-1] = g
		case n > 0 && foldsInto(g, out[n-1]) && !out[n-1].Bare: // it came last (reverse)
			out[n-1].Last, out[n-1].Bare, out[n-1].Count = g.Last, true, addCounts(g.Count, out[n-1].Count)
		default:
			out = append(out, g)
		}
	}
	return UniqueNames(out)
}

func addCounts(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}
