package ui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
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

// Item data reaches the screen only through Sanitize: keys, attribute names,
// values, and error texts. Wide and zero-width characters keep columns aligned.
func TestUntrustedItemDataIsShownNotInterpreted(t *testing.T) {
	evil := []dynamo.Item{
		{"PK": s("CUST#42"), "SK": s("ORDER#\x1b]52;c;cHduZWQ=\x07"), "note\x1b[2J": s("line1\nline2\tx"), "total": n("1")},
		{"PK": s("CUST#42"), "SK": s("ORDER#\u202egnp.exe"), "note\x1b[2J": s("\x1b]0;title\x07"), "total": n("2")},
		{"PK": s("CUST#42"), "SK": s("ORDER#日本語のキー"), "note\x1b[2J": s("幅広い文字"), "total": n("3")},
		{"PK": s("CUST#42"), "SK": s("ORDER#zero\u200bwidth"), "note\x1b[2J": s("e\u0301\u0301"), "total": n("4")},
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42"}, 120, 35, canned{items: evil, cap: halfRCU()},
		canned{err: &dynamo.UserError{Msg: "query CUST#42 on App: DynamoDB rejected the request: bad key \x1b]0;x\x07."}})
	raw := hs.m.View().Content
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\u202e", "\x07", "\n\tx"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the raw view holds %q from the data", bad)
		}
	}
	hs.contains(`ORDER#\x1b]52;c;cHduZWQ=\x07`, `ORDER#\u202egnp.exe`, `line1\nline2\tx`, `note\x1b[2J`, `ORDER#zero\u200bwidth`, "日本語のキー")
	for i, l := range strings.Split(hs.screen(), "\n") {
		if w := ansi.StringWidth(l); w != 120 {
			t.Errorf("line %d is %d cells wide: %q", i, w, l)
		}
	}
	// Columns stay aligned: the total column starts at the same cell on every row.
	col := -1
	for _, l := range strings.Split(hs.screen(), "\n") {
		if !strings.Contains(l, "▌ ORDER#") {
			continue
		}
		i := strings.Index(l, "▌ ORDER#")
		cells := ansi.StringWidth(l[:i])
		rest := l[i:]
		for _, tot := range []string{"  1  ", "  2  ", "  3  ", "  4  "} {
			if j := strings.Index(rest, tot); j >= 0 {
				c := cells + ansi.StringWidth(rest[:j])
				if col >= 0 && c != col {
					t.Errorf("total column at cell %d, earlier rows at %d: %q", c, col, l)
				}
				col = c
			}
		}
	}
	// An error that echoes data is sanitised too.
	hs.keys("r")
	if strings.Contains(hs.m.View().Content, "\x1b]0;x") {
		t.Error("an error text reached the terminal unsanitised")
	}
	hs.contains(`bad key \x1b]0;x\x07`)
}
