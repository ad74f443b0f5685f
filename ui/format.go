package ui

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/pane"
	"dynascope/ui/widget"
)

// fmtRCU, sanitize, humanBytes and plural are textfmt's, under the short
// names the views call them by.
func fmtRCU(v float64) string { return textfmt.Units(v) }

func sanitize(s string) string { return textfmt.Sanitize(s) }

func humanBytes(n int64) string { return textfmt.HumanBytes(n) }

func plural(n int, one, many string) string { return textfmt.Plural(n, one, many) }

// cellText and keyOf are the panes' (ui/pane), under the names the
// root's views call them by.
func cellText(av types.AttributeValue) string { return pane.CellText(av) }

func keyOf(it dynamo.Item, name string) string { return pane.KeyOf(it, name) }

// clamp bounds v to [lo, hi]; when hi < lo it returns lo.
func clamp(v, lo, hi int) int { return widget.Clamp(v, lo, hi) }

// scrollOffset keeps the cursor inside a window of h rows over n rows,
// for the views that keep their own numbers (widget.ScrollOffset).
func scrollOffset(offset, cursor, h, n int) int { return widget.ScrollOffset(offset, cursor, h, n) }
