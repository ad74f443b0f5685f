package ui

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// fmtRCU, sanitize, humanBytes and plural are textfmt's, under the short
// names the views call them by.
func fmtRCU(v float64) string { return textfmt.Units(v) }

func sanitize(s string) string { return textfmt.Sanitize(s) }

func humanBytes(n int64) string { return textfmt.HumanBytes(n) }

func plural(n int, one, many string) string { return textfmt.Plural(n, one, many) }

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
