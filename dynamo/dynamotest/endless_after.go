package dynamotest

import (
	"encoding/json"
	"fmt"
)

// EndlessPagesAfterStart answers a Query that goes on from an
// ExclusiveStartKey with an empty page of units RCU whose LastEvaluatedKey
// is the start with every string attribute but the partition key's one
// step further, so each key moves forward: a server feeding a whole
// partition read pages the table cannot hold. A first page (no start) and
// other requests pass, so the read begins on the real partition.
func EndlessPagesAfterStart(units float64) Fault {
	return edit(fmt.Sprintf("endless pages of %g RCU after the first", units), func(x *exchange, m map[string]json.RawMessage) {
		var start map[string]map[string]string
		if json.Unmarshal(x.requestField("ExclusiveStartKey"), &start) != nil || len(start) == 0 {
			return
		}
		var cond string
		var names map[string]string
		_ = json.Unmarshal(x.requestField("KeyConditionExpression"), &cond)
		_ = json.Unmarshal(x.requestField("ExpressionAttributeNames"), &names)
		pk := ""
		if g := pkEqRE.FindStringSubmatch(cond); g != nil {
			pk = names[g[1]]
		}
		for name, v := range start {
			if s, ok := v["S"]; ok && name != pk {
				v["S"] = s + "~"
			}
		}
		m["LastEvaluatedKey"], _ = json.Marshal(start)
		m["Items"] = json.RawMessage(`[]`)
		m["Count"], m["ScannedCount"] = json.RawMessage(`0`), json.RawMessage(`0`)
		m["ConsumedCapacity"] = json.RawMessage(fmt.Sprintf(`{"CapacityUnits":%g,"TableName":"x"}`, units))
	})
}
