package dynamo

import (
	"strings"
	"testing"
)

// A Location header reaches a sentence without a password or a control
// character: the header is the server's, as untrusted as its body.
func TestLocationText(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:pw@example.com/x":           "https://u:xxxxx@example.com/x",
		"http://h/\x1b[2J":                     `"http://h/\x1b[2J"`,
		"http://h/" + strings.Repeat("a", 200): "http://h/" + strings.Repeat("a", 91) + "…",
	} {
		if got := locationText(in); got != want {
			t.Errorf("locationText(%q) = %s, want %s", in, got, want)
		}
	}
}
