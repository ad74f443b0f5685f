package dynamo_test

import (
	"context"
	"net"
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

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func put(t *testing.T, api *dynamodb.Client, table string, items ...dynamo.Item) {
	t.Helper()
	for _, it := range items {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put: %v", err)
		}
	}
}

func connect(t *testing.T) (*dynamo.Client, *[]dynamo.Request) {
	t.Helper()
	ep := dynamotest.Endpoint(t)
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: ep, Region: "us-east-1", SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log []dynamo.Request
	c.OnRequest(func(r dynamo.Request) { mu.Lock(); log = append(log, r); mu.Unlock() })
	return c, &log
}

// The single-table pattern's example, queried exactly as the pattern says.
func TestQueryPatternExample(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	put(t, api, table,
		dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")},
		dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20")},
		dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "total": n("35")},
		dynamo.Item{"PK": s("ORDER#A17"), "SK": s("ITEM#1")},
	)
	c, log := connect(t)
	ctx := context.Background()

	p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "CUST#42"})
	if err != nil {
		t.Fatal(err)
	}
	var sks []string
	for _, it := range p.Items {
		sks = append(sks, itemcodec.KeyString(it["SK"]))
	}
	if got := strings.Join(sks, ","); got != "ORDER#2025-01-09#A11,ORDER#2025-03-01#A17,PROFILE" {
		t.Errorf("sort keys = %s", got)
	}
	if p.Request.KeyCondition != `PK = "CUST#42"` || p.Request.Count != 3 || p.Request.More || p.LastEvaluatedKey != nil {
		t.Errorf("request record: %+v", p.Request)
	}

	p, err = c.Query(ctx, dynamo.QueryInput{Table: table, PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Reverse: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || itemcodec.KeyString(p.Items[0]["SK"]) != "ORDER#2025-03-01#A17" || itemcodec.KeyString(p.Items[0]["total"]) != "35" {
		t.Fatalf("latest order: %+v", p.Items)
	}
	if p.Request.Capacity.Total != 0.5 || p.Request.Capacity.Table != 0.5 {
		t.Errorf("capacity = %+v, want 0.5 as DynamoDB Local reports", p.Request.Capacity)
	}
	// Limit 1 stopped the page early, so DynamoDB says there may be more.
	if !p.Request.More || p.LastEvaluatedKey == nil || p.Request.Forward || p.Request.Limit != 1 {
		t.Errorf("request record: %+v", p.Request)
	}
	if p.Request.KeyCondition != `PK = "CUST#42" AND begins_with(SK, "ORDER#")` {
		t.Errorf("key condition = %s", p.Request.KeyCondition)
	}

	// The next page picks up after the last key and finds the older order.
	p2, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Reverse: true, Limit: 1, StartKey: p.LastEvaluatedKey})
	if err != nil || len(p2.Items) != 1 || itemcodec.KeyString(p2.Items[0]["SK"]) != "ORDER#2025-01-09#A11" {
		t.Fatalf("second page: %v %+v", err, p2.Items)
	}

	// Every request was recorded, DescribeTable once thanks to the cache.
	ops := map[string]int{}
	for _, r := range *log {
		ops[r.Operation]++
	}
	if ops["DescribeTable"] != 1 || ops["Query"] != 3 {
		t.Errorf("request log: %v", ops)
	}
}

func TestSortKeyOperators(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	for _, sk := range []string{"A#1", "A#2", "B#1", "B#2", "C"} {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(sk)})
	}
	c, _ := connect(t)
	cases := []struct {
		cond dynamo.SKCond
		want string
	}{
		{dynamo.SKCond{Op: dynamo.SKEq, Values: []string{"B#1"}}, "B#1"},
		{dynamo.SKCond{Op: dynamo.SKLt, Values: []string{"B#1"}}, "A#1,A#2"},
		{dynamo.SKCond{Op: dynamo.SKLe, Values: []string{"B#1"}}, "A#1,A#2,B#1"},
		{dynamo.SKCond{Op: dynamo.SKGt, Values: []string{"B#1"}}, "B#2,C"},
		{dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"B$"}}, "C"},
		{dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"A#2", "B#2"}}, "A#2,B#1,B#2"},
		{dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"B#"}}, "B#1,B#2"},
	}
	for _, cs := range cases {
		p, err := c.Query(context.Background(), dynamo.QueryInput{Table: table, PK: "P", SK: cs.cond})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range p.Items {
			got = append(got, itemcodec.KeyString(it["SK"]))
		}
		if strings.Join(got, ",") != cs.want {
			t.Errorf("%s %v: got %v, want %s", cs.cond.Op, cs.cond.Values, got, cs.want)
		}
	}
}

