package dynamo_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// cachedClient connects through endpoint with the schema cache in dir, and
// returns the request log: what a fresh run of dynascope would send.
func cachedClient(t *testing.T, endpoint, dir string) (*dynamo.Client, func() []dynamo.Request) {
	t.Helper()
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: endpoint, Region: "us-east-1", SchemaCacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log []dynamo.Request
	c.OnRequest(func(r dynamo.Request) { mu.Lock(); log = append(log, r); mu.Unlock() })
	return c, func() []dynamo.Request { mu.Lock(); defer mu.Unlock(); return slices.Clone(log) }
}

func opsOf(log []dynamo.Request) string {
	var ops []string
	for _, r := range log {
		op := r.Operation
		if r.Err != nil {
			op += "(failed)"
		}
		ops = append(ops, op)
	}
	return strings.Join(ops, ",")
}

func sortKeys(items []dynamo.Item) string {
	var sks []string
	for _, it := range items {
		sks = append(sks, itemcodec.KeyString(it["SK"]))
	}
	return strings.Join(sks, ",")
}

// The first run describes the table; every later run (a new client, as a
// new process would be) builds Query, GetItem and Discover from the cached
// key schema and sends no DescribeTable at all, as the proxy sees it.
func TestSchemaCacheSecondRunNoDescribe(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	put(t, api, table,
		dynamo.Item{"PK": s("CUST#1"), "SK": s("PROFILE")},
		dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#1")},
		dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#2")},
	)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	dir := t.TempDir()
	ctx := context.Background()
	q := dynamo.QueryInput{Table: table, PK: "CUST#1", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}}

	first, log := cachedClient(t, p.URL, dir)
	if page, err := first.Query(ctx, q); err != nil || sortKeys(page.Items) != "ORDER#1,ORDER#2" {
		t.Fatalf("first run: %v %v", err, sortKeys(page.Items))
	}
	if got := opsOf(log()); got != "DescribeTable,Query" {
		t.Errorf("first run sent %s", got)
	}

	wire := len(p.Ops())
	second, log := cachedClient(t, p.URL, dir)
	page, err := second.Query(ctx, q)
	if err != nil || sortKeys(page.Items) != "ORDER#1,ORDER#2" || page.Request.Capacity.Total != 0.5 {
		t.Fatalf("second run: %v %v %+v", err, sortKeys(page.Items), page.Request)
	}
	if g, err := second.GetItem(ctx, dynamo.GetInput{Table: table, PK: "CUST#1", SK: "PROFILE"}); err != nil || g.Count != 1 {
		t.Errorf("GetItem: %v %+v", err, g)
	}
	d, err := second.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: "CUST#1"})
	if err != nil || len(d.Groups) != 2 || d.Groups[0].Entity != "ORDER" || d.Groups[1].Entity != "PROFILE" {
		t.Errorf("Discover: %v %+v", err, d.Groups)
	}
	if text, err := second.DescribeQuery(ctx, q); err != nil || text != `PK = "CUST#1" AND begins_with(SK, "ORDER#")` {
		t.Errorf("DescribeQuery: %q %v", text, err)
	}
	keys, err := second.TableKeys(ctx, table)
	if err != nil || keys.PK.Name != "PK" || keys.SK == nil || keys.SK.Name != "SK" {
		t.Errorf("TableKeys: %+v %v", keys, err)
	}
	onWire := p.Ops()[wire:]
	if slices.Contains(onWire, "DescribeTable") || len(onWire) == 0 {
		t.Errorf("second run sent %v", onWire)
	}
	if slices.ContainsFunc(log(), func(r dynamo.Request) bool { return r.Operation == "DescribeTable" }) {
		t.Errorf("second run's request log: %s", opsOf(log()))
	}

	// DescribeTable itself still asks: counts and sizes are not cached.
	tbl, err := second.DescribeTable(ctx, table)
	if err != nil || tbl.ItemCount != 3 || p.Count("DescribeTable") != 2 {
		t.Errorf("DescribeTable: %v, %d items, %d on the wire", err, tbl.ItemCount, p.Count("DescribeTable"))
	}

	// Turned off, the cache is neither read nor written.
	off, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", SchemaCacheDir: dir, NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := off.Query(ctx, q); err != nil || p.Count("DescribeTable") != 3 {
		t.Errorf("with NoSchemaCache: %v, %d DescribeTable on the wire", err, p.Count("DescribeTable"))
	}
}

