// Package patterns is the access-pattern domain: the patterns file
// (dynascope.yaml) read with file:line errors, each pattern checked against a
// table's keys and indexes (and what its index projects of the attributes
// it needs), its {parameters} filled in to a query or get, and a request
// saved back to the file.
//
// It imports dynamo (for the request and table types), filterexpr (the
// filter's placeholders), indexes (what an index projects), textfmt and
// yamlfile; never config, ui or the command line.
package patterns

// The patterns file: the access patterns of a table, written down first, as
// access-pattern-first design asks. This file reads it; check.go
// checks it against the table and fills in parameters; save.go
// appends to it.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/dynamo"
	"dynascope/entities"
	"dynascope/filterexpr"
	"dynascope/textfmt"
	"dynascope/yamlfile"
)

// PatternsFile is the patterns file read from the working directory when no
// --patterns flag names another.
const PatternsFile = "dynascope.yaml"

// PatternSet is a loaded patterns file.
type PatternSet struct {
	Path     string        // as given; it prefixes every error
	Table    string        // the file's table:, "" when it has none
	Keys     *FileKeys     // the file's keys:, nil when it has none
	Check    CheckSettings // the file's check: settings
	Patterns []Pattern     // in file order
	// Entities are the file's entities: (the table as the application
	// declares it): an empty set when the file declares none (nil only in
	// a PatternSet not read from a file).
	// With keys: in the file they are checked against them on load, else
	// by CheckEntities against the table.
	Entities *entities.Set
}

// Pattern is one access pattern. PK, the SK values and Filter are
// templates: {name} is a parameter, {{ and }} are literal braces.
type Pattern struct {
	Name        string
	Description string
	Index       string        // "" for the base table
	PK          string        // partition key value template
	SK          dynamo.SKCond // Op is SKNone for no sort-key condition; Values are templates
	Reverse     bool          // newest first: ScanIndexForward=false
	Limit       int32         // 0 for no Limit
	Consistent  bool          // ConsistentRead
	// Filter is a FilterExpression in filterexpr's syntax, literal values in
	// place ("" for none); it is sent with the Query. Its values may be
	// parameters: "{status}" in quotes is text, a bare {min} a number
	// (filterexpr.ParseTemplate); never an attribute name or an operator.
	Filter string
	// Attributes are the attributes the caller needs of each item (top-level
	// names or paths, as written): what the pattern returns. They are not
	// sent; check compares them with what the pattern's index projects.
	Attributes []string
	// MinKept is the share of what a filtered pattern reads that check
	// wants it to keep (its minKept:); nil for the file's (MinKept).
	MinKept *float64
	Example map[string]string
	// Entity is the declared entity the pattern reads ("" for none): its
	// placeholders are that entity's parameters, of their types, and pk
	// and sk may be left to the entity's templates (entity.go).
	Entity string
	Line   int // where the pattern starts in its file; 0 when it is not from a file

	entity *entities.Entity // Entity's declaration, nil without one

	file  string         // the file it came from, for errors
	lines map[string]int // field name -> line, so that errors point at the field
}

// PatternError is a mistake in a patterns file or in the parameters of a
// pattern; it prints as one sentence naming the file, line and pattern:
// `dynascope.yaml:14: pattern "latest order": unknown field "revers".`
type PatternError struct {
	File    string // "" when the pattern is not from a file
	Line    int    // 0 when unknown
	Col     int    // the column, 0 when not given
	Pattern string // the pattern's name, "" when the mistake is not in a pattern or the pattern has none
	Ordinal int    // the pattern's place in the list (from 1), named when it has no name
	Msg     string
}

func (e *PatternError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	}
	switch {
	case e.Pattern != "":
		fmt.Fprintf(&b, "pattern %q: ", e.Pattern)
	case e.Ordinal > 0:
		fmt.Fprintf(&b, "pattern #%d: ", e.Ordinal)
	}
	b.WriteString(strings.TrimRight(e.Msg, "."))
	b.WriteByte('.')
	return b.String()
}

// patternFields are the fields a pattern may have, in the order SavePattern
// writes them.
var patternFields = []string{"name", "description", "entity", "index", "pk", "sk", "filter", "reverse", "limit", "consistent", "attributes", "minKept", "example"}

// skOps maps the operators of the file to DynamoDB's.
var skOps = []struct {
	name string
	op   dynamo.SKOp
}{
	{"eq", dynamo.SKEq}, {"lt", dynamo.SKLt}, {"le", dynamo.SKLe}, {"gt", dynamo.SKGt},
	{"ge", dynamo.SKGe}, {"between", dynamo.SKBetween}, {"begins_with", dynamo.SKBeginsWith},
}

func skOpName(op dynamo.SKOp) string {
	for _, o := range skOps {
		if o.op == op {
			return o.name
		}
	}
	return string(op)
}

