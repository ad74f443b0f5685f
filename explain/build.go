package explain

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"dynascope/dynamo"
	"dynascope/entities"
)

// Typed is a key as typed (the command line's --pk and --sk, the UI's
// query): the partition key, and the sort key when hasSK, on ks of t.
func Typed(t dynamo.Table, ks dynamo.KeySchema, pk, sk string, hasSK bool) (Key, error) {
	k := Key{Attrs: []string{ks.PK.Name}, Values: []string{pk}}
	if hasSK {
		if ks.SK == nil {
			return Key{}, &dynamo.UserError{Msg: fmt.Sprintf("%s has no sort key, so --sk cannot apply; drop it.", Where(t.Name, ks.Index))}
		}
		k.Attrs, k.Values = append(k.Attrs, ks.SK.Name), append(k.Values, sk)
	}
	return k, nil
}

// Build is the key the application would build for e on ks from params:
// the partition key, and the sort key when every parameter of its
// template is given (none given: the partition alone is explained). An
// entity that declares no key on ks is a difference in itself (the
// index), said without a request.
func Build(e *entities.Entity, t dynamo.Table, ks dynamo.KeySchema, params map[string]string) (Key, *Diff, error) {
	if _, ok := e.Keys[ks.PK.Name]; !ok {
		return Key{}, &Diff{Kind: "index", Attr: ks.PK.Name,
			Message: fmt.Sprintf("%s declares no %s, the partition key of %s: its keys are %s, so no query on %s finds it",
				e.Name, ks.PK.Name, Where(t.Name, ks.Index), entityKeysText(e, t), IndexName(ks.Index))}, nil
	}
	pk, err := e.Build(params, ks.PK.Name)
	if err != nil {
		return Key{}, nil, &dynamo.UserError{Msg: sentence(err)}
	}
	k := Key{Attrs: []string{ks.PK.Name}, Values: []string{pk}}
	if ks.SK == nil {
		return k, nil, nil
	}
	tpl, ok := e.Keys[ks.SK.Name]
	if !ok {
		return k, nil, nil
	}
	given := 0
	for _, p := range tpl.Params() {
		if _, ok := params[p]; ok {
			given++
		}
	}
	if given == 0 && len(tpl.Params()) > 0 {
		return k, nil, nil
	}
	sk, err := e.Build(params, ks.SK.Name)
	if err != nil {
		return Key{}, nil, &dynamo.UserError{Msg: sentence(err)}
	}
	k.Attrs, k.Values = append(k.Attrs, ks.SK.Name), append(k.Values, sk)
	return k, nil, nil
}

// entityKeysText names where an entity's keys are: "PK, SK (the table) and
// GSI1PK, GSI1SK (GSI1)".
func entityKeysText(e *entities.Entity, t dynamo.Table) string {
	var parts []string
	for _, name := range append([]string{""}, indexNames(t)...) {
		ks, err := t.Schema(name)
		if err != nil {
			continue
		}
		if _, ok := e.Keys[ks.PK.Name]; !ok {
			continue
		}
		attrs := ks.PK.Name
		if ks.SK != nil {
			if _, ok := e.Keys[ks.SK.Name]; ok {
				attrs += ", " + ks.SK.Name
			}
		}
		parts = append(parts, attrs+" ("+IndexName(name)+")")
	}
	if len(parts) == 0 {
		return strings.Join(e.KeyOrder, ", ")
	}
	return strings.Join(parts, " and ")
}

func indexNames(t dynamo.Table) []string {
	names := make([]string, len(t.Indexes))
	for i, ix := range t.Indexes {
		names[i] = ix.Name
	}
	return names
}

// sentence is an error as one sentence: its text with a full stop.
func sentence(err error) string {
	return strings.TrimRight(err.Error(), ".") + "."
}

// Params are the parameters as given, a copy for the explanation.
func Params(params map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, params)
	return out
}

// Declared is what the declared entities make of a key as typed: the
// entities whose templates match every value of the key (the partition
// key alone when no sort key was given), and the parameters they decode,
// in the first entity's order; no entities when none matches its shape.
type Declared struct {
	Entities []string
	Params   []entities.Value
	// PKOnly: no entity matches the whole key, and these match its
	// partition key alone.
	PKOnly bool
}

// Declare matches k against set's entities, exactly (Template.Match);
// when none matches a key with a sort key, its partition key alone.
func Declare(set *entities.Set, k Key) Declared {
	d := declare(set, k)
	if len(d.Entities) == 0 && len(k.Values) > 1 {
		d = declare(set, Key{Attrs: k.Attrs[:1], Values: k.Values[:1]})
		d.PKOnly = len(d.Entities) > 0
	}
	return d
}

func declare(set *entities.Set, k Key) Declared {
	var d Declared
	if set == nil {
		return d
	}
	for _, e := range set.Entities {
		params, ok := matchKey(e, k)
		if !ok {
			continue
		}
		d.Entities = append(d.Entities, e.Name)
		for _, p := range e.ParamOrder() {
			v, has := params[p]
			if has && !slices.ContainsFunc(d.Params, func(x entities.Value) bool { return x.Name == p }) {
				d.Params = append(d.Params, entities.Value{Name: p, Value: v})
			}
		}
	}
	return d
}

// matchKey reads each of k's values by e's template of its attribute; a
// parameter two templates hold must agree.
func matchKey(e *entities.Entity, k Key) (map[string]string, bool) {
	params := map[string]string{}
	for i, a := range k.Attrs {
		tpl, ok := e.Keys[a]
		if !ok || i >= len(k.Values) {
			return nil, false
		}
		got, ok := tpl.Match(k.Values[i], e.Params)
		if !ok {
			return nil, false
		}
		for name, v := range got {
			if prev, seen := params[name]; seen && prev != v {
				return nil, false
			}
			params[name] = v
		}
	}
	return params, true
}
