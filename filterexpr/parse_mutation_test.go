package filterexpr

import (
	"strings"
	"testing"
)

// BETWEEN needs an attribute somewhere: as either bound is enough.
func TestBetweenAttributeAsABound(t *testing.T) {
	for _, in := range []string{"1 BETWEEN a AND 2", "1 BETWEEN 2 AND a", "a BETWEEN 1 AND 2"} {
		if _, err := Parse(in); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
	if _, err := Parse("1 BETWEEN 2 AND 3"); err == nil || !strings.Contains(err.Error(), "BETWEEN needs an attribute") {
		t.Errorf("values only: %v", err)
	}
}

// NOT nests maxDepth levels deep, and no further.
func TestNotNestsToMaxDepth(t *testing.T) {
	nots := func(n int) string { return strings.Repeat("NOT ", n) + "a = 1" }
	if _, err := Parse(nots(maxDepth)); err != nil {
		t.Errorf("%d NOTs: %v", maxDepth, err)
	}
	if _, err := Parse(nots(maxDepth + 1)); err == nil || !strings.Contains(err.Error(), "nests deeper than") {
		t.Errorf("%d NOTs: %v, want the nesting refused", maxDepth+1, err)
	}
}

// A list index may be as large as 1<<30, and no larger.
func TestListIndexLimit(t *testing.T) {
	if _, err := Parse("a[1073741824] = 1"); err != nil {
		t.Errorf("index 1<<30: %v", err)
	}
	if _, err := Parse("a[1073741825] = 1"); err == nil || !strings.Contains(err.Error(), "is too large") {
		t.Errorf("index 1<<30 + 1: %v, want it refused", err)
	}
}
