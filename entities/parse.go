package entities

// The entities: section read from its YAML node, with the line and column
// of every mistake, and checked against the table's keys.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/textfmt"
	"dynascope/yamlfile"
)

// Error is a mistake in the entities: section: one sentence, at a line and
// column of the file (0 when unknown).
type Error struct {
	Line, Col int
	Entity    string // the entity it is in, "" when none
	Msg       string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Col)
	}
	if e.Entity != "" {
		fmt.Fprintf(&b, "entity %q: ", e.Entity)
	}
	b.WriteString(strings.TrimRight(e.Msg, "."))
	b.WriteByte('.')
	return b.String()
}

// entityFields are the fields an entity may have.
var entityFields = []string{"name", "keys", "params", "entityAttribute", "optional"}

// Parse reads the entities: section (node is its value: a list with one
// mapping per entity; null is no entity). Until SetKeys gives the table's
// keys, the key attributes every entity declares are taken as the table's.
func Parse(node *yaml.Node) (*Set, error) {
	s := &Set{}
	if node == nil {
		return s, nil
	}
	node = yamlfile.Deref(node)
	if node.Kind == yaml.ScalarNode && node.Tag == "!!null" {
		return s, nil
	}
	if node.Kind != yaml.SequenceNode {
		return nil, &Error{Line: node.Line, Col: node.Column, Msg: "entities: must be a list with one item (- name: ...) per entity"}
	}
	lines := map[string]int{}
	for _, item := range node.Content {
		e, err := parseEntity(yamlfile.Deref(item))
		if err != nil {
			return nil, err
		}
		if first, dup := lines[e.Name]; dup {
			return nil, &Error{Line: e.Line, Col: e.Col, Entity: e.Name, Msg: fmt.Sprintf("the name is used twice (first at line %d); entity names must be unique", first)}
		}
		lines[e.Name] = e.Line
		s.Entities = append(s.Entities, e)
	}
	return s, s.arrange()
}

// SetKeys gives the table's key attributes (partition key first) and those
// of its indexes, and checks the entities against them: every key an
// entity declares is one of them, and every entity declares the table's
// partition key.
func (s *Set) SetKeys(table, index []string) error {
	s.tableKeys = slices.Clone(table)
	s.indexKeys = slices.Clone(index)
	all := append(slices.Clone(table), index...)
	for _, e := range s.Entities {
		for _, a := range e.KeyOrder {
			if !slices.Contains(all, a) {
				at := e.keyLines[a]
				return &Error{Line: at[0], Col: at[1], Entity: e.Name, Msg: fmt.Sprintf("%s is not a key attribute of the table or of an index%s; the key attributes are %s", a, textfmt.Suggest(a, all), strings.Join(all, ", "))}
			}
		}
		for _, a := range e.Optional {
			if slices.Contains(table, a) {
				at := e.keyLines["optional "+a]
				return &Error{Line: at[0], Col: at[1], Entity: e.Name, Msg: fmt.Sprintf("optional: lists %s, a key of the table; every item has the table's keys, so only index keys can be optional", a)}
			}
		}
		if len(table) > 0 {
			if _, ok := e.Keys[table[0]]; !ok {
				return &Error{Line: e.Line, Col: e.Col, Entity: e.Name, Msg: fmt.Sprintf("it declares no template for the table's partition key %s, so no item can be of it", table[0])}
			}
		}
	}
	return s.arrange()
}

// arrange orders the entities for Match, the more literal first (file
// order among equals), and refuses two equally literal entities that could
// match one key.
func (s *Set) arrange() error {
	score := map[*Entity]int{}
	for _, e := range s.Entities {
		for _, a := range e.KeyOrder {
			if s.isTableKey(a) {
				score[e] += e.Keys[a].Literal()
			}
		}
	}
	s.order = slices.Clone(s.Entities)
	slices.SortStableFunc(s.order, func(a, b *Entity) int { return score[b] - score[a] })
	for i, a := range s.Entities {
		for _, b := range s.Entities[i+1:] {
			if score[a] == score[b] && s.couldOverlap(a, b) {
				return &Error{Line: b.Line, Col: b.Col, Entity: b.Name, Msg: fmt.Sprintf("it and %s (line %d) could both match one key (%s against %s), and neither is more literal; make one key more literal, or give both an entityAttribute with different values", a.Name, a.Line, s.keysText(b), s.keysText(a))}
			}
		}
	}
	return nil
}

