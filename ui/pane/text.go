package pane

import (
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CellText is a value as one line of a table cell: scalars as themselves,
// documents and sets as compact plain JSON. It is sanitised.
func CellText(av types.AttributeValue) string { return textfmt.Sanitize(itemcodec.CellText(av)) }

// KeyOf returns an item's value of a key attribute as text, or "".
func KeyOf(it dynamo.Item, name string) string {
	if av, ok := it[name]; ok {
		return itemcodec.KeyString(av)
	}
	return ""
}
