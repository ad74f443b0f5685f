// Package keys is the pure logic on DynamoDB key values that single-table design
// relies on: which delimiter a table uses, which entity type a sort key belongs
// to, and the key ranges that let a skip-scan find every entity type of a
// partition with one small Query per type.
//
// Entity types. With delimiter d, a sort key that contains d belongs to the
// type (Entity, Prefix) = (text before the first d, that text plus d):
// "ORDER#2025-03-01#A17" is ("ORDER", "ORDER#"). A key without d is a type of
// its own, made of that exact value: "PROFILE" is ("PROFILE", "PROFILE"). So
// "PROFILE" and "PROFILE#1" are two types that share an Entity name but not a
// Prefix, and callers must tell groups apart by (Entity, Prefix). The two kinds
// never collide: a prefix type has Prefix = Entity+d, an exact type has
// Prefix = Entity.
//
// Why a type is one contiguous run of sort keys: a string has prefix E+d
// exactly when its first d ends there (an earlier d would lie inside E+d, and E
// has none), so a prefix type is precisely the set of strings that start with
// E+d, and such strings are contiguous in byte order. An exact type is a single
// value. Both facts make skip-scan (see SkipPast) visit the same types, in the
// same order, as GroupSortKeys over the whole partition.
package keys

import "strings"

// Delimiters are the separators single-table designs use, in the order InferDelimiter prefers them.
var Delimiters = []string{"#", "|", ":", "/"}

// InferDelimiter returns the first of Delimiters that appears in any sort key, or "#" when none does.
//
// Preference beats frequency because ":" and "/" also turn up inside values
// (timestamps, paths: "ORDER#2025-03-01T10:00"), while "#" almost only ever
// separates. The "#" fallback lets keys like "PROFILE" still group as themselves.
func InferDelimiter(sortKeys []string) string {
	for _, d := range Delimiters {
		for _, k := range sortKeys {
			if strings.Contains(k, d) {
				return d
			}
		}
	}
	return "#"
}

// EntityType returns a sort key's entity type and the prefix a begins_with query for that type uses.
//
// "ORDER#2025-03-01#A17" gives ("ORDER", "ORDER#"); a key without the
// delimiter is its own type ("PROFILE" gives "PROFILE", "PROFILE"), and so is
// every key when delim is empty.
func EntityType(sortKey, delim string) (entity, prefix string) {
	entity, prefix, _ = cut(sortKey, delim)
	return entity, prefix
}

// cut is EntityType that also reports whether the delimiter was found, which
// decides between a prefix type (a range of keys) and an exact type (one value).
func cut(sortKey, delim string) (entity, prefix string, found bool) {
	if delim == "" {
		return sortKey, sortKey, false
	}
	i := strings.Index(sortKey, delim)
	if i < 0 {
		return sortKey, sortKey, false
	}
	return sortKey[:i], sortKey[:i+len(delim)], true
}
