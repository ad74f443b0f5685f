package modelimport

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Entity is one imported entity: its keys in the order the section writes
// them (the table's, then each index's as the model declares them), its
// parameters in the order the keys first use them, the attribute naming
// its type, and what could not be derived (one sentence each).
type Entity struct {
	Name       string
	Keys       []Key
	Params     []Param
	EntityAttr *Attr
	Notes      []string
}

// Key is one key attribute and the template of its value.
type Key struct {
	Attr     string
	Index    bool // a secondary index's key, not the table's
	Optional bool // an index key the entity's items may lack (a sparse index)
	Template []Segment
}

// Segment is literal text, or a parameter when Param is set.
type Segment struct {
	Literal string
	Param   string
}

// Param is a placeholder's type as the section declares it: text, number,
// date, datetime, padded (Width) or id (Shape).
type Param struct {
	Name  string
	Type  string
	Width int
	Shape string
}

// Attr is the item attribute that names an entity, and its value.
type Attr struct{ Name, Value string }

// Result is what a file declares: the library it was read as and its
// entities, in the file's order.
type Result struct {
	Library  string
	Entities []Entity
}

// lit and param build template segments.
func lit(s string) Segment   { return Segment{Literal: s} }
func param(n string) Segment { return Segment{Param: n} }

// String writes the template in the section's syntax: {name} for a
// parameter, a brace of the literal text doubled.
func templateText(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Param != "" {
			b.WriteString("{" + s.Param + "}")
			continue
		}
		b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(s.Literal))
	}
	return b.String()
}

// join merges neighbouring literals, so that a template reads the same
// however its library split it.
func join(segs []Segment) []Segment {
	var out []Segment
	for _, s := range segs {
		if s.Param == "" && s.Literal == "" {
			continue
		}
		if n := len(out); n > 0 && s.Param == "" && out[n-1].Param == "" {
			out[n-1].Literal += s.Literal
			continue
		}
		out = append(out, s)
	}
	return out
}

// addKey adds a key and the parameters it uses, each with the type typeOf
// gives it; a parameter already typed differently by an earlier key keeps
// its first type, and a note says so.
func (e *Entity) addKey(attr string, index bool, segs []Segment, typeOf func(string) Param) {
	segs = join(segs)
	e.Keys = append(e.Keys, Key{Attr: attr, Index: index, Template: segs})
	for _, s := range segs {
		if s.Param == "" {
			continue
		}
		p := typeOf(s.Param)
		p.Name = s.Param
		if i := e.param(s.Param); i >= 0 {
			if e.Params[i] != p {
				e.note("%s is %s in one key and %s in %s; the first is kept", p.Name, e.Params[i].describe(), p.describe(), attr)
			}
			continue
		}
		e.Params = append(e.Params, p)
	}
}

func (e *Entity) param(name string) int {
	for i, p := range e.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func (e *Entity) hasKey(attr string) bool {
	for _, k := range e.Keys {
		if k.Attr == attr {
			return true
		}
	}
	return false
}

// optional marks the last key added as one the items may lack.
func (e *Entity) optional() { e.Keys[len(e.Keys)-1].Optional = true }

// note adds one sentence about what was not derived.
func (e *Entity) note(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	for _, n := range e.Notes {
		if n == s {
			return
		}
	}
	e.Notes = append(e.Notes, s)
}

func (p Param) describe() string {
	switch p.Type {
	case "padded":
		return fmt.Sprintf("padded to %d", p.Width)
	case "id":
		return "an id (" + p.Shape + ")"
	}
	return p.Type
}

// Section writes the entities as the patterns file's `entities:` section,
// in the style of the shipped file: key templates double-quoted, a
// parameter's type a scalar or a flow mapping, and each entity's notes as
// comments above it.
func (r *Result) Section() []byte {
	str := func(v string, style yaml.Style) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: style}
	}
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, e := range r.Entities {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add := func(k string, v *yaml.Node) { m.Content = append(m.Content, str(k, 0), v) }
		add("name", str(e.Name, 0))
		if e.EntityAttr != nil {
			add("entityAttribute", &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
				str("name", 0), str(e.EntityAttr.Name, 0), str("value", 0), str(e.EntityAttr.Value, 0)}})
		}
		keys := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range e.Keys {
			keys.Content = append(keys.Content, str(k.Attr, 0), str(templateText(k.Template), yaml.DoubleQuotedStyle))
		}
		add("keys", keys)
		if len(e.Params) > 0 {
			ps := &yaml.Node{Kind: yaml.MappingNode}
			for _, p := range e.Params {
				var v *yaml.Node
				switch p.Type {
				case "padded":
					v = &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
						str("type", 0), str("padded", 0), str("width", 0), {Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(p.Width)}}}
				case "id":
					v = &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
						str("type", 0), str("id", 0), str("shape", 0), str(p.Shape, 0)}}
				default:
					v = str(p.Type, 0)
				}
				ps.Content = append(ps.Content, str(p.Name, 0), v)
			}
			add("params", ps)
		}
		var optional []*yaml.Node
		for _, k := range e.Keys {
			if k.Optional {
				optional = append(optional, str(k.Attr, 0))
			}
		}
		if len(optional) > 0 {
			add("optional", &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: optional})
		}
		if len(e.Notes) > 0 {
			m.HeadComment = strings.Join(prefixed(e.Name+": ", e.Notes), "\n")
		}
		list.Content = append(list.Content, m)
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("entities", 0), list}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(doc) // a tree of strings always encodes
	_ = enc.Close()
	return b.Bytes()
}

func prefixed(prefix string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "# " + prefix + l
	}
	return out
}

// andList joins names as a sentence does: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
