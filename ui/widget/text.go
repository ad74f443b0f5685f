package widget

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of terminal cells s takes, ignoring escape sequences.
func Width(s string) int { return ansi.StringWidth(s) }

// Fit truncates s (which may carry styles) to w cells, ending in an ellipsis
// when cut, and pads it with spaces to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Trunc cuts s to at most w cells without padding.
func Trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// PadLeft right-aligns s in w cells.
func PadLeft(s string, w int) string {
	if sw := Width(s); sw < w {
		return strings.Repeat(" ", w-sw) + s
	}
	return s
}

// Spread puts left and right on one line of w cells, truncating left first.
func Spread(left, right string, w int) string {
	rw := Width(right)
	if rw >= w {
		return Fit(right, w)
	}
	lw := w - rw - 1
	if lw < 1 {
		return Fit(right, w)
	}
	return Fit(left, lw) + " " + right
}

// Wrap wraps text at spaces to w cells, breaking words longer than a
// line. ansi.Wrap also breaks after every hyphen, which cut a flag in two
// ("--⏎region"): hyphens are hidden from it as U+2011 (one cell, like -)
// and put back (so a U+2011 of the text itself shows as -).
func Wrap(s string, w int) string {
	const keep = "\u2011"
	return strings.ReplaceAll(ansi.Wrap(strings.ReplaceAll(s, "-", keep), w, ""), keep, "-")
}

// WrapLines is Wrap's lines, at least one cell wide.
func WrapLines(s string, w int) []string {
	return strings.Split(Wrap(s, max(1, w)), "\n")
}

// WrapWords breaks text at spaces only ("on-demand" stays whole), cutting
// a word longer than a line.
func WrapWords(s string, w int) []string {
	return strings.Split(ansi.Wrap(ansi.Wordwrap(s, max(1, w), ""), max(1, w), ""), "\n")
}
