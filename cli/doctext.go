package cli

// --output text: the AWS CLI's text rules (awscli/text.py), applied to the
// document. A list of scalars is one tab-separated line; an object's scalar
// values are one line in the order of their keys, sorted; an object's
// lists and objects follow, each under its key in capitals; in a list of
// objects every line has the same columns, the keys of the scalars of all
// of them (an object without one prints an empty field). Scalars are
// printed as Python's str prints them (True, False, None), numbers with
// their exact digits, and every field sanitised for the terminal.

import (
	"bytes"
	"slices"
	"strings"

	"dynascope/textfmt"
)

// writeText writes v by the AWS CLI's text rules.
func (d *decodedDoc) writeText(b *bytes.Buffer, v any) {
	d.text(b, v, "", nil)
}

func (d *decodedDoc) text(b *bytes.Buffer, v any, name string, columns []string) {
	switch v := v.(type) {
	case map[string]any:
		d.textObject(b, v, name, columns)
	case []any:
		d.textList(b, v, name)
	default:
		b.WriteString(d.field(v) + "\n")
	}
}

func (d *decodedDoc) textList(b *bytes.Buffer, list []any, name string) {
	if len(list) == 0 {
		return
	}
	var scalars, nested []any
	objects := false
	for _, e := range list {
		switch e.(type) {
		case map[string]any:
			objects = true
			nested = append(nested, e)
		case []any:
			nested = append(nested, e)
		default:
			scalars = append(scalars, e)
		}
	}
	if objects {
		columns := scalarKeys(list)
		for _, e := range list {
			d.text(b, e, name, columns)
		}
		return
	}
	if len(scalars) > 0 {
		d.scalarLine(b, scalars, name)
	}
	for _, e := range nested {
		d.text(b, e, name, nil)
	}
}

// scalarLine is a list of scalars: one line, or, under a name, one line
// per scalar with the name first.
func (d *decodedDoc) scalarLine(b *bytes.Buffer, scalars []any, name string) {
	if name != "" {
		for _, s := range scalars {
			b.WriteString(textName(name) + "\t" + d.field(s) + "\n")
		}
		return
	}
	fields := make([]string, len(scalars))
	for i, s := range scalars {
		fields[i] = d.field(s)
	}
	b.WriteString(strings.Join(fields, "\t") + "\n")
}

func (d *decodedDoc) textObject(b *bytes.Buffer, m map[string]any, name string, columns []string) {
	var fields, rest []string
	if columns == nil {
		for _, k := range sortedKeys(m) {
			if isScalar(m[k]) {
				fields = append(fields, d.field(m[k]))
			} else {
				rest = append(rest, k)
			}
		}
	} else {
		for _, k := range columns {
			v, ok := m[k]
			if !ok {
				fields = append(fields, "")
				continue
			}
			fields = append(fields, d.field(v))
		}
		for _, k := range sortedKeys(m) {
			if !slices.Contains(columns, k) {
				rest = append(rest, k)
			}
		}
	}
	if len(fields) > 0 {
		if name != "" {
			fields = append([]string{textName(name)}, fields...)
		}
		b.WriteString(strings.Join(fields, "\t") + "\n")
	}
	for _, k := range rest {
		d.text(b, m[k], k, nil)
	}
}

// scalarKeys are the keys of the scalars of every object in list, sorted.
func scalarKeys(list []any) []string {
	seen := map[string]bool{}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			for k, v := range m {
				if isScalar(v) {
					seen[k] = true
				}
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// textName is a record's name as the AWS CLI prints it: in capitals.
func textName(name string) string { return textfmt.Sanitize(strings.ToUpper(name)) }

// field is a scalar as Python's str writes it, safe for a terminal.
func (d *decodedDoc) field(v any) string {
	switch v := v.(type) {
	case string:
		return textfmt.Sanitize(v)
	case float64:
		return d.numberText(v)
	case bool:
		if v {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	}
	return textfmt.Sanitize(d.scalarJSON(v))
}
