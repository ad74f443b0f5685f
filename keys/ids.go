package keys

import (
	"regexp"
	"strings"
	"unicode"
)

// Letter-led ids. A key that is data but starts with a letter (a hex id
// "a5f0c3d2e1b4", a UUID "f47ac10b-…", a nanoid "wLnnMe1XFvAleTXmDPSCv")
// is an exact type to Classify: it sorts among labels, so no key range holds
// such ids alone and the skip-scan visits them one by one. Where the keys
// are in hand (a loaded page, a sample), ids of one shape are one value
// group all the same: IDShape says which.

// ShapeNanoID names keys of nanoid's default alphabet and length.
const ShapeNanoID = "nanoid"

// ShapeName names a list of lowercase names (user names under an attendee
// list): only a partition whose every key is one forms it (ListOfNames).
const ShapeName = "name"

// ShapeVersion names version rows: a key that is "v" (or "V") and a
// number, alone or before "_" ("v0", "v12", "v0_Audit"), as DynamoDB's
// version-history pattern keys an item's current version (v0) and its
// history (v1 … vN). ShapeNumbered names keys of another letter stem and a
// number ("Complaint0987", "Complaint1321"): one numbered id each, not a
// type each.
const (
	ShapeVersion  = "version"
	ShapeNumbered = "numbered id"
)

var (
	nanoID    = regexp.MustCompile(`^[A-Za-z0-9_-]{21}$`)
	lowerName = regexp.MustCompile(`^[a-z][a-z0-9._-]*$`)
	// stemNumber is a letter stem, a number, and nothing or "_" and more.
	stemNumber = regexp.MustCompile(`^([A-Za-z]+)[0-9]+(_.*)?$`)
)

// IDShape is the value shape of a letter-led key that is an id (ShapeUUID,
// ShapeHex, ShapeULID, ShapeKSUID, ShapeNanoID, ShapeVersion or
// ShapeNumbered), "" for any other key. A nanoid must mix cases or digits
// in, so a 21-letter word is no id. A letter stem followed by a number is
// a value, whatever the stem: "v0" … "vN" are one item's versions, and a
// label type never ends in the number of its row (a type that does,
// WARNING1 in "WARNING1#2020-04-24T14:40", is a prefix type, which this
// does not touch: only keys without a delimiter are ids).
func IDShape(k string) string {
	if k == "" || !unicode.IsLetter(rune(k[0])) {
		return ""
	}
	switch s := ValueShape(k); s {
	case ShapeUUID, ShapeHex, ShapeULID, ShapeKSUID:
		return s
	}
	if nanoID.MatchString(k) && mixed(k) {
		return ShapeNanoID
	}
	if m := stemNumber.FindStringSubmatch(k); m != nil {
		if m[1] == "v" || m[1] == "V" {
			return ShapeVersion
		}
		return ShapeNumbered
	}
	return ""
}

// idRunName names a run of values by its ends as the entity table names
// its value rows: the id shape both ends share (a run of version rows
// v0 … v3_2024 is "version", of nanoids "nanoid", as FoldIDs named it when
// it folded them), else RunName. A row a skip-scan's folded groups gave
// thus keeps its name, and the version rows loaded inside it join it
// (joinInRuns) instead of standing beside it as types of their own.
func idRunName(first, last string) string {
	if s := IDShape(first); s != "" && s == IDShape(last) {
		return s
	}
	return RunName(first, last)
}

// mixed tells whether k holds a digit, or upper and lower case letters.
func mixed(k string) bool {
	var lower, upper bool
	for _, r := range k {
		switch {
		case unicode.IsDigit(r):
			return true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper = true
		}
	}
	return lower && upper
}

// ListOfNames tells whether keys (two or more) of partition pk are all
// lowercase names without a delimiter under a partition that names a list
// ("…#ATTENDEES", "…#likelist": a last segment of letters that is a plural
// or a list): user names there are one value group, not a type each, while
// "profile" and "v1" under "user1" stay labels.
func ListOfNames(pk string, keys []string) bool {
	if len(keys) < 2 || !listPartition(pk) {
		return false
	}
	d := InferDelimiter(keys)
	for _, k := range keys {
		if c := Classify(k, d); !lowerName.MatchString(k) || !c.Exact {
			return false
		}
	}
	return true
}

