package modelimport

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ElectroDB's entity identifiers: every item it writes names its entity and
// the entity's version in these attributes.
const (
	electroEntityAttr  = "__edb_e__"
	electroVersionAttr = "__edb_v__"
)

// electroModel returns the ElectroDB model v holds: the model itself (v1:
// model.entity, or the older form with entity and service at the top), or
// an Entity instance's schema.
func electroModel(v *value) *value {
	if v == nil || v.kind != 'o' {
		return nil
	}
	if s := v.get("schema"); s != nil && s.get("attributes") != nil && (s.get("model") != nil || s.text("entity") != "") {
		v = s
	}
	if v.get("attributes") == nil || v.get("indexes") == nil {
		return nil
	}
	if v.get("model").text("entity") != "" || v.text("entity") != "" {
		return v
	}
	return nil
}

// readElectroDB reads ElectroDB entity models, in their order.
func readElectroDB(models []*value) (*Result, error) {
	return readEach("ElectroDB", models, electroEntity)
}

// electroTypes are ElectroDB's attribute types.
var electroTypes = []string{"string", "number", "boolean", "enum", "map", "set", "list", "any", "custom", "static"}

func electroEntity(m *value) (*Entity, error) {
	meta := m.get("model")
	beta := meta == nil
	if beta {
		meta = m
	}
	entity, service := meta.text("entity"), meta.text("service")
	version := "1"
	if v := meta.get("version"); v != nil && (v.kind == 's' || v.kind == 'n') && v.str != "" {
		version = v.str
	}
	e := &Entity{Name: entity, EntityAttr: &Attr{Name: electroEntityAttr, Value: entity}}
	attrs := m.get("attributes")
	if attrs.kind != 'o' {
		return nil, fmt.Errorf("ElectroDB entity %s: attributes is not a map of attributes", entity)
	}
	for _, a := range attrs.members {
		if _, err := electroType(entity, a.name, a.val); err != nil {
			return nil, err
		}
	}
	indexes := m.get("indexes")
	if indexes.kind != 'o' || len(indexes.members) == 0 {
		return nil, fmt.Errorf("ElectroDB entity %s has no indexes, so its keys cannot be read", entity)
	}
	// The table's index (the access pattern without index:) first, then
	// the secondary ones in the model's order.
	var order []member
	for _, ap := range indexes.members {
		if !ap.val.has("index") {
			order = append([]member{ap}, order...)
		} else {
			order = append(order, ap)
		}
	}
	if order[0].val.has("index") {
		return nil, fmt.Errorf("ElectroDB entity %s has no access pattern on the table's own index (one without index:), so its table keys cannot be read", entity)
	}
	// casing -> the keys it folds, and the text parameters in them
	keys, params := map[string][]string{}, map[string][]string{}
	for _, ap := range order {
		if err := electroIndex(e, m, ap.name, ap.val, service, entity, version, beta, func(casing, key string, names []string) {
			keys[casing] = append(keys[casing], key)
			for _, n := range names {
				if !slices.Contains(params[casing], n) {
					params[casing] = append(params[casing], n)
				}
			}
		}); err != nil {
			return nil, err
		}
	}
	for _, casing := range []string{"lower", "upper"} {
		if len(keys[casing]) > 0 {
			e.note("ElectroDB writes %s in %s case, so the values of %s are stored in %s case", andList(keys[casing]), casing, andList(params[casing]), casing)
		}
	}
	return e, nil
}

// electroType is an attribute's type: a name, or an array of strings (an
// enum).
func electroType(entity, name string, a *value) (string, error) {
	t := a
	if a.kind == 'o' {
		t = a.get("type")
	}
	switch {
	case t == nil:
		return "string", nil
	case t.kind == 'a':
		return "enum", nil
	case t.kind == 's':
		for _, ok := range electroTypes {
			if t.str == ok {
				return t.str, nil
			}
		}
		return "", fmt.Errorf("ElectroDB entity %s: attribute %s has the unknown type %q (ElectroDB's are %s, or an array of strings)", entity, name, t.str, strings.Join(electroTypes, ", "))
	}
	return "", fmt.Errorf("ElectroDB entity %s: attribute %s has a type that is neither a name nor an array of strings", entity, name)
}

// electroTemplate finds ${name} in a key template.
var electroTemplate = regexp.MustCompile(`\$\{(.*?)\}`)

