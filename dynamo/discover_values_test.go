package dynamo_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// messages are n chat messages of one user, 7 minutes apart under ISO-8601
// sort keys, as ChatSystemSchema.json keys them, each with a short body.
func messages(pk string, n int) []dynamo.Item {
	t0 := time.Date(2023, 4, 1, 12, 0, 0, 1e6, time.UTC)
	body := strings.Repeat("x", 60)
	items := make([]dynamo.Item, n)
	for i := range items {
		sk := t0.Add(time.Duration(i) * 7 * time.Minute).Format("2006-01-02T15:04:05.000Z")
		items[i] = dynamo.Item{"PK": s(pk), "SK": s(sk), "body": s(body)}
	}
	return items
}

// fullReadCost is what reading the whole partition costs, page by page.
func fullReadCost(t *testing.T, c *dynamo.Client, table, pk string) float64 {
	t.Helper()
	q := dynamo.QueryInput{Table: table, PK: pk}
	total := 0.0
	for {
		p, err := c.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		total += p.Request.Capacity.Total
		if p.LastEvaluatedKey == nil {
			return total
		}
		q.StartKey = p.LastEvaluatedKey
	}
}

// TestDiscoverTimestampPartition is the case: 20,000 timestamped
// messages and one meta item are two groups, found in a handful of requests.
func TestDiscoverTimestampPartition(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	items := append(messages("User:X", 20_000), dynamo.Item{"PK": s("User:X"), "SK": s("meta"), "name": s("X")})
	batchPut(t, api, table, items)
	c, _ := connect(t)
	full := fullReadCost(t, c, table, "User:X")
	for _, reverse := range []bool{false, true} {
		d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "User:X", Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		value := keys.Group{Entity: keys.ShapeTimestamp, Kind: keys.KindValue, Count: -1,
			First: itemcodec.KeyString(items[0]["SK"]), Last: itemcodec.KeyString(items[19_999]["SK"])}
		meta := keys.Group{Entity: "meta", Prefix: "meta", Kind: keys.KindLabel, Exact: true, Count: -1, First: "meta", Last: "meta"}
		want := []keys.Group{value, meta}
		if reverse {
			value.First, value.Last = value.Last, value.First
			want = []keys.Group{meta, value}
		}
		if !sameTypes(d.Groups, want) || d.Partial {
			t.Errorf("reverse=%v: groups %+v partial %v, want %+v", reverse, d.Groups, d.Partial, want)
		}
		rcu := d.Capacity().Total
		if len(d.Requests) > 10 || rcu >= 0.02*full {
			t.Errorf("reverse=%v: %d requests, %v RCU; want at most 10 and under 2%% of the full read's %v", reverse, len(d.Requests), rcu, full)
		}
		t.Logf("reverse=%v: %d requests, %v RCU; full read %v RCU", reverse, len(d.Requests), rcu, full)
	}

	// A value group's condition selects exactly its items, forward and back,
	// page by page with a Limit.
	g := keys.Group{Kind: keys.KindValue, First: itemcodec.KeyString(items[0]["SK"]), Last: itemcodec.KeyString(items[19_999]["SK"])}
	for _, reverse := range []bool{false, true} {
		q := dynamo.QueryInput{Table: table, PK: "User:X", SK: dynamo.GroupCondition(g, "S"), Reverse: reverse, Limit: 7000}
		n, pages := 0, 0
		for {
			p, err := c.Query(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range p.Items {
				if itemcodec.KeyString(it["SK"]) == "meta" {
					t.Fatalf("the timestamp group's query returned meta")
				}
			}
			n, pages = n+len(p.Items), pages+1
			if p.LastEvaluatedKey == nil {
				break
			}
			q.StartKey = p.LastEvaluatedKey
		}
		if n != 20_000 || pages < 3 {
			t.Errorf("reverse=%v: %d items in %d pages, want 20000 in 3 or more", reverse, n, pages)
		}
	}
}

// TestDiscoverLabelsAndValues: a 50,000-item partition of four label types
// and one value shape matches a full read's grouping in a few requests.
func TestDiscoverLabelsAndValues(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	items := messages("P", 29_998)
	for i := range 15_000 {
		items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("ORDER#%06d", i))})
	}
	for i := range 5_000 {
		items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("#METADATA#%05d", i))})
	}
	items = append(items, dynamo.Item{"PK": s("P"), "SK": s("PROFILE")}, dynamo.Item{"PK": s("P"), "SK": s("ADDRESS::HOME")})
	batchPut(t, api, table, items)
	c, _ := connect(t)
	for _, reverse := range []bool{false, true} {
		want := fullRead(t, c, table, "", "P", "SK", "#", reverse)
		for i := range want {
			want[i].Count = -1
		}
		d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		if !sameTypes(d.Groups, want) || len(want) != 5 || d.Partial {
			t.Errorf("reverse=%v:\n skip-scan %+v\n full read %+v", reverse, d.Groups, want)
		}
		// The first page, one jump per group past it, one more for the value
		// group's far end, and at most two where the walk's halves meet.
		if len(d.Requests) > len(want)+3 {
			t.Errorf("reverse=%v: %d requests for %d groups", reverse, len(d.Requests), len(want))
		}
	}
	// A budget of 3 requests stops part way and says where to go on.
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Budget: dynamo.Budget{MaxRequests: 3}, OneWay: true})
	if err != nil {
		t.Fatal(err)
	}
	// The first page (inside #METADATA#), the jump past it to the
	// timestamps, the jump past them to ADDRESS: the timestamps' last key
	// is not read, so the walk is partial and says where it would go on.
	if !d.Partial || len(d.Requests) != 3 || len(d.Groups) != 3 || d.Groups[1].Kind != keys.KindValue || d.Groups[1].Last != "" ||
		d.Continue.Op != dynamo.SKGe || d.Continue.Values[0] != "ADDRESS;" || d.Until.Op != dynamo.SKNone {
		t.Errorf("budget 3, one way: partial %v, %d requests, groups %+v, continue %+v until %+v", d.Partial, len(d.Requests), d.Groups, d.Continue, d.Until)
	}
	// From both ends, the first page and one request a half: the jump
	// past the first page's last type (to the timestamps, whose end is not
	// read) and the partition's last type, the unread keys between them
	// named.
	d, err = c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Budget: dynamo.Budget{MaxRequests: 3}})
	if err != nil {
		t.Fatal(err)
	}
	// The budget left after the first page is shared, one request a half,
	// whichever half runs first.
	last := d.Groups[len(d.Groups)-1]
	if !d.Partial || len(d.Requests) != 3 || len(d.Groups) != 3 || last.First != "PROFILE" || d.Until.Op != dynamo.SKLt || d.Until.Values[0] != "PROFILE" || d.Continue.Values[0] >= "PROFILE" {
		t.Errorf("budget 3, both ends: partial %v, %d requests, groups %+v, continue %+v until %+v", d.Partial, len(d.Requests), d.Groups, d.Continue, d.Until)
	}
	// Every budget, in requests or in RCU, stops the walk at the same keys
	// on every run: which half the scheduler runs first decides nothing.
	for _, b := range []dynamo.Budget{{MaxRequests: 2}, {MaxRequests: 4}, {MaxRequests: 5}, {MaxRequests: 7}, {MaxRCU: 1.5}, {MaxRCU: 2.5}, {MaxRCU: 3}} {
		var first dynamo.Discovery
		for run := range 6 {
			d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Budget: b})
			if err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first = d
				continue
			}
			if !reflect.DeepEqual(d.Groups, first.Groups) || !reflect.DeepEqual(d.Continue, first.Continue) || !reflect.DeepEqual(d.Until, first.Until) || len(d.Requests) != len(first.Requests) || d.Partial != first.Partial {
				t.Fatalf("budget %+v, run %d: groups %+v continue %+v until %+v (%d requests); run 0: groups %+v continue %+v until %+v (%d requests)",
					b, run, d.Groups, d.Continue, d.Until, len(d.Requests), first.Groups, first.Continue, first.Until, len(first.Requests))
			}
		}
	}
}

