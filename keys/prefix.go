package keys

import (
	"sort"
	"unicode/utf8"
)

// NextPrefix returns the smallest string that sorts after every string starting with prefix, comparing UTF-8 bytes as DynamoDB does.
//
// "ORDER#" gives "ORDER$". It increments the last byte that is not 0xFF and
// drops the rest, so the result may be invalid UTF-8 (when that byte lies
// inside a multi-byte character); key conditions need NextValidPrefix. ok is
// false when no such string exists: prefix is empty or all 0xFF bytes.
func NextPrefix(prefix string) (next string, ok bool) {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xFF {
			return prefix[:i] + string([]byte{prefix[i] + 1}), true
		}
	}
	return "", false
}

// NextValidPrefix is NextPrefix restricted to valid UTF-8: the smallest valid string that sorts after every string starting with prefix.
//
// Only valid strings can be keys, and the SDK's JSON encoder turns invalid
// UTF-8 into U+FFFD, so an invalid start would silently query from somewhere
// else; this is the first possible key after the range instead.
// For a valid prefix it increments the last code point (U+007F to U+0080,
// U+D7FF to U+E000, skipping surrogates); a last code point of U+10FFFF is
// dropped and the one before it incremented. ok is false when no valid string
// sorts after the range (prefix empty, or made only of U+10FFFF or of bytes
// no valid string reaches).
func NextValidPrefix(prefix string) (next string, ok bool) {
	next, ok = NextPrefix(prefix)
	if !ok {
		return "", false
	}
	// A string sorts after the whole range exactly when it is >= NextPrefix,
	// so the answer is the smallest valid string at or after it.
	return ceilValid(next)
}

// ceilValid returns the smallest valid UTF-8 string that sorts at or after s.
func ceilValid(s string) (string, bool) {
	j := firstInvalid(s)
	if j < 0 {
		return s, true
	}
	head, tail := s[:j], s[j:]
	// A valid string that keeps head continues with some code point; the
	// smallest one whose encoding sorts at or after tail wins, and nothing
	// needs to follow it because that encoding already exceeds tail (it can
	// not equal a prefix of tail, or tail would start with a valid character).
	if r, ok := ceilRune(tail); ok {
		return head + string(r), true
	}
	// No code point reaches tail (it starts with 0xF5..0xFF, or 0xF4 0x90 and
	// up), so the answer must sort after everything that starts with head,
	// which is valid: drop its trailing U+10FFFF and increment the code point
	// before them. (Not a call to NextValidPrefix: that rescans head once per
	// U+10FFFF.)
	for head != "" {
		r, size := utf8.DecodeLastRuneInString(head)
		head = head[:len(head)-size]
		if r == utf8.MaxRune {
			continue
		}
		if r++; r == 0xD800 {
			r = 0xE000
		}
		return head + string(r), true
	}
	return "", false
}

// firstInvalid returns the byte offset of the first invalid or truncated UTF-8 sequence in s, or -1.
func firstInvalid(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// surrogates is the number of code points UTF-8 can not encode (U+D800..U+DFFF).
const surrogates = 0xE000 - 0xD800

// ceilRune returns the smallest code point whose UTF-8 encoding sorts at or after s.
func ceilRune(s string) (rune, bool) {
	// UTF-8 preserves code point order, so the encodings can be searched by
	// index over the code points that exist, surrogates left out.
	n := int(utf8.MaxRune + 1 - surrogates)
	at := func(i int) rune {
		if i >= 0xD800 {
			i += surrogates
		}
		return rune(i)
	}
	i := sort.Search(n, func(i int) bool { return string(at(i)) >= s })
	if i == n {
		return 0, false
	}
	return at(i), true
}
