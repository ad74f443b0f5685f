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
// declaration: the entity the first matched ("" for none), and whether a
// later one matched another (or none).
type declInfo struct {
	name  string
	mixed bool
	n     int
}

// WithDeclared names the table's types by the declarations d (nil: by
// inference alone).
func (t EntityTable) WithDeclared(d Declared) EntityTable {
	t.declared = d
	return t.made()
}

// noteDeclared records the declaration key sk of the type as found with
// ID id matches; t.decl is t's own copy.
func (t *EntityTable) noteDeclared(id, sk string) {
	name, _ := t.declared(t.pk, sk)
	info := t.decl[id]
	if info.n == 0 {
		info.name = name
	} else if info.name != name {
		info.mixed = true
	}
	info.n++
	t.decl[id] = info
}

// nameDeclared names the rows by the declarations: a row whose every
// loaded key and whose ends match one entity takes its name; every other
// row keeps its inferred name, marked undeclared.
func (t EntityTable) nameDeclared(rows []TypeRow) {
	if t.declared == nil {
		return
	}
	for i, r := range rows {
		name, mixed, seen := "", false, 0
		note := func(n string) {
			if seen > 0 && n != name {
				mixed = true
			}
			name = n
			seen++
		}
		for _, id := range append([]string{r.ID()}, r.Aliases...) {
			if info, ok := t.decl[id]; ok && info.n > 0 {
				mixed = mixed || info.mixed
				note(info.name)
			}
		}
		for _, k := range []string{r.First, r.Last} {
			if k != "" {
				n, _ := t.declared(t.pk, k)
				note(n)
			}
		}
		if !mixed && seen > 0 && name != "" {
			rows[i].inferred = r.Entity
			rows[i].Entity, rows[i].Declared = name, true
		} else {
			rows[i].Undeclared = true
		}
	}
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
