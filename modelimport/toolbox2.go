package modelimport

import (
	"fmt"
	"slices"
	"strings"
)

// DynamoDB-Toolbox v1 and later (the schema builder: item({...}) with
// .key(), .savedAs(), .link() and transformers) come in two forms: the
// Entity itself, loaded from a JS module (attributes with their props and
// links as functions), and the EntityDTO JSON (entity.build(EntityDTO)),
// where a link or a computed default is only {linkerId: 'custom'}. A key is
// derived from a link or default that is a plain template string, from a
// value default, and from the prefix and suffix transformers; the rest is
// said, not guessed.

// isToolboxSchema tells such an entity: its name, its table's partition
// key, and attributes.
func isToolboxSchema(v *value) bool {
	return v != nil && v.kind == 'o' && v.text("entityName") != "" && v.get("table").get("partitionKey").text("name") != "" &&
		toolboxAttrs(v) != nil
}

// toolboxAttrs are the entity's attributes: the instance's own, or the
// DTO's schema's.
func toolboxAttrs(v *value) *value {
	if a := v.get("attributes"); a != nil && a.kind == 'o' {
		return a
	}
	if a := v.get("schema").get("attributes"); a != nil && a.kind == 'o' {
		return a
	}
	return nil
}

// toolboxProp is one of an attribute's props: the instance keeps them in
// props, the DTO beside its type.
func toolboxProp(a *value, name string) *value {
	if p := a.get("props"); p != nil && p.kind == 'o' {
		return p.get(name)
	}
	return a.get(name)
}

func readToolboxSchemas(defs []*value) (*Result, error) {
	return readEach("DynamoDB-Toolbox", defs, toolboxSchemaEntity)
}

var toolboxSchemaTypes = []string{"string", "number", "boolean", "binary", "null", "any", "set", "list", "map", "record", "tuple", "anyOf", "item"}

func toolboxSchemaEntity(d *value) (*Entity, error) {
	name := d.text("entityName")
	e := &Entity{Name: name}
	table := d.get("table")
	if ea := d.get("entityAttribute"); ea == nil || ea.kind != 'b' || ea.boolean {
		attr := table.text("entityAttributeSavedAs")
		if attr == "" {
			attr = toolboxEntityAttr
		}
		e.EntityAttr = &Attr{Name: attr, Value: name}
	}
	attrs := toolboxAttrs(d)
	dto := d.get("attributes") == nil // the EntityDTO keeps them in its schema
	for _, a := range attrs.members {
		if t := a.val.text("type"); !slices.Contains(toolboxSchemaTypes, t) {
			return nil, fmt.Errorf("DynamoDB-Toolbox entity %s: attribute %s has the unknown type %q (its types are %s)", name, a.name, t, strings.Join(toolboxSchemaTypes, ", "))
		}
	}
	savedAs := func(m member) string {
		if s := toolboxProp(m.val, "savedAs"); s != nil && s.kind == 's' {
			return s.str
		}
		return m.name
	}
	find := func(attr string) (member, bool) {
		for _, m := range attrs.members {
			if savedAs(m) == attr {
				return m, true
			}
		}
		return member{}, false
	}
	typeOf := func(n string) Param {
		a := attrs.get(n)
		switch a.text("type") {
		case "number":
			return Param{Type: "number"}
		case "string", "boolean", "":
			return Param{Type: "text"}
		}
		e.note("%s is a %s, whose text in a key is not derivable; read as text", n, a.text("type"))
		return Param{Type: "text"}
	}
	type slot struct {
		attr  string
		table bool
	}
	slots := []slot{{table.get("partitionKey").text("name"), true}}
	if sk := table.get("sortKey").text("name"); sk != "" {
		slots = append(slots, slot{sk, true})
	}
	if ix := table.get("indexes"); ix != nil {
		for _, m := range ix.members {
			for _, k := range []string{"partitionKey", "sortKey"} {
				if n := m.val.get(k).text("name"); n != "" {
					slots = append(slots, slot{n, false})
				}
			}
		}
	}
	for _, s := range slots {
		if e.hasKey(s.attr) {
			continue
		}
		m, ok := find(s.attr)
		if !ok {
			if s.table && d.get("computeKey") != nil {
				e.note("%s is built by computeKey, a function, so it could not be derived; it is left out", s.attr)
			}
			continue
		}
		segs, why := toolboxSchemaKey(m, s.table)
		if segs == nil {
			e.note("%s's %s", s.attr, why)
			continue
		}
		if dto && len(segs) == 1 && segs[0].Param == m.name && !s.table {
			e.note("%s has no default in the DTO, which does not carry links; it is read as the value given, and if it is linked, import the module that defines the entity instead", s.attr)
		}
		e.addKey(s.attr, !s.table, segs, typeOf)
		// An attribute is required unless .optional() (required: never);
		// an optional one with no default or link is absent from items
		// put without it.
		if req := toolboxProp(m.val, "required"); !s.table && req != nil && req.kind == 's' && req.str == "never" && len(segs) == 1 && segs[0].Param == m.name {
			e.optional()
		}
	}
	return e, nil
}

