package benchdata

import (
	"strings"
	"testing"
)

// The UI's screen is found in its output stream: escape sequences dropped,
// REP expanded, and text split across writes (even inside a UTF-8
// character or an escape sequence) joined again.
func TestScreenText(t *testing.T) {
	stream := "\x1b[?2026$p\x1b]11;?\x07\x1b[H\x1b[2J\x1b[38;5;111;1mItems · 8 loaded\x1b[0m\x1b[3;4HORDER#0\x1b[5b7\x1bP+q\x1b\\Small Startup Ltd"
	for _, chunk := range []int{1, 2, 3, 7, len(stream)} {
		var s screenText
		for i := 0; i < len(stream); i += chunk {
			s.write([]byte(stream[i:min(i+chunk, len(stream))]))
		}
		got := s.text.String()
		for _, want := range []string{"Items · 8 loaded", "ORDER#0000007", "Small Startup Ltd"} {
			if !strings.Contains(got, want) {
				t.Errorf("chunks of %d: screen %q lacks %q", chunk, got, want)
			}
		}
		if strings.ContainsAny(got, "\x1b\x07") || strings.Contains(got, "2026") || strings.Contains(got, "+q") {
			t.Errorf("chunks of %d: escape sequences left in %q", chunk, got)
		}
	}
}
