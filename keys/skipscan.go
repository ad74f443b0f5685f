package keys

// ValueRunStart and ValueRunEnd bound the value group: every key that starts
// with a digit sorts at or after ValueRunStart and before ValueRunEnd.
const (
	ValueRunStart = "0"
	ValueRunEnd   = ":"
)

// SkipPast returns where a forward skip-scan resumes after finding sortKey: the next Query uses SK >= start when inclusive, SK > start otherwise.
//
// Skip-scan finds the groups of a partition with one Limit 1 Query per group
// (and one more for a range's last key): the first Query has no sort-key
// condition, and each later one starts from SkipPast of the key the previous
// one returned. This visits exactly the groups GroupSortKeys gives over the
// whole partition, in the same order, because every group is one contiguous
// run of keys (see the package doc) and the start lands just after that run:
//
//   - A value (a key starting with a digit): start is ValueRunEnd (":"),
//     inclusive, the byte after '9'. However many timestamps the partition
//     holds, one request jumps past them all.
//   - A prefix type ("ORDER#..."): start is NextValidPrefix of the prefix
//     ("ORDER$"), inclusive: the smallest valid string after every key of
//     the type, so no key of another type is jumped over.
//   - An exact type ("PROFILE"): start is the key itself, exclusive. The next
//     key may be as close as "PROFILE#1" or "PROFILE\x00", so no inclusive
//     start exists short of appending U+0000, and "SK > key" needs no
//     assumption about which characters DynamoDB accepts in a key value.
//
// ok is false when no key can follow the group, so the scan is complete; that
// happens only for a prefix made of U+10FFFF (or of bytes no valid key
// reaches). Sort keys of type N or B have no groups to skip between.
func SkipPast(sortKey, delim string) (start string, inclusive, ok bool) {
	c := Classify(sortKey, delim)
	switch {
	case c.Kind == KindValue:
		return ValueRunEnd, true, true
	case c.Exact:
		return sortKey, false, true
	}
	start, ok = NextValidPrefix(c.Prefix)
	return start, true, ok
}

// SkipBefore returns where a backward skip-scan (ScanIndexForward=false) resumes after finding sortKey: the next Query uses SK < bound.
//
// Every key before a group's run sorts before its lowest possible key: "0"
// for the value group, the prefix for a prefix type, the key for an exact type.
func SkipBefore(sortKey, delim string) string {
	c := Classify(sortKey, delim)
	switch {
	case c.Kind == KindValue:
		return ValueRunStart
	case c.Exact:
		return sortKey
	}
	return c.Prefix
}