// electroIndex adds an access pattern's keys to e; fold is told of each key
// whose case ElectroDB changes, with the text parameters in it.
func electroIndex(e *Entity, m *value, apName string, ap *value, service, entity, version string, beta bool, fold func(casing, key string, params []string)) error {
	kind := ap.text("type")
	if kind == "composite" {
		e.note("access pattern %s is a multi-attribute (composite) index, whose keys are attributes of their own; it is left out", apName)
		return nil
	}
	pk, sk := ap.get("pk"), ap.get("sk")
	if pk == nil || pk.text("field") == "" {
		return fmt.Errorf("ElectroDB entity %s: access pattern %s has no pk field, so its keys cannot be read", entity, apName)
	}
	hasSk := sk != nil && sk.kind == 'o' && len(sk.members) > 0
	if hasSk && sk.text("field") == "" {
		return fmt.Errorf("ElectroDB entity %s: access pattern %s has an sk without a field", entity, apName)
	}
	attrs := m.get("attributes")
	fieldOf := func(name string) string {
		if f := attrs.get(name).text("field"); f != "" {
			return f
		}
		return name
	}
	isAttrField := func(field string) bool {
		for _, a := range attrs.members {
			if fieldOf(a.name) == field {
				return true
			}
		}
		return false
	}
	// ElectroDB's default format: the partition key is $service (the
	// older model form: $service_version), the sort key $entity_version
	// ($entity), or $collection#entity_version in a collection; each
	// composite attribute adds #label_value; a clustered index puts the
	// entity after the composites; an index without a sort key puts it in
	// the partition key.
	pkPrefix := "$" + service
	entityKeys := ""
	skPrefix := ""
	collection := electroCollection(ap.get("collection"))
	if collection != "" {
		skPrefix = collection
		entityKeys = "#" + entity
	} else {
		entityKeys = "$" + entity
	}
	if beta {
		pkPrefix += "_" + version
	} else {
		entityKeys += "_" + version
	}
	postfix := ""
	if kind == "clustered" {
		postfix = entityKeys
	} else {
		skPrefix += entityKeys
	}
	if !hasSk {
		pkPrefix += skPrefix + postfix
	}
	if scope := ap.text("scope"); scope != "" {
		pkPrefix += "_" + scope
	}
	build := func(key *value, prefix, postfix string) ([]Segment, bool, error) {
		composite := key.get("composite")
		tmpl := key.text("template")
		if tmpl == "" && composite != nil && composite.kind == 'a' && len(composite.items) == 1 && composite.items[0].kind == 's' &&
			composite.items[0].str == key.text("field") && isAttrField(key.text("field")) {
			tmpl = "${" + composite.items[0].str + "}" // the attribute is the key
		}
		if tmpl != "" {
			var segs []Segment
			last := 0
			for _, loc := range electroTemplate.FindAllStringSubmatchIndex(tmpl, -1) {
				name := strings.TrimSpace(tmpl[loc[2]:loc[3]])
				if name == "" {
					return nil, false, fmt.Errorf("ElectroDB entity %s: access pattern %s has an empty ${} in its template %q", entity, apName, tmpl)
				}
				segs = append(segs, lit(tmpl[last:loc[0]]), param(name))
				last = loc[1]
			}
			return append(segs, lit(tmpl[last:])), true, nil
		}
		if composite == nil || composite.kind != 'a' {
			return nil, false, fmt.Errorf("ElectroDB entity %s: access pattern %s has a key with neither composite nor template", entity, apName)
		}
		segs := []Segment{lit(prefix)}
		for _, c := range composite.items {
			if c.kind != 's' {
				return nil, false, fmt.Errorf("ElectroDB entity %s: access pattern %s has a composite entry that is not an attribute name", entity, apName)
			}
			label := attrs.get(c.str).text("label")
			if label == "" {
				label = c.str
			}
			segs = append(segs, lit("#"+label+"_"), param(c.str))
		}
		return append(segs, lit(postfix)), false, nil
	}
	typeOf := func(name string) Param {
		a := attrs.get(name)
		if a == nil {
			e.note("%s is not an attribute of the entity; read as text", name)
			return Param{Type: "text"}
		}
		t, _ := electroType(entity, name, a) // checked above
		p := Param{Type: "text"}
		switch t {
		case "number":
			p.Type = "number"
		case "string", "enum", "boolean":
		default:
			e.note("%s is of type %s, which ElectroDB does not compose into keys; read as text", name, t)
		}
		if pad := a.get("padding"); pad != nil {
			if n := pad.get("length"); n != nil && n.kind == 'n' && pad.text("char") == "0" {
				var w int
				if _, err := fmt.Sscan(n.str, &w); err == nil && w > 0 {
					p = Param{Type: "padded", Width: w}
				}
			} else if pad.text("char") != "" {
				e.note("%s is padded with %q, which the section cannot say; read as %s", name, pad.text("char"), p.describe())
			}
		}
		return p
	}
	add := func(key *value, prefix, postfix string) error { // ap: the access pattern
		field := key.text("field")
		if e.hasKey(field) {
			return nil
		}
		segs, custom, err := build(key, prefix, postfix)
		if err != nil {
			return err
		}
		casing := key.text("casing")
		if casing == "" || casing == "default" {
			casing = "lower"
		}
		segs = join(segs)
		var folded []string
		for i, s := range segs {
			switch casing {
			case "lower":
				segs[i].Literal = strings.ToLower(s.Literal)
			case "upper":
				segs[i].Literal = strings.ToUpper(s.Literal)
			}
		}
		e.addKey(field, ap.has("index"), segs, typeOf)
		// ElectroDB leaves out a secondary index's keys when a put gives
		// none of the index's composite attributes, or its condition says
		// so: then its items may lack them. Given some of them, it writes
		// every key of the index, a missing attribute's value empty.
		if ap.has("index") {
			if ap.has("condition") || !anyRequired(attrs, indexComposites(ap)) {
				e.optional()
			} else if missing := notRequired(attrs, segs); len(missing) > 0 {
				e.note("ElectroDB writes %s with %s empty when an item has the index's other attributes but not %s", field, andList(missing), pronoun(missing))
			}
		}
		for _, s := range segs {
			if s.Param == "" || casing == "none" {
				continue
			}
			if p := e.Params[e.param(s.Param)]; p.Type == "text" {
				folded = append(folded, s.Param)
			}
		}
		if len(folded) > 0 {
			fold(casing, field, folded)
		}
		if key.text("cast") == "number" || (custom && len(segs) == 1 && segs[0].Param != "" && e.Params[e.param(segs[0].Param)].Type == "number" && key.text("cast") != "string") {
			e.note("ElectroDB stores %s as a number", field)
		}
		return nil
	}
	if err := add(pk, pkPrefix, ""); err != nil {
		return err
	}
	if hasSk {
		return add(sk, skPrefix, postfix)
	}
	return nil
}

