// Package keys is the pure logic on DynamoDB key values that single-table design
// relies on: which delimiter a partition uses, which entity type a sort key
// belongs to, and the key ranges that let a skip-scan find every entity type of a
// partition with a few small Queries.
//
// One classifier. Classify decides, for a sort key and the partition's
// delimiter d, which group the key belongs to; GroupSortKeys, the skip-scan
// (SkipPast, SkipBefore), the layout overview and the UI all use it, so one
// partition has one set of names everywhere. A group is one of:
//
//   - A value group: every key that starts with a digit. Such a key is data
//     (a timestamp, date, number, epoch, ULID, KSUID, or a UUID or hex id that
//     happens to start with a digit), never a label, and the ":" or "-" inside
//     it is not a delimiter. The group is named by the shape of its first and
//     last key (see RunName): "timestamp", "number", ...
//   - A prefix type: a key that contains d after a label ("ORDER#2025-03-01#A17"
//     is ("ORDER", "ORDER#")). A key that starts with d is named by the label
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
// seen).
//
// What is not a value group: a UUID or hex id that starts with a letter, or a
// name-like id ("arvinje"), is an exact type. Such keys interleave with labels
// that start with the same letters ("a1b2..." and "address#"), so no key
// range holds them alone and no BETWEEN could select them; the skip-scan's
// budget bounds what they cost.
//
// It imports nothing of dynascope's: dynamo, the UI and the command line all
// build on it, and it sends no request.
package keys

import "strings"

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
	return c.Entity + "\x00" + c.Prefix
}

// Classify returns the group a string sort key belongs to under delimiter delim; see the package doc.
func Classify(sortKey, delim string) Class {
	if sortKey != "" && isDigit(sortKey[0]) {
		return Class{Kind: KindValue, Entity: RunName(sortKey, sortKey)}
	}
	exact := Class{Kind: KindLabel, Entity: sortKey, Prefix: sortKey, Exact: true}
	if delim == "" {
		return exact
	}
	if rest, ok := strings.CutPrefix(sortKey, delim); ok {
		if strings.HasPrefix(rest, delim) {
			return Class{Kind: KindLabel, Prefix: delim + delim}
		}
		if i := strings.Index(rest, delim); i >= 0 {
			return Class{Kind: KindLabel, Entity: rest[:i], Prefix: sortKey[:len(delim)+i+len(delim)]}
		}
		if rest != "" {
			exact.Entity = rest // "#ROOT" is ROOT, the key still its prefix
		}
		return exact
	}
	if i := strings.Index(sortKey, delim); i >= 0 {
		return Class{Kind: KindLabel, Entity: sortKey[:i], Prefix: sortKey[:i+len(delim)]}
	}
	return exact
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
