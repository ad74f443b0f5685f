package keys

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzTokens are the pieces fuzzKeys builds keys from: delimiters, their byte
// neighbours, and code points at the edges of each UTF-8 length, so shared
// prefixes and boundary cases turn up far more often than from random bytes.
var fuzzTokens = []string{
	"A", "B", "ORDER", "S", "#", "$", "|", ":", "/", "~", "\x00", "\x7f",
	"\u0080", "é", "\u00ff", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uffff",
	"\U00010000", "\U0010FFFE", "\U0010FFFF", "日",
}

// valueTokens are the pieces of value-shaped keys: digits at both ends of
// the digit run and the bytes that follow and precede it, and the separators
// inside timestamps.
var valueTokens = []string{"0", "1", "9", ":", "/", "-", "T", "Z", ".", "2024-03-01T10:00:00Z", "0042"}

// fuzzKeys turns fuzz bytes into sort keys: bytes from 0xC0 up stand for the
// delimiter, bytes 0xA0 to 0xBF for a piece of a value, the others pick a
// token or (one value more) end the current key.
func fuzzKeys(data []byte, delim string) []string {
	var keys []string
	var b strings.Builder
	for _, c := range data {
		if c >= 0xC0 {
			b.WriteString(delim)
			continue
		}
		if c >= 0xA0 {
			b.WriteString(valueTokens[int(c-0xA0)%len(valueTokens)])
			continue
		}
		i := int(c) % (len(fuzzTokens) + 1)
		if i == len(fuzzTokens) {
			keys = append(keys, b.String())
			b.Reset()
			continue
		}
		b.WriteString(fuzzTokens[i])
	}
	return append(keys, b.String())
}

// checkSkipScan simulates skip-scan in both directions over keys held in
// DynamoDB's order and checks it finds exactly the groups GroupSortKeys finds.
func checkSkipScan(t *testing.T, keys []string, delim string) {
	t.Helper()
	// Only valid UTF-8 can be a DynamoDB string key.
	var sorted []string
	for _, k := range keys {
		if utf8.ValidString(k) {
			sorted = append(sorted, k)
		}
	}
	sort.Strings(sorted) // byte order, as DynamoDB sorts strings
	n := len(sorted)

	// Forward: Query with no condition, then SK >= start or SK > start, Limit 1.
	want := GroupSortKeys(sorted, "S", delim)
	got := []Group{}
	for i := 0; i < n; {
		k := sorted[i]
		start, inclusive, ok := SkipPast(k, delim)
		j := n
		if ok {
			if !utf8.ValidString(start) {
				t.Fatalf("SkipPast(%q, %q) = %q, not valid UTF-8", k, delim, start)
			}
			j = sort.Search(n, func(x int) bool {
				if inclusive {
					return sorted[x] >= start
				}
				return sorted[x] > start
			})
		}
		if j <= i {
			t.Fatalf("SkipPast(%q, %q) = %q, %v: the scan goes back", k, delim, start, inclusive)
		}
		got = append(got, scanned(Classify(k, delim), j-i, sorted[i], sorted[j-1]))
		i = j
	}
	got = FoldBare(got) // as the walk does once it has every group
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("forward skip-scan over %q (delim %q)\n got %+v\nwant %+v", sorted, delim, got, want)
	}

	// Backward: ScanIndexForward=false, then SK < SkipBefore, Limit 1.
	reversed := make([]string, n)
	for i, k := range sorted {
		reversed[n-1-i] = k
	}
	want = GroupSortKeys(reversed, "S", delim)
	got = []Group{}
	for i := n - 1; i >= 0; {
		k := sorted[i]
		bound := SkipBefore(k, delim)
		j := sort.SearchStrings(sorted, bound) // sorted[j-1] is the last key < bound
		if j > i {
			t.Fatalf("key %q sorts before its bound %q", k, bound)
		}
		got = append(got, scanned(Classify(k, delim), i-j+1, sorted[i], sorted[j]))
		i = j - 1
	}
	got = FoldBare(got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("backward skip-scan over %q (delim %q)\n got %+v\nwant %+v", reversed, delim, got, want)
	}
}

