// Package entities is the table as the application declares it: the
// entities: section of the patterns file (each entity's key templates for
// the table and its indexes, the types of their parameters, its entity
// attribute), read with line and column in every error; a key matched
// exactly to the entity that declares it, with its parameters decoded; the
// key an application would build from parameters; a value checked against
// its parameter's type.
//
// It is pure: it imports filterexpr (the one template grammar),
// itemcodec/number, textfmt and yamlfile of dynascope's, never dynamo,
// patterns, keys or the UI, and makes no request.
package entities

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Set is the declared entities of a table.
type Set struct {
	Entities []*Entity // in file order
	// tableKeys are the table's key attributes (partition key first);
	// indexKeys the key attributes of its indexes. Both are nil until
	// SetKeys is called: then the table's keys are taken to be the key
	// attributes every entity declares.
	tableKeys []string
	indexKeys []string
	order     []*Entity // the order Match tries them in: the more literal first
}

// Entity is one declared entity.
type Entity struct {
	Name       string
	Keys       map[string]Template // key attribute -> template
	Params     map[string]Param    // every placeholder of Keys, by name
	EntityAttr *Attr               // nil when not declared
	// Optional are the index key attributes the entity's items may lack
	// (a sparse index: only some of them are in it); an item without one
	// is not drift, one with it must match its template.
	Optional  []string
	KeyOrder  []string          // the key attributes in file order
	Line, Col int               // of the entity's mapping; 0 when not from a file
	keyLines  map[string][2]int // key attribute -> line and column of its name
}

// Attr is an entity attribute: the item attribute that names the type, and
// the value it holds for this entity.
type Attr struct {
	Name  string
	Value string
}

// Value is one decoded parameter.
type Value struct {
	Name  string
	Value string
}

// Match is an item's key read by its entity.
type Match struct {
	Entity *Entity
	// Params are the decoded parameters, in the order their placeholders
	// first appear in the entity's keys (file order): those of the table's
	// keys, and those of the index keys the item holds in their shape.
	Params []Value
	// Drift says what of the entity's index keys the item breaks: an index
	// key it declares that the item lacks (the item is not in that index)
	// or holds in another shape; one sentence each, empty when none.
	Drift []string
}

// Name is the matched entity's name.
func (m Match) Name() string { return m.Entity.Name }

// Param is the decoded value of one parameter, "" when the match has none.
func (m Match) Param(name string) string {
	for _, v := range m.Params {
		if v.Name == name {
			return v.Value
		}
	}
	return ""
}

// Decoded is the parameters as the item detail shows them:
// "customerId = 42, orderDate = 2025-03-01".
func (m Match) Decoded() string {
	parts := make([]string, len(m.Params))
	for i, v := range m.Params {
		parts[i] = v.Name + " = " + v.Value
	}
	return strings.Join(parts, ", ")
}

