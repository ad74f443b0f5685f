package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// bigPartition is a partition of n items of about 1 KB each, every fifth
// one OPEN: about 2.5 MB, the tests' picture of the demo's CUST#7.
func bigPartition(n int) []dynamo.Item {
	items := make([]dynamo.Item, n)
	for i := range items {
		status := "DONE"
		if i%5 == 0 {
			status = "OPEN"
		}
		items[i] = dynamo.Item{"PK": s("BIG#1"), "SK": s(fmt.Sprintf("ORDER#%05d", i)), "status": s(status), "pad": s(strings.Repeat("o", 1000))}
	}
	return items
}

// awsPages is how many pages DynamoDB takes to read items in order: it
// ends a page once it has read 1 MB, the item that reaches it included, or
// at limit items; counted from the items' own sizes, apart from the code
// under test.
func awsPages(items []dynamo.Item, limit int) int {
	pages, acc, in := 0, 0, 0
	for i, it := range items {
		if in == 0 {
			pages++
		}
		acc += itemcodec.ItemSize(it)
		in++
		if acc >= 1<<20 || limit > 0 && in == limit || i == len(items)-1 {
			acc, in = 0, 0
		}
	}
	return pages
}

// DynamoDB Local does not stop a filtered page at 1 MB read: a filtered
// Query of a 2.5 MB partition comes back as one page. The reader's result
// says what DynamoDB's rule makes of it (the requests, and the page that
// read past 1 MB), for a Query, a Query with a Limit past 1 MB, and a
// Scan; an unfiltered read, which Local pages as DynamoDB does, is within
// the rule.
func TestOneMBRuleAgainstLocal(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	items := bigPartition(2500)
	batchPut(t, api, table, items)
	c, _ := connect(t)
	ctx := context.Background()

	for _, tc := range []struct {
		name   string
		q      dynamo.QueryInput
		answer int // pages DynamoDB Local answers with
		want   int // requests DynamoDB takes
	}{
		{"filtered", dynamo.QueryInput{Table: table, PK: "BIG#1", Filter: `status = "OPEN"`}, 1, awsPages(items, 0)},
		{"filtered, Limit 2000", dynamo.QueryInput{Table: table, PK: "BIG#1", Filter: `status = "OPEN"`, Limit: 2000}, 2, awsPages(items, 2000)},
		{"unfiltered", dynamo.QueryInput{Table: table, PK: "BIG#1"}, awsPages(items, 0), awsPages(items, 0)},
	} {
		res, err := c.ReadQuery(ctx, dynamo.QueryRead{Query: tc.q})
		if err != nil {
			t.Fatal(err)
		}
		m := res.OneMB
		if res.Pages != tc.answer || m.Requests != tc.want || (len(m.Over) > 0) != (tc.answer < tc.want) {
			t.Errorf("%s: %d pages answered (want %d), %d requests by the rule (want %d), over %+v", tc.name, res.Pages, tc.answer, m.Requests, tc.want, m.Over)
		}
		if tc.answer < tc.want {
			o := m.Over[0]
			if o.Page != 1 || o.Scanned != int(res.Requests[0].ScannedCount) || o.RCU != res.Requests[0].Capacity.Total || o.Exact || o.Bytes <= 1<<20 {
				t.Errorf("%s: over page %+v", tc.name, o)
			}
			if text := m.Text(res.Pages); !strings.Contains(text, fmt.Sprintf("on DynamoDB the read takes %d requests, not %d", tc.want, res.Pages)) {
				t.Errorf("%s: %q", tc.name, text)
			}
		}
		t.Logf("%s: %d pages answered, %d requests on DynamoDB, %v RCU", tc.name, res.Pages, m.Requests, res.Capacity().Total)
	}

	// DynamoDB Local stops a filtered Scan page at 1 MB as DynamoDB does;
	// the rule says the same whichever way it answers.
	res, err := c.Scan(ctx, dynamo.ScanInput{Table: table, Filter: `status = "OPEN"`})
	if err != nil {
		t.Fatal(err)
	}
	if want := awsPages(items, 0); res.OneMB.Requests != want || (len(res.OneMB.Over) > 0) != (len(res.Requests) < want) {
		t.Errorf("filtered Scan: %d pages, %d requests by the rule (want %d), over %+v", len(res.Requests), res.OneMB.Requests, want, res.OneMB.Over)
	}
}
