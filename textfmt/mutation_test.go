package textfmt

import "testing"

// DEL (0x7f) is a control character even where nothing before it is: the
// fast path that returns safe text unchanged must stop at it too, not only
// the slow path that a C0 byte earlier in the text sends Sanitize to.
func TestSanitizeFastPathStopsAtDEL(t *testing.T) {
	for in, want := range map[string]string{
		"\x7f":       `\x7f`,
		"ok\x7f":     `ok\x7f`,
		"\x1f":       `\x1f`,
		" ~":         " ~", // 0x20 and 0x7e are the edges of what passes
		"é\x7f":      `é\x7f`,
		"\u200c\x7f": "\u200c" + `\x7f`,
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}
