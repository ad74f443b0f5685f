package modelimport

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// isOneTable tells a OneTable schema by its two required maps.
func isOneTable(v *value) bool {
	return v.get("models") != nil && v.get("models").kind == 'o' && v.get("indexes") != nil
}

// oneTableIndex is one entry of the schema's indexes: its key attributes.
type oneTableIndex struct{ name, hash, sort string }

// readOneTable reads a OneTable schema (its documented form, onetable:1.1.0:
// indexes with hash and sort attribute names, models whose fields give a
// key's value template). A key field's `value` template is the key's
// template; a key field without one holds its own value. A date is the
// type OneTable stores: an ISO date-time with isoDates, else a number (the
// milliseconds of Date.getTime()).
func readOneTable(v *value) (*Result, error) {
	idx, err := oneTableIndexes(v.get("indexes"))
	if err != nil {
		return nil, err
	}
	params := v.get("params")
	typeField := params.text("typeField")
	if typeField == "" {
		typeField = "_type"
	}
	isoDates := params.get("isoDates") != nil && params.get("isoDates").boolean
	res := &Result{Library: "OneTable"}
	for _, m := range v.get("models").members {
		e, err := oneTableModel(m.name, m.val, idx, typeField, isoDates)
		if err != nil {
			return nil, err
		}
		res.Entities = append(res.Entities, *e)
	}
	if len(res.Entities) == 0 {
		return nil, fmt.Errorf("the OneTable schema has no models")
	}
	return res, nil
}

func oneTableIndexes(v *value) ([]oneTableIndex, error) {
	if v.kind != 'o' {
		return nil, fmt.Errorf("the OneTable schema's indexes is not a map of indexes")
	}
	primary := v.get("primary")
	if primary.text("hash") == "" {
		return nil, fmt.Errorf("the OneTable schema has no primary index with a hash attribute, so no key can be read")
	}
	out := []oneTableIndex{{"primary", primary.text("hash"), primary.text("sort")}}
	for _, m := range v.members {
		if m.name == "primary" {
			continue
		}
		i := oneTableIndex{m.name, m.val.text("hash"), m.val.text("sort")}
		if m.val.text("type") == "local" || i.hash == "" {
			i.hash = out[0].hash // an LSI shares the table's partition key
		}
		out = append(out, i)
	}
	return out, nil
}

// oneTableTemplate finds ${name}, ${name:size} and ${name:size:pad}.
var oneTableTemplate = regexp.MustCompile(`\$\{(.*?)\}`)

func oneTableModel(name string, m *value, idx []oneTableIndex, typeField string, isoDates bool) (*Entity, error) {
	if m.kind != 'o' {
		return nil, fmt.Errorf("OneTable model %s is not a map of fields", name)
	}
	e := &Entity{Name: name, EntityAttr: &Attr{Name: typeField, Value: name}}
	byAttr := map[string]string{} // attribute name -> field name
	for _, f := range m.members {
		if _, err := oneTableType(name, f.name, f.val); err != nil {
			return nil, err
		}
		attr := f.name
		if to := f.val.text("map"); to != "" && !strings.Contains(to, ".") {
			attr = to
		}
		byAttr[attr] = f.name
	}
	typeOf := func(field string, pad *padSpec) (Param, error) {
		f := m.get(field)
		if f == nil {
			e.note("%s is not a field of the model; read as text", field)
			return Param{Type: "text"}, nil
		}
		t, err := oneTableType(name, field, f)
		if err != nil {
			return Param{}, err
		}
		var p Param
		switch t {
		case "number":
			p = Param{Type: "number"}
		case "date":
			p = Param{Type: "number"}
			if iso := f.get("isoDates"); (iso != nil && iso.boolean) || (iso == nil && isoDates) {
				p = Param{Type: "datetime"}
			}
		case "string":
			p = Param{Type: "text"}
			switch f.text("generate") {
			case "ulid":
				p = Param{Type: "id", Shape: "ulid"}
			case "uuid":
				p = Param{Type: "id", Shape: "uuid"}
			}
		case "boolean":
			p = Param{Type: "text"}
		default:
			e.note("%s is of type %s, whose text in a key is not derivable; read as text", field, t)
			p = Param{Type: "text"}
		}
		if pad != nil {
			if pad.char == "0" && (p.Type == "number" || p.Type == "text") {
				p = Param{Type: "padded", Width: pad.size}
			} else {
				e.note("%s is padded to %d with %q, which the section cannot say; read as %s", field, pad.size, pad.char, p.describe())
			}
		}
		return p, nil
	}
	for i, ix := range idx {
		for _, attr := range []string{ix.hash, ix.sort} {
			if attr == "" || e.hasKey(attr) {
				continue
			}
			field, ok := byAttr[attr]
			if !ok {
				if i == 0 && attr == ix.hash {
					return nil, fmt.Errorf("OneTable model %s has no field for the table's partition key %s, so its keys cannot be read", name, attr)
				}
				continue
			}
			segs, types, err := oneTableKey(name, field, m.get(field), typeField)
			if err != nil {
				return nil, err
			}
			if segs == nil {
				e.note("%s's value is computed by the application, not a template; it is left out", attr)
				continue
			}
			var typeErr error
			e.addKey(attr, i > 0 && attr != idx[0].hash && attr != idx[0].sort, segs, func(p string) Param {
				t, err := typeOf(p, types[p])
				if err != nil && typeErr == nil {
					typeErr = err
				}
				return t
			})
			if typeErr != nil {
				return nil, typeErr
			}
			// OneTable writes a key only when every field of its template
			// has a value: an index key over a field that is not required
			// is missing from items without it.
			if e.Keys[len(e.Keys)-1].Index {
				for _, s := range segs {
					if f := m.get(s.Param); s.Param != "" && (f == nil || f.get("required") == nil || !f.get("required").boolean) {
						e.optional()
						break
					}
				}
			}
		}
	}
	return e, nil
}