// listPartition tells a partition key whose last segment names a list.
func listPartition(pk string) bool {
	i, d := -1, ""
	for j := 0; j < len(pk); j++ {
		if x := delimiterAt(pk, j, "#"); x != "" {
			i, d = j, x
		}
	}
	if i < 0 {
		return false
	}
	last := pk[i+len(d):]
	for _, r := range last {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	l := strings.ToLower(last)
	return len(l) >= 3 && (strings.HasSuffix(l, "s") || strings.HasSuffix(l, "list"))
}

// FoldIDs folds neighbouring groups (in DynamoDB's order) that are ids of
// one shape, letter-led exact types and the value group of digit-led ones,
// into one value group named by the shape (a lone letter-led id too); and a partition pk of names only
// (ListOfNames) into one value group ShapeName. Neighbours are one run of
// keys, which the BETWEEN of its ends selects. Use it where every key was
// seen: a skip-scan that visited each id, a page in hand.
func FoldIDs(pk string, groups []Group) []Group {
	return UniqueNames(groupsOf(foldIDRows(pk, rowsOf(groups))))
}

// foldIDRows is FoldIDs on an entity table's rows: the value row of a run
// holds what its rows held, and finds their keys (Aliases).
func foldIDRows(pk string, rows []TypeRow) []TypeRow {
	out := make([]TypeRow, 0, len(rows))
	at := 0
	for _, r := range idRuns(pk, groupsOf(rows)) {
		out = append(out, rows[at:r.from]...)
		out = append(out, joinRun(rows[r.from:r.to], r.name))
		at = r.to
	}
	return append(out, rows[at:]...)
}

// idRun is a run of neighbouring groups, groups[from:to], that FoldIDs
// makes one value group named name.
type idRun struct {
	from, to int
	name     string
}

// idRuns finds what FoldIDs folds. A value group named ShapeName is a list
// of names folded before; a value group is of the shape it was named by
// before UniqueNames numbered it ("hex id (2)" is a run of hex ids).
func idRuns(pk string, groups []Group) []idRun {
	shape := func(g Group) string {
		switch {
		case g.Kind == KindLabel && g.Exact:
			return IDShape(g.Prefix)
		case g.Kind == KindValue && g.Entity != ShapeValue && g.Entity != NumberEntity && g.Entity != BinaryEntity:
			return ownName(g)
		}
		return ""
	}
	names := make([]string, 0, len(groups))
	for _, g := range groups {
		switch {
		case g.Kind == KindLabel && g.Exact:
			names = append(names, g.Prefix)
		case g.Kind == KindValue && g.Entity == ShapeName:
			names = append(names, g.First, g.Last)
		default:
			names = nil
		}
		if names == nil {
			break
		}
	}
	if names != nil && ListOfNames(pk, names) {
		return []idRun{{from: 0, to: len(groups), name: ShapeName}}
	}
	var runs []idRun
	for i := 0; i < len(groups); {
		j, s := i+1, shape(groups[i])
		for s != "" && j < len(groups) && shape(groups[j]) == s {
			j++
		}
		// A lone letter-led id is a value of its shape too ("hex id", not
		// a type named a5f0c3d2e1b4), as the layout names it; a lone value
		// group is already one.
		if j-i >= 2 || s != "" && groups[i].Kind == KindLabel {
			runs = append(runs, idRun{from: i, to: j, name: s})
		}
		i = j
	}
	return runs
}

// joinRun makes one value row, named name, of neighbouring rows: its ends
// are theirs, and it holds what they held.
func joinRun(rows []TypeRow, name string) TypeRow {
	v := TypeRow{Group: Group{Entity: name, Kind: KindValue, First: rows[0].First, Last: rows[len(rows)-1].Last}}
	for i, r := range rows {
		if i == 0 {
			v.Count = r.Count
		} else {
			v.Count = addCounts(v.Count, r.Count)
		}
		if r.ID() != v.ID() {
			v.Aliases = append(v.Aliases, r.ID())
		}
		v.Aliases = append(v.Aliases, r.Aliases...)
		v.Discovered = v.Discovered || r.Discovered
		v.Loaded += r.Loaded
		v.Bytes += r.Bytes
		v.AtLeast += r.AtLeast
		v.Libraries = addLibraries(v.Libraries, r.Libraries)
	}
	return v
}

// nameType is the typeID.entity of a list partition's names in a layout.
const nameType = "\x00name"

// listPartitions are the family's partitions whose sort keys are a list of
// names (ListOfNames): their keys are one value type, not a type each.
func listPartitions(fa *familyAcc, in LayoutInput) map[string]bool {
	if in.SKType != "S" {
		return nil
	}
	out := map[string]bool{}
	for pk, ks := range fa.sortKeys(in) {
		if ListOfNames(pk, ks) {
			out[pk] = true
		}
	}
	return out
}
