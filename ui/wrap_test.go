package ui

import (
	"strings"
	"testing"
)

// An error that names a flag is wrapped between words, never inside the
// flag after its dashes; a word longer than the line is still broken.
func TestWrapKeepsFlagsWhole(t *testing.T) {
	msg := "list tables: no AWS region is set; pass --region us-east-1, set AWS_REGION, or give the profile a region"
	for w := 20; w <= 60; w++ {
		for _, l := range wrapText(msg, w) {
			if strings.HasSuffix(l, "-") || strings.HasPrefix(l, "region us") && !strings.HasPrefix(l, "region us-east-1") {
				t.Fatalf("width %d cuts a flag: %q", w, wrapText(msg, w))
			}
		}
		if got := strings.Join(wrapText(msg, w), " "); got != msg {
			t.Fatalf("width %d changed the text: %q", w, got)
		}
	}
	if got := wrapText(strings.Repeat("x", 25), 10); len(got) != 3 {
		t.Errorf("a long word: %q", got)
	}
}
