package patterns

import (
	"path/filepath"
	"strings"
	"testing"
)

// The threshold is the pattern's minKept:, else the file's check: minKept:,
// else 50%; a share is a percentage or a fraction from 0 to 1, and anything
// else is refused at its line.
func TestMinKept(t *testing.T) {
	set, err := ParsePatterns("p.yaml", []byte(`check: {minKept: 10%}
patterns:
  - name: own
    pk: "A"
    filter: 'x = 1'
    minKept: 0.25
  - name: file's
    pk: "B"
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := set.MinKept(set.Patterns[0]); got != 0.25 {
		t.Errorf("own minKept: %v", got)
	}
	if got := set.MinKept(set.Patterns[1]); got != 0.1 {
		t.Errorf("the file's minKept: %v", got)
	}
	plain, err := ParsePatterns("p.yaml", []byte("patterns:\n  - name: a\n    pk: \"A\"\n"))
	if err != nil || plain.MinKept(plain.Patterns[0]) != DefaultMinKept {
		t.Errorf("default: %v", err)
	}
	for _, tc := range []struct{ file, err string }{
		{"check: {minKept: 150%}\n", `p.yaml:1: check: minKept must be a share of what is read, such as 50% or 0.5, not "150%".`},
		{"check: {minKept: -1}\n", `p.yaml:1: check: minKept must be a share of what is read, such as 50% or 0.5, not "-1".`},
		{"check: {minkept: 5%}\n", `p.yaml:1: check: has no field "minkept" (did you mean "minKept"?); it has minKept.`},
		{"check: 5%\n", `p.yaml:1: check: must be a mapping such as {minKept: 50%}.`},
		{"patterns:\n  - name: a\n    pk: \"A\"\n    minKept: lots\n", `p.yaml:4: pattern "a": minKept must be a share of what is read, such as 50% or 0.5, not "lots".`},
	} {
		if _, err := ParsePatterns("p.yaml", []byte(tc.file)); err == nil || err.Error() != tc.err {
			t.Errorf("%q: %v\n want %s", tc.file, err, tc.err)
		}
	}
}

// A pattern's minKept: is written back as it reads.
func TestSavePatternKeepsMinKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dynascope.yaml")
	share := 0.05
	p := Pattern{Name: "open", PK: "CUST#7", Filter: `status = "OPEN"`, MinKept: &share}
	if err := SavePattern(path, p); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); !strings.Contains(got, "    minKept: 5%\n") {
		t.Errorf("saved:\n%s", got)
	}
	set, err := LoadPatterns(path)
	if err != nil || set.MinKept(set.Patterns[0]) != 0.05 {
		t.Errorf("read back: %v", err)
	}
}

// What a run kept of what it read: the share, the price of an item
// returned, and the warning only when the thrown-away part cost capacity.
func TestDiscard(t *testing.T) {
	for _, tc := range []struct {
		d           Discard
		warn        bool
		note, judge string
	}{
		{Discard{Kept: 72, Read: 4000, RCU: 294, Requests: 3, Unit: 0.5, MinKept: 0.5}, true,
			"kept 72 of 4,000 read (1.8%), 4.083 RCU per item returned",
			"discards 98% of what it reads, below the 50% it must keep (minKept): the access pattern wants a key, not a filter"},
		// One request at the least charge: the filter cost nothing.
		{Discard{Kept: 2, Read: 6, RCU: 0.5, Requests: 1, Unit: 0.5, MinKept: 0.5}, false, "kept 2 of 6 read (33%), 0.25 RCU per item returned", ""},
		{Discard{Kept: 0, Read: 4000, RCU: 294, Requests: 3, Unit: 0.5, MinKept: 0.5}, true,
			"kept 0 of 4,000 read (0%), no item returned", "discards 100% of what it reads, below the 50% it must keep (minKept): the access pattern wants a key, not a filter"},
		{Discard{Kept: 3999, Read: 4000, RCU: 294, Requests: 3, Unit: 0.5, MinKept: 0.5}, false, "kept 3,999 of 4,000 read (99.9%), 0.074 RCU per item returned", ""},
		{Discard{Kept: 60, Read: 4000, RCU: 294, Requests: 3, Unit: 0.5, MinKept: 0}, false, "kept 60 of 4,000 read (1.5%), 4.9 RCU per item returned", ""},
		{Discard{Kept: 0, Read: 0, RCU: 0.5, Requests: 1, Unit: 0.5, MinKept: 0.5}, false, "kept 0 of 0 read (100%), no item returned", ""},
	} {
		if got := tc.d.Warn(); got != tc.warn {
			t.Errorf("%+v: warn %v", tc.d, got)
		}
		if got := tc.d.Note(); got != tc.note {
			t.Errorf("%+v: note %q, want %q", tc.d, got, tc.note)
		}
		if got := tc.d.Verdict(); got != tc.judge {
			t.Errorf("%+v: verdict %q, want %q", tc.d, got, tc.judge)
		}
	}
}