// LoadPatterns reads and checks a patterns file. What needs the table
// (indexes, sort keys, key types) is checked by Validate, so that loading
// makes no request.
func LoadPatterns(path string) (*PatternSet, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &dynamo.UserError{Msg: fmt.Sprintf("there is no patterns file %s; write one (dynascope.yaml in the dynascope repository is an example) or pass --patterns FILE.", path), Err: err}
	}
	if err != nil {
		return nil, &dynamo.UserError{Msg: fmt.Sprintf("cannot read the patterns file %s: %v.", path, err), Err: err}
	}
	return ParsePatterns(path, data)
}

// ParsePatterns reads a patterns file from memory; name prefixes errors.
func ParsePatterns(name string, data []byte) (*PatternSet, error) {
	fail := func(line int, format string, a ...any) error {
		return &PatternError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fail(0, "the file is empty; it needs a patterns: list")
		}
		return nil, yamlError(name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fail(extra.Line, "the file holds a second YAML document; keep everything in one")
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(name, err)
	}
	root := yamlfile.Deref(&doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = yamlfile.Deref(root.Content[0])
	}
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "the file must be a mapping with table: and patterns:")
	}
	set := &PatternSet{Path: name, Entities: &entities.Set{}}
	var list, ents *yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], yamlfile.Deref(root.Content[i+1])
		if first, dup := seen[k.Value]; dup {
			return nil, fail(k.Line, "%s: is given twice (first at line %d)", k.Value, first)
		}
		seen[k.Value] = k.Line
		switch k.Value {
		case "table":
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
				return nil, fail(v.Line, "table: must be a table name")
			}
			set.Table = v.Value
		case "patterns":
			list = v
		case "entities":
			ents = v
		case "keys":
			keys, err := parseKeys(name, v)
			if err != nil {
				return nil, err
			}
			set.Keys = keys
		case "check":
			c, err := parseCheck(name, v)
			if err != nil {
				return nil, err
			}
			set.Check = c
		default:
			return nil, fail(k.Line, "unknown field %q%s; the file has table:, keys:, check:, entities: and patterns:", k.Value, textfmt.Suggest(k.Value, []string{"table", "keys", "check", "entities", "patterns"}))
		}
	}
	if err := set.readEntities(ents); err != nil {
		return nil, err
	}
	if list == nil || (list.Kind == yaml.ScalarNode && list.Tag == "!!null") {
		return set, nil
	}
	if list.Kind != yaml.SequenceNode {
		return nil, fail(list.Line, "patterns: must be a list with one item (- name: ...) per pattern")
	}
	names := map[string]int{}
	for i, item := range list.Content {
		p, err := set.parsePattern(i+1, yamlfile.Deref(item))
		if err != nil {
			return nil, err
		}
		if first, dup := names[p.Name]; dup {
			return nil, &PatternError{File: name, Line: p.lines["name"], Pattern: p.Name, Msg: fmt.Sprintf("the name is used twice (first at line %d); pattern names must be unique", first)}
		}
		names[p.Name] = p.lines["name"]
		set.Patterns = append(set.Patterns, p)
	}
	return set, nil
}

// readEntities reads the entities: section (nil when the file has none)
// and, with keys: in the file, checks it against them.
func (s *PatternSet) readEntities(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	set, err := entities.Parse(n)
	if err != nil {
		return entityError(s.Path, err)
	}
	s.Entities = set
	if s.Keys != nil {
		t, _ := s.KeysTable(s.Table)
		return s.CheckEntities(t)
	}
	return nil
}

// yamlError turns a YAML syntax error into the file:line form of the others.
func yamlError(name string, err error) error {
	line, msg := yamlfile.Syntax(err)
	return &PatternError{File: name, Line: line, Msg: "the file is not valid YAML: " + msg}
}

// parsePattern reads one pattern of the file (the ordinal-th), in named
// steps: its name first, so that every other error can say which pattern
// it is in; each field; then what the fields must give together.
func (s *PatternSet) parsePattern(ordinal int, n *yaml.Node) (Pattern, error) {
	file := s.Path
	p := Pattern{Line: n.Line, file: file, lines: map[string]int{}}
	fail := func(line int, format string, a ...any) error {
		return &PatternError{File: file, Line: line, Pattern: p.Name, Ordinal: ordinal, Msg: fmt.Sprintf(format, a...)}
	}
	if n.Kind != yaml.MappingNode {
		return p, fail(n.Line, "each pattern must be a mapping (name:, pk:, ...)")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], yamlfile.Deref(n.Content[i+1]); k.Value == "name" && yamlfile.IsText(v) {
			p.Name = v.Value
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlfile.Deref(n.Content[i+1])
		if first, dup := p.lines[k.Value]; dup {
			return p, fail(k.Line, "field %q is given twice (first at line %d)", k.Value, first)
		}
		p.lines[k.Value] = k.Line
		if err := p.field(k, v, fail); err != nil {
			return p, err
		}
	}
	if err := s.bindEntity(&p, n, fail); err != nil {
		return p, err
	}
	if err := p.checkKeys(n, fail); err != nil {
		return p, err
	}
	return p, p.checkExample(n, fail)
}

