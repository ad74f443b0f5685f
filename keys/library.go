package keys

// Entity attributes and key formats of the common single-table libraries.
//
// Three libraries write the entity type into every item, next to the keys:
//
//	ElectroDB            __edb_e__ (entity name) and __edb_v__ (model version)
//	dynamodb-toolbox     _et
//	dynamodb-onetable    _type
//
// When an item carries one, it names the entity more reliably than a sort-key
// prefix does, so the layout names types by it and shows both names when the
// two disagree.
//
// ElectroDB also builds the keys themselves (electrodb src/entity.js,
// _makeKeyPrefixes and _makeKey), lower-cased by default:
//
//	partition key  $service#attr_value#attr_value...        "$taskapp#team_purple"
//	sort key       $entity_version#attr_value...            "$user_1#user_t.walch"
//	  in a collection  $collection#entity_version#...       "$organization#user_1#user_t.walch"
//	index without sort key: the sort-key prefix joins the partition key
//	               $service$entity_version#attr_value...    "$taskapp$user_1#user_t.walch"
//
// Pre-1.0 ("beta") models put the version on the service instead
// ($service_version / $entity#...); those sort keys are recognised only when
// the item's own __edb_e__ says which segment is the entity.

import (
	"strings"
	"unicode"
)

// The libraries whose entity attribute dynascope reads.
const (
	ElectroDB        = "ElectroDB"
	DynamoDBToolbox  = "dynamodb-toolbox"
	DynamoDBOneTable = "dynamodb-onetable"
)

// LibraryAttributes are the item attributes that carry a library's entity name
// (and ElectroDB's version); a keys-only read projects them too, which costs
// nothing extra because DynamoDB charges reads by the whole item anyway.
var LibraryAttributes = []string{"__edb_e__", "__edb_v__", "_et", "_type"}

// LibraryEntity is the entity type an item's library attribute names.
type LibraryEntity struct {
	Library   string // ElectroDB, DynamoDBToolbox or DynamoDBOneTable
	Attribute string // the attribute it was read from: "__edb_e__", "_et", "_type"
	Entity    string // the entity name exactly as stored ("order", "Customer")
	Version   string // ElectroDB's __edb_v__; "" for the others
}

// DetectLibraryEntity reads an item's string attributes (only the
// LibraryAttributes matter) and returns the entity they name.
//
// ElectroDB wins over dynamodb-toolbox, which wins over dynamodb-onetable, when
// an item somehow carries several. "_type" is a common name outside OneTable
// too, so treat the result as a naming hint, never as proof of the library.
func DetectLibraryEntity(attrs map[string]string) (LibraryEntity, bool) {
	if e := attrs["__edb_e__"]; e != "" {
		return LibraryEntity{Library: ElectroDB, Attribute: "__edb_e__", Entity: e, Version: attrs["__edb_v__"]}, true
	}
	if e := attrs["_et"]; e != "" {
		return LibraryEntity{Library: DynamoDBToolbox, Attribute: "_et", Entity: e}, true
	}
	if e := attrs["_type"]; e != "" {
		return LibraryEntity{Library: DynamoDBOneTable, Attribute: "_type", Entity: e}, true
	}
	return LibraryEntity{}, false
}

// String names the entity with its library, "ElectroDB: order v1", or "" for the zero value.
func (l LibraryEntity) String() string {
	if l.Library == "" {
		return ""
	}
	s := l.Library + ": " + l.Entity
	if l.Version != "" {
		s += " v" + l.Version
	}
	return s
}

// Agrees tells whether a key-derived entity name ("ORDER", "$order_1" or an
// ElectroDB entity) names the same type as the library attribute.
//
// Names are compared ignoring case and everything but letters and digits, so
// "ORDER_ITEM", "orderItem" and "order-item" agree; an ElectroDB key entity
// "$order_1" is reduced to "order" first. Abbreviations ("CUST" for
// "customer") do not agree: showing both names is then the honest display.
func (l LibraryEntity) Agrees(keyEntity string) bool {
	if l.Library == "" {
		return true
	}
	if strings.HasPrefix(keyEntity, "$") {
		if k, ok := ParseElectroDBSK(keyEntity, l); ok {
			keyEntity = k.Entity
		}
	}
	return foldName(keyEntity) == foldName(l.Entity)
}

// EntityLabel is how a sort-key type is shown when its items carry a library
// entity: "ORDER (ElectroDB: order v1)". Without one it is keyEntity alone.
func EntityLabel(keyEntity string, lib LibraryEntity) string {
	if lib.Library == "" {
		return keyEntity
	}
	return keyEntity + " (" + lib.String() + ")"
}

func foldName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Facet is one composite attribute of an ElectroDB key: "team_purple" is {team, purple}.
type Facet struct {
	Attr, Value string
}

// ElectroDBKey is an ElectroDB key taken apart.
type ElectroDBKey struct {
	Service     string   // partition keys: "taskapp"
	Collections []string // sort keys: the collection and sub-collections, outermost first
	Entity      string   // sort keys, and partition keys of indexes without a sort key
	Version     string   // the model version next to Entity
	Facets      []Facet  // the composite attributes, in key order
	Prefix      string   // the key up to its first facet value: what begins_with selects the type (or family) by
}

