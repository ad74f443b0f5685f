package patterns

// Drift: what a sample of the table shows that the declared entities do
// not say — keys no template matches, entities never seen, items missing
// an index key their entity declares, parameters that break their type.

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/indexes"
	"dynascope/keys"
	"dynascope/textfmt"
)

// DriftKind names a kind of drift, as check's JSON writes it.
type DriftKind string

// The kinds of drift.
const (
	DriftUnmatched DriftKind = "unmatched-key"     // keys that match no declared template
	DriftUnseen    DriftKind = "entity-not-seen"   // a declared entity with no item in the sample
	DriftIndexKey  DriftKind = "missing-index-key" // items of an entity without one of its index keys: silently not in that index
	DriftParamType DriftKind = "param-type"        // a parameter's value breaks its declared type
)

// MaxDriftExamples is how many keys a drift finding lists.
const MaxDriftExamples = 3

// Drift is one finding of drift, counted over the items it is about.
type Drift struct {
	Kind     DriftKind
	Entity   string   // the entity it is about; "" for unmatched keys
	Attr     string   // the key attribute (or, for param-type, the parameter) it is about
	Index    string   // missing-index-key: the index the items are not in
	Shape    string   // unmatched-key: the keys' shape, "ORDER|2023-…"
	Count    int      // items of the sample it is about (0 for an entity never seen)
	Examples []string // up to MaxDriftExamples keys, "PK / SK"
	Guess    string   // unmatched-key: why, a guess ("an old delimiter?"); "" for none
	Why      string   // what else the finding says, in words ("" for none)
	Sampled  int      // the items the sample read
	Complete bool     // the sample read the whole table
	Line     int      // the line of the patterns file it points at
	// Shaped: missing-index-key of items that hold the index's keys, in
	// another shape than declared (or unusable to the index).
	Shaped bool
}

// Message is the finding in one sentence.
func (d Drift) Message() string {
	items := textfmt.Plural(d.Count, "item", "items")
	switch d.Kind {
	case DriftUnmatched:
		s := fmt.Sprintf("%s: %s whose %s matches no declared template", d.Shape, items, d.Attr)
		if d.Guess != "" {
			s += ", " + d.Guess
		}
		return s
	case DriftUnseen:
		where := fmt.Sprintf("a sample of %s that stopped at its caps (read more with --max-rcu)", textfmt.Plural(d.Sampled, "item", "items"))
		if d.Complete {
			where = fmt.Sprintf("the whole table (%s)", textfmt.Plural(d.Sampled, "item", "items"))
		}
		return fmt.Sprintf("%s is declared, but no item of it is in %s", d.Entity, where)
	case DriftIndexKey:
		if d.Shaped {
			return fmt.Sprintf("%s of %s %s %s otherwise than %s declares, so %s not in %s%s", items, d.Entity, verb(d.Count, "holds", "hold"), d.Attr, d.Entity,
				verb(d.Count, "it is", "they are"), d.Index, d.Why)
		}
		return fmt.Sprintf("%s of %s %s %s, which %s declares: %s silently not in %s%s", items, d.Entity, verb(d.Count, "lacks", "lack"), d.Attr, d.Entity,
			verb(d.Count, "it is", "they are"), d.Index, d.Why)
	case DriftParamType:
		return fmt.Sprintf("%s of %s whose %s is not %s", items, d.Entity, d.Attr, d.Why)
	}
	return string(d.Kind)
}

// verb is the verb's form for n subjects.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// HasEntities tells whether the file declares entities: check samples the
// table for drift only then.
func (s *PatternSet) HasEntities() bool {
	return s != nil && s.Entities != nil && len(s.Entities.Entities) > 0
}

// driftTally gathers the findings of one kind and subject as the items
// come: a count and the first examples.
type driftTally struct {
	order []string
	by    map[string]*Drift
}

func (d *driftTally) add(key string, f Drift, example string) {
	if d.by == nil {
		d.by = map[string]*Drift{}
	}
	got, ok := d.by[key]
	if !ok {
		f.Count = 0
		got = &f
		d.by[key] = got
		d.order = append(d.order, key)
	}
	got.Count++
	if len(got.Examples) < MaxDriftExamples && !slices.Contains(got.Examples, example) {
		got.Examples = append(got.Examples, example)
	}
}

