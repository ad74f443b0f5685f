package keys

import (
	"strings"
	"testing"
)

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

// A key that starts with a digit is a value, '0' and '9' included; the
// characters just outside ('/' and ':') lead labels.
func TestClassifyDigitEdges(t *testing.T) {
	for key, kind := range map[string]Kind{
		"0abc": KindValue, "9abc": KindValue, "/abc": KindLabel, ":abc": KindLabel, "": KindLabel,
	} {
		if c := Classify(key, "#"); c.Kind != kind {
			t.Errorf("Classify(%q) = %+v, want kind %s", key, c, kind)
		}
	}
	// A delimiter right after the leading one, or leading the key, is handled
	// before any search for the next one.
	for key, want := range map[string]Class{
		"##x":     {Kind: KindLabel, Prefix: "##"},
		"#A#1":    {Kind: KindLabel, Entity: "A", Prefix: "#A#"},
		"#ROOT":   {Kind: KindLabel, Entity: "ROOT", Prefix: "#ROOT", Exact: true},
		"#":       {Kind: KindLabel, Entity: "#", Prefix: "#", Exact: true},
		"ORDER#1": {Kind: KindLabel, Entity: "ORDER", Prefix: "ORDER#"},
		"PROFILE": {Kind: KindLabel, Entity: "PROFILE", Prefix: "PROFILE", Exact: true},
	} {
		if c := Classify(key, "#"); c != want {
			t.Errorf("Classify(%q) = %+v, want %+v", key, c, want)
		}
	}
}

// A string value group is named after both its ends, not its first key
// alone; a key type left empty is a string.
func TestGroupSortKeysNamesStringValueGroups(t *testing.T) {
	first, last := "2024-01-01", "2024-12-31T10:00:00Z"
	want := RunName(first, last)
	if want == RunName(first, first) {
		t.Fatalf("the ends must name the run differently from the first key: %q", want)
	}
	for _, typ := range []string{"S", ""} {
		g := GroupSortKeys([]string{first, last}, typ, "#")
		if len(g) != 1 || g[0].Entity != want || g[0].Count != 2 {
			t.Errorf("type %q: %+v, want one group %q of 2", typ, g, want)
		}
	}
}

// ceilRune reaches the last code points and returns one whose encoding
// equals s itself ("at or after").
func TestCeilRuneTop(t *testing.T) {
	for s, want := range map[string]rune{
		"\xf4\x8f\xbf\xbe": 0x10FFFE,
		"\xf4\x8f\xbf\xbf": 0x10FFFF,
		"\xf4\x8f\xbf":     0x10FFC0,
		"a":                'a',
		"\xed\xa0\x80":     0xE000, // a surrogate's encoding: the next code point
		"":                 0,
	} {
		if got, ok := ceilRune(s); !ok || got != want {
			t.Errorf("ceilRune(%q) = %U, %v; want %U", s, got, ok, want)
		}
	}
	if got, ok := ceilRune("\xf4\x8f\xbf\xbf\x00"); ok {
		t.Errorf("past U+10FFFF: %U", got)
	}
}

// A date's month and day are checked at both ends of their range.
func TestValueShapeCalendarEdges(t *testing.T) {
	for k, want := range map[string]string{
		"2025-01-01": ShapeDate, "2025-12-31": ShapeDate, "2025-01": ShapeDate,
		"2025-00-10": "", "2025-13-01": "", "2025-01-00": "", "2025-01-32": "",
		"2025-01-01#A17": ShapeDate, "#2025-01-01": "",
	} {
		if got := ValueShape(k); got != want && !(want == "" && got != ShapeDate) {
			t.Errorf("ValueShape(%q) = %q, want %q", k, got, want)
		}
	}
}

// ElectroDB's name_version and attr_value segments need text on both sides
// of the underscore.
func TestElectroDBSegmentsNeedBothSides(t *testing.T) {
	for s, ok := range map[string]bool{"user_1": true, "a_b_2": true, "_1": false, "user_": false, "user": false, "_": false} {
		if _, _, got := splitVersion(s); got != ok {
			t.Errorf("splitVersion(%q) ok = %v, want %v", s, got, ok)
		}
	}
	if _, ok := parseFacets([]string{"team_x", "_x"}); ok {
		t.Error("parseFacets accepted a facet without a name")
	}
	if f, ok := parseFacets([]string{"team_x", "id_"}); !ok || len(f) != 2 || f[1] != (Facet{Attr: "id"}) {
		t.Errorf("parseFacets of an empty value: %+v %v", f, ok)
	}
}

// Epoch seconds and milliseconds are 10 and 13 digits from 2001-09-09 up to,
// not including, 2033-05-18; a digit string is digits '0' to '9' only.
func TestNumberShapeEpochEdges(t *testing.T) {
	for k, want := range map[string]string{
		"1000000000": ShapeEpochSecond, "1999999999": ShapeEpochSecond, "999999999": ShapeNumber, "2000000000": ShapeNumber,
		"1000000000000": ShapeEpochMilli, "1999999999999": ShapeEpochMilli, "2000000000000": ShapeNumber, "0100000000": ShapeNumber,
	} {
		if got := numberShape(k); got != want {
			t.Errorf("numberShape(%q) = %q, want %q", k, got, want)
		}
	}
	for s, want := range map[string]bool{"0": true, "9": true, "09": true, "/": false, ":": false, "": false, "1a": false} {
		if got := isDigits(s); got != want {
			t.Errorf("isDigits(%q) = %v", s, got)
		}
	}
}

// The lint walks a family's types by their first key, then prefix.
func TestSortedTypesOrder(t *testing.T) {
	fa := &familyAcc{types: map[typeID]*typeAcc{
		{entity: "B"}: {t: SortKeyType{Entity: "B", Prefix: "B#", First: "B#1"}},
		{entity: "A"}: {t: SortKeyType{Entity: "A", Prefix: "A#", First: "A#1"}},
		{entity: "X"}: {t: SortKeyType{Entity: "X", Prefix: "X", First: "B#1"}},
		{entity: "C"}: {t: SortKeyType{Entity: "C", Prefix: "C#", First: "C#1"}},
	}}
	var got []string
	for _, ta := range sortedTypes(fa) {
		got = append(got, ta.t.Entity)
	}
	if strings.Join(got, " ") != "A B X C" {
		t.Errorf("order %v, want A B X C", got)
	}
}