// Find is the entity of that name, or nil.
func (s *Set) Find(name string) *Entity {
	if s == nil {
		return nil
	}
	for _, e := range s.Entities {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// Names are the entities' names in file order.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	names := make([]string, len(s.Entities))
	for i, e := range s.Entities {
		names[i] = e.Name
	}
	return names
}

// TableKeys are the key attributes Match matches: the table's, as SetKeys
// gave them, else those every entity declares, in the first entity's order.
func (s *Set) TableKeys() []string {
	if s.tableKeys != nil {
		return s.tableKeys
	}
	if len(s.Entities) == 0 {
		return nil
	}
	var common []string
	for _, a := range s.Entities[0].KeyOrder {
		all := true
		for _, e := range s.Entities[1:] {
			if _, ok := e.Keys[a]; !ok {
				all = false
				break
			}
		}
		if all {
			common = append(common, a)
		}
	}
	return common
}

// isTableKey tells whether attr is one Match matches.
func (s *Set) isTableKey(attr string) bool { return slices.Contains(s.TableKeys(), attr) }

// Match reads an item's attributes (as text: its key attributes, table and
// index, and the entity attribute where one is declared) by the entities.
// An item is of entity E when every table key attribute E declares is
// there and matches its template, each parameter of its type and the same
// wherever it appears, and, when E declares an entity attribute the item
// holds, that attribute agrees. Of two that match, the more literal wins
// (a tie between two that could match one key is refused when the file is
// loaded); index keys are checked, not matched: what breaks them is the
// match's Drift. It is false when no entity matches.
func (s *Set) Match(attrs map[string]string) (Match, bool) {
	if s == nil {
		return Match{}, false
	}
	for _, e := range s.order {
		params, ok := s.matchTable(e, attrs)
		if !ok {
			continue
		}
		drift := s.indexDrift(e, attrs, params)
		return Match{Entity: e, Params: e.ordered(params), Drift: drift}, true
	}
	return Match{}, false
}

// matchTable matches e's table keys (and entity attribute) against attrs.
func (s *Set) matchTable(e *Entity, attrs map[string]string) (map[string]string, bool) {
	if e.EntityAttr != nil {
		if v, ok := attrs[e.EntityAttr.Name]; ok && v != e.EntityAttr.Value {
			return nil, false
		}
	}
	params := map[string]string{}
	matched := 0
	for _, a := range e.KeyOrder {
		if !s.isTableKey(a) {
			continue
		}
		v, ok := attrs[a]
		if !ok {
			return nil, false
		}
		got, ok := e.Keys[a].Match(v, e.Params)
		if !ok {
			return nil, false
		}
		for name, val := range got {
			if prev, seen := params[name]; seen && prev != val {
				return nil, false
			}
			params[name] = val
		}
		matched++
	}
	return params, matched > 0
}

// indexDrift checks e's index keys against attrs, given the parameters its
// table keys decoded, and adds those the index keys alone hold to params.
func (s *Set) indexDrift(e *Entity, attrs, params map[string]string) []string {
	var drift []string
	for _, a := range e.KeyOrder {
		if s.isTableKey(a) {
			continue
		}
		v, ok := attrs[a]
		if !ok && slices.Contains(e.Optional, a) {
			continue
		}
		if !ok {
			drift = append(drift, fmt.Sprintf("it has no %s, which %s declares (%s), so it is not in that index", a, e.Name, e.Keys[a].Raw))
			continue
		}
		got, ok := e.Keys[a].Match(v, e.Params)
		for name, val := range got {
			if prev, seen := params[name]; seen && prev != val {
				ok = false
			}
		}
		if !ok {
			drift = append(drift, fmt.Sprintf("its %s is %s, not of %s's %s", a, strconv.Quote(v), e.Name, e.Keys[a].Raw))
			continue
		}
		maps.Copy(params, got) // the index key's own parameters are decoded too

	}
	return drift
}

// ordered lists params in the order their placeholders appear in e's keys.
func (e *Entity) ordered(params map[string]string) []Value {
	var out []Value
	for _, name := range e.ParamOrder() {
		if v, ok := params[name]; ok {
			out = append(out, Value{Name: name, Value: v})
		}
	}
	return out
}

// ParamOrder is e's parameters in the order their placeholders first appear
// in its keys (file order).
func (e *Entity) ParamOrder() []string {
	var names []string
	for _, a := range e.KeyOrder {
		for _, p := range e.Keys[a].Params() {
			if !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
	}
	return names
}

// Build is the value of key attribute attr the application would build
// from params, each parameter checked against its type (a padded number
// shorter than its width is padded, as the application pads it). A value
// that would not read back as given (text holding the literal that follows
// it) is refused, so that what Build makes, Match reads back.
func (e *Entity) Build(params map[string]string, attr string) (string, error) {
	t, ok := e.Keys[attr]
	if !ok {
		return "", fmt.Errorf("%s declares no key %s; its keys are %s", e.Name, attr, strings.Join(e.KeyOrder, ", "))
	}
	values := map[string]string{}
	for _, name := range t.Params() {
		v, ok := params[name]
		if !ok {
			return "", fmt.Errorf("%s's %s (%s) needs %s; give it as %s=VALUE", e.Name, attr, t.Raw, name, name)
		}
		p := e.Params[name]
		n, err := p.Normalize(v)
		if err != nil {
			return "", err
		}
		if next, _ := t.next(name); next != "" && (p.Type == Text || (p.Type == ID && p.Shape == Any)) && strings.Contains(n, next) {
			return "", fmt.Errorf("%s is %s, which holds %s, the text that follows it in %s; the key would not read back", name, strconv.Quote(n), strconv.Quote(next), t.Raw)
		}
		values[name] = n
	}
	key, err := t.Fill(values)
	if err != nil {
		return "", err
	}
	back, ok := t.Match(key, e.Params)
	if !ok || !maps.Equal(back, values) {
		return "", fmt.Errorf("%s built from %s reads back otherwise; a value holds the text that follows its placeholder in %s", strconv.Quote(key), describeValues(t.Params(), values), t.Raw)
	}
	return key, nil
}

func describeValues(order []string, values map[string]string) string {
	parts := make([]string, 0, len(order))
	for _, name := range order {
		parts = append(parts, name+" = "+values[name])
	}
	return strings.Join(parts, ", ")
}

// Namer names keys by the entities, for package keys (a keys.Declared):
// given the partition and sort key attributes a key is read under, it
// returns the function from a key's two values to the name of the entity
// they match. Under the table's keys it is Match; under an index's, the
// first entity (in Match's order) whose templates of those two attributes
// match. skAttr is "" for a key without a sort key. Nil when no entity is
// declared.
func (s *Set) Namer(pkAttr, skAttr string) func(pk, sk string) (string, bool) {
	if s == nil || len(s.Entities) == 0 {
		return nil
	}
	table := s.TableKeys()
	onTable := len(table) > 0 && table[0] == pkAttr && (skAttr == "" && len(table) == 1 || len(table) > 1 && table[1] == skAttr)
	return func(pk, sk string) (string, bool) {
		attrs := map[string]string{pkAttr: pk}
		if skAttr != "" {
			attrs[skAttr] = sk
		}
		if onTable {
			m, ok := s.Match(attrs)
			if !ok {
				return "", false
			}
			return m.Name(), true
		}
		for _, e := range s.order {
			if e.matchesOnly(attrs) {
				return e.Name, true
			}
		}
		return "", false
	}
}

// matchesOnly tells whether every attribute of attrs is a key e declares
// and matches its template, with each parameter the same throughout.
func (e *Entity) matchesOnly(attrs map[string]string) bool {
	params := map[string]string{}
	for a, v := range attrs {
		t, ok := e.Keys[a]
		if !ok {
			return false
		}
		got, ok := t.Match(v, e.Params)
		if !ok {
			return false
		}
		for name, val := range got {
			if prev, seen := params[name]; seen && prev != val {
				return false
			}
			params[name] = val
		}
	}
	return true
}