// keysText is e's table key templates, for an error: `PK "CUST#{id}", SK "PROFILE"`.
func (s *Set) keysText(e *Entity) string {
	var parts []string
	for _, a := range e.KeyOrder {
		if s.isTableKey(a) {
			parts = append(parts, a+" "+strconv.Quote(e.Keys[a].Raw))
		}
	}
	return strings.Join(parts, ", ")
}

// couldOverlap tells whether one item's keys could match both a and b.
// It errs towards yes: two templates are told apart only by a literal key
// one has and the other does not match, or by their leading or trailing
// literal text.
func (s *Set) couldOverlap(a, b *Entity) bool {
	if a.EntityAttr != nil && b.EntityAttr != nil && a.EntityAttr.Name == b.EntityAttr.Name && a.EntityAttr.Value != b.EntityAttr.Value {
		return false
	}
	for _, attr := range a.KeyOrder {
		tb, ok := b.Keys[attr]
		if !ok || !s.isTableKey(attr) {
			continue
		}
		if !templatesOverlap(a.Keys[attr], a.Params, tb, b.Params) {
			return false
		}
	}
	return true
}

func templatesOverlap(ta Template, pa map[string]Param, tb Template, pb map[string]Param) bool {
	if ta.literalOnly() {
		v, _ := ta.Fill(nil)
		_, ok := tb.Match(v, pb)
		return ok
	}
	if tb.literalOnly() {
		v, _ := tb.Fill(nil)
		_, ok := ta.Match(v, pa)
		return ok
	}
	prefix := strings.HasPrefix(ta.Prefix(), tb.Prefix()) || strings.HasPrefix(tb.Prefix(), ta.Prefix())
	suffix := strings.HasSuffix(ta.suffix(), tb.suffix()) || strings.HasSuffix(tb.suffix(), ta.suffix())
	return prefix && suffix
}

// parseEntity reads one entity's mapping: its name first, so that every
// other error can name it; each field; then what they must give together.
func parseEntity(n *yaml.Node) (*Entity, error) {
	e := &Entity{Line: n.Line, Col: n.Column, Keys: map[string]Template{}, Params: map[string]Param{}, keyLines: map[string][2]int{}}
	fail := func(at *yaml.Node, format string, a ...any) error {
		return &Error{Line: at.Line, Col: at.Column, Entity: e.Name, Msg: fmt.Sprintf(format, a...)}
	}
	if n.Kind != yaml.MappingNode {
		return nil, fail(n, "each entity must be a mapping (name:, keys:, params:)")
	}
	seen := map[string]bool{}
	var keysNode, paramsNode, optionalNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlfile.Deref(n.Content[i+1])
		if seen[k.Value] {
			return nil, fail(k, "field %q is given twice", k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "name":
			if !yamlfile.IsText(v) || v.Value == "" {
				return nil, fail(v, "name must be the entity's name, not %s", yamlfile.Kind(v))
			}
			e.Name = v.Value
		case "keys":
			keysNode = v
		case "params":
			paramsNode = v
		case "optional":
			optionalNode = v
		case "entityAttribute":
			a, err := parseAttr(v)
			if err != nil {
				return nil, err
			}
			e.EntityAttr = a
		default:
			return nil, fail(k, "unknown field %q%s; an entity has %s", k.Value, textfmt.Suggest(k.Value, entityFields), strings.Join(entityFields, ", "))
		}
	}
	if e.Name == "" {
		return nil, fail(n, "it has no name; give it one with name: (it is how the types are named)")
	}
	if keysNode == nil {
		return nil, fail(n, "it has no keys: give the template of each key attribute, e.g. keys: {PK: \"CUST#{customerId}\"}")
	}
	if err := e.parseKeys(keysNode, fail); err != nil {
		return nil, err
	}
	if paramsNode != nil {
		if err := e.parseParams(paramsNode, fail); err != nil {
			return nil, err
		}
	}
	if optionalNode != nil {
		if err := e.parseOptional(optionalNode, fail); err != nil {
			return nil, err
		}
	}
	return e, e.checkParams(n, paramsNode, fail)
}

