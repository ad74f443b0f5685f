package patterns

// Saving a hand-made query as a new pattern: the one write dynascope makes
// outside `seed`, and only to the patterns file.
//
// The new pattern's text is inserted into the file as text, after its last
// pattern, rather than by re-encoding the whole yaml.Node tree: yaml.v3's
// round trip drops blank lines and may move comments, and a file people
// write by hand should change only where the pattern is added.

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/dynamo"
	"dynascope/yamlfile"
)

// SavePattern appends p to the patterns file at path, keeping every other
// byte of the file (comments, blank lines, order), and creates the file when
// it does not exist. It refuses a name the file already has, and a file that
// does not load: it never writes a file that would not read back.
func SavePattern(path string, p Pattern) error {
	fail := func(format string, a ...any) error {
		return &dynamo.UserError{Msg: fmt.Sprintf("cannot save pattern %q to %s: ", p.Name, path) + fmt.Sprintf(format, a...) + "."}
	}
	if strings.TrimSpace(p.Name) == "" {
		return &dynamo.UserError{Msg: fmt.Sprintf("cannot save a pattern without a name to %s; give it a name.", path)}
	}
	if p.PK == "" {
		return fail("it has no partition key value")
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fail("%v", err)
	}
	before := 0
	if len(bytes.TrimSpace(data)) > 0 {
		set, err := ParsePatterns(path, data)
		if err != nil {
			return fail("the file has a mistake to fix first (%s)", strings.TrimRight(err.Error(), "."))
		}
		for _, q := range set.Patterns {
			if q.Name == p.Name {
				return fail("the file already has a pattern of that name (line %d); choose another name", q.Line)
			}
		}
		before = len(set.Patterns)
	}
	item, err := renderPattern(p)
	if err != nil {
		return fail("%v", err)
	}
	out, err := insertPattern(data, item)
	if err != nil {
		return fail("%v", err)
	}
	set, err := ParsePatterns(path, out)
	if err != nil {
		return fail("%s", strings.TrimRight(err.Error(), "."))
	}
	if len(set.Patterns) != before+1 || !samePattern(set.Patterns[before], p) {
		return fail("the file would not read back with the new pattern last; it is unchanged")
	}
	if err := writeAtomic(path, out); err != nil {
		return fail("%v", err)
	}
	return nil
}

func samePattern(a, b Pattern) bool {
	return a.Name == b.Name && a.Description == b.Description && a.Index == b.Index && a.PK == b.PK &&
		a.SK.Op == b.SK.Op && slices.Equal(a.SK.Values, b.SK.Values) &&
		a.Reverse == b.Reverse && a.Limit == b.Limit && a.Consistent == b.Consistent &&
		a.Filter == b.Filter && slices.Equal(a.Attributes, b.Attributes)
}

// renderPattern writes one pattern as a YAML list item ("- name: ...\n  pk: ...\n"),
// in the style of the shipped file: quoted key values, flow-style sk and example.
func renderPattern(p Pattern) (string, error) {
	str := func(v string, style yaml.Style) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: style}
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) { m.Content = append(m.Content, str(key, 0), v) }
	add("name", str(p.Name, 0))
	if p.Description != "" {
		add("description", str(p.Description, 0))
	}
	if p.Index != "" {
		add("index", str(p.Index, 0))
	}
	add("pk", str(p.PK, yaml.DoubleQuotedStyle))
	if p.SK.Op != dynamo.SKNone {
		var v *yaml.Node
		if p.SK.Op == dynamo.SKBetween {
			if len(p.SK.Values) != 2 {
				return "", fmt.Errorf("between takes two values, not %d", len(p.SK.Values))
			}
			v = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
				str(p.SK.Values[0], yaml.DoubleQuotedStyle), str(p.SK.Values[1], yaml.DoubleQuotedStyle)}}
		} else {
			if len(p.SK.Values) != 1 {
				return "", fmt.Errorf("the sort-key condition %s takes one value, not %d", skOpName(p.SK.Op), len(p.SK.Values))
			}
			v = str(p.SK.Values[0], yaml.DoubleQuotedStyle)
		}
		add("sk", &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str(skOpName(p.SK.Op), 0), v}})
	}
	if p.Filter != "" {
		add("filter", str(p.Filter, yaml.SingleQuotedStyle))
	}
	if p.Reverse {
		add("reverse", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if p.Limit > 0 {
		add("limit", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(p.Limit)})
	}
	if p.Consistent {
		add("consistent", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if len(p.Attributes) > 0 {
		attrs := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, a := range p.Attributes {
			attrs.Content = append(attrs.Content, str(a, 0))
		}
		add("attributes", attrs)
	}
	if p.MinKept != nil {
		add("minKept", &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatFloat(*p.MinKept*100, 'f', -1, 64) + "%"})
	}
	if c := p.Ceilings.RCU; c != nil {
		add("maxRCU", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(*c, 'f', -1, 64)})
	}
	if c := p.Ceilings.ItemBytes; c != nil {
		add("maxItemBytes", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(*c)})
	}
	if len(p.Example) > 0 {
		ex := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		keys := p.Parameters()
		for _, k := range slices.Sorted(maps.Keys(p.Example)) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			if v, ok := p.Example[k]; ok {
				ex.Content = append(ex.Content, str(k, 0), str(v, yaml.DoubleQuotedStyle))
			}
		}
		add("example", ex)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{m}}); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// insertPattern returns data with item added as the last element of its
