package dynamotest

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Servers that answer a read with what its request could not produce:
// pages that go back or repeat, keys that are no keys of the table, a
// description or a list of another table. Each forwards to the real engine
// and changes one thing.

// RepeatItems answers each page after the first with the items of the
// page before it (Count and ScannedCount to match) and upstream's own
// LastEvaluatedKey: a cache in between that serves the previous page's
// items under the next page's key. A read that keeps them shows every item
// twice.
func RepeatItems() Fault {
	f := &repeatItems{}
	return edit("repeat the previous page's items", func(x *exchange, m map[string]json.RawMessage) {
		items, ok := m["Items"]
		if !ok {
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		prev := f.items
		f.items = items
		if prev == nil {
			return
		}
		var n []json.RawMessage
		_ = json.Unmarshal(prev, &n)
		m["Items"] = prev
		m["Count"], m["ScannedCount"] = json.RawMessage(fmt.Sprint(len(n))), json.RawMessage(fmt.Sprint(len(n)))
	})
}

type repeatItems struct {
	mu    sync.Mutex
	items json.RawMessage
}

// BackwardKey answers a page with its first item's key as the
// LastEvaluatedKey (the attributes upstream's key names, taken from the
// item): a key behind items it has already sent, so the next page starts
// over within this one and a read that follows it reads items twice.
// Pages without a key or without items pass.
func BackwardKey() Fault {
	return edit("backward LastEvaluatedKey", func(x *exchange, m map[string]json.RawMessage) {
		var lek map[string]json.RawMessage
		var items []map[string]json.RawMessage
		if json.Unmarshal(m["LastEvaluatedKey"], &lek) != nil || len(lek) == 0 ||
			json.Unmarshal(m["Items"], &items) != nil || len(items) == 0 {
			return
		}
		for name := range lek {
			if v, ok := items[0][name]; ok {
				lek[name] = v
			}
		}
		m["LastEvaluatedKey"], _ = json.Marshal(lek)
	})
}

// LastKey answers a page that has a LastEvaluatedKey with raw (a key in
// DynamoDB JSON) in its place: attributes the table's key does not have,
// of the wrong type, or longer than DynamoDB's key limits.
func LastKey(raw string) Fault {
	return edit("LastEvaluatedKey "+preview(raw), func(x *exchange, m map[string]json.RawMessage) {
		if _, ok := m["LastEvaluatedKey"]; ok {
			m["LastEvaluatedKey"] = json.RawMessage(raw)
		}
	})
}

// DescribeName answers DescribeTable with another TableName: a cache or
// mock that answers every table with one description.
func DescribeName(name string) Fault {
	return edit("DescribeTable of "+name, func(x *exchange, m map[string]json.RawMessage) {
		var t map[string]json.RawMessage
		if json.Unmarshal(m["Table"], &t) != nil {
			return
		}
		t["TableName"], _ = json.Marshal(name)
		m["Table"], _ = json.Marshal(t)
	})
}

// TableNames answers ListTables with names in place of the real list (its
// LastEvaluatedTableName unchanged): a name listed twice, an empty name.
func TableNames(names ...string) Fault {
	return edit(fmt.Sprintf("table names %q", names), func(x *exchange, m map[string]json.RawMessage) {
		if _, ok := m["TableNames"]; ok {
			m["TableNames"], _ = json.Marshal(names)
		}
	})
}

// NoCapacity answers without the ConsumedCapacity that was asked for,
// everything else as upstream said it: a server that drops the field, as
// DynamoDB Local does for ExecuteStatement. Unknown units are unknown,
// never 0.
var NoCapacity = edit("no ConsumedCapacity", func(x *exchange, m map[string]json.RawMessage) {
	delete(m, "ConsumedCapacity")
})

// preview is the start of a raw value, for a fault's name.
func preview(raw string) string {
	if len(raw) > 40 {
		return raw[:40] + "…"
	}
	return raw
}