type failFunc func(at *yaml.Node, format string, a ...any) error

func (e *Entity) parseKeys(v *yaml.Node, fail failFunc) error {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		return fail(v, "keys: must map each key attribute to its template, e.g. {PK: \"CUST#{customerId}\", SK: PROFILE}, not %s", yamlfile.Kind(v))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, t := v.Content[i], yamlfile.Deref(v.Content[i+1])
		if _, dup := e.Keys[k.Value]; dup {
			return fail(k, "keys gives %s twice", k.Value)
		}
		if !yamlfile.IsText(t) {
			return fail(t, "the template of %s must be text such as \"CUST#{customerId}\", not %s", k.Value, yamlfile.Kind(t))
		}
		tpl, err := ParseTemplate(t.Value)
		if err != nil {
			return fail(t, "%s: %s", k.Value, err)
		}
		e.Keys[k.Value] = tpl
		e.KeyOrder = append(e.KeyOrder, k.Value)
		e.keyLines[k.Value] = [2]int{k.Line, k.Column}
	}
	return nil
}

// parseOptional reads optional: [GSI1PK, GSI1SK]: key attributes of keys:.
func (e *Entity) parseOptional(v *yaml.Node, fail failFunc) error {
	if v.Kind != yaml.SequenceNode {
		return fail(v, "optional: must list the index key attributes the entity's items may lack, e.g. [GSI1PK, GSI1SK], not %s", yamlfile.Kind(v))
	}
	for _, n := range v.Content {
		n = yamlfile.Deref(n)
		if !yamlfile.IsText(n) {
			return fail(n, "optional: lists %s; give key attribute names", yamlfile.Kind(n))
		}
		if _, ok := e.Keys[n.Value]; !ok {
			return fail(n, "optional: lists %s, which keys: does not declare%s", n.Value, textfmt.Suggest(n.Value, e.KeyOrder))
		}
		if slices.Contains(e.Optional, n.Value) {
			return fail(n, "optional: lists %s twice", n.Value)
		}
		e.Optional = append(e.Optional, n.Value)
		e.keyLines["optional "+n.Value] = [2]int{n.Line, n.Column}
	}
	return nil
}

func (e *Entity) parseParams(v *yaml.Node, fail failFunc) error {
	if v.Kind != yaml.MappingNode {
		return fail(v, "params: must map each placeholder to its type, e.g. {customerId: number}, not %s", yamlfile.Kind(v))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, t := v.Content[i], yamlfile.Deref(v.Content[i+1])
		if _, dup := e.Params[k.Value]; dup {
			return fail(k, "params gives %s twice", k.Value)
		}
		p, err := parseParam(k, t, fail)
		if err != nil {
			return err
		}
		e.Params[k.Value] = p
	}
	return nil
}

// parseParam reads `number` or `{type: padded, width: 5}`.
func parseParam(k, v *yaml.Node, fail failFunc) (Param, error) {
	p := Param{Name: k.Value, Line: k.Line, Col: k.Column}
	typeNode := v
	var width, shape *yaml.Node
	if v.Kind == yaml.MappingNode {
		typeNode = nil
		for i := 0; i+1 < len(v.Content); i += 2 {
			f, fv := v.Content[i], yamlfile.Deref(v.Content[i+1])
			switch f.Value {
			case "type":
				typeNode = fv
			case "width":
				width = fv
			case "shape":
				shape = fv
			default:
				return p, fail(f, "%s: unknown field %q%s; a parameter has type:, width: (padded) and shape: (id)", k.Value, f.Value, textfmt.Suggest(f.Value, []string{"type", "width", "shape"}))
			}
		}
		if typeNode == nil {
			return p, fail(v, "%s has no type:; give one of %s", k.Value, typeList())
		}
	}
	if !yamlfile.IsText(typeNode) {
		return p, fail(typeNode, "the type of %s must be one of %s, not %s", k.Value, typeList(), yamlfile.Kind(typeNode))
	}
	p.Type = Type(typeNode.Value)
	if !slices.Contains(Types, p.Type) {
		names := make([]string, len(Types))
		for i, t := range Types {
			names[i] = string(t)
		}
		return p, fail(typeNode, "%s has the unknown type %q%s; the types are %s", k.Value, typeNode.Value, textfmt.Suggest(typeNode.Value, names), typeList())
	}
	if width != nil && p.Type != Padded {
		return p, fail(width, "%s: width: is for a padded number, and %s is %s", k.Value, k.Value, p.Type)
	}
	if shape != nil && p.Type != ID {
		return p, fail(shape, "%s: shape: is for an id, and %s is %s", k.Value, k.Value, p.Type)
	}
	switch p.Type {
	case Padded:
		if width == nil {
			return p, fail(v, "%s is padded and needs its width: {type: padded, width: 5}", k.Value)
		}
		w, err := strconv.Atoi(width.Value)
		if width.Kind != yaml.ScalarNode || err != nil || w < 1 || w > 38 {
			return p, fail(width, "the width of %s must be a whole number from 1 to 38, not %s", k.Value, yamlfile.Kind(width))
		}
		p.Width = w
	case ID:
		p.Shape = Any
		if shape != nil {
			if !yamlfile.IsText(shape) || !slices.Contains(Shapes, shape.Value) {
				return p, fail(shape, "%s has the unknown id shape %s%s; the shapes are %s", k.Value, yamlfile.Kind(shape), textfmt.Suggest(shape.Value, Shapes), strings.Join(Shapes, ", "))
			}
			p.Shape = shape.Value
		}
	}
	return p, nil
}

