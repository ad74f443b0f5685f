package dynamotest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// More servers that answer wrongly, or answer right what DynamoDB itself
// may say (stale sizes): each forwards to the real engine and changes one
// thing, or answers a read itself to page on without end.

// StaleSize answers DescribeTable with the given ItemCount and size in
// place of the real ones, for the table and each of its indexes: DynamoDB's
// figures right after a load (0) or hours old. A negative figure plays a
// server DynamoDB is not; -1 for bytes removes the figures altogether.
func StaleSize(items, bytes int64) Fault {
	return edit(fmt.Sprintf("stale size %d items %d B", items, bytes), func(x *exchange, m map[string]json.RawMessage) {
		var t map[string]json.RawMessage
		if json.Unmarshal(m["Table"], &t) != nil {
			return
		}
		set := func(o map[string]json.RawMessage, countKey, sizeKey string) {
			if bytes == -1 {
				delete(o, countKey)
				delete(o, sizeKey)
				return
			}
			o[countKey] = json.RawMessage(strconv.FormatInt(items, 10))
			o[sizeKey] = json.RawMessage(strconv.FormatInt(bytes, 10))
		}
		set(t, "ItemCount", "TableSizeBytes")
		for _, k := range []string{"GlobalSecondaryIndexes", "LocalSecondaryIndexes"} {
			var ixs []map[string]json.RawMessage
			if json.Unmarshal(t[k], &ixs) != nil {
				continue
			}
			for _, ix := range ixs {
				set(ix, "ItemCount", "IndexSizeBytes")
			}
			t[k], _ = json.Marshal(ixs)
		}
		m["Table"], _ = json.Marshal(t)
	})
}

// DescribeKeySchema answers DescribeTable with the table's KeySchema
// replaced by raw JSON, e.g. two HASH keys.
func DescribeKeySchema(raw string) Fault {
	return edit("key schema "+raw, func(x *exchange, m map[string]json.RawMessage) {
		var t map[string]json.RawMessage
		if json.Unmarshal(m["Table"], &t) != nil {
			return
		}
		t["KeySchema"] = json.RawMessage(raw)
		m["Table"], _ = json.Marshal(t)
	})
}

// ForeignItem answers a Query or Scan with its first item replaced by raw
// (an item in DynamoDB JSON): an item the request could not return, from
// a cache keyed on the wrong thing. Count and ScannedCount stay true.
func ForeignItem(raw string) Fault {
	return edit("foreign item", func(x *exchange, m map[string]json.RawMessage) {
		var items []json.RawMessage
		if json.Unmarshal(m["Items"], &items) != nil || len(items) == 0 {
			return
		}
		items[0] = json.RawMessage(raw)
		m["Items"], _ = json.Marshal(items)
	})
}

// InflatedScanned answers with ScannedCount larger than the truth by extra,
// Count and the items unchanged: without a filter, a page DynamoDB never
// sends.
func InflatedScanned(extra int) Fault {
	return edit(fmt.Sprintf("ScannedCount plus %d", extra), func(x *exchange, m map[string]json.RawMessage) {
		n, err := strconv.Atoi(string(m["ScannedCount"]))
		if err != nil {
			return
		}
		m["ScannedCount"] = json.RawMessage(strconv.Itoa(n + extra))
	})
}

// CheapEndlessScan answers every Scan itself: no item kept, one scanned,
// 0.5 RCU, and a LastEvaluatedKey never sent before. With a filter asked
// for, every page is one DynamoDB could send; only a bound on what the
// table can hold ends the read.
func CheapEndlessScan() Fault {
	return &numberedFault{name: "cheap endless Scan", body: func(n int) []byte {
		return fmt.Appendf(nil, `{"Count":0,"ScannedCount":1,"Items":[],"LastEvaluatedKey":{"PK":{"S":"endless#%08d"},"SK":{"S":"x"}},"ConsumedCapacity":{"CapacityUnits":0.5,"TableName":"x"}}`, n)
	}}
}

// EndlessStatement answers every ExecuteStatement itself: no items and a
// NextToken never sent before, without ConsumedCapacity (as DynamoDB Local
// answers ExecuteStatement).
func EndlessStatement() Fault {
	return &numberedFault{name: "endless ExecuteStatement", body: func(n int) []byte {
		return fmt.Appendf(nil, `{"Items":[],"NextToken":"endless-%08d"}`, n)
	}}
}

// CheapEndlessStatement answers every ExecuteStatement itself: no items,
// a NextToken never sent before and ConsumedCapacity of units RCU (0: a
// page that says it was free), so that only a bound on requests or on
// what they cost ends the run.
func CheapEndlessStatement(units float64) Fault {
	return &numberedFault{name: fmt.Sprintf("cheap endless ExecuteStatement of %g RCU", units), body: func(n int) []byte {
		return fmt.Appendf(nil, `{"Items":[],"NextToken":"cheap-%08d","ConsumedCapacity":{"CapacityUnits":%g,"TableName":"x"}}`, n, units)
	}}
}

// numberedFault answers every request itself with body(n), n counting the
// requests it answered from 1: a page that never repeats.
type numberedFault struct {
	name string
	body func(n int) []byte
	mu   sync.Mutex
	n    int
}

func (f *numberedFault) String() string { return f.name }
func (f *numberedFault) apply(x *exchange) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	x.answer(http.StatusOK, nil, f.body(n))
}

// Trickle forwards the real answer one byte every interval, its headers at
// once: a link so slow that no time-out ends it early by itself.
func Trickle(interval time.Duration) Fault { return trickleFault(interval) }

type trickleFault time.Duration

func (f trickleFault) String() string { return "trickle " + time.Duration(f).String() }
func (f trickleFault) apply(x *exchange) {
	status, _, body, ok := x.fetch()
	if !ok {
		return
	}
	x.w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	x.w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	x.status = status
	x.w.WriteHeader(status)
	fl, _ := x.w.(http.Flusher)
	for i := range body {
		if _, err := x.w.Write(body[i : i+1]); err != nil {
			return
		}
		if fl != nil {
			fl.Flush()
		}
		if !x.wait(time.Duration(f)) {
			panic(http.ErrAbortHandler)
		}
	}
}