// scanned is the group a skip-scan reports for a run it found: the class of
// the key it landed on, named after the run's ends as GroupSortKeys names it.
func scanned(c Class, n int, first, last string) Group {
	g := Group{Entity: c.Entity, Prefix: c.Prefix, Kind: c.Kind, Exact: c.Exact, Count: n, First: first, Last: last}
	if g.Kind == KindValue {
		g.Entity = RunName(first, last)
	}
	return g
}

// checkPages checks that a partition's entity table loaded in two pages,
// forward or in reverse, holds the types it holds loaded at once, and that
// those are the groups of its keys (GroupSortKeys; ids folded for strings).
func checkPages(t *testing.T, keys []string, keyType, delim string, cut int) {
	t.Helper()
	// As a partition holds them: each key once, in DynamoDB's order (bytes;
	// numbers and binary form one group whatever their order). A bare label
	// folds into its prefix type by being its neighbour in that order.
	keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k == "" }) // DynamoDB refuses an empty key value
	slices.Sort(keys)
	keys = slices.Compact(keys)
	cut %= len(keys) + 1
	for _, reverse := range []bool{false, true} {
		ks := slices.Clone(keys)
		if reverse {
			slices.Reverse(ks)
		}
		want := GroupSortKeys(ks, keyType, delim)
		if keyType == "S" {
			want = FoldIDs("P#1", want)
		}
		tb := NewEntityTable(keyType, false).Reset("P#1", reverse).
			Load(loadedKeys(ks[:cut]), delim, true).Load(loadedKeys(ks[cut:]), delim, false)
		if got := tb.Groups(); !reflect.DeepEqual(got, want) {
			t.Fatalf("pages %q + %q (%s, delim %q, reverse %v)\n got %+v\nwant %+v", ks[:cut], ks[cut:], keyType, delim, reverse, got, want)
		}
		total := 0
		for _, g := range want {
			total += g.Count
		}
		if total != len(keys) {
			t.Fatalf("groups of %q count %d keys, want %d", keys, total, len(keys))
		}
	}
}

// loadedKeys are sort keys as a page of items loaded.
func loadedKeys(sks []string) []LoadedKey {
	out := make([]LoadedKey, len(sks))
	for i, k := range sks {
		out[i].SK = k
	}
	return out
}

func FuzzSkipScan(f *testing.F) {
	f.Add([]byte{}, "#")
	f.Add([]byte{2, 0xC0, 0, 24, 2, 24, 2, 0xC0, 24, 2, 3, 0xC0, 1}, "#") // ORDER#A, ORDER, ORDER#, ORDERS#B
	f.Add([]byte{0, 24, 0, 0xC0, 24, 0, 5, 1}, "#")                       // A, A#, A$B
	f.Add([]byte{0, 0xC0, 22, 24, 0, 22, 0xC0, 24, 1}, "\U0010FFFF")
	f.Add([]byte{0xC0, 0xC0, 0, 24, 0xC0, 24, 22, 0xC0, 0}, "\U0010FFFF")
	f.Add([]byte{0, 0xC0, 0, 24, 0, 11, 24, 0, 12}, "\x7f")
	f.Add([]byte{0, 0xC0, 24, 0, 10, 24, 0}, "\x00")
	f.Add([]byte{0, 4, 1, 24, 0, 8, 1, 24, 0}, "")
	f.Add([]byte{0, 0xC0, 1, 24, 0, 0xC0, 0xC0, 24, 0, 6, 1}, "::")
	f.Add([]byte{17, 0xC0, 24, 16, 0xC0, 24, 18, 24, 19}, "\u00ff")
	f.Fuzz(func(t *testing.T, data []byte, delim string) {
		if !utf8.ValidString(delim) {
			return // a delimiter the keys can not contain
		}
		keys := fuzzKeys(data, delim)
		checkSkipScan(t, keys, delim)
		checkPages(t, keys, "S", delim, len(data))
		checkPages(t, keys, "N", delim, len(data))
		checkPages(t, keys, "B", delim, len(data))
	})
}

