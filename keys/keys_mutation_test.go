package keys

import (
	"slices"
	"testing"
)

// A key led by two different delimiters ("#/x" under "#") is the prefix
// type ("", "#/"): every key that starts with "#/" is one contiguous type.
func TestClassifyTwoDifferentLeadingDelimiters(t *testing.T) {
	for key, want := range map[string]Class{
		"#/x":   {Kind: KindLabel, Prefix: "#/"},
		"#/y#z": {Kind: KindLabel, Prefix: "#/"},
		"/#x":   {Kind: KindLabel, Prefix: "/#"},
	} {
		if c := Classify(key, "#"); c != want {
			t.Errorf("Classify(%q, \"#\") = %+v, want %+v", key, c, want)
		}
	}
}

// KeyDelimiters is the hint, then every other delimiter the hint does not
// start with; a hint outside Delimiters is alone.
func TestKeyDelimiters(t *testing.T) {
	for hint, want := range map[string][]string{
		"#":  {"#", "::", "||", "__", "|", ":", "/"},
		"::": {"::", "#", "||", "__", "|", "/"},
		"||": {"||", "#", "::", "__", ":", "/"},
		"~":  {"~"},
	} {
		if got := KeyDelimiters(hint); !slices.Equal(got, want) {
			t.Errorf("KeyDelimiters(%q) = %q, want %q", hint, got, want)
		}
	}
}
