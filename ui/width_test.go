package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
)

// emojiItems hold values whose grapheme clusters are one 2-cell character
// but several wide runes: families joined by ZWJ, flags (regional
// indicator pairs), skin tones, a keycap, a rainbow flag (VS16 + ZWJ).
func emojiItems() []dynamo.Item {
	return []dynamo.Item{
		{"PK": s("CUST#42"), "SK": s("NOTE#1"), "status": s("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦"), "name": s("family 👨‍👩‍👧 and 👩‍❤️‍👨 at home")},
		{"PK": s("CUST#42"), "SK": s("NOTE#2"), "status": s("🇩🇪🇯🇵🇧🇷🇺🇸🇫🇷"), "name": s("thumbs 👍🏽👍🏿 wave 👋🏻 keycap 1️⃣ 🏳️‍🌈")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20"), "status": s("DELIVERED")},
	}
}

// drawn lays view out as Bubble Tea's renderer does (uv.StyledString into
// its screen buffer) under method, and returns each row's last cell.
func drawn(view string, w, h int, method ansi.Method) []string {
	buf := uv.NewScreenBuffer(w, h)
	buf.Method = method
	uv.NewStyledString(view).Draw(buf, buf.Bounds())
	last := make([]string, h)
	for y := range h {
		if c := buf.CellAt(w-1, y); c != nil {
			last[y] = c.Content
		}
	}
	return last
}

// lastRune is the last character of s, as a string ("" for none): every
// row of the UI ends in a border or a space, one rune each.
func lastRune(s string) string {
	if r := []rune(s); len(r) > 0 {
		return string(r[len(r)-1])
	}
	return ""
}

// A value holding joined emoji sequences keeps its row's right border,
// drawn as the renderer draws the frame: every row ends, at the screen's
// last column, with the character the view put last. Before, the renderer
// measured by wcwidth (its default until a terminal reports mode 2027),
// counted a family as 6 cells, and pushed the border off the row.
func TestEmojiRowsKeepTheirBorder(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		w, h := sz[0], sz[1]
		for _, screen := range []struct {
			name string
			keys []string
		}{{"items", nil}, {"detail", []string{"tab", "enter"}}} {
			t.Run(fmt.Sprintf("%s/%dx%d", screen.name, w, h), func(t *testing.T) {
				hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}, w, h,
					canned{items: emojiItems(), cap: halfRCU()})
				hs.keys(screen.keys...)
				hs.contains("NOTE#1")
				golden.RequireEqual(t, []byte(hs.screen()))
				view := hs.m.View().Content
				lines := strings.Split(hs.screen(), "\n")
				got := drawn(view, w, h, rendererWidth(t, hs.m))
				for y, line := range lines[:min(h, len(lines))] {
					if want := lastRune(line); ansi.StringWidth(line) == w && got[y] != want {
						t.Errorf("row %d ends in %q, not %q:\n%s", y, got[y], want, line)
					}
				}
				// The sequences are the hard kind: by wcwidth these rows
				// would have lost their border.
				if wc := drawn(view, w, h, ansi.WcWidth); strings.Join(wc, "") == strings.Join(got, "") {
					t.Errorf("by wcwidth too every row keeps its border: the values do not test the clusters")
				}
			})
		}
	}
}

// rendererWidth is the width method the UI's start-up sets for Bubble
// Tea's renderer: GraphemeWidth once Init has sent the mode 2027 report
// the renderer switches on (tea.go), else the renderer's default, WcWidth.
func rendererWidth(t *testing.T, m Model) ansi.Method {
	t.Helper()
	for _, msg := range initMessages(m.Init()) {
		if r, ok := msg.(tea.ModeReportMsg); ok && r.Mode == ansi.ModeUnicodeCore &&
			(r.Value == ansi.ModeSet || r.Value == ansi.ModeReset || r.Value == ansi.ModePermanentlySet) {
			return ansi.GraphemeWidth
		}
	}
	return ansi.WcWidth
}

// initMessages runs the start-up commands that answer at once (no
// request: those wait on the store) and returns their messages.
func initMessages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			if r, ok := c().(tea.ModeReportMsg); ok {
				out = append(out, r)
			}
		}
		return out
	}
	return []tea.Msg{msg}
}
