package widget

import (
	"strings"
	"testing"
)

// An error that names a flag is wrapped between words, never inside the
// flag after its dashes; a word longer than the line is still broken.
func TestWrapKeepsFlagsWhole(t *testing.T) {
	msg := "list tables: no AWS region is set; pass --region us-east-1, set AWS_REGION, or give the profile a region"
	for w := 20; w <= 60; w++ {
		for _, l := range WrapLines(msg, w) {
			if strings.HasSuffix(l, "-") || strings.HasPrefix(l, "region us") && !strings.HasPrefix(l, "region us-east-1") {
				t.Fatalf("width %d cuts a flag: %q", w, WrapLines(msg, w))
			}
		}
		if got := strings.Join(WrapLines(msg, w), " "); got != msg {
			t.Fatalf("width %d changed the text: %q", w, got)
		}
	}
	if got := WrapLines(strings.Repeat("x", 25), 10); len(got) != 3 {
		t.Errorf("a long word: %q", got)
	}
}

// Fit always gives exactly w cells: padded, or cut with an ellipsis that
// keeps wide characters whole; Trunc only cuts.
func TestFitAndTrunc(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		fit  string
		trun string
	}{
		{"abc", 5, "abc  ", "abc"},
		{"abcdef", 4, "abc…", "abc…"},
		{"日本語", 4, "日… ", "日…"},
		{"abc", 0, "", ""},
	} {
		if got := Fit(c.s, c.w); got != c.fit || Width(got) != c.w {
			t.Errorf("Fit(%q, %d) = %q (%d cells), want %q", c.s, c.w, got, Width(got), c.fit)
		}
		if got := Trunc(c.s, c.w); got != c.trun {
			t.Errorf("Trunc(%q, %d) = %q, want %q", c.s, c.w, got, c.trun)
		}
	}
}