// recreate deletes the table and creates it again under the same name with
// a numeric sort key, then puts the items.
func recreate(t *testing.T, api *dynamodb.Client, table string, items ...dynamo.Item) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
		t.Fatal(err)
	}
	in := dynamotest.PKSK()
	in.TableName = aws.String(table)
	in.BillingMode = types.BillingModePayPerRequest
	in.AttributeDefinitions[1].AttributeType = types.ScalarAttributeTypeN
	if _, err := api.CreateTable(ctx, &in); err != nil {
		t.Fatal(err)
	}
	put(t, api, table, items...)
}

// A table deleted and created again with other keys (SK S, then SK N):
// whatever a request built from the cached keys runs into — DynamoDB's
// ValidationException, items whose keys do not fit, a value the old keys
// reject before sending — the keys are read again, the cache entry
// replaced, and the request sent once more, with the right answer.
func TestSchemaCacheTableRecreated(t *testing.T) {
	t.Parallel()
	newItems := []dynamo.Item{
		{"PK": s("P"), "SK": n("1")}, {"PK": s("P"), "SK": n("2")}, {"PK": s("P"), "SK": n("10")},
	}
	cases := []struct {
		name string
		call func(c *dynamo.Client, table string) (string, error)
		want string
		log  string // the request log of the run after the change
	}{
		{
			// S "1" against a numeric key: DynamoDB refuses it.
			name: "refused",
			call: func(c *dynamo.Client, table string) (string, error) {
				p, err := c.Query(context.Background(), dynamo.QueryInput{Table: table, PK: "P", SK: dynamo.SKCond{Op: dynamo.SKGt, Values: []string{"1"}}})
				return sortKeys(p.Items), err
			},
			want: "2,10",
			log:  "Query(failed),DescribeTable,Query",
		},
		{
			// No sort-key condition: the query works, but its items carry
			// an N where the cached keys say S, so that answer is refused
			// (failed in the log) and the keys are read again.
			name: "items do not fit",
			call: func(c *dynamo.Client, table string) (string, error) {
				p, err := c.Query(context.Background(), dynamo.QueryInput{Table: table, PK: "P", Reverse: true})
				return sortKeys(p.Items), err
			},
			want: "10,2,1",
			log:  "Query(failed),DescribeTable,Query",
		},
		{
			name: "get",
			call: func(c *dynamo.Client, table string) (string, error) {
				p, err := c.GetItem(context.Background(), dynamo.GetInput{Table: table, PK: "P", SK: "10"})
				return sortKeys(p.Items), err
			},
			want: "10",
			log:  "GetItem(failed),DescribeTable,GetItem",
		},
		{
			// The first page of string keys fails on the new key type; the
			// one of numbers, read again, reports the range.
			name: "discover",
			call: func(c *dynamo.Client, table string) (string, error) {
				d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P"})
				if err != nil || len(d.Groups) != 1 {
					return "", err
				}
				return d.Groups[0].Entity + " " + d.Groups[0].First + ".." + d.Groups[0].Last, nil
			},
			want: "NUMBER 1..10",
			log:  "Query(failed),DescribeTable,Query", // the first page holds the partition
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := dynamotest.SDK(t)
			table := dynamotest.Table(t, api, dynamotest.PKSK())
			put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s("A")})
			ep, dir := dynamotest.Endpoint(t), t.TempDir()
			before, _ := cachedClient(t, ep, dir)
			if _, err := before.Query(context.Background(), dynamo.QueryInput{Table: table, PK: "P"}); err != nil {
				t.Fatal(err)
			}

			recreate(t, api, table, newItems...)
			after, log := cachedClient(t, ep, dir)
			got, err := tc.call(after, table)
			if err != nil || got != tc.want {
				t.Errorf("after the change: %q, %v; want %q", got, err, tc.want)
			}
			if ops := opsOf(log()); ops != tc.log {
				t.Errorf("request log %s, want %s", ops, tc.log)
			}
			for _, r := range log() {
				if r.Operation == "DescribeTable" && !strings.Contains(r.Note, "changed since it was cached") {
					t.Errorf("the DescribeTable does not say why it was sent: %q", r.Note)
				}
			}

			// The cache now holds the new keys: the next run asks nothing first.
			next, log := cachedClient(t, ep, dir)
			if got, err := tc.call(next, table); err != nil || got != tc.want {
				t.Errorf("the run after: %q, %v", got, err)
			}
			if ops := opsOf(log()); strings.Contains(ops, "DescribeTable") || strings.Contains(ops, "failed") {
				t.Errorf("the run after sent %s", ops)
			}
		})
	}
}

