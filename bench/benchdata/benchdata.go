// Package benchdata generates the data of the performance benchmarks: one
// large partition of about 300-byte items in four entity types, a long tail
// of small partitions, and one small partition for start-up timing. Every
// item is a pure function of its position, so a run loads the same bytes as
// the last one and benchmarks in different processes agree on what they read.
package benchdata

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// Partition keys of the bench table.
const (
	BigPK   = "BENCH#BIG"   // the large partition
	SmallPK = "BENCH#SMALL" // a handful of items: what start-up timing queries
	TailPK  = "CUST#"       // prefix of the long tail's partitions
)

// Default sizes: the 100,000-item partition, and a tail of small
// partitions that makes the table look like a real one to a Scan.
const (
	DefaultBig       = 100_000
	DefaultTailParts = 2_000
	SmallItems       = 8
)

// Spec is the bench table's key schema: PK and SK strings, as single-table
// designs use them.
func Spec(table string) dynamo.TableSpec {
	return dynamo.TableSpec{Name: table, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
}

// entityTypes are the four types of the big partition with their share of
// it: unequal, so the types are not all alike, and in sort-key order, so
// generating them in order yields the partition in DynamoDB's order.
var entityTypes = []struct {
	prefix string
	share  int // per 10
}{{"EVENT#", 4}, {"INVOICE#", 2}, {"ORDER#", 3}, {"SHIPMENT#", 1}}

var statuses = []string{"OPEN", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"}

// filler is the text that brings items to about 300 bytes; each item takes a
// slice of a length that depends on its number, so sizes vary a little.
const filler = "Deterministic filler for the dynascope benchmarks: it stands for the " +
	"free text real items carry (addresses, notes, descriptions) so that an item weighs " +
	"what a production item does and a 1 MB page holds a realistic number of them. "

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v int) types.AttributeValue    { return &types.AttributeValueMemberN{Value: strconv.Itoa(v)} }

// item is one item of a collection; i numbers it within its type, k within
// the whole data set (it varies the attributes).
func item(pk, prefix string, i, k int) dynamo.Item {
	minute := k % 1440
	day := 1 + (k/1440)%28
	month := 1 + (k/(1440*28))%12
	return dynamo.Item{
		"PK":        s(pk),
		"SK":        s(fmt.Sprintf("%s%07d", prefix, i)),
		"type":      s(prefix[:len(prefix)-1]),
		"status":    s(statuses[k%len(statuses)]),
		"total":     n(100 + (k*37)%90000),
		"qty":       n(1 + k%9),
		"createdAt": s(fmt.Sprintf("2024-%02d-%02dT%02d:%02d:00Z", month, day, minute/60, minute%60)),
		"name":      s(fmt.Sprintf("%s %d of %s", prefix[:len(prefix)-1], i, pk)),
		"note":      s(filler[:150+(k*13)%60]),
	}
}

// Big returns the large partition: count items in its four entity types, in
// sort-key order.
func Big(count int) []dynamo.Item { return Partition(BigPK, count) }

// Partition returns partition pk of count items shaped as the large one:
// four entity types, in sort-key order.
func Partition(pk string, count int) []dynamo.Item {
	out := make([]dynamo.Item, 0, count)
	left := count
	for t, e := range entityTypes {
		c := count * e.share / 10
		if t == len(entityTypes)-1 {
			c = left
		}
		left -= c
		for i := range c {
			out = append(out, item(pk, e.prefix, i, len(out)))
		}
	}
	return out
}

// Small returns the small partition: a profile and a few orders.
func Small() []dynamo.Item {
	out := []dynamo.Item{{"PK": s(SmallPK), "SK": s("PROFILE"), "name": s("Small Startup Ltd"), "createdAt": s("2021-06-01T09:00:00Z")}}
	for i := range SmallItems - 1 {
		out = append(out, item(SmallPK, "ORDER#", i, i))
	}
	return out
}

// TailSize is the number of items of tail partition p (from 0): 1 to 20,
// about 10 on average.
func TailSize(p int) int { return 1 + (p*7)%20 }

// Tail returns the long tail: parts partitions of 1 to 20 items each, a
// profile and orders.
func Tail(parts int) []dynamo.Item {
	var out []dynamo.Item
	for p := range parts {
		pk := fmt.Sprintf("%s%05d", TailPK, p)
		out = append(out, dynamo.Item{"PK": s(pk), "SK": s("PROFILE"), "name": s("Customer " + strconv.Itoa(p)), "createdAt": s("2023-01-01T00:00:00Z")})
		for i := range TailSize(p) - 1 {
			out = append(out, item(pk, "ORDER#", i, p*31+i))
		}
	}
	return out
}

// Bytes sums the items' sizes by DynamoDB's rules: the raw bytes memory
// bounds are stated against.
func Bytes(items []dynamo.Item) int {
	t := 0
	for _, it := range items {
		t += itemcodec.ItemSize(it)
	}
	return t
}

// ReadSortKeys reads partition pk of table whole, page by page, as a client
// without skip-scan would to find its entity types, and returns its sort
// keys (attribute SK), the requests and the time they took.
func ReadSortKeys(ctx context.Context, c *dynamo.Client, table, pk string) ([]string, []dynamo.Request, time.Duration, error) {
	q := dynamo.QueryInput{Table: table, PK: pk}
	var sks []string
	var reqs []dynamo.Request
	began := time.Now()
	for {
		p, err := c.Query(ctx, q)
		if err != nil {
			return nil, nil, 0, err
		}
		reqs = append(reqs, p.Request)
		for _, it := range p.Items {
			sks = append(sks, itemcodec.KeyString(it["SK"]))
		}
		if p.LastEvaluatedKey == nil {
			return sks, reqs, time.Since(began), nil
		}
		q.StartKey = p.LastEvaluatedKey
	}
}