// Number and binary keys: values typed as text are converted by the key
// schema, and numbers sort numerically.
func TestNumberAndBinaryKeys(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	numTable := dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: "N"}, {AttributeName: aws.String("ts"), AttributeType: "N"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: "HASH"}, {AttributeName: aws.String("ts"), KeyType: "RANGE"}},
	})
	for _, ts := range []string{"9", "10", "-1", "1.5"} {
		put(t, api, numTable, dynamo.Item{"id": n("42"), "ts": n(ts)})
	}
	binTable := dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("h"), AttributeType: "B"}, {AttributeName: aws.String("r"), AttributeType: "B"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("h"), KeyType: "HASH"}, {AttributeName: aws.String("r"), KeyType: "RANGE"}},
	})
	for _, r := range [][]byte{{1, 2}, {1, 0xff}, {2}} {
		put(t, api, binTable, dynamo.Item{"h": &types.AttributeValueMemberB{Value: []byte{0xde, 0xad}}, "r": &types.AttributeValueMemberB{Value: r}})
	}
	c, _ := connect(t)
	ctx := context.Background()

	p, err := c.Query(ctx, dynamo.QueryInput{Table: numTable, PK: "42", SK: dynamo.SKCond{Op: dynamo.SKGt, Values: []string{"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range p.Items {
		got = append(got, itemcodec.KeyString(it["ts"]))
	}
	if strings.Join(got, ",") != "1.5,9,10" {
		t.Errorf("numeric order: %v", got)
	}
	if _, err := c.Query(ctx, dynamo.QueryInput{Table: numTable, PK: "CUST#42"}); err == nil || !strings.Contains(err.Error(), "is a number (N)") {
		t.Errorf("wrong key type: %v", err)
	}

	p, err = c.Query(ctx, dynamo.QueryInput{Table: binTable, PK: "3q0=", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"AQ=="}}})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, it := range p.Items {
		got = append(got, itemcodec.KeyString(it["r"]))
	}
	// Binary sorts as unsigned bytes: 0x01 0x02 before 0x01 0xff.
	if strings.Join(got, ",") != "AQI=,Af8=" {
		t.Errorf("binary begins_with: %v", got)
	}
	if p.Request.KeyCondition != `h = b"3q0=" AND begins_with(r, b"AQ==")` {
		t.Errorf("key condition: %s", p.Request.KeyCondition)
	}
}

func TestIndexesAndCapacity(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	def := dynamotest.PKSK()
	def.AttributeDefinitions = append(def.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("GSI1PK"), AttributeType: "S"},
		types.AttributeDefinition{AttributeName: aws.String("GSI1SK"), AttributeType: "S"},
		types.AttributeDefinition{AttributeName: aws.String("LSK"), AttributeType: "N"})
	def.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("GSI1"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1PK"), KeyType: "HASH"}, {AttributeName: aws.String("GSI1SK"), KeyType: "RANGE"}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	def.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{
		IndexName:  aws.String("LSI1"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: "HASH"}, {AttributeName: aws.String("LSK"), KeyType: "RANGE"}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}
	table := dynamotest.Table(t, api, def)
	put(t, api, table,
		dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#1"), "GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-01-01"), "LSK": n("3")},
		dynamo.Item{"PK": s("CUST#2"), "SK": s("ORDER#2"), "GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-02-01"), "LSK": n("1")},
	)
	c, _ := connect(t)
	ctx := context.Background()

	desc, err := c.DescribeTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Indexes) != 2 || desc.Indexes[0].Name != "GSI1" || desc.Indexes[0].Kind != dynamo.GSI ||
		desc.Indexes[0].PK != (dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}) || desc.Indexes[1].Kind != dynamo.LSI ||
		desc.Indexes[1].SK.Type != "N" || desc.Indexes[1].Projection != "KEYS_ONLY" || desc.BillingMode != "PAY_PER_REQUEST" {
		t.Errorf("description: %+v", desc)
	}

	p, err := c.Query(ctx, dynamo.QueryInput{Table: table, Index: "GSI1", PK: "WH#1", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"OPEN#"}}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Count != 2 || p.Request.Capacity.Indexes["GSI1"] != 0.5 || p.Request.Capacity.Table != 0 || p.Request.Capacity.Total != 0.5 {
		t.Errorf("GSI query: count %d capacity %+v", p.Count, p.Request.Capacity)
	}
	if p.Request.KeyCondition != `GSI1PK = "WH#1" AND begins_with(GSI1SK, "OPEN#")` || p.Request.Index != "GSI1" {
		t.Errorf("GSI record: %+v", p.Request)
	}

	p, err = c.Query(ctx, dynamo.QueryInput{Table: table, Index: "LSI1", PK: "CUST#1", SK: dynamo.SKCond{Op: dynamo.SKGt, Values: []string{"2"}}, Consistent: true})
	if err != nil {
		t.Fatal(err)
	}
	// DynamoDB Local reports an LSI read under LocalSecondaryIndexes; the
	// figures shown are its own, not our guess of where they belong.
	if p.Count != 1 || p.Request.Capacity.Total != 1 || p.Request.Capacity.Indexes["LSI1"] != 1 {
		t.Errorf("LSI consistent query: count %d capacity %+v", p.Count, p.Request.Capacity)
	}

	// DynamoDB refuses consistent reads on a GSI: the user sees why.
	_, err = c.Query(ctx, dynamo.QueryInput{Table: table, Index: "GSI1", PK: "WH#1", Consistent: true})
	if err == nil || !strings.HasPrefix(err.Error(), "query WH#1 on "+table+"/GSI1: DynamoDB rejected the request: ") {
		t.Errorf("consistent read on GSI: %v", err)
	}

	_, err = c.Query(ctx, dynamo.QueryInput{Table: table, Index: "NOPE", PK: "x"})
	if err == nil || err.Error() != "table "+table+" has no index named \"NOPE\"; its indexes are [GSI1 LSI1]." {
		t.Errorf("unknown index: %v", err)
	}
}

