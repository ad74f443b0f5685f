package textfmt

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"CUST#42":                   "CUST#42",
		"":                          "",
		"Ann Ödegård 日本語 🙂":         "Ann Ödegård 日本語 🙂",
		"e\u0301":                   "e\u0301",            // combining mark
		"👩\u200d💻":                  "👩\u200d💻",           // ZWJ sequence
		`back\slash "q"`:            `back\slash "q"`,     // printable stays as it is
		"a\tb\nc\rd":                `a\tb\nc\rd`,         // one row per value
		"\x1b[2J\x1b[H":             `\x1b[2J\x1b[H`,      // CSI: clear screen
		"\x1b]52;c;aGk=\x07":        `\x1b]52;c;aGk=\x07`, // OSC 52: clipboard write
		"\x1b]0;pwned\x1b\\":        `\x1b]0;pwned\x1b\`,
		"\x1bP+q\x1b\\":             `\x1bP+q\x1b\`, // DCS
		"\u009b31m":                 `\u009b31m`,    // C1 CSI
		"\x00\x7f":                  `\x00\x7f`,
		"abc\u202edcba":             `abc\u202edcba`, // right-to-left override
		"\u2066x\u2069":             `\u2066x\u2069`, // isolates
		"zero\u200bwidth":           `zero\u200bwidth`,
		"line\u2028sep":             `line\u2028sep`,
		"bad\xffutf8\xc3":           `bad\xffutf8\xc3`,
		"\U000f0000 private use":    `\U000f0000 private use`,
		"tab\there and \x1b[31mred": `tab\there and \x1b[31mred`,
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

// safe reports the first rune Sanitize must never let through.
func unsafeRune(s string) (rune, bool) {
	if !utf8.ValidString(s) {
		return utf8.RuneError, true
	}
	for _, r := range s {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return r, true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		case !unicode.IsGraphic(r) && r != '\u200c' && r != '\u200d':
			return r, true
		}
	}
	return 0, false
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"CUST#42", "\x1b]52;c;aGk=\x07", "a\u202eb", "\xff", "日本", "e\u0301", "\t\n", "\x1bP\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		if r, bad := unsafeRune(out); bad {
			t.Fatalf("Sanitize(%q) = %q keeps %U", in, out, r)
		}
		if Sanitize(out) != out {
			t.Fatalf("Sanitize is not idempotent on %q", in)
		}
		if _, bad := unsafeRune(in); !bad && out != in {
			t.Fatalf("printable %q changed to %q", in, out)
		}
		// What reaches the terminal holds no escape sequence at all.
		if ansi.Strip(out) != out {
			t.Fatalf("Sanitize(%q) = %q still holds an escape sequence", in, out)
		}
	})
}
