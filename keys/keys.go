// Package keys is the pure logic on DynamoDB key values that single-table design
// relies on: which delimiter a partition uses, which entity type a sort key
// belongs to, and the key ranges that let a skip-scan find every entity type of a
// partition with a few small Queries.
//
// One classifier, one entity table. Classify decides, for a sort key (its
// own delimiter, the partition's delimiter d breaking ties), which group the
// key belongs to; GroupSortKeys, the skip-scan (SkipPast, SkipBefore), the
// layout overview and the UI all use it. A partition's entity types, with
// their names, counts, ends and how each was found, are its EntityTable
// (entitytable.go): `groups` fills one from a skip-scan or a whole read, the
// UI's types pane from its pages, the skip-scan and its counts, and a
// single key is named by its partition's types through Names (names_of.go,
// from a table of the keys in hand; a stream's records through SeenNames),
// so one partition has one set of names everywhere. A group is one of:
//
//   - A value group: every key that starts with a digit. Such a key is data
//     (a timestamp, date, number, epoch, ULID, KSUID, or a UUID or hex id that
//     happens to start with a digit), never a label, and the ":" or "-" inside
//     it is not a delimiter. The group is named by the shape of its first and
//     last key (see RunName): "timestamp", "number", ...
//   - A prefix type: a key that contains a delimiter after a label
//     ("ORDER#2025-03-01#A17" is ("ORDER", "ORDER#"), "ORDER|2023|7" is
//     ("ORDER", "ORDER|") in the same partition: d below is the first
//     delimiter after the label, see Classify). A key that starts with d is named by the label
//     after it ("#METADATA#x" is ("METADATA", "#METADATA#")); a key that starts
//     with d twice is the type ("", d+d).
//   - An exact type: a key without d (after a leading one) is a type of its
//     own, made of that exact value: "PROFILE" is ("PROFILE", "PROFILE"),
//     "#ROOT" is ("ROOT", "#ROOT").
//
// Why each group is one contiguous run of sort keys, so that skip-scan visits
// the same groups, in the same order, as GroupSortKeys over the whole
// partition:
//
//   - The value group is the set of keys whose first byte is '0'..'9', and
//     strings with a first byte in one range of bytes are contiguous in byte
//     order: they all sort at or after "0" and before ":".
//   - A prefix type P = E+d (E not starting with d or a digit, holding no d)
//     is exactly the set of keys that start with P. A key starting with P
//     starts neither with a digit nor with d (P does not), and its first d
//     ends at len(P): an earlier one would start inside E and so lie inside
//     P, whose first d is at len(E). For P = d+E+d the same holds of the text
//     after the leading d (E+d does not start with d, since the key it came
//     from did not), and d+d is every key starting with d+d. Keys that share
//     a prefix are contiguous.
//   - An exact type is a single value.
//
// Two different groups never share a key since Classify is a function, and
// groups are told apart by ID, not by name ("PROFILE" and "PROFILE#1" share an
// Entity but not a Prefix; the value group's name can change as more keys are
// seen). Names are made unique last (UniqueNames, names.go): "ORDER#…" and
// "ORDER|…" are ORDER and ORDER|.
//
// What is not a value group to Classify: a UUID or hex id that starts with a letter, or a
// name-like id ("arvinje"), is an exact type (FoldIDs, ids.go, makes them
// value groups where the keys are in hand). Such keys interleave with labels
// that start with the same letters ("a1b2..." and "address#"), so no key
// range holds them alone and no BETWEEN could select them; the skip-scan's
// budget bounds what they cost.
//
// It imports nothing of dynascope's: dynamo, the UI and the command line all
// build on it, and it sends no request.
package keys

import (
	"slices"
	"strings"
)

// Delimiters are the separators single-table designs use, in the order InferDelimiter prefers them.
// Multi-character ones come before the single character they are made of, so
// "a::b" splits at "::".
var Delimiters = []string{"#", "::", "||", "__", "|", ":", "/"}

// InferDelimiter returns the first of Delimiters that some label-led sort key uses after a label, or "#" when none does.
//
// Keys that start with a digit are values, so the ":" of a timestamp never
// counts. Preference beats frequency because ":" and "/" also turn up inside
// values after a label ("ORDER#2025-03-01T10:00"), while "#" almost only ever
// separates. The "#" fallback lets keys like "PROFILE" still group as themselves.
func InferDelimiter(sortKeys []string) string {
	for _, d := range Delimiters {
		for _, k := range sortKeys {
			if k == "" || isDigit(k[0]) {
				continue
			}
			rest := strings.TrimPrefix(k, d)
			if strings.Index(rest, d) > 0 {
				return d
			}
		}
	}
	return "#"
}

// Kind tells a label type from a value group.
type Kind string

// The two kinds of group.
const (
	KindLabel Kind = "label" // a prefix or exact type: PROFILE, ORDER#
	KindValue Kind = "value" // data: timestamps, numbers, ids; also numeric and binary sort keys
)

