package textfmt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize makes text from a table safe to put on a terminal. Item data is
// untrusted: keys, attribute names, values, table and index names, and error
// texts that echo them all pass through here before they are drawn.
//
// Everything a terminal could interpret is shown visibly instead: C0 and C1
// control characters (so escape sequences — CSI, OSC including clipboard
// writes and title changes, DCS — arrive as harmless text starting with
// `\x1b`), DEL, bidi overrides and isolates, other invisible format
// characters, line and paragraph separators, private-use and unassigned code
// points, and invalid UTF-8 bytes. Tabs and newlines become `\t` and `\n`, so a
// value always stays on its row. Printable text, including wide characters,
// combining marks and the joiners emoji need, passes unchanged.
func Sanitize(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case shown(r):
			b.WriteString(s[i : i+size])
		default:
			writeEscaped(&b, r)
		}
		i += size
	}
	return b.String()
}

// firstUnsafe returns the byte offset of the first byte Sanitize must change, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !shown(r) {
			return i
		}
		i += size
	}
	return -1
}

// shown tells whether a rune may reach the terminal as itself: graphic
// characters (letters, marks, numbers, punctuation, symbols, spaces) and the
// two joiners that emoji sequences and some scripts need. Everything else —
// controls, format characters such as bidi overrides and zero-width spaces,
// separators, private use, surrogates, unassigned — is escaped.
func shown(r rune) bool {
	if r == '\u200c' || r == '\u200d' {
		return true
	}
	return unicode.IsGraphic(r)
}

func writeEscaped(b *strings.Builder, r rune) {
	switch r {
	case '\t':
		b.WriteString(`\t`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	default:
		switch {
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
	}
}
