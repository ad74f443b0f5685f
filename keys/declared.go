package keys

import (
	"maps"
	"slices"
)

// Declared names keys by the application's own declarations (the patterns
// file's entities: section, which package entities reads; keys sees only
// this function): the name of the entity whose keys, partition key pk and
// sort key sk, are exactly of its templates; false when none is. With it,
// an EntityTable, Names and SeenNames name every key and type it matches
// by the declaration, and mark each other one as undeclared (its inferred
// name kept); without it (nil) nothing is marked.
type Declared func(pk, sk string) (name string, ok bool)

// UndeclaredMark is put before an inferred name where declarations are in
// use and a key matches none of them, in text: "~ORDER". JSON says
// "declared": false instead, and the UI shows the same mark.
const UndeclaredMark = "~"

// Marked is g's name as text shows it: marked when it is undeclared.
func (g Group) Marked() string {
	if g.Undeclared {
		return UndeclaredMark + g.Entity
	}
	return g.Entity
}

// declInfo is what the loaded keys of one type as found told of their
// declarations: a part per name they matched ("" for none), in the order
// first seen.
type declInfo struct {
	parts []declPart
}

// declPart is the keys of one type that one declaration matched (name ""
// for none): how many the read loaded, and their size; how many an earlier
// read loaded (a lower bound now, as TypeRow.AtLeast); the lowest and
// highest of them.
type declPart struct {
	name        string
	n, bytes    int
	atLeast     int
	first, last string
}

// WithDeclared names the table's types by the declarations d (nil: by
// inference alone).
func (t EntityTable) WithDeclared(d Declared) EntityTable {
	t.declared = d
	return t.made()
}

// noteDeclared records which declaration key sk (of size bytes) of the
// type as found with ID id matches; t.decl is t's own copy.
func (t *EntityTable) noteDeclared(id, sk string, size int) {
	name, _ := t.declared(t.pk, sk)
	info := t.decl[id]
	info.parts = slices.Clone(info.parts)
	p := info.part(name, sk, t.keyType)
	p.n++
	p.bytes += size
	t.decl[id] = info
}

// part is the part of name, taking in key k (added when there is none).
func (d *declInfo) part(name, k, keyType string) *declPart {
	i := slices.IndexFunc(d.parts, func(p declPart) bool { return p.name == name })
	if i < 0 {
		d.parts = append(d.parts, declPart{name: name, first: k, last: k})
		return &d.parts[len(d.parts)-1]
	}
	p := &d.parts[i]
	if CompareKeys(k, p.first, keyType) < 0 {
		p.first = k
	}
	if CompareKeys(k, p.last, keyType) > 0 {
		p.last = k
	}
	return p
}

// resetDecl starts the notes of a new read: what the earlier one loaded
// of each part is a lower bound now.
func (t *EntityTable) resetDecl() {
	if t.declared == nil {
		return
	}
	decl := make(map[string]declInfo, len(t.decl))
	for id, info := range t.decl {
		parts := slices.Clone(info.parts)
		for i, p := range parts {
			parts[i].atLeast, parts[i].n, parts[i].bytes = max(p.atLeast, p.n), 0, 0
		}
		decl[id] = declInfo{parts: parts}
	}
	t.decl = decl
}

// nameDeclared names the rows by the declarations. A row whose every
// loaded key and whose ends match one entity takes its name; a row none
// of whose keys match keeps its inferred name, marked undeclared. A row
// whose keys match more than one (a declared entity and keys of the same
// prefix in another shape: "ORDER#2025-02-02|A99" beside Order's
// "ORDER#2025-01-09#A11") is split, a row per name in the order of its
// first key: the declared keys keep their entity's name, the others their
// inferred one, marked; each part has its own keys, loaded items and
// size, and is Shared (its prefix's condition selects them all).
func (t EntityTable) nameDeclared(rows []TypeRow) []TypeRow {
	if t.declared == nil {
		return rows
	}
	out := make([]TypeRow, 0, len(rows))
	for _, r := range rows {
		var d declInfo
		for _, id := range append([]string{r.ID()}, r.Aliases...) {
			for _, p := range t.decl[id].parts {
				q := d.part(p.name, p.first, t.keyType)
				d.part(p.name, p.last, t.keyType)
				q.n += p.n
				q.bytes += p.bytes
				q.atLeast += p.atLeast
			}
		}
		for _, k := range []string{r.First, r.Last} {
			if k != "" {
				n, _ := t.declared(t.pk, k)
				d.part(n, k, t.keyType)
			}
		}
		switch {
		case len(d.parts) == 1 && d.parts[0].name != "":
			r.inferred = r.Entity
			r.Entity, r.Declared = d.parts[0].name, true
			out = append(out, r)
		case len(d.parts) <= 1:
			r.Undeclared = true
			out = append(out, r)
		default:
			out = append(out, t.splitRow(r, d.parts)...)
		}
	}
	return out
}

