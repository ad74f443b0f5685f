package benchdata

import "dynascope/keys"

// SameTypes tells whether a skip-scan's groups are a full read's: the same
// names, prefixes and kinds in the same order, and every end the skip-scan
// read the full read's (an end it did not read is "").
func SameTypes(got, full []keys.Group) bool {
	if len(got) != len(full) {
		return false
	}
	for i, g := range got {
		f := full[i]
		if g.Entity != f.Entity || g.Prefix != f.Prefix || g.Kind != f.Kind || g.Exact != f.Exact ||
			g.First != "" && g.First != f.First || g.Last != "" && g.Last != f.Last {
			return false
		}
	}
	return true
}
