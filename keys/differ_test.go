package keys

import (
	"slices"
	"strings"
	"testing"
)

func TestDiffer(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		diff      []Difference
	}{
		{"ORDER#2025-03-01#A17", "ORDER#2025-03-01#A17", nil},
		{"ORDER#2025-03-01#A17", "ORDER|2025-03-01|A17", []Difference{DiffDelimiter}},
		{"ORDER#2025-03-01#A17", "ORDER::2025-03-01::A17", []Difference{DiffDelimiter}},
		{"ORDER#2025-03-01#A17", "order#2025-03-01#a17", []Difference{DiffCase}},
		{"SHIP#X/SEQ#00042", "SHIP#X/SEQ#42", []Difference{DiffPadding}},
		{"SEQ#00042", "seq|42", []Difference{DiffDelimiter, DiffCase, DiffPadding}},
		{"ORDER#2025-03-01#A17", "ORDER#A17", []Difference{DiffSegment}},
		{"ORDER#A17", "order|2025-03-01|A17", []Difference{DiffSegment}},
		{"ORDER#2025-03-01#A17", "ORDER#2025-03-02#A18", []Difference{DiffValue}},
		{"CUST#42", "PROFILE", []Difference{DiffValue}},
		{"SEQ#0", "SEQ#000", []Difference{DiffPadding}},
	} {
		if got := Differ(tc.want, tc.got); !slices.Equal(got, tc.diff) {
			t.Errorf("Differ(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.diff)
		}
	}
}

func TestMissingSegments(t *testing.T) {
	if got := MissingSegments("ORDER#A17", "ORDER#2025-03-01#A17"); !slices.Equal(got, []string{"2025-03-01"}) {
		t.Errorf("missing %v", got)
	}
	if got := MissingSegments("ORDER#B1", "ORDER#2025-03-01#A17"); got != nil {
		t.Errorf("not a subsequence, yet %v", got)
	}
}

func TestDelimitersIn(t *testing.T) {
	if got := DelimitersIn("ORDER|2023-05-01|B17#x::y"); !slices.Equal(got, []string{"|", "#", "::"}) {
		t.Errorf("%v", got)
	}
}

// Differ never panics, says nothing of equal keys, something of unequal
// ones, and names the delimiter of a key with its delimiters swapped.
func FuzzDiffer(f *testing.F) {
	for _, s := range []string{"ORDER#2025-03-01#A17", "SEQ#00042", "a::b", "", "#", "0"} {
		f.Add(s, s+"x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if d := Differ(a, a); d != nil {
			t.Fatalf("Differ(%q, itself) = %v", a, d)
		}
		if a != b && len(Differ(a, b)) == 0 {
			t.Fatalf("Differ(%q, %q) found nothing", a, b)
		}
		if len(DelimitersIn(a)) == 1 && DelimitersIn(a)[0] == "#" {
			swapped := strings.ReplaceAll(a, "#", "/")
			if !strings.Contains(a, "/") && !slices.Equal(Differ(a, swapped), []Difference{DiffDelimiter}) {
				t.Fatalf("Differ(%q, %q) = %v, want delimiter", a, swapped, Differ(a, swapped))
			}
		}
	})
}
