package modelimport

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// toolboxEntityAttr is the attribute DynamoDB-Toolbox writes the entity's
// name to, unless the entity names another (entityField).
const toolboxEntityAttr = "_et"

// isToolbox tells a DynamoDB-Toolbox (v0.x) entity definition: a name and
// attributes of which one is the partition key.
func isToolbox(v *value) bool {
	if v == nil || v.kind != 'o' || v.text("name") == "" || v.get("attributes") == nil || v.get("attributes").kind != 'o' {
		return false
	}
	for _, a := range v.get("attributes").members {
		if a.val.has("partitionKey") {
			return true
		}
	}
	return false
}

// readToolbox reads DynamoDB-Toolbox entity definitions. A key is derived
// when its attribute has a string default, a default function that is a
// plain template string over the item's fields, composite-key attributes
// mapped onto it ([key, position]), or no default at all (the key is the
// value given); a prefix and suffix are kept. The key attribute's name is
// the table's (the definition's table: partitionKey, sortKey, indexes) and
// the attribute's own name when the table is not in the file.
func readToolbox(defs []*value) (*Result, error) {
	return readEach("DynamoDB-Toolbox", defs, toolboxEntity)
}

var toolboxTypes = []string{"string", "boolean", "number", "list", "map", "binary", "set"}

func toolboxEntity(d *value) (*Entity, error) {
	name := d.text("name")
	e := &Entity{Name: name}
	field := d.text("entityField")
	if field == "" {
		field = toolboxEntityAttr
	}
	if ef := d.get("entityField"); ef == nil || ef.kind != 'b' || ef.boolean {
		e.EntityAttr = &Attr{Name: field, Value: name}
	}
	attrs := d.get("attributes")
	table := d.get("table")
	typeOf := func(n string) (string, error) {
		a := attrs.get(n)
		var t *value
		switch {
		case a == nil:
			return "string", nil
		case a.kind == 's':
			t = a
		case a.kind == 'a':
			if len(a.items) > 2 {
				if a.items[2].kind == 's' {
					t = a.items[2]
				} else {
					t = a.items[2].get("type")
				}
			}
		case a.kind == 'o':
			t = a.get("type")
		}
		if t == nil {
			return "string", nil
		}
		if t.kind == 's' && slices.Contains(toolboxTypes, t.str) {
			return t.str, nil
		}
		return "", fmt.Errorf("DynamoDB-Toolbox entity %s: attribute %s has the unknown type %s (its types are %s)", name, n, toolboxTypeText(t), strings.Join(toolboxTypes, ", "))
	}
	for _, a := range attrs.members {
		if _, err := typeOf(a.name); err != nil {
			return nil, err
		}
	}
	param := func(n string) Param {
		t, _ := typeOf(n)
		switch t {
		case "number":
			return Param{Type: "number"}
		case "string", "boolean":
			return Param{Type: "text"}
		}
		e.note("%s is a %s, whose text in a key is not derivable; read as text", n, t)
		return Param{Type: "text"}
	}
	// Keys in the table's order: its partition and sort key, then each
	// index's.
	type role struct {
		attr, tableAttr string
		index           bool // a secondary index's key
		order           int
	}
	var roles []role
	keyName := func(idx string, sort bool) (string, int) {
		pos := 0
		if sort {
			pos = 1
		}
		if idx == "" {
			k := "partitionKey"
			if sort {
				k = "sortKey"
			}
			return table.text(k), pos
		}
		ix := table.get("indexes")
		for i, m := range ix.members {
			if m.name == idx {
				k := "partitionKey"
				if sort {
					k = "sortKey"
				}
				return m.val.text(k), 2 + 2*i + pos
			}
		}
		return "", 1000 + pos
	}
	for i, a := range attrs.members {
		if a.val.kind != 'o' {
			continue
		}
		for _, which := range []string{"partitionKey", "sortKey"} {
			r := a.val.get(which)
			if r == nil {
				continue
			}
			var idxs []string
			switch r.kind {
			case 'b':
				if r.boolean {
					idxs = []string{""}
				}
			case 's':
				idxs = []string{r.str}
			case 'a':
				for _, x := range r.items {
					if x.kind == 'b' && x.boolean {
						idxs = append(idxs, "")
					} else if x.kind == 's' {
						idxs = append(idxs, x.str)
					}
				}
			}
			for _, idx := range idxs {
				tableAttr, order := keyName(idx, which == "sortKey")
				if tableAttr == "" {
					tableAttr = a.name
					order += 100 * i
				}
				roles = append(roles, role{a.name, tableAttr, idx != "", order})
			}
		}
	}
	slices.SortStableFunc(roles, func(x, y role) int { return x.order - y.order })
	for _, r := range roles {
		segs, why := toolboxKey(attrs, r.attr)
		if segs == nil {
			e.note("%s's %s", r.tableAttr, why)
			continue
		}
		if !e.hasKey(r.tableAttr) {
			e.addKey(r.tableAttr, r.index, segs, param)
			// An index key with no default that the entity does not
			// require is missing from the items put without it.
			if a := attrs.get(r.attr); r.index && a.kind == 'o' && !a.has("default") && !toolboxRequired(a.get("required")) {
				e.optional()
			}
		}
	}
	return e, nil
}

func toolboxTypeText(t *value) string {
	if t.kind == 's' {
		return strconv.Quote(t.str)
	}
	return "that is not a name"
}

// toolboxKey derives the value of key attribute n, or says why it cannot.
func toolboxKey(attrs *value, n string) ([]Segment, string) {
	a := attrs.get(n)
	// Composite keys: attributes mapped onto n by position.
	type part struct {
		pos  int
		name string
	}
	var parts []part
	for _, m := range attrs.members {
		if m.val.kind == 'a' && len(m.val.items) >= 2 && m.val.items[0].kind == 's' && m.val.items[0].str == n && m.val.items[1].kind == 'n' {
			pos, _ := strconv.Atoi(m.val.items[1].str)
			parts = append(parts, part{pos, m.name})
		}
	}
	var core []Segment
	switch def := a.get("default"); {
	case len(parts) > 0:
		slices.SortStableFunc(parts, func(x, y part) int { return x.pos - y.pos })
		delim := a.text("delimiter")
		if delim == "" {
			delim = "#"
		}
		for i, p := range parts {
			if i > 0 {
				core = append(core, lit(delim))
			}
			core = append(core, param(p.name))
		}
	case def == nil:
		core = []Segment{param(n)}
	case def.kind == 's' || def.kind == 'n':
		core = []Segment{lit(def.str)}
	default:
		_, src, ok := def.fn()
		if !ok {
			return nil, "default is not a value or a function; it is left out"
		}
		segs, ok := templateOfFunc(src)
		if !ok {
			return nil, "default is a function that is not a plain template string, so it could not be derived; it is left out"
		}
		core = segs
	}
	if a.has("transform") {
		return nil, "value passes through a transform function, so it could not be derived; it is left out"
	}
	return append(append([]Segment{lit(a.text("prefix"))}, core...), lit(a.text("suffix"))), ""
}

// toolboxRequired tells required: true or "always".
func toolboxRequired(r *value) bool {
	return r != nil && ((r.kind == 'b' && r.boolean) || (r.kind == 's' && r.str == "always"))
}