// Template is the key with every facet value replaced by "*":
// "$taskapp#team_*", "$organization#user_1#user_*". Keys of one entity (or one
// partition family) share it.
func (k ElectroDBKey) Template() string {
	var b strings.Builder
	b.WriteString(k.head())
	for _, f := range k.Facets {
		b.WriteString("#" + f.Attr + "_*")
	}
	return b.String()
}

// head is the key before its facets.
func (k ElectroDBKey) head() string {
	if k.Service != "" {
		h := "$" + k.Service
		if k.Entity != "" {
			h += "$" + k.Entity + "_" + k.Version
		}
		return h
	}
	parts := append(append([]string{}, k.Collections...), k.Entity+versionSuffix(k.Version))
	return "$" + strings.Join(parts, "#")
}

func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return "_" + v
}

// ParseElectroDBPK recognises an ElectroDB partition key:
// "$service#attr_value..." or, for an index without sort key,
// "$service$entity_version#attr_value...". Every segment after the first must
// be attr_value (the attribute name stops at the first "_"; values may hold
// more). Keys not in this shape give ok = false.
func ParseElectroDBPK(pk string) (ElectroDBKey, bool) {
	segs, ok := electroSegments(pk)
	if !ok {
		return ElectroDBKey{}, false
	}
	var k ElectroDBKey
	k.Service = segs[0]
	if i := strings.IndexByte(segs[0], '$'); i >= 0 {
		k.Service = segs[0][:i]
		ent, ver, ok := splitVersion(segs[0][i+1:])
		if !ok {
			return ElectroDBKey{}, false
		}
		k.Entity, k.Version = ent, ver
	}
	if k.Service == "" {
		return ElectroDBKey{}, false
	}
	if k.Facets, ok = parseFacets(segs[1:]); !ok {
		return ElectroDBKey{}, false
	}
	k.Prefix = k.prefix()
	return k, true
}

// ParseElectroDBSK recognises an ElectroDB sort key:
// "$entity_version#attr_value..." or "$collection[#sub...]#entity_version#...".
//
// The entity segment is the first whose text after its last "_" is a number
// (ElectroDB versions are "1", "2", ...). hint, the item's own library entity
// when known, decides instead: its entity and version name the segment exactly,
// which also recognises pre-1.0 keys ("$entity#attr_value", no version).
func ParseElectroDBSK(sk string, hint LibraryEntity) (ElectroDBKey, bool) {
	segs, ok := electroSegments(sk)
	if !ok {
		return ElectroDBKey{}, false
	}
	at := -1
	var k ElectroDBKey
	if hint.Library == ElectroDB && hint.Entity != "" {
		want := strings.ToLower(hint.Entity + versionSuffix(hint.Version))
		for i, s := range segs {
			if strings.ToLower(s) == want {
				at, k.Entity, k.Version = i, s, hint.Version
				if hint.Version != "" {
					k.Entity, _, _ = splitVersion(s)
				}
				break
			}
		}
		if at < 0 && strings.EqualFold(segs[0], hint.Entity) {
			at, k.Entity = 0, segs[0] // pre-1.0: "$entity#..."
		}
	}
	if at < 0 {
		for i, s := range segs {
			if ent, ver, ok := splitVersion(s); ok && isDigits(ver) {
				at, k.Entity, k.Version = i, ent, ver
				break
			}
		}
	}
	if at < 0 {
		return ElectroDBKey{}, false
	}
	for _, c := range segs[:at] {
		if c == "" {
			return ElectroDBKey{}, false
		}
	}
	if k.Facets, ok = parseFacets(segs[at+1:]); !ok {
		return ElectroDBKey{}, false
	}
	k.Collections = append([]string(nil), segs[:at]...)
	k.Prefix = k.prefix()
	return k, true
}

// prefix is head, plus "#attr_" of the first facet when there is one: the
// longest text every key of the type shares.
func (k ElectroDBKey) prefix() string {
	p := k.head()
	if len(k.Facets) > 0 {
		p += "#" + k.Facets[0].Attr + "_"
	}
	return p
}

// electroSegments splits "$a#b#c" into [a b c]; the key must start with "$"
// and have a non-empty first segment.
func electroSegments(key string) ([]string, bool) {
	if !strings.HasPrefix(key, "$") {
		return nil, false
	}
	segs := strings.Split(key[1:], "#")
	if segs[0] == "" {
		return nil, false
	}
	return segs, true
}

// splitVersion splits "entity_version" at its last "_".
func splitVersion(s string) (entity, version string, ok bool) {
	i := strings.LastIndexByte(s, '_')
	if i <= 0 || i == len(s)-1 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

func parseFacets(segs []string) ([]Facet, bool) {
	var out []Facet
	for _, s := range segs {
		i := strings.IndexByte(s, '_')
		if i <= 0 {
			return nil, false
		}
		out = append(out, Facet{Attr: s[:i], Value: s[i+1:]})
	}
	return out, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
