package dynamotest

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The errors DynamoDB Streams answers with, as it spells them. Give them to
// Rules on GetRecords or GetShardIterator: the proxy plays the stream that
// expires or refuses, in front of DynamoDB Local's real one.
var (
	// ExpiredIterator is a shard iterator older than its 15 minutes (400).
	ExpiredIterator = APIError(400, "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException",
		"Iterator expired. The iterator was created at time Tue Dec 01 09:00:00 UTC 2026 while right now it is Tue Dec 01 09:15:01 UTC 2026 which is further in the future than the tolerated delay of 900000 milliseconds.")
	// StreamLimitExceeded is GetRecords called too often on one shard (400):
	// Streams' throttling, which the SDK retries as such.
	StreamLimitExceeded = APIError(400, "com.amazonaws.dynamodb.v20120810#LimitExceededException",
		"Rate exceeded for shard shardId-00000001 in stream.")
	// TrimmedData is a position older than the stream's 24 hours (400).
	TrimmedData = APIError(400, "com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException",
		"The operation attempted to read past the oldest stream record in a shard.")
)

// WithStream is a table definition with a stream of the given view type
// (NEW_AND_OLD_IMAGES, NEW_IMAGE, OLD_IMAGE or KEYS_ONLY): DynamoDB Local
// streams the writes of tables created so.
func WithStream(in dynamodb.CreateTableInput, view types.StreamViewType) dynamodb.CreateTableInput {
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	return in
}

// RepeatIterator answers GetRecords with the iterator it was sent as its
// NextShardIterator: the shard's records come again and again, as from a
// cache that never moves on.
func RepeatIterator() Fault {
	return edit("repeat iterator", func(x *exchange, m map[string]json.RawMessage) {
		if it := x.requestField("ShardIterator"); it != nil {
			m["NextShardIterator"] = it
		}
	})
}

// ReverseRecords answers GetRecords with its records in reverse order:
// within a batch, an item's writes come last first.
func ReverseRecords() Fault {
	return editRecords("reverse records", func(recs []map[string]json.RawMessage) []map[string]json.RawMessage {
		slices.Reverse(recs)
		return recs
	})
}

// RewriteRecord answers GetRecords with f applied to each record (its
// fields as DynamoDB Streams' JSON spells them: eventName, dynamodb, …).
func RewriteRecord(name string, f func(rec map[string]json.RawMessage)) Fault {
	return editRecords(name, func(recs []map[string]json.RawMessage) []map[string]json.RawMessage {
		for _, r := range recs {
			f(r)
		}
		return recs
	})
}

// StreamOfTable answers DescribeStream as if it described the stream of
// table: TableName and StreamArn name it, the shards stay the real ones.
func StreamOfTable(table string) Fault {
	return edit("stream of "+table, func(x *exchange, m map[string]json.RawMessage) {
		var d map[string]json.RawMessage
		if json.Unmarshal(m["StreamDescription"], &d) != nil {
			return
		}
		d["TableName"], _ = json.Marshal(table)
		d["StreamArn"], _ = json.Marshal("arn:aws:dynamodb:ddblocal:000000000000:table/" + table + "/stream/2026-01-01T00:00:00.000")
		m["StreamDescription"], _ = json.Marshal(d)
	})
}

// editRecords rewrites the Records of a GetRecords answer.
func editRecords(name string, f func([]map[string]json.RawMessage) []map[string]json.RawMessage) Fault {
	return edit(name, func(x *exchange, m map[string]json.RawMessage) {
		var recs []map[string]json.RawMessage
		if json.Unmarshal(m["Records"], &recs) != nil {
			return
		}
		m["Records"], _ = json.Marshal(f(recs))
	})
}

// Held holds the request for d, then applies f: the writes made meanwhile
// land in the one answer f changes (a GetRecords batch, say).
func Held(d time.Duration, f Fault) Fault { return heldFault{d: d, f: f} }

type heldFault struct {
	d time.Duration
	f Fault
}

func (h heldFault) String() string { return "held " + h.d.String() + ", " + h.f.String() }
func (h heldFault) apply(x *exchange) {
	if x.wait(h.d) {
		h.f.apply(x)
	}
}

// ClosedParent plays a shard split before the stream's first shard: every
// DescribeStream lists a closed shard parent (no records left) as the
// parent of the real first shard, and GetShardIterator and GetRecords of
// it answer as DynamoDB does for a closed shard read to its end (no
// records, no NextShardIterator). Give it with Op "": every other request
// goes through untouched.
func ClosedParent(parent string) Fault { return closedParent(parent) }

type closedParent string

func (f closedParent) String() string { return "closed parent " + string(f) }

func (f closedParent) apply(x *exchange) {
	parent := string(f)
	iter := "iterator-of-" + parent
	json200 := func(v any) {
		b, _ := json.Marshal(v)
		x.answer(200, nil, b)
	}
	switch x.op {
	case "GetShardIterator":
		var id string
		_ = json.Unmarshal(x.requestField("ShardId"), &id)
		if id == parent {
			json200(map[string]string{"ShardIterator": iter})
			return
		}
	case "GetRecords":
		var it string
		_ = json.Unmarshal(x.requestField("ShardIterator"), &it)
		if it == iter {
			json200(map[string]any{"Records": []any{}})
			return
		}
	case "DescribeStream":
		edit(f.String(), func(x *exchange, m map[string]json.RawMessage) {
			var d map[string]json.RawMessage
			var shards []map[string]json.RawMessage
			if json.Unmarshal(m["StreamDescription"], &d) != nil || json.Unmarshal(d["Shards"], &shards) != nil || len(shards) == 0 {
				return
			}
			shards[0]["ParentShardId"], _ = json.Marshal(parent)
			p := map[string]json.RawMessage{"ShardId": json.RawMessage(`"` + parent + `"`),
				"SequenceNumberRange": json.RawMessage(`{"StartingSequenceNumber":"1","EndingSequenceNumber":"2"}`)}
			d["Shards"], _ = json.Marshal(append([]map[string]json.RawMessage{p}, shards...))
			m["StreamDescription"], _ = json.Marshal(d)
		}).apply(x)
		return
	}
	x.forward(false)
}
