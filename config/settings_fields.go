package config

// The typed fields of the settings file: each reader checks one YAML value
// and names a wrong one by file and line as a SettingsError.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"dynascope/textfmt"
	"dynascope/yamlfile"
)

// field is one key/value pair of a YAML mapping.
type field struct{ key, value *yaml.Node }

// mapping checks that n is a mapping whose keys are all known (any key when
// known is nil) and none repeated, and returns its pairs in file order.
func mapping(path string, n *yaml.Node, what string, known []string) ([]field, error) {
	if n.Kind != yaml.MappingNode {
		return nil, &SettingsError{File: path, Line: n.Line, Msg: fmt.Sprintf("%s must be a mapping (name: value)", what)}
	}
	var out []field
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlfile.Deref(n.Content[i+1])
		if first, dup := seen[k.Value]; dup {
			return nil, &SettingsError{File: path, Line: k.Line, Msg: fmt.Sprintf("%s: %s is given twice (first at line %d)", what, k.Value, first)}
		}
		seen[k.Value] = k.Line
		if known != nil && !slices.Contains(known, k.Value) {
			return nil, &SettingsError{File: path, Line: k.Line, Msg: fmt.Sprintf("%s: unknown field %q%s; known are %s", what, k.Value, textfmt.Suggest(k.Value, known), strings.Join(known, ", "))}
		}
		out = append(out, field{k, v})
	}
	return out, nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == 0 || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func text(path string, n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", &SettingsError{File: path, Line: n.Line, Msg: what + " must be text"}
	}
	return n.Value, nil
}

func integer(path string, n *yaml.Node, what string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil || v < lo || v > hi {
		return 0, &SettingsError{File: path, Line: n.Line, Msg: fmt.Sprintf("%s must be a whole number from %d to %d, not %q", what, lo, hi, n.Value)}
	}
	return v, nil
}

func boolean(path string, n *yaml.Node, what string) (bool, error) {
	v, err := strconv.ParseBool(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || err != nil {
		return false, &SettingsError{File: path, Line: n.Line, Msg: fmt.Sprintf("%s must be true or false, not %q", what, n.Value)}
	}
	return v, nil
}

func number(path string, n *yaml.Node, what string) (float64, error) {
	v, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || err != nil || v < 0 || v != v {
		return 0, &SettingsError{File: path, Line: n.Line, Msg: fmt.Sprintf("%s must be a number of 0 or more, not %q", what, n.Value)}
	}
	return v, nil
}