func FuzzSkipScanRaw(f *testing.F) {
	f.Add("ORDER#2025-01-09#A11\nORDER#2025-03-01#A17\nPROFILE", "#")
	f.Add("ORDER\nORDER#\nORDER#1\nORDERS#1\nORDER$", "#")
	f.Add("PROFILE\nPROFILE#1\nPROFILE\x00\nPROFILEX", "#")
	f.Add("a|b\na:b\na/b\n|", "|")
	f.Add("\n#\n##\n#$", "#")
	f.Fuzz(func(t *testing.T, text, delim string) {
		keys := strings.Split(text, "\n")
		checkSkipScan(t, keys, delim)
		checkPages(t, keys, "S", delim, len(text))
		d := InferDelimiter(keys)
		if !slices.Contains(Delimiters, d) {
			t.Fatalf("InferDelimiter(%q) = %q, not one of %q", keys, d, Delimiters)
		}
		for _, earlier := range Delimiters[:slices.Index(Delimiters, d)] {
			for _, k := range keys {
				if k != "" && !isDigit(k[0]) && strings.Index(strings.TrimPrefix(k, earlier), earlier) > 0 {
					t.Fatalf("InferDelimiter(%q) = %q, but %q follows a label in %q", keys, d, earlier, k)
				}
			}
		}
	})
}

func FuzzClassify(f *testing.F) {
	f.Add("ORDER#2025-03-01#A17", "#", "x")
	f.Add("PROFILE", "#", "#1")
	f.Add("a:::b", "::", ":")
	f.Add("#METADATA#p1", "#", "")
	f.Add("::::x", "::", "y")
	f.Add("2024-03-01T10:00:00Z", "#", ":x")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, key, delim, suffix string) {
		c := Classify(key, delim)
		entity, prefix := EntityType(key, delim)
		if entity != c.Entity || prefix != c.Prefix {
			t.Fatalf("EntityType(%q, %q) = %q, %q; Classify says %+v", key, delim, entity, prefix, c)
		}
		switch {
		case c.Kind == KindValue:
			if key == "" || !isDigit(key[0]) || c.Prefix != "" {
				t.Fatalf("Classify(%q, %q) = %+v: a value that does not start with a digit", key, delim, c)
			}
			if d := Classify(key[:1]+suffix, delim); d.ID() != c.ID() {
				t.Fatalf("Classify(%q, %q) = %+v, but %q is %+v", key, delim, c, key[:1]+suffix, d)
			}
		case c.Exact:
			if c.Prefix != key || c.Entity != key && !slices.ContainsFunc(KeyDelimiters(delim), func(d string) bool { return c.Entity == strings.TrimPrefix(key, d) }) {
				t.Fatalf("Classify(%q, %q) = %+v; want the key itself", key, delim, c)
			}
		default:
			ds := KeyDelimiters(delim)
			if !strings.HasPrefix(key, c.Prefix) || delim == "" || !slices.ContainsFunc(ds, func(d string) bool { return d != "" && strings.HasSuffix(c.Prefix, d) }) {
				t.Fatalf("Classify(%q, %q) = %+v: the prefix is not the key's up to a delimiter", key, delim, c)
			}
			if slices.ContainsFunc(ds, func(d string) bool { return strings.Contains(c.Entity, d) }) || !strings.Contains(c.Prefix, c.Entity) {
				t.Fatalf("Classify(%q, %q) = %+v: the entity is not the label between delimiters", key, delim, c)
			}
			// Every string in the begins_with range is of the same type,
			// which is what makes a type one contiguous run of keys.
			if d := Classify(c.Prefix+suffix, delim); d.ID() != c.ID() {
				t.Fatalf("Classify(%q, %q) = %+v; want %+v", c.Prefix+suffix, delim, d, c)
			}
		}
	})
}

