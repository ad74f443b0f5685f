package patterns

// Writing an imported entities: section (`dynascope entities import
// --write`) into the patterns file, as text, the way SavePattern adds a
// pattern: the file's other lines, comments and blank lines stay as they
// are.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/dynamo"
	"dynascope/yamlfile"
)

// SaveEntities puts section, a top-level `entities:` block, into the
// patterns file at path: in place of the file's entities: when it has one,
// else after the rest of the file; the file is created when it does not
// exist. A file that does not load is refused before, and the result must
// load with the section's entities, or nothing is written.
func SaveEntities(path string, section []byte) error {
	fail := func(format string, a ...any) error {
		return &dynamo.UserError{Msg: fmt.Sprintf("cannot write the entities to %s: ", path) + fmt.Sprintf(format, a...) + "."}
	}
	want, err := ParsePatterns(path, section)
	if err != nil {
		return fail("the section does not load (%s)", strings.TrimRight(err.Error(), "."))
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fail("%v", err)
	}
	if len(bytes.TrimSpace(data)) > 0 {
		if _, err := ParsePatterns(path, data); err != nil {
			return fail("the file has a mistake to fix first (%s)", strings.TrimRight(err.Error(), "."))
		}
	}
	out, err := replaceEntities(data, section)
	if err != nil {
		return fail("%v", err)
	}
	got, err := ParsePatterns(path, out)
	if err != nil {
		return fail("%s", strings.TrimRight(err.Error(), "."))
	}
	if len(got.Entities.Entities) != len(want.Entities.Entities) {
		return fail("the file would not read back with the %d entities; it is unchanged", len(want.Entities.Entities))
	}
	if err := writeAtomic(path, out); err != nil {
		return fail("%v", err)
	}
	return nil
}

// replaceEntities returns data with its top-level entities: block replaced
// by section, or section added at the end, in the file's line endings.
func replaceEntities(data, section []byte) ([]byte, error) {
	nl := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		nl = "\r\n"
	}
	text := indent(string(section), "", nl)
	lines := splitLines(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return []byte(strings.Join(lines, "") + text), nil
	}
	root, at, err := topLevel(data, "entities")
	if err != nil {
		return nil, err
	}
	if at < 0 {
		if n := len(lines); !strings.HasSuffix(lines[n-1], "\n") {
			lines[n-1] += nl
		}
		if strings.TrimSpace(lines[len(lines)-1]) != "" {
			text = nl + text
		}
		return []byte(strings.Join(lines, "") + text), nil
	}
	key, val := root.Content[at], root.Content[at+1]
	last := key.Line
	if l := lastLine(val); l > last {
		last = l
	}
	end := blockEnd(lines, root, at, last)
	out := slices.Concat(lines[:key.Line-1], []string{text}, lines[end:])
	return []byte(strings.Join(out, "")), nil
}

// lastLine is the last line any node of the tree starts on.
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		if cl := lastLine(c); cl > l {
			l = cl
		}
	}
	return l
}

// topLevel reads data's top-level mapping and finds the key name in it
// (at, -1 when it has none, and for an empty file); a file whose keys are
// not on lines of their own at the start of the line is refused, since
// its blocks cannot be told by their lines.
func topLevel(data []byte, name string) (*yaml.Node, int, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, -1, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, -1, err
	}
	if len(doc.Content) == 0 { // comments only
		return nil, -1, nil
	}
	root := yamlfile.Deref(doc.Content[0])
	if root.Style&yaml.FlowStyle != 0 {
		return nil, -1, errors.New("the file is written as one flow mapping ({...}); write its keys on lines of their own")
	}
	if root.Column != 1 {
		return nil, -1, errors.New("the file's top-level keys are indented; write them at the start of their lines")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == name {
			return root, i, nil
		}
	}
	return root, -1, nil
}