// electroCollection is a collection's sort-key prefix: $name, or
// $first#second… for sub-collections.
func electroCollection(c *value) string {
	switch {
	case c == nil:
		return ""
	case c.kind == 's' && c.str != "":
		return "$" + c.str
	case c.kind == 'a' && len(c.items) > 0:
		var b strings.Builder
		for i, s := range c.items {
			if i == 0 {
				b.WriteString("$" + s.str)
			} else {
				b.WriteString("#" + s.str)
			}
		}
		return b.String()
	}
	return ""
}

// indexComposites are the attributes an access pattern's keys are built
// from: its composite lists, or its templates' placeholders.
func indexComposites(ap *value) []string {
	var names []string
	for _, k := range []string{"pk", "sk"} {
		key := ap.get(k)
		if t := key.text("template"); t != "" {
			for _, m := range electroTemplate.FindAllStringSubmatch(t, -1) {
				names = append(names, strings.TrimSpace(m[1]))
			}
			continue
		}
		if c := key.get("composite"); c != nil && c.kind == 'a' {
			for _, x := range c.items {
				names = append(names, x.str)
			}
		}
	}
	return names
}

func electroRequired(attrs *value, name string) bool {
	r := attrs.get(name).get("required")
	return r != nil && r.kind == 'b' && r.boolean
}

func anyRequired(attrs *value, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return electroRequired(attrs, n) })
}

// notRequired are the parameters of a key the entity does not require.
func notRequired(attrs *value, segs []Segment) []string {
	var out []string
	for _, s := range segs {
		if s.Param != "" && !electroRequired(attrs, s.Param) && !slices.Contains(out, s.Param) {
			out = append(out, s.Param)
		}
	}
	return out
}

func pronoun(names []string) string {
	if len(names) == 1 {
		return "it"
	}
	return "them"
}
