package keys

import "testing"

func TestNextPrefix(t *testing.T) {
	tests := []struct {
		prefix, want string
		ok           bool
	}{
		{"ORDER#", "ORDER$", true},
		{"ORDER|", "ORDER}", true},
		{"ORDER:", "ORDER;", true},
		{"ORDER/", "ORDER0", true},
		{"PROFILE", "PROFILF", true},
		{"a", "b", true},
		{"~", "\x7f", true},
		{"\x00", "\x01", true},
		{"a\xff", "b", true},
		{"a\xff\xff", "b", true},
		{"\xfe\xff", "\xff", true},
		{"é", "\xc3\xaa", true},                  // U+00E9 is C3 A9
		{"\u00ff", "\xc3\xc0", true},             // C3 BF: the byte carry lands inside the character
		{"\U0010FFFF", "\xf4\x8f\xbf\xc0", true}, // F4 8F BF BF
		{"", "", false},
		{"\xff", "", false},
		{"\xff\xff\xff", "", false},
	}
	for _, tt := range tests {
		got, ok := NextPrefix(tt.prefix)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NextPrefix(%q) = %q, %v; want %q, %v", tt.prefix, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNextValidPrefix(t *testing.T) {
	tests := []struct {
		prefix, want string
		ok           bool
	}{
		{"ORDER#", "ORDER$", true},
		{"PROFILE", "PROFILF", true},
		{"~", "\x7f", true},
		{"A\x7f", "A\u0080", true},   // 1-byte to 2-byte character
		{"é", "ê", true},             // U+00E9 to U+00EA
		{"\u00ff", "\u0100", true},   // C3 BF: incrementing the byte would give C3 C0
		{"\u07ff", "\u0800", true},   // 2-byte to 3-byte character
		{"x\ud7ff", "x\ue000", true}, // skips the surrogates D800..DFFF
		{"\uffff", "\U00010000", true},
		{"日本#", "日本$", true},
		{"日本", "日\u672d", true}, // U+672C to U+672D
		{"A\U0010FFFF", "B", true},
		{"A\U0010FFFF\U0010FFFF", "B", true},
		{"\U0010FFFF#", "\U0010FFFF$", true},
		{"A\u00ff\U0010FFFF", "A\u0100", true},
		{"\U0010FFFF", "", false},
		{"\U0010FFFF\U0010FFFF", "", false},
		{"", "", false},
		// Invalid input still gets the smallest valid string after its range.
		{"\xff", "", false},
		{"a\xff", "b", true},
		{"\xc0", "\u0080", true},             // C0 and C1 never start a character
		{"\xc3", "\u0100", true},             // strings starting with C3 end at C3 BF..
		{"\xe0", "\u1000", true},             // E1 80 80
		{"\xed", "\ue000", true},             // ED is followed by at most 9F
		{"\xf0", "\U00040000", true},         // F1 80 80 80
		{"\xf3", "\U00100000", true},         // F4 80 80 80
		{"a\xf4", "b", true},                 // nothing valid starts with F5
		{"\xf4", "", false},                  // nor does anything valid sort after all of F4..
		{"\x80abc", "\u0080", true},          // a stray continuation byte
		{"ab\xc3(", "ab\u00c0", true},        // C3 29 is invalid; C3 2A too, so the next character starting C3 is C3 80
		{"\xf4\x8f\xbf", "", false},          // U+10FFFF without its last byte
		{"\xf4\x8f\xbe", "\U0010FFC0", true}, // F4 8F BF 80
		{"\xe2\x82", "\u20c0", true},         // E2 82 .. ends before E2 83 80
		{"a\xed\xa0\x80", "a\ue000", true},   // an encoded surrogate
		{"a\xef\xbf\xbf\xff", "a\U00010000", true},
	}
	for _, tt := range tests {
		got, ok := NextValidPrefix(tt.prefix)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NextValidPrefix(%q) = %q, %v; want %q, %v", tt.prefix, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSkipPast(t *testing.T) {
	tests := []struct {
		key, delim    string
		start         string
		inclusive, ok bool
	}{
		// A prefix type: resume at the first string after its range.
		{"ORDER#2025-01-09#A11", "#", "ORDER$", true, true},
		{"ORDER#", "#", "ORDER$", true, true},
		{"#root", "#", "#root", false, true},
		{"#METADATA#1", "#", "#METADATA$", true, true},
		{"2023-04-01T12:00:00Z", "#", ":", true, true},
		{"0", ":", ":", true, true},
		{"ORDER|A17", "|", "ORDER}", true, true},
		{"日本#1", "#", "日本$", true, true},
		{"A~1", "~", "A\x7f", true, true},
		{"A\x7f1", "\x7f", "A\u0080", true, true},
		{"A\U0010FFFF1", "\U0010FFFF", "B", true, true},
		{"a::b::c", "::", "a:;", true, true},
		// Nothing valid sorts after every string starting with U+10FFFF.
		{"\U0010FFFF\U0010FFFFx", "\U0010FFFF", "", true, false},
		// An exact type: resume after the value itself.
		{"PROFILE", "#", "PROFILE", false, true},
		{"ORDER", "#", "ORDER", false, true},
		{"", "#", "", false, true},
		{"\U0010FFFF", "#", "\U0010FFFF", false, true},
		{"ORDER#1", "", "ORDER#1", false, true},
	}
	for _, tt := range tests {
		start, inclusive, ok := SkipPast(tt.key, tt.delim)
		if start != tt.start || inclusive != tt.inclusive || ok != tt.ok {
			t.Errorf("SkipPast(%q, %q) = %q, %v, %v; want %q, %v, %v",
				tt.key, tt.delim, start, inclusive, ok, tt.start, tt.inclusive, tt.ok)
		}
	}
}
