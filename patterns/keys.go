package patterns

// The file's keys: the table's key schema written into the patterns file,
// as `dynascope tables` prints it, so that printing a pattern's code needs
// no request (and so no region or credentials). A command that reads the
// table compares them with DescribeTable's.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/dynamo"
	"dynascope/yamlfile"
)

// FileKeys is the keys: mapping of a patterns file.
type FileKeys struct {
	Line    int // of keys:, for errors
	Table   dynamo.KeySchema
	Indexes []dynamo.Index // name, kind and keys; nothing of the projection
}

// keyAttrRE is one key attribute: a name and its type.
var keyAttrRE = regexp.MustCompile(`^\s*(\S+)\s+(S|N|B)\s*$`)

// indexRE is an index as `tables` prints it: NAME GSI(PK S / SK S).
var indexRE = regexp.MustCompile(`^\s*(\S+)\s+(GSI|LSI)\s*\((.*)\)\s*$`)

// parseKeySchema reads "PK S" or "PK S / SK S".
func parseKeySchema(s string) (dynamo.KeySchema, bool) {
	parts := strings.Split(s, "/")
	if len(parts) > 2 {
		return dynamo.KeySchema{}, false
	}
	var ks dynamo.KeySchema
	for i, p := range parts {
		m := keyAttrRE.FindStringSubmatch(p)
		if m == nil {
			return dynamo.KeySchema{}, false
		}
		a := dynamo.KeyAttr{Name: m[1], Type: m[2]}
		if i == 0 {
			ks.PK = a
		} else {
			ks.SK = &a
		}
	}
	return ks, true
}

// parseKeys reads keys: {table: "PK S / SK S", indexes: ["GSI1 GSI(GSI1PK S / GSI1SK S)"]}.
func parseKeys(file string, n *yaml.Node) (*FileKeys, error) {
	fail := func(line int, format string, a ...any) error {
		return &PatternError{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	const shape = `keys: must be a mapping like {table: "PK S / SK S", indexes: ["GSI1 GSI(GSI1PK S / GSI1SK S)"]}, as dynascope tables prints them`
	if n.Kind != yaml.MappingNode {
		return nil, fail(n.Line, "%s", shape)
	}
	k := &FileKeys{Line: n.Line}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i], yamlfile.Deref(n.Content[i+1])
		if seen[key.Value] {
			return nil, fail(key.Line, "keys: %s: is given twice", key.Value)
		}
		seen[key.Value] = true
		switch key.Value {
		case "table":
			ks, ok := parseKeySchema(v.Value)
			if v.Kind != yaml.ScalarNode || !ok {
				return nil, fail(v.Line, "keys: table: must be the key attributes with their types, like \"PK S / SK S\" (S, N or B), not %q", v.Value)
			}
			k.Table = ks
		case "indexes":
			if v.Kind != yaml.SequenceNode {
				return nil, fail(v.Line, `keys: indexes: must be a list like ["GSI1 GSI(GSI1PK S / GSI1SK S)"]`)
			}
			for _, e := range v.Content {
				e = yamlfile.Deref(e)
				m := indexRE.FindStringSubmatch(e.Value)
				var ks dynamo.KeySchema
				ok := m != nil
				if ok {
					ks, ok = parseKeySchema(m[3])
				}
				if e.Kind != yaml.ScalarNode || !ok {
					return nil, fail(e.Line, "keys: each index must be its name, GSI or LSI and its keys, like \"GSI1 GSI(GSI1PK S / GSI1SK S)\", not %q", e.Value)
				}
				if slices.ContainsFunc(k.Indexes, func(x dynamo.Index) bool { return x.Name == m[1] }) {
					return nil, fail(e.Line, "keys: index %s is given twice", m[1])
				}
				k.Indexes = append(k.Indexes, dynamo.Index{Name: m[1], Kind: dynamo.IndexKind(m[2]), PK: ks.PK, SK: ks.SK})
			}
		default:
			return nil, fail(key.Line, "keys: has table: and indexes:, not %s:", key.Value)
		}
	}
	if !seen["table"] {
		return nil, fail(n.Line, "keys: needs table: with the table's key attributes, like \"PK S / SK S\"")
	}
	return k, nil
}

// KeysTable is the table the file's keys describe (named name), for code
// printed without a request; false when the file has no keys:.
func (s *PatternSet) KeysTable(name string) (dynamo.Table, bool) {
	if s.Keys == nil {
		return dynamo.Table{}, false
	}
	return dynamo.Table{Name: name, PK: s.Keys.Table.PK, SK: s.Keys.Table.SK, Indexes: s.Keys.Indexes}, true
}

// CheckKeys compares the file's keys with the table DynamoDB described:
// one sentence naming the first difference, nil when they agree or the file
// has none (then the entities are checked against the table's keys). Every index the file names must be there with those keys; the
// table may have more.
func (s *PatternSet) CheckKeys(t dynamo.Table) error {
	if s.Keys == nil {
		return s.CheckEntities(t) // with keys:, they were checked on load
	}
	differ := func(what, file, real string) error {
		return &PatternError{File: s.Path, Line: s.Keys.Line, Msg: fmt.Sprintf("keys: says %s is %s, but DynamoDB says %s; correct keys: (dynascope tables prints them)", what, file, real)}
	}
	got := dynamo.KeySchema{PK: t.PK, SK: t.SK}.KeyText()
	if want := s.Keys.Table.KeyText(); want != got {
		return differ("table "+t.Name, want, got)
	}
	for _, fx := range s.Keys.Indexes {
		want := fmt.Sprintf("%s(%s)", fx.Kind, dynamo.KeySchema{PK: fx.PK, SK: fx.SK}.KeyText())
		ix, ok := t.IndexByName(fx.Name)
		if !ok {
			return differ("index "+fx.Name, want, "the table has no index "+fx.Name)
		}
		if real := fmt.Sprintf("%s(%s)", ix.Kind, dynamo.KeySchema{PK: ix.PK, SK: ix.SK}.KeyText()); real != want {
			return differ("index "+fx.Name, want, real)
		}
	}
	return nil
}
