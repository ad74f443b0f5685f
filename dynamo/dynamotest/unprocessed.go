package dynamotest

import (
	"encoding/json"
)

// ForeignUnprocessed answers a BatchWriteItem, which the engine applied
// in full, as if DynamoDB had left raw (an item in DynamoDB JSON)
// unprocessed for the batch's table: an item that was never in the batch,
// which a client that resends what it is handed back would write.
func ForeignUnprocessed(raw string) Fault {
	return edit("foreign unprocessed item", func(x *exchange, m map[string]json.RawMessage) {
		var in struct {
			RequestItems map[string]json.RawMessage
		}
		if json.Unmarshal(x.body, &in) != nil {
			return
		}
		left := map[string][]map[string]map[string]json.RawMessage{}
		for table := range in.RequestItems {
			left[table] = []map[string]map[string]json.RawMessage{{"PutRequest": {"Item": json.RawMessage(raw)}}}
		}
		m["UnprocessedItems"], _ = json.Marshal(left)
	})
}

// TableStatus answers DescribeTable with the table's status replaced by
// status ("CREATING"): a table that never becomes ACTIVE.
func TableStatus(status string) Fault {
	return edit("table status "+status, func(x *exchange, m map[string]json.RawMessage) {
		var t map[string]json.RawMessage
		if json.Unmarshal(m["Table"], &t) != nil {
			return
		}
		t["TableStatus"], _ = json.Marshal(status)
		m["Table"], _ = json.Marshal(t)
	})
}
