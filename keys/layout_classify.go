package keys

// Classifying single keys: which family a partition key belongs to, which
// type a sort key is, and the shapes of key text those decisions rest on.
// The rules are described at the top of layout.go.

import (
	"bytes"
	"encoding/base64"
	"math/big"
	"strings"
	"unicode"
)

// partitionFamily classifies one partition key; see the notes at the top.
func partitionFamily(pk, pkType string) familyID {
	if pkType == "N" || pkType == "B" {
		return catchAll(pkType)
	}
	if d := leadingDelimiter(pk); d != "" {
		if id := partitionFamily(pk[len(d):], pkType); id.entity != NoPrefixEntity {
			id.pattern, id.prefix = d+id.pattern, d+id.prefix
			return id
		}
	}
	if k, ok := ParseElectroDBPK(pk); ok {
		entity := "$" + k.Service
		if k.Entity != "" {
			entity = k.Entity // an index without sort key: the key names the entity
		}
		return familyID{pattern: k.Template(), entity: entity, prefix: k.Prefix, exact: len(k.Facets) == 0}
	}
	if d := keyDelimiter(pk); d != "" {
		if id, ok := idLedFamily(pk, d, pkType); ok {
			return id
		}
		entity, prefix := EntityType(pk, d)
		return familyID{pattern: prefix + "*", entity: entity, prefix: prefix}
	}
	if stem, ok := labelNumber(pk); ok {
		return familyID{pattern: stem + "*", entity: trimSep(stem), prefix: stem}
	}
	if nameLike(pk) {
		return familyID{pattern: pk, entity: pk, prefix: pk, exact: true}
	}
	return catchAll("S")
}

// idLedFamily classifies a key whose first segment is an id ("wLnnMe1XFv
// AleTXmDPSCv#ATTENDEES": a nanoid, a UUID, a ULID) by what follows it: the
// id is the varying part, so the family is "*#ATTENDEES" of entity
// "ATTENDEES" with no fixed prefix (no begins_with serves it), not one
// family per id.
func idLedFamily(pk, d, pkType string) (familyID, bool) {
	i := strings.Index(pk, d)
	head, rest := pk[:i], pk[i+len(d):]
	switch IDShape(head) {
	case "", ShapeNumbered, ShapeVersion: // "user42#…", "WARNING1#…": a label's number
		return familyID{}, false
	}
	if rest == "" {
		return familyID{}, false
	}
	id := partitionFamily(rest, pkType)
	if id.entity == NoPrefixEntity {
		return familyID{pattern: "*" + d + "*", entity: NoPrefixEntity}, true
	}
	return familyID{pattern: "*" + d + id.pattern, entity: id.entity}, true
}

// FamilyEntity is the entity of partition key pk's family, as the layout
// names it ("CUST" of CUST#42, "user" of user42, NoPrefixEntity for an id).
func FamilyEntity(pk, pkType string) string { return partitionFamily(pk, pkType).entity }

// valueType is the typeID.entity of a family's value group until it is named.
const valueType = "\x00value"

// sortKeyType types one sort key: an ElectroDB key by its entity, any other
// by Classify under its partition's delimiter. exact is a label type that is
// one key value.
func sortKeyType(sk, skType, delim string, lib LibraryEntity) (id typeID, exact bool) {
	if skType == "S" && strings.HasPrefix(sk, "$") {
		if k, ok := ParseElectroDBSK(sk, lib); ok {
			return typeID{entity: k.Entity, prefix: k.head()}, false
		}
	}
	c := ClassifyTyped(sk, skType, delim)
	switch {
	case skType == "N" || skType == "B":
		return typeID{entity: c.Entity}, false
	case c.Kind == KindValue || c.Exact && IDShape(sk) != "":
		// A letter-led id ("a5f0…", a UUID from a to f) is data like a
		// digit-led one: the sample holds the keys, so they are one group.
		return typeID{entity: valueType}, false
	}
	return typeID{entity: c.Entity, prefix: c.Prefix}, c.Exact
}

// partitionDelimiters infers each partition's delimiter from its own sort keys.
func partitionDelimiters(in LayoutInput) map[string]string {
	sks := map[string][]string{}
	for _, it := range in.Items {
		sks[it.PK] = append(sks[it.PK], it.SK)
	}
	out := make(map[string]string, len(sks))
	for pk, ks := range sks {
		out[pk] = InferDelimiter(ks)
	}
	return out
}

// leadingDelimiter returns the delimiter a key starts with, if the key goes
// on with something else.
func leadingDelimiter(k string) string {
	for _, d := range Delimiters {
		if strings.HasPrefix(k, d) && len(k) > len(d) && !strings.HasPrefix(k[len(d):], d) {
			return d
		}
	}
	return ""
}

// keyDelimiter returns the delimiter that structures a key: the first of
// Delimiters in it (of two starting there, "::" and ":", the longer), provided the text before it is a label (it starts with a
// letter, "$" or "_"). "ORDER#2025-03-01T10:00" gives "#"; "2025-03-01T10:00"
// gives "" although it holds ":", because a value, not a label, comes first.
func keyDelimiter(k string) string {
	i := strings.IndexAny(k, strings.Join(Delimiters, ""))
	if i <= 0 {
		return ""
	}
	r := []rune(k[:i])[0]
	if !unicode.IsLetter(r) && r != '$' && r != '_' {
		return ""
	}
	for _, d := range Delimiters { // the longest first: "pass::0007" is "pass::*"
		if strings.HasPrefix(k[i:], d) {
			return d
		}
	}
	return k[i : i+1]
}

// labelNumber recognises "user42" or "user-42": a label (starting with a
// letter, no digits) and then only digits. It returns the label with its
// separator, "user" or "user-".
func labelNumber(k string) (string, bool) {
	i := strings.IndexFunc(k, unicode.IsDigit)
	if i <= 0 || !unicode.IsLetter([]rune(k)[0]) || !isDigits(k[i:]) {
		return "", false
	}
	return k[:i], true
}

func trimSep(stem string) string {
	if t := strings.TrimRight(stem, "-_. "); t != "" {
		return t
	}
	return stem
}

// nameLike tells a key that names something ("PROFILE", "Global config") from
// a value: only letters, spaces and - _ . $, and at least one letter.
func nameLike(k string) bool {
	letter := false
	for _, r := range k {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case r == ' ' || r == '-' || r == '_' || r == '.' || r == '$':
		default:
			return false
		}
	}
	return letter
}

// CompareKeys orders two key values as DynamoDB does: strings by UTF-8 bytes,
// numbers numerically, binary (given as base64) by unsigned bytes. Text that
// does not parse as its type compares as a string.
func CompareKeys(a, b, keyType string) int {
	switch keyType {
	case "N":
		x, okx := new(big.Float).SetPrec(256).SetString(a)
		y, oky := new(big.Float).SetPrec(256).SetString(b)
		if okx && oky {
			return x.Cmp(y)
		}
	case "B":
		x, errx := base64.StdEncoding.DecodeString(a)
		y, erry := base64.StdEncoding.DecodeString(b)
		if errx == nil && erry == nil {
			return bytes.Compare(x, y)
		}
	}
	return strings.Compare(a, b)
}