func FuzzNextPrefix(f *testing.F) {
	f.Add("ORDER#", "ORDER$")
	f.Add("a\xff", "b")
	f.Add("\xff", "")
	f.Add("", "x")
	f.Add("é", "\xc3\xa9\xff")
	f.Fuzz(func(t *testing.T, p, y string) {
		next, ok := NextPrefix(p)
		after := y > p && !strings.HasPrefix(y, p) // y sorts after every string starting with p
		if !ok {
			if strings.Trim(p, "\xff") != "" {
				t.Fatalf("NextPrefix(%q) found nothing", p)
			}
			if after {
				t.Fatalf("NextPrefix(%q) found nothing, but %q sorts after the range", p, y)
			}
			return
		}
		if !(p+y < next) {
			t.Fatalf("NextPrefix(%q) = %q, not after %q", p, next, p+y)
		}
		if (y >= next) != after {
			t.Fatalf("NextPrefix(%q) = %q: %q >= it is %v, but after the range is %v", p, next, y, y >= next, after)
		}
		if len(next) > len(p) {
			t.Fatalf("NextPrefix(%q) = %q, longer than the prefix", p, next)
		}
	})
}

// probeRunes are code points at the edges of UTF-8 lengths and surrogates.
var probeRunes = []rune{0, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, utf8.MaxRune}

// incrementRunes is the rune-level description of NextValidPrefix for valid prefixes, as an oracle.
func incrementRunes(p string) (string, bool) {
	rs := []rune(p)
	for len(rs) > 0 {
		last := rs[len(rs)-1]
		if last == utf8.MaxRune {
			rs = rs[:len(rs)-1]
			continue
		}
		last++
		if last == 0xD800 {
			last = 0xE000
		}
		rs[len(rs)-1] = last
		return string(rs), true
	}
	return "", false
}

func FuzzNextValidPrefix(f *testing.F) {
	f.Add("ORDER#", "ORDER$")
	f.Add("\u00ff", "\xc3\xc0")
	f.Add("x\ud7ff", "x\ue000")
	f.Add("A\U0010FFFF", "A\U0010FFFF\x00")
	f.Add("\U0010FFFF", "\U0010FFFF\U0010FFFF")
	f.Add("\xf4\x8f\xbf", "")
	f.Add("ab\xc3(", "ab\xc3\x80")
	f.Add("a\xed\xa0\x80", "a\xed\x9f\xbf")
	f.Fuzz(func(t *testing.T, p, y string) {
		next, ok := NextValidPrefix(p)
		after := y > p && !strings.HasPrefix(y, p)
		if utf8.ValidString(p) {
			want, wantOK := incrementRunes(p)
			if next != want || ok != wantOK {
				t.Fatalf("NextValidPrefix(%q) = %q, %v; want %q, %v", p, next, ok, want, wantOK)
			}
		}
		if !ok {
			if utf8.ValidString(y) && after {
				t.Fatalf("NextValidPrefix(%q) found nothing, but %q is valid and sorts after the range", p, y)
			}
			return
		}
		if !utf8.ValidString(next) {
			t.Fatalf("NextValidPrefix(%q) = %q, not valid UTF-8", p, next)
		}
		if !(next > p) || strings.HasPrefix(next, p) || !(p+y < next) {
			t.Fatalf("NextValidPrefix(%q) = %q, not after every string starting with the prefix", p, next)
		}
		if utf8.ValidString(y) && after && y < next {
			t.Fatalf("NextValidPrefix(%q) = %q, but valid %q is smaller and after the range", p, next, y)
		}
		// Probe the valid strings just below next: keep part of it, put a
		// boundary code point (or the one before next's) there, then the
		// maximum. Only near the end, where next differs from the prefix, so
		// long inputs stay linear.
		for i, c := range next + "\x00" {
			if len(next)-i > 32 {
				continue
			}
			probes := append([]rune{c - 1}, probeRunes...)
			for _, r := range probes {
				if !utf8.ValidRune(r) {
					continue
				}
				for _, tail := range []string{"", "\U0010FFFF\U0010FFFF"} {
					below := next[:i] + string(r) + tail
					if below < next && below > p && !strings.HasPrefix(below, p) {
						t.Fatalf("NextValidPrefix(%q) = %q, but valid %q is smaller and after the range", p, next, below)
					}
				}
			}
		}
	})
}
