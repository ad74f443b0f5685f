package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// Clusters a terminal shows as one glyph each: a ZWJ family, flags, a
// skin tone, CJK, letters with combining marks, and plain ASCII.
var wideClusters = []string{"👨‍👩‍👧‍👦", "🇫🇷", "🇯🇵", "👍🏽", "日", "本", "語", "한", "e\u0301", "a\u0308\u0323", "x", "-", "❤️", "🏳️‍🌈"}

// On ASCII, columns writes what text/tabwriter writes: the same blocks,
// the same padding, blank lines, lines of fewer cells and an unended
// last line included.
func TestColumnsAreTabwritersOnASCII(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 6))
	for n := range 2000 {
		var text strings.Builder
		for range rng.IntN(8) {
			for c := range rng.IntN(5) {
				if c > 0 {
					text.WriteByte('\t')
				}
				text.WriteString(strings.Repeat("ab c"[rng.IntN(4):], rng.IntN(4)))
			}
			if rng.IntN(9) > 0 {
				text.WriteByte('\n')
			}
		}
		var want, got bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, text.String())
		tw.Flush()
		c := newColumns(&got)
		fmt.Fprint(c, text.String())
		c.Flush()
		if got.String() != want.String() {
			t.Fatalf("table %d %q:\ncolumns\n%q\ntabwriter\n%q", n, text.String(), got.String(), want.String())
		}
	}
}

// Each column of a block starts at the same terminal column on every
// line, whatever the cells hold; tabwriter's rune count misaligns them.
func TestColumnsAlignByDisplayWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 6))
	var rows [][]string
	for r := range 12 {
		var row []string
		for k := range 4 {
			var c strings.Builder
			fmt.Fprintf(&c, "<%d.%d>", r, k)
			for range rng.IntN(6) {
				c.WriteString(wideClusters[rng.IntN(len(wideClusters))])
			}
			row = append(row, c.String())
		}
		rows = append(rows, row)
	}
	var b bytes.Buffer
	c := newColumns(&b)
	for _, r := range rows {
		fmt.Fprintln(c, strings.Join(r, "\t"))
	}
	c.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	// starts says the terminal column each cell of a line starts at
	// (each begins with its own mark, so it is found where it is).
	starts := func(line string, cells []string) []int {
		var at []int
		for _, cell := range cells {
			at = append(at, ansi.StringWidth(line[:strings.Index(line, cell)]))
		}
		return at
	}
	want := starts(lines[0], rows[0])
	for i, l := range lines {
		if got := starts(l, rows[i]); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("line %d starts its cells at columns %v, line 0 at %v:\n%s", i, got, want, b.String())
		}
	}
	// The reason for it: tabwriter does not.
	var tb bytes.Buffer
	tw := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "日本\tx")
	fmt.Fprintln(tw, "ab\tx")
	tw.Flush()
	if tl := strings.Split(tb.String(), "\n"); ansi.StringWidth(tl[0][:strings.Index(tl[0], "x")]) == ansi.StringWidth(tl[1][:strings.Index(tl[1], "x")]) {
		t.Errorf("tabwriter aligns wide text: this test proves nothing")
	}
}

// A cell is cut between grapheme clusters only, fits its width with the
// "…", and keeps control characters sanitised.
func TestCellCutsWholeClusters(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 38))
	for range 500 {
		var parts []string
		for range 1 + rng.IntN(30) {
			parts = append(parts, wideClusters[rng.IntN(len(wideClusters))])
		}
		s := strings.Join(parts, "")
		w := 1 + rng.IntN(20)
		got := cell(s, w)
		if ansi.StringWidth(got) > w {
			t.Fatalf("cell(%q, %d) = %q, %d columns wide", s, w, got, ansi.StringWidth(got))
		}
		if got == s {
			continue
		}
		kept, ok := strings.CutSuffix(got, "…")
		if !ok {
			t.Fatalf("cell(%q, %d) = %q: cut without …", s, w, got)
		}
		whole := ""
		for _, p := range parts {
			if len(whole) >= len(kept) {
				break
			}
			whole += p
		}
		if whole != kept {
			t.Fatalf("cell(%q, %d) = %q: cut inside a cluster (whole clusters give %q)", s, w, got, whole)
		}
	}
	if got := cell("\x1b]52;c;AAAA\x07日本\u202e語", 60); strings.ContainsAny(got, "\x1b\x07\u202e") {
		t.Errorf("cell kept a control character: %q", got)
	}
	if got := cell("\x1b[31m"+strings.Repeat("日", 40), 20); strings.Contains(got, "\x1b") || ansi.StringWidth(got) > 20 {
		t.Errorf("cell of an escape and wide text: %q", got)
	}
}

// The items table (--output table) lines its columns up by display width
// (one page: a later page's wider cell shifts its own line only), with
// emoji, CJK and combining marks in the cells.
func TestItemsTableAlignsWideCells(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for i := range 8 {
		items = append(items, dynamo.Item{"PK": s(strings.Repeat(wideClusters[i], i+1)), "SK": s(fmt.Sprintf("S%d", i)),
			"name": s(strings.Repeat(wideClusters[len(wideClusters)-1-i], 8-i)), "z": s("end")})
	}
	out := string(stream(t, "table", false, []string{"PK", "SK"}, &queryResult{Table: "T"}, pagesOf(items, len(items))))
	lines := strings.Split(out, "\n")
	col := func(line, cell string) int { return ansi.StringWidth(line[:strings.Index(line, cell)]) }
	for i := range items {
		line := lines[i+1]
		for _, c := range []string{"S" + fmt.Sprint(i), "end"} {
			if got, want := col(line, c), col(lines[1], map[bool]string{true: "S0", false: "end"}[c != "end"]); got != want {
				t.Errorf("row %d: %q starts at column %d, row 0's at %d:\n%s", i, c, got, want, out)
			}
		}
	}
}

// Printable ASCII is measured and cut by its length (cellWidth's fast
// path): the same cell and width the grapheme-measuring path gives, at
// every width from 0 on, and the same width as ansi.StringWidth; text
// with any other byte goes the measuring way.
func TestCellOfPrintableASCIIIsTheMeasuredOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 1))
	measured := func(s string, max int) (string, int) {
		s = textfmt.Sanitize(s)
		if ansi.StringWidth(s) > max {
			s = ansi.Truncate(s, max, "…")
		}
		return s, ansi.StringWidth(s)
	}
	for range 2000 {
		b := make([]byte, rng.IntN(90))
		for i := range b {
			b[i] = byte(0x20 + rng.IntN(0x7f-0x20))
		}
		s := string(b)
		if !printableASCII(s) {
			t.Fatalf("%q is printable ASCII", s)
		}
		if got, want := textWidth(s), ansi.StringWidth(s); got != want {
			t.Fatalf("textWidth(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
		for _, max := range []int{0, 1, 2, rng.IntN(100), 60} {
			gs, gw := cellWidth(s, max)
			ws, ww := measured(s, max)
			if gs != ws || gw != ww {
				t.Fatalf("cellWidth(%q, %d) = %q, %d; measured: %q, %d", s, max, gs, gw, ws, ww)
			}
		}
	}
	for _, s := range []string{"\x1f", "a\x7f", "é", "\x80", "日本", "a\tb"} {
		if printableASCII(s) {
			t.Errorf("printableASCII(%q) is true", s)
		}
	}
}