// Drift holds a sample of whole items to the file's entities (CheckEntities
// must have set the table's keys): every item's key is matched exactly
// (entities.Set.Match), and what does not hold is counted, with examples,
// in the order first found, each kind apart — keys no template matches (by
// attribute and shape, with a guess at why), parameters that break their
// type (a key of an entity's shape whose value is not of the parameter's
// type), items missing one of their entity's index keys (unless the
// entity declares that index's keys optional: a sparse index, of which the
// item carries none) or holding it in another shape (not in that index),
// and entities no item of the sample is of. complete says the sample is the whole table.
func (s *PatternSet) Drift(t dynamo.Table, items []dynamo.Item, complete bool) []Drift {
	if !s.HasEntities() {
		return nil
	}
	set := s.Entities
	names := driftAttrs(t, set)
	var unmatched, params, index driftTally
	seen := map[string]int{}
	for _, it := range items {
		attrs := keyTextAttrs(it, names)
		example := keyText(attrs, set.TableKeys())
		m, ok := set.Match(attrs)
		if !ok {
			if e, pname, value, ok := s.typeBreak(attrs); ok {
				p := e.Params[pname]
				params.add(e.Name+"\x00"+pname, Drift{Kind: DriftParamType, Entity: e.Name, Attr: pname, Why: p.Describe(), Line: p.Line},
					example+" ("+pname+" = "+value+")")
				continue
			}
			attr, shape, guess, line := s.unmatched(attrs)
			unmatched.add(attr+"\x00"+shape, Drift{Kind: DriftUnmatched, Attr: attr, Shape: shape, Guess: guess, Line: line}, example)
			continue
		}
		e := m.Entity
		seen[e.Name]++
		for _, ix := range t.Indexes {
			declared, present := entityIndexKeys(e, ix, it)
			if len(declared) == 0 {
				continue
			}
			missing := without(declared, present)
			if len(present) == 0 && len(without(missing, e.Optional)) == 0 {
				continue // a sparse index the entity declares optional: not in it, by design
			}
			if len(missing) > 0 {
				why := ""
				if len(present) > 0 {
					why = fmt.Sprintf(" (only %s is there)", strings.Join(present, " and "))
				}
				index.add(e.Name+"\x00"+ix.Name+"\x00"+strings.Join(missing, ","), Drift{Kind: DriftIndexKey, Entity: e.Name, Index: ix.Name,
					Attr: strings.Join(missing, " and "), Why: why, Line: e.Line}, example)
				continue
			}
			why := ""
			if mem := indexes.Check(t, ix, it); !mem.Member {
				why = " (" + mem.Why + ")"
			} else if bad := shapeBreak(e, declared, attrs); bad != "" {
				why = " (" + bad + ")"
			}
			if why != "" {
				index.add(e.Name+"\x00"+ix.Name+"\x00shape", Drift{Kind: DriftIndexKey, Entity: e.Name, Index: ix.Name,
					Attr: strings.Join(declared, " and "), Why: why, Shaped: true, Line: e.Line}, example)
			}
		}
	}
	var out []Drift
	for _, tl := range []*driftTally{&unmatched, &params, &index} {
		for _, k := range tl.order {
			out = append(out, *tl.by[k])
		}
	}
	for _, e := range set.Entities {
		if seen[e.Name] == 0 {
			out = append(out, Drift{Kind: DriftUnseen, Entity: e.Name, Line: e.Line})
		}
	}
	for i := range out {
		out[i].Sampled, out[i].Complete = len(items), complete
	}
	return out
}

// driftAttrs are the attributes Match reads of an item: the table's and
// the indexes' key attributes, and every entity attribute declared.
func driftAttrs(t dynamo.Table, set *entities.Set) []string {
	table, index := keyNames(t)
	names := append(table, index...)
	for _, e := range set.Entities {
		if e.EntityAttr != nil && !slices.Contains(names, e.EntityAttr.Name) {
			names = append(names, e.EntityAttr.Name)
		}
	}
	return names
}

// keyTextAttrs is what Match reads of an item: each of names the item holds as
// a string, number or binary, as text.
func keyTextAttrs(it dynamo.Item, names []string) map[string]string {
	attrs := map[string]string{}
	for _, n := range names {
		switch v := it[n].(type) {
		case *types.AttributeValueMemberS:
			attrs[n] = v.Value
		case *types.AttributeValueMemberN:
			attrs[n] = v.Value
		case *types.AttributeValueMemberB:
			attrs[n] = base64.StdEncoding.EncodeToString(v.Value)
		}
	}
	return attrs
}

