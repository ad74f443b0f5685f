package keys

import "testing"

// A last code point of U+10FFFF is dropped and the one before incremented;
// when that one is U+D7FF the next is U+E000, past the surrogates, which
// UTF-8 cannot encode.
func TestNextValidPrefixSkipsSurrogatesAfterDroppingMaxRune(t *testing.T) {
	for in, want := range map[string]string{
		"x\ud7ff\U0010FFFF": "x\ue000",
		"x\ud7fe\U0010FFFF": "x\ud7ff",
		"x\U0010FFFF":       "y",
		"\ud7ff":            "\ue000",
	} {
		got, ok := NextValidPrefix(in)
		if !ok || got != want {
			t.Errorf("NextValidPrefix(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := NextValidPrefix("\U0010FFFF\U0010FFFF"); ok {
		t.Errorf("NextValidPrefix of U+10FFFF only = %q, want none", got)
	}
}

// A key that starts with a doubled delimiter ("::META") has no delimiter
// after a label: the second one sits at the start of what follows the
// first, so it does not make ":" the partition's delimiter.
func TestInferDelimiterIgnoresLeadingDoubledDelimiter(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"//META"}, "#"},
		{[]string{"||META", "a/b"}, "/"},
		{[]string{"/META/x"}, "/"},
		{[]string{"A/B"}, "/"},
		{[]string{"/"}, "#"},
		{[]string{"7/x", "PROFILE"}, "#"}, // a value's "/" never counts
	} {
		if got := InferDelimiter(tc.keys); got != tc.want {
			t.Errorf("InferDelimiter(%q) = %q, want %q", tc.keys, got, tc.want)
		}
	}
}