func TestGetItem(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	put(t, api, table, dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")})
	c, _ := connect(t)
	ctx := context.Background()
	p, err := c.GetItem(ctx, dynamo.GetInput{Table: table, PK: "CUST#42", SK: "PROFILE"})
	if err != nil || len(p.Items) != 1 || itemcodec.KeyString(p.Items[0]["name"]) != "Ann" || p.Request.Capacity.Total != 0.5 {
		t.Fatalf("get: %v %+v", err, p)
	}
	// A missing item still costs a read.
	p, err = c.GetItem(ctx, dynamo.GetInput{Table: table, PK: "CUST#42", SK: "NOPE", Consistent: true})
	if err != nil || len(p.Items) != 0 || p.Request.Capacity.Total != 1 {
		t.Fatalf("missing item: %v %+v", err, p.Request)
	}
	if p.Request.KeyCondition != `PK = "CUST#42" AND SK = "NOPE"` {
		t.Errorf("key text: %s", p.Request.KeyCondition)
	}
}

func TestListTables(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	c, _ := connect(t)
	names, err := c.ListTables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, nm := range names {
		found = found || nm == table
	}
	if !found {
		t.Errorf("%s not among %d tables", table, len(names))
	}
}

// The sentences a user sees when things go wrong.
func TestErrorSentences(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	ctx := context.Background()

	t.Run("missing table", func(t *testing.T) {
		c, _ := connect(t)
		_, err := c.Query(ctx, dynamo.QueryInput{Table: "no-such-table", PK: "x"})
		want := "describe table no-such-table: the table or index does not exist at " + ep + "; check --table, --index and --region."
		if err == nil || err.Error() != want {
			t.Errorf("got  %v\nwant %s", err, want)
		}
	})

	t.Run("unreachable endpoint", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead := "http://" + l.Addr().String()
		l.Close()
		c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: dead, MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListTables(ctx)
		want := "list tables: cannot reach " + dead + "; is the endpoint right and the service running?"
		if err == nil || err.Error() != want {
			t.Errorf("got  %v\nwant %s", err, want)
		}
	})

	t.Run("server that never answers", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				conn, err := l.Accept()
				if err != nil {
					return
				}
				defer conn.Close() // hold it open, say nothing
			}
		}()
		hang := "http://" + l.Addr().String()
		c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: hang, Timeout: 300 * time.Millisecond, MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		_, err = c.ListTables(ctx)
		want := "list tables: no answer from " + hang + " within the time-out; check the endpoint or raise --timeout."
		if err == nil || err.Error() != want {
			t.Errorf("got  %v\nwant %s", err, want)
		}
		if time.Since(began) > 10*time.Second {
			t.Errorf("the time-out did not bound the call: %v", time.Since(began))
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		c, _ := connect(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := c.ListTables(cctx)
		if err == nil || err.Error() != "list tables: cancelled." {
			t.Errorf("got %v", err)
		}
	})
}

// Without credentials, a loopback endpoint still works (fake ones are used),
// and AWS says in one sentence what to do.
func TestNoCredentials(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", dir+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", dir+"/credentials")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", "")
	t.Setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "")
	t.Setenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "")
	// Instance metadata is not on this machine's network: never ask it.
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	ctx := context.Background()

	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTables(ctx); err != nil {
		t.Errorf("loopback endpoint without credentials: %v", err)
	}

	c, err = dynamo.Connect(ctx, dynamo.Options{Region: "eu-west-1", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListTables(ctx)
	want := "list tables: no AWS credentials found; run 'aws configure' or 'aws sso login', or pass --profile."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}

	_, err = dynamo.Connect(ctx, dynamo.Options{Profile: "nope"})
	if err == nil || err.Error() != `the AWS profile "nope" does not exist in your shared config; check --profile or AWS_PROFILE.` {
		t.Errorf("missing profile: %v", err)
	}

	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	_, err = dynamo.Connect(ctx, dynamo.Options{})
	if err == nil || err.Error() != "no AWS region is set; pass --region or set AWS_REGION (or a region in your profile)." {
		t.Errorf("no region: %v", err)
	}
}