// keyText is an item's table key as examples print it: "CUST#42 / PROFILE".
func keyText(attrs map[string]string, tableKeys []string) string {
	parts := make([]string, 0, len(tableKeys))
	for _, k := range tableKeys {
		if v, ok := attrs[k]; ok {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " / ")
}

// entityIndexKeys are the key attributes of index ix that e declares, and
// those of them item holds (nil item: none).
func entityIndexKeys(e *entities.Entity, ix dynamo.Index, it dynamo.Item) (declared, present []string) {
	for _, k := range []*dynamo.KeyAttr{&ix.PK, ix.SK} {
		if k == nil {
			continue
		}
		if _, ok := e.Keys[k.Name]; !ok {
			continue
		}
		if slices.Contains(declared, k.Name) {
			continue
		}
		declared = append(declared, k.Name)
		if _, ok := it[k.Name]; ok && it != nil {
			present = append(present, k.Name)
		}
	}
	return declared, present
}

// shapeBreak says of the first of e's index keys attrs holds in another
// shape than e declares it which it is, "" when all hold.
func shapeBreak(e *entities.Entity, declared []string, attrs map[string]string) string {
	for _, a := range declared {
		if _, ok := e.Keys[a].Match(attrs[a], e.Params); !ok {
			return fmt.Sprintf("its %s is %s, not of %s", a, strconv.Quote(attrs[a]), e.Keys[a].Raw)
		}
	}
	return ""
}

func without(all, some []string) []string {
	var out []string
	for _, a := range all {
		if !slices.Contains(some, a) {
			out = append(out, a)
		}
	}
	return out
}

// typeBreak finds the entity whose table keys an unmatched item has the
// shape of, with a parameter whose value is not of its type: the entity,
// the parameter and its value. Of two, the more literal.
func (s *PatternSet) typeBreak(attrs map[string]string) (*entities.Entity, string, string, bool) {
	var best *entities.Entity
	var bestName, bestValue string
	bestLit := -1
	for _, e := range s.Entities.Entities {
		vals, lit, ok := shapeMatch(e, s.Entities.TableKeys(), attrs)
		if !ok || lit <= bestLit {
			continue
		}
		for _, name := range e.ParamOrder() {
			v, ok := vals[name]
			if !ok {
				continue
			}
			if err := e.Params[name].Check(v); err != nil {
				best, bestName, bestValue, bestLit = e, name, v, lit
				break
			}
		}
	}
	return best, bestName, bestValue, best != nil
}

// shapeMatch matches e's table keys against attrs by their literals alone
// (every placeholder as text), the same parameter the same wherever it
// is: the values, and how literal e's table keys are.
func shapeMatch(e *entities.Entity, tableKeys []string, attrs map[string]string) (map[string]string, int, bool) {
	vals, lit := map[string]string{}, 0
	matched := 0
	for _, a := range tableKeys {
		tpl, ok := e.Keys[a]
		if !ok {
			continue
		}
		v, ok := attrs[a]
		if !ok {
			return nil, 0, false
		}
		got, ok := tpl.Match(v, nil)
		if !ok {
			return nil, 0, false
		}
		for n, x := range got {
			if prev, seen := vals[n]; seen && prev != x {
				return nil, 0, false
			}
			vals[n] = x
		}
		lit += tpl.Literal()
		matched++
	}
	return vals, lit, matched > 0
}

// unmatched says of a key no entity matches which attribute breaks it (of
// the entity whose other table keys it matches, else the partition key),
// its shape ("ORDER|…"), a guess at why, and the line to point at: the
// guessed entity's, else the first entity's.
func (s *PatternSet) unmatched(attrs map[string]string) (attr, shape, guess string, line int) {
	set := s.Entities
	tk := set.TableKeys()
	line = set.Entities[0].Line
	attr = tk[0]
	// The attribute to blame: the first table key that some entity's
	// template does not match when the keys before it do.
	for _, e := range set.Entities {
		for i, a := range tk {
			tpl, ok := e.Keys[a]
			if !ok {
				continue
			}
			if _, ok := tpl.Match(attrs[a], nil); !ok {
				if i > 0 {
					attr = a
				}
				break
			}
		}
		if attr != tk[0] {
			break
		}
	}
	v := attrs[attr]
	c := keys.Classify(v, "#")
	shape = c.Prefix + "…"
	if c.Kind == keys.KindValue {
		shape = c.Entity
	} else if c.Exact {
		shape = c.Prefix
	}
	try := func(nv string) (*entities.Entity, bool) {
		alt := maps.Clone(attrs)
		alt[attr] = nv
		m, ok := set.Match(alt)
		if !ok {
			return nil, false
		}
		return m.Entity, true
	}
	for _, d := range keys.DelimitersIn(v) {
		for _, o := range keys.Delimiters {
			if o == d {
				continue
			}
			if e, ok := try(strings.ReplaceAll(v, d, o)); ok {
				return attr, shape, fmt.Sprintf("an old delimiter? (%s where %s's %s has %s)", d, e.Name, attr, o), e.Line
			}
		}
	}
	for _, nv := range []string{strings.ToUpper(v), strings.ToLower(v)} {
		if nv == v {
			continue
		}
		if e, ok := try(nv); ok {
			return attr, shape, fmt.Sprintf("a change of case? (%s's %s is %s)", e.Name, attr, e.Keys[attr].Raw), e.Line
		}
	}
	// The entity attribute disagreeing with a key of another entity.
	for _, e := range set.Entities {
		if e.EntityAttr == nil {
			continue
		}
		if got, has := attrs[e.EntityAttr.Name]; has {
			alt := maps.Clone(attrs)
			delete(alt, e.EntityAttr.Name)
			if m, ok := set.Match(alt); ok {
				return attr, shape, fmt.Sprintf("its %s says %s, but its key is of %s", e.EntityAttr.Name, strconv.Quote(got), m.Entity.Name), m.Entity.Line
			}
		}
	}
	return attr, shape, "", line
}