// hexIDs are n 12-character hex ids whose first character cycles through
// lead (digits, letters or both), as a partition of tags keys them.
func hexIDs(pk, lead string, n int) []dynamo.Item {
	items := make([]dynamo.Item, n)
	for i := range items {
		h := uint64(i+1) * 0x9E3779B97F4A7C15 >> 20 // 44 bits: letters and digits
		items[i] = dynamo.Item{"PK": s(pk), "SK": s(fmt.Sprintf("%c%011x", lead[i%len(lead)], h))}
	}
	return items
}

// Letter-led ids sort among labels: past the first page the walk reads
// them one request each, and the discovery says so in one line; digit-led
// ids beyond the page are jumped in one step and need no such line.
func TestDiscoverSteppedIDs(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	batchPut(t, api, table, append(hexIDs("TAGS#mixed", "0123456789abcdef", 160), hexIDs("TAGS#digits", "0123456789", 160)...))
	c, _ := connect(t)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "TAGS#mixed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Groups) != 1 || d.Groups[0].Entity != keys.ShapeHex || len(d.Stepped) != 1 || d.Stepped[0].Entity != keys.ShapeHex || d.Stepped[0].Requests < 1 {
		t.Fatalf("mixed ids: groups %+v, stepped %+v; want one hex id group, stepped", d.Groups, d.Stepped)
	}
	// Every request after the first page and the value run's end landed on one id.
	if walked := len(d.Requests) - 2; d.Stepped[0].Requests != walked && d.Stepped[0].Requests != walked+1 {
		t.Errorf("stepped %d keys in %d requests", d.Stepped[0].Requests, len(d.Requests))
	}
	note := d.SteppedNote()
	if !strings.Contains(note, "cannot jump letter-led ids in one step (hex id)") || !strings.Contains(note, fmt.Sprintf("%d keys one request each", d.Stepped[0].Requests)) {
		t.Errorf("note %q", note)
	}
	t.Logf("%d requests, partial %v: %s", len(d.Requests), d.Partial, note)
	d, err = c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "TAGS#digits"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Groups) != 1 || len(d.Stepped) != 0 || d.SteppedNote() != "" || d.Partial {
		t.Errorf("digit-led ids: groups %+v, stepped %+v, partial %v; want one group, jumped", d.Groups, d.Stepped, d.Partial)
	}
}
