package filterexpr

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func knowing(names ...string) func(string) bool {
	return func(n string) bool {
		for _, k := range names {
			if k == n {
				return true
			}
		}
		return false
	}
}

func suspectText(ss []Suspect) string {
	var b []string
	for _, s := range ss {
		b = append(b, s.Name+"@"+strconv.Itoa(s.Col))
	}
	return strings.Join(b, " ")
}

func TestSuspectNames(t *testing.T) {
	for _, tc := range []struct {
		in    string
		known []string
		want  string
	}{
		// The case: an upper-case word where the text was meant.
		{`status = OPEN`, nil, "OPEN@10"},
		{`status = "OPEN"`, nil, ""},
		{"status = `OPEN`", nil, ""},
		{`OPEN = status`, nil, "OPEN@1"},
		{`status <> CLOSED`, nil, "CLOSED@11"},
		{`total < LIMIT`, nil, "LIMIT@9"},
		// Number-like: as many digits as letters.
		{`orderId = A17`, nil, "A17@11"},
		{`sku = b1001`, nil, "b1001@7"},
		{`v = v2`, nil, "v2@5"},
		{`x = _1`, nil, "_1@5"},
		// Words that read as names are left alone.
		{`status = open`, nil, ""},
		{`shippedAt > createdAt`, nil, ""},
		{`Status = Open`, nil, ""},
		{`gsi1pk = sk`, nil, ""},
		{`a = abc12`, nil, ""},
		// A name the caller knows is never suspect, upper-case or not.
		{`GSI1PK = PK`, []string{"GSI1PK", "PK"}, ""},
		{`GSI1PK = USER`, []string{"GSI1PK", "PK"}, "USER@10"},
		{`status = OPEN`, []string{"OPEN"}, ""},
		// Every comparison: IN, BETWEEN, under NOT and OR; each name once.
		{`status IN (OPEN, "X", CLOSED, OPEN)`, nil, "OPEN@12 CLOSED@23"},
		{`SK BETWEEN A AND M`, []string{"SK"}, "A@12 M@18"},
		{`NOT (a = 1 OR status = OPEN) AND b = OPEN`, nil, "OPEN@24"},
		{`size(tags) > N2`, nil, "N2@14"},
		// Names by a function's grammar, and document paths, are names.
		{`attribute_exists(OPEN)`, nil, ""},
		{`attribute_type(X1, "S")`, nil, ""},
		{`begins_with(SK, "A") AND contains(TAGS, "x")`, nil, ""},
		{`size(OPEN) > 1`, nil, ""},
		{`status = ORDER.OPEN`, nil, ""},
		{`status = OPEN[0]`, nil, ""},
		// Columns count characters, not bytes.
		{"`é` = 1 AND s = OPEN", nil, "OPEN@17"},
		{``, nil, ""},
	} {
		e, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		var known func(string) bool
		if tc.known != nil {
			known = knowing(tc.known...)
		}
		if got := suspectText(SuspectNames(e, known)); got != tc.want {
			t.Errorf("%q known %v: suspects %q, want %q", tc.in, tc.known, got, tc.want)
		}
	}
}

func TestSuspectSentence(t *testing.T) {
	e, err := Parse(`status = OPEN`)
	if err != nil {
		t.Fatal(err)
	}
	got := SuspectNames(e, nil)
	if len(got) != 1 {
		t.Fatalf("suspects %v", got)
	}
	if want := `OPEN is read as an attribute name; for the text write "OPEN"`; got[0].String() != want {
		t.Errorf("sentence %q, want %q", got[0], want)
	}
}

// A template's names are suspect as a condition's are, after Fill too: the
// placeholders are values, the bare words beside them are not.
func TestSuspectNamesOfFilledTemplate(t *testing.T) {
	tpl, err := ParseTemplate(`status = OPEN AND total > {min}`)
	if err != nil {
		t.Fatal(err)
	}
	e, err := tpl.Fill(map[string]string{"min": "10"})
	if err != nil {
		t.Fatal(err)
	}
	if got := suspectText(SuspectNames(e, nil)); got != "OPEN@10" {
		t.Errorf("suspects %q, want OPEN@10", got)
	}
}

// FuzzSuspectNames holds SuspectNames to its promises on any filter that
// parses: each suspect is written at its column, is one of the names the
// filter reads, comes once, is not known; knowing every name leaves none;
// and writing each suspect as the quoted text it names leaves none.
func FuzzSuspectNames(f *testing.F) {
	for _, s := range []string{`status = OPEN`, `a IN (B, C1, "d")`, `SK BETWEEN A AND Z9`, "`X` = Y", `NOT a = B OR c <> D`, `size(a) > B2`, `é = É`} {
		f.Add(s, "B")
	}
	f.Fuzz(func(t *testing.T, src, knownName string) {
		e, err := Parse(src)
		if err != nil {
			return
		}
		attrs := e.Attributes()
		known := knowing(knownName)
		got := SuspectNames(e, known)
		seen := map[string]bool{}
		runes := []rune(src)
		for _, s := range got {
			if seen[s.Name] {
				t.Fatalf("%q: %s named twice", src, s.Name)
			}
			seen[s.Name] = true
			if s.Name == knownName {
				t.Fatalf("%q: the known name %s is suspect", src, s.Name)
			}
			if !contains(attrs, s.Name) {
				t.Fatalf("%q: suspect %s is not an attribute the filter reads (%v)", src, s.Name, attrs)
			}
			if s.Col < 1 || s.Col-1+utf8.RuneCountInString(s.Name) > len(runes) || string(runes[s.Col-1:s.Col-1+utf8.RuneCountInString(s.Name)]) != s.Name {
				t.Fatalf("%q: suspect %s is not written at column %d", src, s.Name, s.Col)
			}
			if !looksLikeValue(s.Name) {
				t.Fatalf("%q: suspect %s does not look like a value", src, s.Name)
			}
		}
		if all := SuspectNames(e, knowing(attrs...)); len(all) != 0 {
			t.Fatalf("%q: knowing every name %v leaves suspects %v", src, attrs, all)
		}
		// Quote every suspect where it stands, one at a time: the filter
		// still parses (unless quoting left a comparison of values only,
		// which Parse refuses), and no suspect is left.
		fixed := src
		for {
			fe, err := Parse(fixed)
			if err != nil {
				if msg := err.Error(); !strings.Contains(msg, "are values") && !strings.Contains(msg, "not only values") {
					t.Fatalf("%q quoted as %q no longer parses: %v", src, fixed, err)
				}
				break
			}
			ss := SuspectNames(fe, nil)
			if len(ss) == 0 {
				break
			}
			r := []rune(fixed)
			s := ss[0]
			at := s.Col - 1
			fixed = string(r[:at]) + quoteText(s.Name) + string(r[at+utf8.RuneCountInString(s.Name):])
		}
	})
}
