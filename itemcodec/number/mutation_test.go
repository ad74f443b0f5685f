package number

import "testing"

// Key is one text for every spelling of a number, so a number set's
// duplicates ("1" and "1.0") are found, and two different numbers never
// share one.
func TestKeyCanonical(t *testing.T) {
	for _, tc := range []struct {
		texts []string
		key   string
	}{
		{[]string{"0", "-0", "0.000", "0e10", "+.0"}, "0"},
		{[]string{"1", "1.0", "+1", "0.1e1", "10E-1"}, "1e0"},
		{[]string{"-1", "-1.00", "-0.01e2"}, "-1e0"},
		{[]string{"1234.5", "12345e-1", "0.012345e5"}, "12345e3"},
		{[]string{"0.000123", "1.23e-4"}, "123e-4"},
		{[]string{"500", "5e2", "5.00E+2"}, "5e2"},
	} {
		for _, s := range tc.texts {
			d, err := Parse(s)
			if err != nil || d.Key() != tc.key {
				t.Errorf("Parse(%q).Key() = %q, %v; want %q", s, d.Key(), err, tc.key)
			}
		}
	}
}

// The limits as DynamoDB words them, at each edge.
func TestCheckLimitEdges(t *testing.T) {
	for s, want := range map[string]string{
		"1E-130":                                 "",
		"9.9E-131":                               "magnitude smaller than 1E-130",
		"9.99E125":                               "",
		"1E126":                                  "magnitude larger than 1E+126",
		"-1E-130":                                "",
		"-1E-131":                                "magnitude smaller than 1E-130",
		"12345678901234567890123456789012345678": "",
		"123456789012345678901234567890123456789": "more than 38 significant digits",
	} {
		_, err := Parse(s)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Parse(%q): %q, want %q", s, got, want)
		}
	}
}
