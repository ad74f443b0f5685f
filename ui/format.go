package ui

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/textfmt"
	"dynascope/ui/pane"
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
