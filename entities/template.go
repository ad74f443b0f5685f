package entities

// Key templates: literal text with {name} placeholders ({{ and }} are
// literal braces), matched exactly against a key value and filled in to
// build one.

import (
	"fmt"
	"slices"
	"strings"

	"dynascope/filterexpr"
)

// MaxKeyBytes is the longest key value DynamoDB stores (a partition key's
// 2048 bytes); nothing longer is of any template, which bounds the work of
// reading one.
const MaxKeyBytes = 2048

// Template is one key attribute's template.
type Template struct {
	Raw   string // as written in the file
	parts []part
}

// part is a literal run of text or a placeholder.
type part struct {
	lit   string // the literal text; "" for a placeholder
	param string // the placeholder's name; "" for literal text
}

// ParseTemplate reads a template by the one template grammar of the
// patterns file (filterexpr.SplitTemplate: a pattern's pk and an entity's
// key read alike); its error is one sentence.
func ParseTemplate(s string) (Template, error) {
	split, err := filterexpr.SplitTemplate(s)
	if err != nil {
		return Template{}, err
	}
	if len(split) == 0 {
		return Template{}, fmt.Errorf("the template is empty; a key value cannot be empty")
	}
	t := Template{Raw: s, parts: make([]part, len(split))}
	for i, p := range split {
		if p.Param {
			t.parts[i] = part{param: p.Text}
		} else {
			t.parts[i] = part{lit: p.Text}
		}
	}
	return t, nil
}

// MustTemplate is ParseTemplate for templates known to be right; it panics
// on a mistake.
func MustTemplate(s string) Template {
	t, err := ParseTemplate(s)
	if err != nil {
		panic(err)
	}
	return t
}

// String is the template as written.
func (t Template) String() string { return t.Raw }

// Params are the template's placeholders in order, each once.
func (t Template) Params() []string {
	var names []string
	for _, p := range t.parts {
		if p.param != "" && !slices.Contains(names, p.param) {
			names = append(names, p.param)
		}
	}
	return names
}

// Literal is the number of bytes of literal text in the template: the more
// literal of two templates that both match a key is the one that names it.
func (t Template) Literal() int {
	n := 0
	for _, p := range t.parts {
		n += len(p.lit)
	}
	return n
}

// Prefix is the template's literal text before its first placeholder (all
// of it when it has none): what every key it matches begins with.
func (t Template) Prefix() string {
	if len(t.parts) > 0 && t.parts[0].param == "" {
		return t.parts[0].lit
	}
	return ""
}

// suffix is the literal text after the last placeholder.
func (t Template) suffix() string {
	if n := len(t.parts); n > 0 && t.parts[n-1].param == "" {
		return t.parts[n-1].lit
	}
	return ""
}

// literalOnly tells whether the template has no placeholder.
func (t Template) literalOnly() bool { return len(t.Params()) == 0 }

// Fill puts values into the placeholders, with no check of their types.
func (t Template) Fill(values map[string]string) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.param == "" {
			b.WriteString(p.lit)
			continue
		}
		v, ok := values[p.param]
		if !ok {
			return "", fmt.Errorf("the key %s needs a value for %s", t.Raw, p.param)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// Match reads value by the template, each placeholder's value checked
// against its parameter in params (a placeholder params does not declare
// is text). It gives the placeholders' values, or false when value is not
// of the template. The reading is exact and the same every time: text runs
// to the first place the next literal follows it (so text never holds it);
// a fixed-width type takes its width; any other type the shortest value of
// its type after which the rest matches.
func (t Template) Match(value string, params map[string]Param) (map[string]string, bool) {
	if len(value) > MaxKeyBytes {
		return nil, false
	}
	got := map[string]string{}
	if !t.match(value, 0, 0, params, got) {
		return nil, false
	}
	return got, true
}

func (t Template) match(s string, i, pos int, params map[string]Param, got map[string]string) bool {
	if i == len(t.parts) {
		return pos == len(s)
	}
	p := t.parts[i]
	if p.param == "" {
		return strings.HasPrefix(s[pos:], p.lit) && t.match(s, i+1, pos+len(p.lit), params, got)
	}
	param, ok := params[p.param]
	if !ok {
		param = Param{Name: p.param, Type: Text}
	}
	next := ""
	if i+1 < len(t.parts) {
		next = t.parts[i+1].lit // "" when two placeholders touch
	}
	try := func(end int) bool {
		v := s[pos:end]
		if prev, seen := got[p.param]; seen {
			if prev != v {
				return false
			}
			return t.match(s, i+1, end, params, got)
		}
		if param.Check(v) != nil {
			return false
		}
		got[p.param] = v
		if t.match(s, i+1, end, params, got) {
			return true
		}
		delete(got, p.param)
		return false
	}
	if prev, seen := got[p.param]; seen {
		return strings.HasPrefix(s[pos:], prev) && try(pos+len(prev))
	}
	if w := param.width(); w > 0 {
		return pos+w <= len(s) && try(pos+w)
	}
	if next == "" {
		// the last part (adjacent placeholders are refused unless the
		// first has a fixed width): the rest of the key
		return i+1 == len(t.parts) && try(len(s))
	}
	if param.Type == Text || (param.Type == ID && param.Shape == Any) {
		if pos >= len(s) {
			return false
		}
		at := strings.Index(s[pos+1:], next)
		return at >= 0 && try(pos+1+at)
	}
	for from := pos + 1; from <= len(s); {
		at := strings.Index(s[from:], next)
		if at < 0 {
			return false
		}
		if try(from + at) {
			return true
		}
		from += at + 1
	}
	return false
}

// next is the literal right after the placeholder's first use, "" when it
// ends the template; adjacent reports two placeholders touching.
func (t Template) next(name string) (lit string, adjacent bool) {
	for i, p := range t.parts {
		if p.param != name {
			continue
		}
		if i+1 == len(t.parts) {
			return "", false
		}
		if t.parts[i+1].param != "" {
			return "", true
		}
		return t.parts[i+1].lit, false
	}
	return "", false
}