// patternFail makes a pattern's error at a line of the file.
type patternFail func(line int, format string, a ...any) error

// field reads one field of the pattern, k: v, into p.
func (p *Pattern) field(k, v *yaml.Node, fail patternFail) error {
	switch k.Value {
	case "name", "description", "index", "pk", "entity":
		if !yamlfile.IsText(v) {
			return fail(v.Line, "%s must be text, not %s", k.Value, yamlfile.Kind(v))
		}
		switch k.Value {
		case "description":
			p.Description = v.Value
		case "index":
			p.Index = v.Value
		case "pk":
			p.PK = v.Value
		case "entity":
			p.Entity = v.Value
		}
	case "sk":
		sk, line, err := parseSK(v)
		if err != nil {
			return fail(line, "%s", err)
		}
		p.SK = sk
	case "filter":
		if !yamlfile.IsText(v) {
			return fail(v.Line, "filter must be text such as 'status = \"OPEN\"', not %s", yamlfile.Kind(v))
		}
		if _, err := filterexpr.ParseTemplate(v.Value); err != nil {
			return fail(v.Line, "%s", userMsg(err))
		}
		p.Filter = v.Value
	case "attributes":
		attrs, line, err := parseAttributes(v)
		if err != nil {
			return fail(line, "%s", err)
		}
		p.Attributes = attrs
	case "reverse", "consistent":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return fail(v.Line, "%s must be true or false, not %s", k.Value, yamlfile.Kind(v))
		}
		b := v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		if k.Value == "reverse" {
			p.Reverse = b
		} else {
			p.Consistent = b
		}
	case "limit":
		l, err := strconv.ParseInt(v.Value, 10, 32)
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || l < 1 {
			return fail(v.Line, "limit must be a positive whole number, not %s", yamlfile.Kind(v))
		}
		p.Limit = int32(l)
	case "minKept":
		share, err := parseShare(v)
		if err != nil {
			return fail(v.Line, "minKept %s", err)
		}
		p.MinKept = &share
	case "example":
		ex, line, err := parseExample(v)
		if err != nil {
			return fail(line, "%s", err)
		}
		p.Example = ex
	default:
		return fail(k.Line, "unknown field %q%s", k.Value, textfmt.Suggest(k.Value, patternFields))
	}
	return nil
}

// checkKeys requires what every pattern names: itself and a partition key
// value (n is the pattern's mapping, where a missing field is reported).
func (p *Pattern) checkKeys(n *yaml.Node, fail patternFail) error {
	if _, ok := p.lines["name"]; !ok || p.Name == "" {
		return fail(n.Line, "it has no name; give it one with name: (it is how run and check refer to it)")
	}
	if _, ok := p.lines["pk"]; !ok {
		return fail(n.Line, "it has no pk: every access pattern names one partition key value")
	}
	if p.PK == "" {
		return fail(p.lines["pk"], "pk is empty; a partition key value cannot be empty")
	}
	return nil
}

