package request

import (
	"fmt"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// Predicted is the bound said before a read beside what it cost: "unknown"
// when the endpoint did not say (DynamoDB Local for PartiQL), never 0.
func Predicted(bound float64, reqs []dynamo.Request) string {
	for _, r := range reqs {
		if r.NoCapacity {
			return fmt.Sprintf("predicted ≤ %s RCU · actual unknown (the endpoint sent no ConsumedCapacity, as DynamoDB Local does for PartiQL)", textfmt.Units(bound))
		}
	}
	return fmt.Sprintf("predicted ≤ %s RCU · actual %s", textfmt.Units(bound), textfmt.Units(dynamo.TotalCapacity(reqs).Total))
}

// TableAndIndex names what a read goes through: "table T", or "index I of
// table T".
func TableAndIndex(table, index string) string {
	if index == "" {
		return "table " + table
	}
	return "index " + index + " of table " + table
}