func typeList() string {
	return "text, number, date, datetime, {type: padded, width: N} and {type: id, shape: uuid|ulid|ksuid|hex|any}"
}

// checkParams requires every placeholder declared and every declared
// parameter used, and placeholders that touch to be told apart.
func (e *Entity) checkParams(n, paramsNode *yaml.Node, fail failFunc) error {
	for _, a := range e.KeyOrder {
		t := e.Keys[a]
		for _, name := range t.Params() {
			if _, ok := e.Params[name]; !ok {
				at := n
				if paramsNode != nil {
					at = paramsNode
				}
				return fail(at, "the key %s (%s) uses {%s}, which params: does not declare; add %s: text (or its type)", a, t.Raw, name, name)
			}
		}
		for i := 0; i+1 < len(t.parts); i++ {
			if p := t.parts[i]; p.param != "" && t.parts[i+1].param != "" && e.Params[p.param].width() == 0 {
				at := e.keyLines[a]
				return &Error{Line: at[0], Col: at[1], Entity: e.Name, Msg: fmt.Sprintf("the key %s (%s) has {%s} right before {%s} with nothing between, and %s has no fixed width, so a key cannot be split; put a literal between them", a, t.Raw, p.param, t.parts[i+1].param, p.param)}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Params)) {
		used := false
		for _, t := range e.Keys {
			used = used || slices.Contains(t.Params(), name)
		}
		if !used {
			p := e.Params[name]
			return &Error{Line: p.Line, Col: p.Col, Entity: e.Name, Msg: fmt.Sprintf("params declares %s, which no key uses; remove it or use {%s} in a key", name, name)}
		}
	}
	return nil
}

// parseAttr reads entityAttribute: {name: _type, value: Order}.
func parseAttr(v *yaml.Node) (*Attr, error) {
	const shape = "entityAttribute must be {name: ATTRIBUTE, value: VALUE}, e.g. {name: _type, value: Order}"
	if v.Kind != yaml.MappingNode {
		return nil, &Error{Line: v.Line, Col: v.Column, Msg: shape + ", not " + yamlfile.Kind(v)}
	}
	a := &Attr{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, fv := v.Content[i], yamlfile.Deref(v.Content[i+1])
		if !yamlfile.IsText(fv) {
			return nil, &Error{Line: fv.Line, Col: fv.Column, Msg: shape}
		}
		switch k.Value {
		case "name":
			a.Name = fv.Value
		case "value":
			a.Value = fv.Value
		default:
			return nil, &Error{Line: k.Line, Col: k.Column, Msg: fmt.Sprintf("unknown field %q in entityAttribute%s; %s", k.Value, textfmt.Suggest(k.Value, []string{"name", "value"}), shape)}
		}
	}
	if a.Name == "" || a.Value == "" {
		return nil, &Error{Line: v.Line, Col: v.Column, Msg: shape}
	}
	return a, nil
}
