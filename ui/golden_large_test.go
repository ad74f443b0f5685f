package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// At 200×60 the screen's room goes to the panes and to the request-log
// strip: it shows 9 requests, not the 4 of a 120×35 screen.
func TestGoldenLarge(t *testing.T) {
	t.Run("big/200x60", func(t *testing.T) {
		hs := openBig(t, 200, 60)
		hs.keys("j", "j")
		screen := hs.screen()
		if n := strings.Count(screen, "skip-scan PK = "); n != 8 {
			t.Errorf("the log strip shows %d of the 8 skip-scan requests", n)
		}
		golden.RequireEqual(t, []byte(screen))
	})
}
