// Package yamlfile holds what dynascope's two YAML files (the settings file
// in config, the patterns file in patterns) read alike: aliases followed to
// their node, and yaml.v3's syntax errors split into a line and a sentence,
// so that both files name a mistake as file:line.
//
// It imports only yaml.v3 and the standard library, never a package of
// dynascope's.
package yamlfile

import (
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Deref follows YAML aliases (*name) to the node they stand for.
func Deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// lineRE finds the line number in yaml.v3's syntax errors.
var lineRE = regexp.MustCompile(`^yaml: line (\d+): `)

// Syntax splits a YAML syntax error into its line and its message. yaml.v3
// leaves the line out when the mistake is on the first line.
func Syntax(err error) (line int, msg string) {
	msg = err.Error()
	line = 1
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	return line, msg
}

// IsText accepts any non-null scalar: `pk: 42` is as good as `pk: "42"`.
func IsText(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!!null" }

// Kind describes a value for an error: quoted text, or what it is instead
// ("a mapping", "a list of 2", "nothing").
func Kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list of " + strconv.Itoa(len(n.Content))
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "that"
}