// splitRow is row r split by the parts of its keys, in the order of their
// first keys (see nameDeclared).
func (t EntityTable) splitRow(r TypeRow, parts []declPart) []TypeRow {
	parts = slices.Clone(parts)
	slices.SortStableFunc(parts, func(a, b declPart) int { return CompareKeys(a.first, b.first, t.keyType) })
	loaded := 0
	for _, p := range parts {
		loaded += p.n
	}
	// Read through: every key of the type loaded. Otherwise a part's keys
	// are ends only where they are the type's own (a skip-scan's), or where the read (from
	// the partition's start, or its end in reverse) loaded them.
	through := t.Complete() || loaded > 0 && t.lastKey != "" && ClassifyTyped(t.lastKey, t.keyType, t.lastDelim).ID() != r.ID()
	end := func(k, typeEnd string, loadedEnd bool) string {
		if through || r.Discovered && k == typeEnd && k != "" || loadedEnd {
			return k
		}
		return ""
	}
	out := make([]TypeRow, len(parts))
	for i, p := range parts {
		s := r
		s.First = end(p.first, r.First, p.n > 0 && !t.reverse)
		s.Last = end(p.last, r.Last, p.n > 0 && t.reverse)
		s.Loaded, s.Bytes, s.AtLeast = p.n, p.bytes, p.atLeast
		s.Count, s.Shared = -1, true
		if p.name != "" {
			s.inferred = r.Entity
			s.Entity, s.Declared = p.name, true
		} else {
			s.Undeclared = true
		}
		out[i] = s
	}
	return out
}

// cloneDecl gives t a copy of its declaration notes of its own.
func (t *EntityTable) cloneDecl() {
	if t.declared != nil {
		t.decl = maps.Clone(t.decl)
		if t.decl == nil {
			t.decl = map[string]declInfo{}
		}
	}
}

// WithDeclared names the keys by the declarations d first (nil: by the
// groups alone).
func (n Names) WithDeclared(d Declared) Names {
	n.declared = d
	n.groups = slices.Clone(n.groups)
	return n
}

// Undeclared tells whether declarations are in use and sort key sk of the
// partition matches none of them: its name is inferred.
func (n Names) Undeclared(sk string) bool {
	if n.declared == nil {
		return false
	}
	_, ok := n.declared(n.pk, sk)
	return !ok
}

// Marked is Name, marked when the key is undeclared.
func (n Names) Marked(sk string) string {
	if n.Undeclared(sk) {
		return UndeclaredMark + n.Name(sk)
	}
	return n.Name(sk)
}

// WithDeclared names the records' keys by the declarations d first.
func (s *SeenNames) WithDeclared(d Declared) *SeenNames {
	s.declared = d
	return s
}

// Undeclared tells whether declarations are in use and the key pk, sk
// matches none of them.
func (s *SeenNames) Undeclared(pk, sk string) bool {
	if s.declared == nil {
		return false
	}
	_, ok := s.declared(pk, sk)
	return !ok
}

// Declaring tells whether declarations are in use.
func (s *SeenNames) Declaring() bool { return s.declared != nil }

// Marked is Name, marked when the key is undeclared.
func (s *SeenNames) Marked(pk, sk string) string {
	if s.Undeclared(pk, sk) {
		return UndeclaredMark + s.Name(pk, sk)
	}
	return s.Name(pk, sk)
}

// inferredGroups are the groups under their inferred names: what names a
// key no declaration matches, as if nothing were declared.
func (n Names) inferredGroups() []Group {
	out := slices.Clone(n.groups)
	for i, g := range out {
		if g.Declared {
			out[i].Entity, out[i].Declared = g.inferred, false
		}
		out[i].Undeclared = false
	}
	return out
}