// Class is the group one sort key belongs to.
type Class struct {
	Kind   Kind
	Entity string // "ORDER", "METADATA", "PROFILE"; for a value, the shape of this key
	Prefix string // what begins_with selects a prefix type by; the key for an exact type; "" for a value
	Exact  bool   // a label type that is this one key value
}

// ID tells groups apart: two keys are in one group exactly when their IDs are equal.
func (c Class) ID() string {
	if c.Kind == KindValue {
		return "\x00value"
	}
	// The prefix alone tells label types apart (under one delimiter it
	// decides the entity), so a group UniqueNames renamed keeps its ID; the
	// first byte keeps exact and prefix types apart.
	if c.Exact {
		return "=" + c.Prefix
	}
	return "^" + c.Prefix
}

// Classify returns the group a string sort key belongs to; see the package doc.
//
// The delimiter is read from the key itself: the first of Delimiters found
// after its label, so that "ORDER#1", "ORDER|2023-05-01|18c1" and
// "order/7", as a migration leaves them side by side, are three label types
// with their own prefixes rather than one type and many exact ones. delim,
// the partition's delimiter, only breaks a tie where two delimiters start at
// the same byte (":" and "::"): it wins if it is one of them, else the
// shorter does, so a prefix type is still every key starting with its
// prefix. A delim outside Delimiters (--delimiter "~") counts as one too.
// "" reads every key as an exact type.
func Classify(sortKey, delim string) Class {
	if sortKey != "" && isDigit(sortKey[0]) {
		return Class{Kind: KindValue, Entity: RunName(sortKey, sortKey)}
	}
	exact := Class{Kind: KindLabel, Entity: sortKey, Prefix: sortKey, Exact: true}
	if delim == "" {
		return exact
	}
	if lead := delimiterAt(sortKey, 0, delim); lead != "" {
		rest := sortKey[len(lead):]
		if strings.HasPrefix(rest, lead) {
			return Class{Kind: KindLabel, Prefix: lead + lead}
		}
		if i, d := firstDelimiter(rest, delim); i >= 0 {
			return Class{Kind: KindLabel, Entity: rest[:i], Prefix: sortKey[:len(lead)+i+len(d)]}
		}
		if rest != "" {
			exact.Entity = rest // "#ROOT" is ROOT, the key still its prefix
		}
		return exact
	}
	if i, d := firstDelimiter(sortKey, delim); i >= 0 {
		return Class{Kind: KindLabel, Entity: sortKey[:i], Prefix: sortKey[:i+len(d)]}
	}
	return exact
}

// firstDelimiter finds the first byte of k where one of Delimiters starts,
// and which one (see delimiterAt); -1 when none does.
func firstDelimiter(k, hint string) (int, string) {
	for i := 0; i < len(k); i++ {
		if d := delimiterAt(k, i, hint); d != "" {
			return i, d
		}
	}
	return -1, ""
}

// delimiterAt returns the delimiter that starts at byte i of k ("" for
// none). hint, the partition's delimiter, wins where it starts; else the
// shortest of Delimiters does, leaving out those hint starts with (":" under
// "::"), so that a prefix type is every key that starts with its prefix:
// "a:" holds "a::b" too, as begins_with does, and under "::" a lone ":" is
// no delimiter. A hint outside Delimiters (--delimiter "~") is the only one.
func delimiterAt(k string, i int, hint string) string {
	if strings.HasPrefix(k[i:], hint) {
		return hint
	}
	if !slices.Contains(Delimiters, hint) {
		return ""
	}
	best := ""
	for _, d := range Delimiters {
		if strings.HasPrefix(k[i:], d) && !strings.HasPrefix(hint, d) && (best == "" || len(d) < len(best)) {
			best = d
		}
	}
	return best
}

// KeyDelimiters are the delimiters Classify splits keys at under the
// partition's delimiter hint: hint, and the others of Delimiters it does not
// start with (only hint when it is none of them).
func KeyDelimiters(hint string) []string {
	if !slices.Contains(Delimiters, hint) {
		return []string{hint}
	}
	out := []string{hint}
	for _, d := range Delimiters {
		if d != hint && !strings.HasPrefix(hint, d) {
			out = append(out, d)
		}
	}
	return out
}

// EntityType returns a sort key's entity name and the prefix a begins_with query for its type uses ("" for a value).
//
// "ORDER#2025-03-01#A17" gives ("ORDER", "ORDER#"); "#METADATA#x" gives
// ("METADATA", "#METADATA#"); a key without the delimiter is its own type
// ("PROFILE" gives "PROFILE", "PROFILE"); "2024-03-01T10:00:00Z" gives
// ("timestamp", "").
func EntityType(sortKey, delim string) (entity, prefix string) {
	c := Classify(sortKey, delim)
	return c.Entity, c.Prefix
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
