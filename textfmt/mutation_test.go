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

// Each escape's width changes at its edge: \x for ASCII, \u up to U+FFFF,
// \U past it; a lone 0x80 byte is invalid UTF-8, not ASCII.
func TestSanitizeEscapeEdges(t *testing.T) {
	for in, want := range map[string]string{
		"\x80":         `\x80`,
		"a\x80b":       `a\x80b`,
		"\u0080":       `\u0080`,
		"\uffff":       `\uffff`,
		"\U0001fffe":   `\U0001fffe`,
		" ":            " ",
		"\x1f \x7e":    `\x1f ~`,
		"ok\u2028\xc3": `ok\u2028\xc3`,
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0:             "0 B",
		1023:          "1023 B",
		1024:          "1.0 KiB",
		1536:          "1.5 KiB",
		1<<20 - 1:     "1024.0 KiB",
		1 << 20:       "1.0 MiB",
		3<<20 + 1<<19: "3.5 MiB",
		1<<30 - 1:     "1024.0 MiB",
		1 << 30:       "1.0 GiB",
		5<<30 + 1<<29: "5.5 GiB",
	} {
		if got := HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPluralAndCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 items", 1: "1 item", 2: "2 items", -1: "-1 items"} {
		if got := Plural(n, "item", "items"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 1744: "1,744", 12345: "12,345",
		123456: "123,456", 1234567: "1,234,567", -1: "-1", -999: "-999", -1000: "-1,000", -123456: "-123,456",
	} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestUnits(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 0.5: "0.5", 1: "1", 12.5: "12.5", 1.0 / 3: "0.3333", 2.0 / 3: "0.6667", 0.00004: "0", 0.00005: "0.0001", 128.5: "128.5", -1.25: "-1.25",
	} {
		if got := Units(v); got != want {
			t.Errorf("Units(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestDollars(t *testing.T) {
	for v, want := range map[float64]string{
		0: "$0", -1: "$0", 2.5e-7: "$0.00000025", 0.0012345: "$0.00123", 0.00003125: "$0.0000313", 1: "$1", 1.5: "$1.5", 1234.5: "$1230",
	} {
		if got := Dollars(v); got != want {
			t.Errorf("Dollars(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"query", "scan", "tables", "partiql"}
	for word, want := range map[string]string{
		"qeury":    ` (did you mean "query"?)`, // two edits
		"quer":     ` (did you mean "query"?)`,
		"scna":     ` (did you mean "scan"?)`,
		"table":    ` (did you mean "tables"?)`,
		"tablesxx": ` (did you mean "tables"?)`,
		"tablexyz": "", // three edits
		"xyz":      "",
		"":         "",
		"scan":     ` (did you mean "scan"?)`,
	} {
		if got := Suggest(word, known); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", word, got, want)
		}
	}
	// The first of equally close words wins.
	if got := Suggest("ab", []string{"ax", "xb"}); got != ` (did you mean "ax"?)` {
		t.Errorf("a tie: %q", got)
	}
	// Nearest is the word itself.
	if got := Nearest("revers", []string{"index", "reverse", "limit"}); got != "reverse" {
		t.Errorf("Nearest = %q", got)
	}
	if got := Nearest("xyz", []string{"reverse"}); got != "" {
		t.Errorf("Nearest of nothing close = %q", got)
	}
	// Edits of more than half the word are a guess: sk- is two from pk;
	// pl is one from pk, half of it.
	if got := Nearest("sk-", []string{"pk"}); got != "" {
		t.Errorf("Nearest(sk-) = %q", got)
	}
	if got := Nearest("pl", []string{"pk"}); got != "pk" {
		t.Errorf("Nearest(pl) = %q", got)
	}
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"abc", "abc", 0},
		{"abc", "acb", 2}, {"flaw", "lawn", 2}, {"a", "b", 1}, {"ab", "ba", 2}, {"abcd", "abd", 1},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
