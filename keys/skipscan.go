package keys

// SkipPast returns where a forward skip-scan resumes after finding sortKey: the next Query uses SK >= start when inclusive, SK > start otherwise.
//
// Skip-scan finds the entity types of a partition with one Limit 1 Query per
// type: the first Query has no sort-key condition, and each later one starts
// from SkipPast of the key the previous one returned. This visits exactly the
// (Entity, Prefix) groups that GroupSortKeys gives over the whole partition,
// in the same order, because every type is one contiguous run of keys (see the
// package doc) and the start lands just after that run:
//
//   - A key with the delimiter belongs to a prefix type ("ORDER#..." is
//     "ORDER#"). start is NextValidPrefix of that prefix ("ORDER$"), inclusive:
//     the smallest valid string after every key of the type, so no key of
//     another type is jumped over. "ORDER" and "ORDERS#1" are other types, and
//     they sort before "ORDER#" and at or after "ORDER$" respectively.
//   - A key without the delimiter (or any key when delim is empty) is a type
//     of its own ("PROFILE"); start is the key itself, exclusive. The next key
//     may be as close as "PROFILE#1" or "PROFILE\x00", so no inclusive start
//     exists short of appending U+0000, and "SK > key" needs no assumption
//     about which characters DynamoDB accepts in a key value.
//
// ok is false when no key can follow the type, so the scan is complete; that
// happens only for a prefix made of U+10FFFF (or of bytes no valid key
// reaches). Sort keys of type N or B have no types to skip between.
//
// Going backwards (ScanIndexForward=false) needs no helper: every key before a
// type's run sorts before its prefix (for an exact type, before the key), so
// the next Query is SK < prefix, with prefix from EntityType.
func SkipPast(sortKey, delim string) (start string, inclusive, ok bool) {
	_, prefix, found := cut(sortKey, delim)
	if !found {
		return sortKey, false, true
	}
	start, ok = NextValidPrefix(prefix)
	return start, true, ok
}