// patterns: list. Only the lines of the new item (and a blank line when the
// patterns are separated by blank lines) are added.
func insertPattern(data []byte, item string) ([]byte, error) {
	nl := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		nl = "\r\n"
	}
	lines := splitLines(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return []byte(strings.Join(lines, "") + "patterns:" + nl + indent(item, "  ", nl)), nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	root := yamlfile.Deref(doc.Content[0])
	if root.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the file is written as one flow mapping ({...}); write table: and patterns: on lines of their own")
	}
	at := -1
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "patterns" {
			at = i
		}
	}
	ensureNL := func() {
		if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
			lines[n-1] += nl
		}
	}
	if at < 0 {
		ensureNL()
		return []byte(strings.Join(lines, "") + "patterns:" + nl + indent(item, "  ", nl)), nil
	}
	key, list := root.Content[at], root.Content[at+1]
	insertAt := func(after int, text string) []byte { // after: 1-based line, 0 for the top
		if after > 0 && !strings.HasSuffix(lines[after-1], "\n") {
			lines[after-1] += nl
		}
		out := slices.Concat(lines[:after], []string{text}, lines[after:])
		return []byte(strings.Join(out, ""))
	}
	switch {
	case list.Kind == yaml.ScalarNode && list.Tag == "!!null" && list.Value == "":
		// `patterns:` with nothing after it.
		return insertAt(key.Line, indent(item, "  ", nl)), nil
	case list.Kind == yaml.SequenceNode && len(list.Content) == 0 && list.Style&yaml.FlowStyle != 0:
		// `patterns: []`: drop the brackets, keep anything after them (a comment).
		l := lines[list.Line-1]
		c := list.Column - 1
		if c+2 > len(l) || l[c:c+2] != "[]" {
			return nil, errors.New("write patterns: [] on one line, or as a list")
		}
		lines[list.Line-1] = strings.TrimRight(l[:c], " \t") + l[c+2:]
		return insertAt(list.Line, indent(item, "  ", nl)), nil
	case list.Kind != yaml.SequenceNode || list.Style&yaml.FlowStyle != 0:
		return nil, errors.New("patterns: is not a block list (- name: ...), so a pattern cannot be appended to it")
	}
	dash := strings.Repeat(" ", list.Column-1)
	last := list.Content[len(list.Content)-1]
	end := blockEnd(lines, root, at, last.Line)
	text := indent(item, dash, nl)
	if separated(lines, last.Line) {
		text = nl + text
	}
	return insertAt(end, text), nil
}

// blockEnd is the last line (1-based) of the block of the top-level key
// root.Content[at]: the block ends before the next top-level key, or at the
// end of the file, and blank lines and top-level comments just above that
// belong to what follows; it never ends before line min.
func blockEnd(lines []string, root *yaml.Node, at, min int) int {
	end := len(lines)
	if at+2 < len(root.Content) {
		end = root.Content[at+2].Line - 1
	}
	rootIndent := root.Column - 1
	for end > min {
		l := lines[end-1]
		t := strings.TrimSpace(l)
		if t == "" || (strings.HasPrefix(t, "#") && leadingSpaces(l) <= rootIndent) {
			end--
			continue
		}
		break
	}
	return end
}

// separated tells whether the list item starting on line (1-based) is
// preceded by a blank line, above its comments: then the new item is too.
func separated(lines []string, line int) bool {
	for i := line - 2; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" {
			return true
		}
		if !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return false
}

func splitLines(data []byte) []string {
	var lines []string
	s := string(data)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

func leadingSpaces(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// indent prefixes every line of text and uses the file's line ending.
func indent(text, prefix, nl string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		b.WriteString(prefix + strings.TrimSuffix(l, "\n") + nl)
	}
	return b.String()
}

// writeAtomic replaces the file in one rename, so a crash never leaves half
// a patterns file; a symbolic link is followed, and the mode is kept.
func writeAtomic(path string, data []byte) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