// A value the cached keys reject before anything is sent (begins_with on
// what the cache says is a number) is checked with DynamoDB once; the same
// mistake with keys DynamoDB gave in this session costs nothing.
func TestSchemaCacheInputMistakes(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	in := dynamotest.PKSK()
	in.AttributeDefinitions[1].AttributeType = types.ScalarAttributeTypeN
	table := dynamotest.Table(t, api, in)
	put(t, api, table, dynamo.Item{"PK": s("P"), "SK": n("7")})
	ep, dir := dynamotest.Endpoint(t), t.TempDir()
	ctx := context.Background()
	prime, _ := cachedClient(t, ep, dir)
	if _, err := prime.TableKeys(ctx, table); err != nil {
		t.Fatal(err)
	}

	c, log := cachedClient(t, ep, dir)
	mistake := dynamo.QueryInput{Table: table, PK: "P", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}}
	for range 2 {
		_, err := c.Query(ctx, mistake)
		if err == nil || !strings.Contains(err.Error(), `the sort key SK is a number (N); "ORDER#" is not a number.`) {
			t.Errorf("mistake: %v", err)
		}
	}
	if ops := opsOf(log()); ops != "DescribeTable" {
		t.Errorf("two mistakes sent %s, want one DescribeTable for the first", ops)
	} else if note := log()[0].Note; !strings.Contains(note, "unchanged") {
		t.Errorf("note %q", note)
	}
	if p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P", SK: dynamo.SKCond{Op: dynamo.SKLt, Values: []string{"8"}}}); err != nil || p.Count != 1 {
		t.Errorf("a right query after: %v", err)
	}
}

// A cached table that was deleted: the query fails as a missing table
// does, and the entry is gone, so the next run asks DynamoDB.
func TestSchemaCacheTableDeleted(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ep, dir := dynamotest.Endpoint(t), t.TempDir()
	ctx := context.Background()
	prime, _ := cachedClient(t, ep, dir)
	if _, err := prime.TableKeys(ctx, table); err != nil {
		t.Fatal(err)
	}
	if _, err := api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // dynamotest.Table's cleanup deletes it: give it one to delete
		in := dynamotest.PKSK()
		in.TableName, in.BillingMode = aws.String(table), types.BillingModePayPerRequest
		api.CreateTable(context.Background(), &in)
	})

	c, log := cachedClient(t, ep, dir)
	_, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P"})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("query of a deleted table: %v", err)
	}
	if ops := opsOf(log()); ops != "Query(failed),DescribeTable(failed)" {
		t.Errorf("request log %s", ops)
	}
	next, log := cachedClient(t, ep, dir)
	if _, err := next.Query(ctx, dynamo.QueryInput{Table: table, PK: "P"}); err == nil {
		t.Error("the next run found the table")
	}
	if ops := opsOf(log()); ops != "DescribeTable(failed)" {
		t.Errorf("the next run sent %s: the entry was kept", ops)
	}
}

// ConnectWriter loads the configuration as Connect does: same failures in
// the same words, and a client that writes.
func TestConnectWriter(t *testing.T) {
	ctx := context.Background()
	_, err := dynamo.ConnectWriter(ctx, dynamo.Options{Profile: "nope"})
	_, err2 := dynamo.Connect(ctx, dynamo.Options{Profile: "nope"})
	if err == nil || err2 == nil || err.Error() != err2.Error() {
		t.Errorf("missing profile: writer %v, client %v", err, err2)
	}
	w, err := dynamo.ConnectWriter(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	table := dynamotest.UniqueName("writer")
	created, err := dynamo.EnsureTable(ctx, w, dynamo.TableSpec{Name: table, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}})
	t.Cleanup(func() {
		dynamotest.SDK(t).DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	if err != nil || !created {
		t.Fatalf("EnsureTable through the writer: %v %v", created, err)
	}
	res, err := dynamo.Seed(ctx, w, table, []dynamo.Item{{"PK": s("a")}, {"PK": s("b")}}, dynamo.SeedOptions{})
	if err != nil || res.Written != 2 {
		t.Errorf("Seed through the writer: %+v %v", res, err)
	}
	if tbl, err := dynamo.Describe(ctx, w, table); err != nil || tbl.PK.Name != "PK" || tbl.SK != nil {
		t.Errorf("Describe: %+v %v", tbl, err)
	}
}
