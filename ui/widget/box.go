package widget

import (
	"strings"

	"dynascope/ui/theme"
)

// Box draws lines in a rounded frame of exactly w×h cells, the title set into
// the top edge. Lines are cut or padded to fit; missing lines are blank.
func Box(st theme.Styles, title string, lines []string, w, h int, focused bool) string {
	if w < 4 || h < 2 {
		return Blank(w, h)
	}
	bs, ts := st.Border, st.Title
	if focused {
		bs, ts = st.BorderFocus, st.TitleFocus
	}
	inner := w - 2
	var b strings.Builder
	if title == "" {
		b.WriteString(bs.Render("╭" + strings.Repeat("─", inner) + "╮"))
	} else {
		t := Trunc(title, inner-3)
		rest := inner - 3 - Width(t)
		b.WriteString(bs.Render("╭─ ") + ts.Render(t) + bs.Render(" "+strings.Repeat("─", max(0, rest))+"╮"))
	}
	side := bs.Render("│")
	for i := 0; i < h-2; i++ {
		b.WriteByte('\n')
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		b.WriteString(side + Fit(line, inner) + side)
	}
	b.WriteByte('\n')
	b.WriteString(bs.Render("╰" + strings.Repeat("─", inner) + "╯"))
	return b.String()
}

// Blank is an empty block of w×h cells.
func Blank(w, h int) string {
	if h <= 0 {
		return ""
	}
	line := strings.Repeat(" ", max(0, w))
	return strings.TrimSuffix(strings.Repeat(line+"\n", h), "\n")
}