type padSpec struct {
	size int
	char string
}

// oneTableKey reads a key field's value template into segments, and the
// padding each parameter is written with. ${typeField} is the model's name.
func oneTableKey(model, field string, f *value, typeField string) ([]Segment, map[string]*padSpec, error) {
	v := f.get("value")
	if v == nil {
		return []Segment{param(field)}, map[string]*padSpec{}, nil
	}
	if v.kind != 's' {
		return nil, nil, nil
	}
	pads := map[string]*padSpec{}
	var segs []Segment
	last := 0
	for _, loc := range oneTableTemplate.FindAllStringSubmatchIndex(v.str, -1) {
		segs = append(segs, lit(v.str[last:loc[0]]))
		parts := strings.Split(v.str[loc[2]:loc[3]], ":")
		name := strings.TrimSpace(parts[0])
		if name == "" {
			return nil, nil, fmt.Errorf("OneTable model %s: the value template of %s has an empty ${}", model, field)
		}
		if name == typeField {
			segs = append(segs, lit(model))
		} else {
			segs = append(segs, param(name))
		}
		if len(parts) > 1 {
			size, err := strconv.Atoi(parts[1])
			if err != nil || size <= 0 {
				return nil, nil, fmt.Errorf("OneTable model %s: the value template of %s pads ${%s} to %q, not a size", model, field, v.str[loc[2]:loc[3]], parts[1])
			}
			p := &padSpec{size: size, char: "0"}
			if len(parts) > 2 && parts[2] != "" {
				p.char = parts[2]
			}
			pads[name] = p
		}
		last = loc[1]
	}
	segs = append(segs, lit(v.str[last:]))
	return segs, pads, nil
}

// oneTableTypes are the field types OneTable's Model accepts.
var oneTableTypes = []string{"array", "arraybuffer", "binary", "boolean", "buffer", "date", "number", "object", "set", "string"}

// oneTableType is a field's type in lower case: a JSON schema writes
// "string", a JS module String (the constructor, whose name the loader
// keeps).
func oneTableType(model, field string, f *value) (string, error) {
	t := f.get("type")
	name := "string"
	if t != nil {
		if n, _, ok := t.fn(); ok {
			name = n
		} else if t.kind == 's' {
			name = t.str
		} else {
			return "", fmt.Errorf("OneTable model %s: field %s has a type that is neither a name nor a constructor", model, field)
		}
	}
	name = strings.ToLower(name)
	for _, ok := range oneTableTypes {
		if name == ok {
			return name, nil
		}
	}
	return "", fmt.Errorf("OneTable model %s: field %s has the unknown type %q (OneTable's are %s)", model, field, name, strings.Join(oneTableTypes, ", "))
}
