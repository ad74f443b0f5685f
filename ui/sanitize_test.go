package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
)

// Item data reaches the screen only through Sanitize: keys, attribute names,
// values, and error texts. Wide and zero-width characters keep columns aligned.
func TestUntrustedItemDataIsShownNotInterpreted(t *testing.T) {
	evil := []dynamo.Item{
		{"PK": s("CUST#42"), "SK": s("ORDER#\x1b]52;c;cHduZWQ=\x07"), "note\x1b[2J": s("line1\nline2\tx"), "total": n("1")},
		{"PK": s("CUST#42"), "SK": s("ORDER#\u202egnp.exe"), "note\x1b[2J": s("\x1b]0;title\x07"), "total": n("2")},
		{"PK": s("CUST#42"), "SK": s("ORDER#日本語のキー"), "note\x1b[2J": s("幅広い文字"), "total": n("3")},
		{"PK": s("CUST#42"), "SK": s("ORDER#zero\u200bwidth"), "note\x1b[2J": s("e\u0301\u0301"), "total": n("4")},
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#42"}, 120, 35, canned{items: evil, cap: halfRCU()},
		canned{err: &dynamo.UserError{Msg: "query CUST#42 on App: DynamoDB rejected the request: bad key \x1b]0;x\x07."}})
	raw := hs.m.View().Content
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\u202e", "\x07", "\n\tx"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the raw view holds %q from the data", bad)
		}
	}
	hs.contains(`ORDER#\x1b]52;c;cHduZWQ=\x07`, `ORDER#\u202egnp.exe`, `line1\nline2\tx`, `note\x1b[2J`, `ORDER#zero\u200bwidth`, "日本語のキー")
	for i, l := range strings.Split(hs.screen(), "\n") {
		if w := ansi.StringWidth(l); w != 120 {
			t.Errorf("line %d is %d cells wide: %q", i, w, l)
		}
	}
	// Columns stay aligned: the total column starts at the same cell on every row.
	col := -1
	for _, l := range strings.Split(hs.screen(), "\n") {
		if !strings.Contains(l, "▌ ORDER#") {
			continue
		}
		i := strings.Index(l, "▌ ORDER#")
		cells := ansi.StringWidth(l[:i])
		rest := l[i:]
		for _, tot := range []string{"  1  ", "  2  ", "  3  ", "  4  "} {
			if j := strings.Index(rest, tot); j >= 0 {
				c := cells + ansi.StringWidth(rest[:j])
				if col >= 0 && c != col {
					t.Errorf("total column at cell %d, earlier rows at %d: %q", c, col, l)
				}
				col = c
			}
		}
	}
	// An error that echoes data is sanitised too.
	hs.keys("r")
	if strings.Contains(hs.m.View().Content, "\x1b]0;x") {
		t.Error("an error text reached the terminal unsanitised")
	}
	hs.contains(`bad key \x1b]0;x\x07`)
}