// checkExample requires the example to give each placeholder of pk, sk and
// filter a value, and nothing else, so that check can run the pattern.
func (p *Pattern) checkExample(n *yaml.Node, fail patternFail) error {
	params, err := p.parameters()
	if err != nil {
		return err
	}
	for _, name := range params {
		if _, ok := p.Example[name]; !ok {
			line := p.lines["example"]
			if line == 0 {
				line = n.Line
			}
			return fail(line, "placeholder {%s} has no value in example; add example: {%s: ...} so that check can run it", name, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.Example)) {
		if !slices.Contains(params, name) {
			return fail(p.lines["example"], "example gives %q, which is not a placeholder of pk, sk or filter", name)
		}
	}
	// The example's values must be of the entity's types, and fit the
	// filter's placeholders (a bare one is a number).
	if _, err := p.typedParams(p.Example); err != nil {
		return fail(p.lines["example"], "example: %s", err)
	}
	// The filter's placeholders: a bare one is a number.
	if tpl, err := p.filterTemplate(); err == nil { // parameters read it
		if _, err := tpl.Fill(p.Example); err != nil {
			return fail(p.lines["example"], "example: %s", err)
		}
	}
	return nil
}

// parseSK reads `{begins_with: "ORDER#"}` or `{between: [a, b]}`; the line
// returned is where the mistake is.
func parseSK(v *yaml.Node) (dynamo.SKCond, int, error) {
	ops := make([]string, len(skOps))
	for i, o := range skOps {
		ops[i] = o.name
	}
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		return dynamo.SKCond{}, v.Line, fmt.Errorf("sk must be one condition such as {begins_with: \"ORDER#\"}, using one of %s", strings.Join(ops, ", "))
	}
	if len(v.Content) > 2 {
		return dynamo.SKCond{}, v.Content[2].Line, fmt.Errorf("sk has two conditions (%s and %s); DynamoDB allows one sort-key condition per query", v.Content[0].Value, v.Content[2].Value)
	}
	k, val := v.Content[0], yamlfile.Deref(v.Content[1])
	var op dynamo.SKOp
	for _, o := range skOps {
		if o.name == k.Value {
			op = o.op
		}
	}
	if op == dynamo.SKNone {
		return dynamo.SKCond{}, k.Line, fmt.Errorf("unknown sort-key operator %q%s; use one of %s", k.Value, textfmt.Suggest(k.Value, ops), strings.Join(ops, ", "))
	}
	if op == dynamo.SKBetween {
		if val.Kind != yaml.SequenceNode || len(val.Content) != 2 || !yamlfile.IsText(yamlfile.Deref(val.Content[0])) || !yamlfile.IsText(yamlfile.Deref(val.Content[1])) {
			return dynamo.SKCond{}, val.Line, fmt.Errorf("between takes two values, between: [LOW, HIGH], not %s", yamlfile.Kind(val))
		}
		return dynamo.SKCond{Op: op, Values: []string{yamlfile.Deref(val.Content[0]).Value, yamlfile.Deref(val.Content[1]).Value}}, 0, nil
	}
	if !yamlfile.IsText(val) {
		return dynamo.SKCond{}, val.Line, fmt.Errorf("%s takes one value, not %s", k.Value, yamlfile.Kind(val))
	}
	return dynamo.SKCond{Op: op, Values: []string{val.Value}}, 0, nil
}

// parseAttributes reads `attributes: [total, status]`: each one attribute
// name or path, as a projection names it, none twice.
func parseAttributes(v *yaml.Node) ([]string, int, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, v.Line, fmt.Errorf("attributes must list the attributes the pattern needs of each item, e.g. [total, status], not %s", yamlfile.Kind(v))
	}
	var attrs []string
	for _, n := range v.Content {
		n = yamlfile.Deref(n)
		if !yamlfile.IsText(n) {
			return nil, n.Line, fmt.Errorf("attributes lists %s; give attribute names", yamlfile.Kind(n))
		}
		shape, err := dynamo.ParseShape("", n.Value, nil)
		if err != nil {
			return nil, n.Line, fmt.Errorf("attributes: %s", userMsg(err))
		}
		if len(shape.Projection) != 1 {
			return nil, n.Line, fmt.Errorf("attributes lists %q, which names %d attributes; give one per line", n.Value, len(shape.Projection))
		}
		name := shape.Projection[0].String()
		if slices.Contains(attrs, name) {
			return nil, n.Line, fmt.Errorf("attributes lists %q twice", n.Value)
		}
		attrs = append(attrs, name)
	}
	return attrs, 0, nil
}

func parseExample(v *yaml.Node) (map[string]string, int, error) {
	if v.Kind != yaml.MappingNode {
		return nil, v.Line, fmt.Errorf("example must map each parameter to a value, e.g. {customerId: \"42\"}, not %s", yamlfile.Kind(v))
	}
	ex := make(map[string]string, len(v.Content)/2)
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], yamlfile.Deref(v.Content[i+1])
		if _, dup := ex[k.Value]; dup {
			return nil, k.Line, fmt.Errorf("example gives %q twice", k.Value)
		}
		if !yamlfile.IsText(val) {
			return nil, val.Line, fmt.Errorf("example gives %s for %q; give a plain value", yamlfile.Kind(val), k.Value)
		}
		ex[k.Value] = val.Value
	}
	return ex, 0, nil
}

// Find returns the pattern of that name, or an error listing the names.
func (s *PatternSet) Find(name string) (Pattern, error) {
	names := make([]string, len(s.Patterns))
	for i, p := range s.Patterns {
		if p.Name == name {
			return p, nil
		}
		names[i] = strconv.Quote(p.Name)
	}
	if len(names) == 0 {
		return Pattern{}, &dynamo.UserError{Msg: fmt.Sprintf("%s has no patterns, so there is no pattern %q.", s.Path, name)}
	}
	return Pattern{}, &dynamo.UserError{Msg: fmt.Sprintf("%s has no pattern %q; its patterns are %s.", s.Path, name, strings.Join(names, ", "))}
}
