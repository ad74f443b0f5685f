package patterns

// The file's entities: section, read by package entities and checked
// against the table's keys: the file's keys: when it has them, else the
// table DynamoDB described.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/textfmt"
)

// entityError turns an entities error into the file's line:column form.
func entityError(file string, err error) error {
	var ee *entities.Error
	if !errors.As(err, &ee) {
		return err
	}
	msg := ee.Msg
	if ee.Entity != "" {
		msg = "entity \"" + ee.Entity + "\": " + msg
	}
	return &PatternError{File: file, Line: ee.Line, Col: ee.Col, Msg: msg}
}

// keyNames are the table's key attributes (partition key first) and its
// indexes' key attributes, each once.
func keyNames(t dynamo.Table) (table, index []string) {
	table = []string{t.PK.Name}
	if t.SK != nil {
		table = append(table, t.SK.Name)
	}
	add := func(name string) {
		for _, n := range append(table, index...) {
			if n == name {
				return
			}
		}
		index = append(index, name)
	}
	for _, ix := range t.Indexes {
		add(ix.PK.Name)
		if ix.SK != nil {
			add(ix.SK.Name)
		}
	}
	return table, index
}

// CheckEntities holds the file's entities to the table's keys (from
// DescribeTable): every key attribute an entity declares is a key of the
// table or of an index. Nil when the file declares none.
func (s *PatternSet) CheckEntities(t dynamo.Table) error {
	if s.Entities == nil || len(s.Entities.Entities) == 0 {
		return nil
	}
	table, index := keyNames(t)
	return entityError(s.Path, s.Entities.SetKeys(table, index))
}

// bindEntity ties a pattern that names an entity (entity: Order) to its
// declaration: the entity must be declared; a pk left out is the entity's
// template of the partition key the pattern queries, and an sk left out
// (with pk) the condition that reads the entity's items (eq its template
// when it is all literal, else begins_with its literal beginning), both
// known only when the file has keys:; every placeholder of pk and sk is
// one of the entity's parameters.
func (s *PatternSet) bindEntity(p *Pattern, n *yaml.Node, fail patternFail) error {
	if p.Entity == "" {
		return nil
	}
	line := p.lines["entity"]
	e := s.Entities.Find(p.Entity)
	if e == nil {
		names := s.Entities.Names()
		if len(names) == 0 {
			return fail(line, "entity %q is not declared; the file has no entities: section", p.Entity)
		}
		return fail(line, "entity %q is not declared%s; the entities are %s", p.Entity, textfmt.Suggest(p.Entity, names), strings.Join(names, ", "))
	}
	p.entity = e
	if _, given := p.lines["pk"]; !given {
		pkAttr, skAttr, ok := s.queriedKeys(p.Index)
		if !ok {
			return fail(n.Line, "it has no pk, and the file has no keys: to say which attribute is %s's partition key; write pk: or add keys:", where(p.Index))
		}
		t, ok := e.Keys[pkAttr]
		if !ok {
			return fail(line, "entity %s declares no %s, the partition key of %s; write pk:", e.Name, pkAttr, where(p.Index))
		}
		p.PK = t.Raw
		p.lines["pk"] = line
		if st, ok := e.Keys[skAttr]; ok && skAttr != "" && p.SK.Op == dynamo.SKNone {
			if len(st.Params()) == 0 {
				p.SK = dynamo.SKCond{Op: dynamo.SKEq, Values: []string{st.Raw}}
			} else if pre := st.Prefix(); pre != "" {
				p.SK = dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{escapeTemplate(pre)}}
			}
			p.lines["sk"] = line
		}
	}
	for _, name := range p.keyParameters() {
		if _, ok := e.Params[name]; !ok {
			field := "pk"
			if !slices.Contains(templateParams(p.PK), name) {
				field = "sk"
			}
			return fail(p.lines[field], "%s uses {%s}, which entity %s does not declare; its parameters are %s", field, name, e.Name, strings.Join(e.ParamOrder(), ", "))
		}
	}
	return nil
}

// where names the table or the index, for a sentence.
func where(index string) string {
	if index == "" {
		return "the table"
	}
	return "index " + index
}

// queriedKeys are the partition and sort key attributes of the table or
// index a pattern queries, from the file's keys:.
func (s *PatternSet) queriedKeys(index string) (pk, sk string, ok bool) {
	if s.Keys == nil {
		return "", "", false
	}
	ks := s.Keys.Table
	if index != "" {
		i := slices.IndexFunc(s.Keys.Indexes, func(x dynamo.Index) bool { return x.Name == index })
		if i < 0 {
			return "", "", false
		}
		ks = dynamo.KeySchema{PK: s.Keys.Indexes[i].PK, SK: s.Keys.Indexes[i].SK}
	}
	if ks.SK != nil {
		sk = ks.SK.Name
	}
	return ks.PK.Name, sk, true
}

// keyParameters are the placeholders of pk and sk, in order.
func (p Pattern) keyParameters() []string {
	names := templateParams(p.PK)
	for _, v := range p.SK.Values {
		for _, n := range templateParams(v) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// templateParams are a template's placeholders (none when it is malformed;
// parameters says so).
func templateParams(s string) []string {
	var names []string
	parts, _ := parseTemplate(s)
	for _, part := range parts {
		if part.Param && !slices.Contains(names, part.Text) {
			names = append(names, part.Text)
		}
	}
	return names
}

// typedParams checks and normalises the values of the entity's parameters
// (a padded number padded, as the application pads it); the other values
// are kept as given. Without an entity, params is returned as it is.
func (p Pattern) typedParams(params map[string]string) (map[string]string, error) {
	if p.entity == nil {
		return params, nil
	}
	out := maps.Clone(params)
	for _, name := range p.keyParameters() {
		v, ok := params[name]
		if !ok {
			continue
		}
		n, err := p.entity.Params[name].Normalize(v)
		if err != nil {
			return nil, fmt.Errorf("%s (entity %s)", strings.TrimRight(err.Error(), "."), p.Entity)
		}
		out[name] = n
	}
	return out, nil
}

// ParamType is the declared type of a parameter of the pattern's entity,
// as the file writes it ("number", "padded 5", "id ulid"); "" when the
// pattern names no entity or the entity does not declare it.
func (p Pattern) ParamType(name string) string {
	if p.entity == nil {
		return ""
	}
	q, ok := p.entity.Params[name]
	if !ok {
		return ""
	}
	switch q.Type {
	case entities.Padded:
		return fmt.Sprintf("padded %d", q.Width)
	case entities.ID:
		return "id " + q.Shape
	}
	return string(q.Type)
}