// toolboxSchemaKey derives an attribute's stored value, or says why not.
func toolboxSchemaKey(m member, isKey bool) ([]Segment, string) {
	modes := []string{"putLink", "putDefault"}
	if isKey {
		modes = []string{"keyLink", "putLink", "keyDefault", "putDefault"}
	}
	core := []Segment{param(m.name)}
	for _, mode := range modes {
		p := toolboxProp(m.val, mode)
		if p == nil {
			continue
		}
		if _, src, ok := p.fn(); ok {
			segs, ok := templateOfFunc(src)
			if !ok {
				return nil, fmt.Sprintf("%s is a function that is not a plain template string, so it could not be derived; it is left out", strings.TrimSuffix(strings.TrimSuffix(mode, "Default"), "Link")+" "+kindOf(mode))
			}
			core = segs
			break
		}
		if p.text("linkerId") == "custom" || p.text("defaulterId") == "custom" {
			return nil, fmt.Sprintf("%s is a function the DTO does not carry, so it could not be derived; import the module that defines the entity instead; it is left out", kindOf(mode))
		}
		if v := p.get("value"); p.text("defaulterId") == "value" && v != nil && (v.kind == 's' || v.kind == 'n') {
			core = []Segment{lit(v.str)}
			break
		}
		if p.kind == 's' || p.kind == 'n' {
			core = []Segment{lit(p.str)}
			break
		}
		return nil, kindOf(mode) + " is neither a value nor a function; it is left out"
	}
	t := toolboxProp(m.val, "transform")
	if t == nil {
		return core, ""
	}
	segs, ok := transformed(t, core)
	if !ok {
		return nil, "value passes through a custom transformer, so it could not be derived; it is left out"
	}
	return segs, ""
}

func kindOf(mode string) string {
	if strings.HasSuffix(mode, "Link") {
		return "link"
	}
	return "default"
}

// transformed applies Toolbox's serializable transformers to a template:
// prefix (prefix + delimiter + value), suffix (value + delimiter + suffix)
// and a pipe of them.
func transformed(t *value, core []Segment) ([]Segment, bool) {
	delim := func() string {
		if d := t.get("delimiter"); d != nil && d.kind == 's' {
			return d.str
		}
		return "#"
	}
	switch t.text("transformerId") {
	case "prefix":
		return append([]Segment{lit(t.text("prefix") + delim())}, core...), true
	case "suffix":
		return append(core, lit(delim()+t.text("suffix"))), true
	case "pipe":
		list := t.get("transformers")
		if list == nil || list.kind != 'a' {
			return nil, false
		}
		for _, x := range list.items {
			var ok bool
			if core, ok = transformed(x, core); !ok {
				return nil, false
			}
		}
		return core, true
	}
	return nil, false
}
