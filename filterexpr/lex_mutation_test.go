package filterexpr

import "testing"

// A sign or a point is a number's start only before a digit, '0' and '9'
// included, or a point; at the end of the text it is nothing. Digits go on
// through '0' and '9' to a decimal point.
func TestLexNumberEdges(t *testing.T) {
	for src, want := range map[string]string{
		"-0 +9 -9 .0": "n:-0 n:+9 n:-9 n:.0 eof:",
		"-/":          `error at 1: '-' cannot appear here`,
		"a -":         `error at 3: '-' cannot appear here`,
		"-":           `error at 1: '-' cannot appear here`,
		"10.5 19.5":   "n:10.5 n:19.5 eof:",
		"1.05e10":     "n:1.05e10 eof:",
	} {
		if got := toks(src); got != want {
			t.Errorf("lex(%q) = %s\nwant %s", src, got, want)
		}
	}
}
