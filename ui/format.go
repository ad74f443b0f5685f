package ui

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// width is the number of terminal cells s takes, ignoring escape sequences.
func width(s string) int { return ansi.StringWidth(s) }

// fit truncates s (which may carry styles) to w cells, ending in an ellipsis
// when cut, and pads it with spaces to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := width(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// trunc cuts s to at most w cells without padding.
func trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string {
	if sw := width(s); sw < w {
		return strings.Repeat(" ", w-sw) + s
	}
	return s
}

// spread puts left and right on one line of w cells, truncating left first.
func spread(left, right string, w int) string {
	rw := width(right)
	if rw >= w {
		return fit(right, w)
	}
	lw := w - rw - 1
	if lw < 1 {
		return fit(right, w)
	}
	return fit(left, lw) + " " + right
}

// fmtRCU formats capacity units as DynamoDB reports them: 0.5, 1, 12.5.
func fmtRCU(v float64) string {
	v = math.Round(v*10000) / 10000
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// sanitize, humanBytes and plural are textfmt's, under the short names
// the views call them by.
func sanitize(s string) string { return textfmt.Sanitize(s) }

func humanBytes(n int64) string { return textfmt.HumanBytes(n) }

func plural(n int, one, many string) string { return textfmt.Plural(n, one, many) }

// capacityText is a request's consumed capacity: the total, and where it was
// consumed (the table, each index) as DynamoDB reported it.
func capacityText(c dynamo.Capacity, parts bool) string {
	s := fmtRCU(c.Total) + " RCU"
	if !parts {
		return s
	}
	if len(c.Indexes) == 0 {
		return s + " table"
	}
	var p []string
	if c.Table != 0 {
		p = append(p, "table "+fmtRCU(c.Table))
	}
	names := make([]string, 0, len(c.Indexes))
	for n := range c.Indexes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p = append(p, sanitize(n)+" "+fmtRCU(c.Indexes[n]))
	}
	return s + " (" + strings.Join(p, ", ") + ")"
}

// cellText is a value as one line of a table cell: scalars as themselves,
// documents and sets as compact plain JSON. It is sanitised.
func cellText(av types.AttributeValue) string { return sanitize(itemcodec.CellText(av)) }

// keyOf returns an item's value of a key attribute as text, or "".
func keyOf(it dynamo.Item, name string) string {
	if av, ok := it[name]; ok {
		return itemcodec.KeyString(av)
	}
	return ""
}

// wrapString wraps text at spaces to w cells, breaking words longer than a
// line. ansi.Wrap also breaks after every hyphen, which cut a flag in two
// ("--⏎region"): hyphens are hidden from it as U+2011 (one cell, like -)
// and put back (so a U+2011 of the text itself shows as -).
func wrapString(s string, w int) string {
	const keep = "\u2011"
	return strings.ReplaceAll(ansi.Wrap(strings.ReplaceAll(s, "-", keep), w, ""), keep, "-")
}
