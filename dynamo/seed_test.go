package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// seedTable creates a uniquely named table from spec through EnsureTable and
// deletes it when the test ends.
func seedTable(t *testing.T, api *dynamodb.Client, spec TableSpec) string {
	t.Helper()
	spec.Name = dynamotest.UniqueName("seed")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dynamotest.DeleteAtEnd(t, api, spec.Name)
	created, err := EnsureTable(ctx, api, spec)
	if err != nil {
		t.Fatalf("EnsureTable(%s): %v", spec.Name, err)
	}
	if !created {
		t.Fatalf("EnsureTable(%s) did not create the table", spec.Name)
	}
	return spec.Name
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func simpleItems(n int, pk string) []Item {
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{"PK": strAttr(pk), "SK": strAttr(fmt.Sprintf("ITEM#%04d", i)), "n": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}}
	}
	return items
}

func strAttr(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// gsiSpec is a table of PK and SK strings with GSI1 (GSI1PK, GSI1SK,
// projecting all), the demo table's shape.
func gsiSpec(name string) TableSpec {
	return TableSpec{Name: name, PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"},
		GSIs: []Index{{Name: "GSI1", Kind: GSI, PK: KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "ALL"}}}
}

func countItems(t *testing.T, api API, table string) int {
	t.Helper()
	n := 0
	var start Item
	for {
		out, err := api.Scan(testCtx(t), &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ExclusiveStartKey: start})
		if err != nil {
			t.Fatalf("scan %s: %v", table, err)
		}
		n += int(out.Count)
		if len(out.LastEvaluatedKey) == 0 {
			return n
		}
		start = out.LastEvaluatedKey
	}
}

func TestEnsureTableCreatesWithGSIAndIsIdempotent(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	spec := gsiSpec("")
	name := seedTable(t, api, spec)
	spec.Name = name

	out, err := api.DescribeTable(testCtx(t), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Table
	if d.TableStatus != types.TableStatusActive {
		t.Errorf("status %s; want ACTIVE", d.TableStatus)
	}
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("billing mode %+v; want PAY_PER_REQUEST", d.BillingModeSummary)
	}
	tbl := tableFromDescription(d)
	if got := (KeySchema{PK: tbl.PK, SK: tbl.SK}).KeyText(); got != "PK S / SK S" {
		t.Errorf("table key %q; want PK S / SK S", got)
	}
	ix, ok := tbl.IndexByName("GSI1")
	if !ok {
		t.Fatalf("no GSI1; indexes %+v", tbl.Indexes)
	}
	if got := (KeySchema{PK: ix.PK, SK: ix.SK}).KeyText(); ix.Kind != GSI || got != "GSI1PK S / GSI1SK S" || ix.Projection != "ALL" {
		t.Errorf("GSI1 is %s %q projection %s; want GSI GSI1PK S / GSI1SK S projection ALL", ix.Kind, got, ix.Projection)
	}

	created, err := EnsureTable(testCtx(t), api, spec)
	if err != nil || created {
		t.Errorf("second EnsureTable = %v, %v; want false, nil", created, err)
	}
}

func TestEnsureTableRejectsDifferentKeys(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	name := seedTable(t, api, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})
	tests := []struct {
		spec TableSpec
		want string
	}{
		{TableSpec{Name: name, PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "N"}},
			"table " + name + " already exists with key PK S / SK S, not PK S / SK N; pick another --table or delete it first."},
		{TableSpec{Name: name, PK: KeyAttr{Name: "PK", Type: "S"}},
			"table " + name + " already exists with key PK S / SK S, not PK S; pick another --table or delete it first."},
		{gsiSpec(name),
			"table " + name + " already exists without the index GSI1; pick another --table or add the index."},
	}
	for _, tc := range tests {
		created, err := EnsureTable(testCtx(t), api, tc.spec)
		var ue *UserError
		if created || !errors.As(err, &ue) || ue.Msg != tc.want {
			t.Errorf("EnsureTable(%+v) = %v, %v;\nwant false and %q", tc.spec, created, err, tc.want)
		}
	}
}

func TestTableSpecCreateInput(t *testing.T) {
	t.Parallel()
	in, err := gsiSpec("App").createInput()
	if err != nil {
		t.Fatal(err)
	}
	var defs []string
	for _, d := range in.AttributeDefinitions {
		defs = append(defs, aws.ToString(d.AttributeName)+" "+string(d.AttributeType))
	}
	if want := []string{"PK S", "SK S", "GSI1PK S", "GSI1SK S"}; !slices.Equal(defs, want) {
		t.Errorf("attribute definitions %q; want %q", defs, want)
	}
	if in.BillingMode != types.BillingModePayPerRequest || len(in.GlobalSecondaryIndexes) != 1 ||
		in.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeAll {
		t.Errorf("create input %+v; want on-demand with GSI1 projecting ALL", in)
	}

	bad := []struct {
		spec TableSpec
		want string
	}{
		{TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}}, "no table name given; pass --table."},
		{TableSpec{Name: "T", PK: KeyAttr{Name: "PK", Type: "X"}}, `the partition key PK of table T has type "X"; use S, N or B.`},
		{TableSpec{Name: "T", PK: KeyAttr{Name: "PK", Type: "S"}, GSIs: []Index{{Name: "G", PK: KeyAttr{Name: "PK", Type: "N"}}}},
			"table T uses attribute PK as a key with two types (S and N); give it one."},
	}
	for _, tc := range bad {
		err := tc.spec.Validate()
		if err == nil {
			_, err = tc.spec.createInput()
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("spec %+v: error %v; want %q", tc.spec, err, tc.want)
		}
	}
}

func TestSeedRefusesNonEmptyTable(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := seedTable(t, api, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})

	empty, err := IsEmpty(testCtx(t), api, table)
	if err != nil || !empty {
		t.Fatalf("IsEmpty of a new table = %v, %v; want true", empty, err)
	}
	if _, err := Seed(testCtx(t), api, table, simpleItems(3, "A"), SeedOptions{}); err != nil {
		t.Fatal(err)
	}
	empty, err = IsEmpty(testCtx(t), api, table)
	if err != nil || empty {
		t.Fatalf("IsEmpty after seeding = %v, %v; want false", empty, err)
	}

	_, err = Seed(testCtx(t), api, table, simpleItems(3, "B"), SeedOptions{})
	var ue *UserError
	want := "table " + table + " already holds items; pass --force to write into it anyway."
	if !errors.As(err, &ue) || ue.Msg != want {
		t.Errorf("Seed into a non-empty table: %v; want %q", err, want)
	}
	if n := countItems(t, api, table); n != 3 {
		t.Errorf("refused Seed left %d items; want the 3 already there", n)
	}

	res, err := Seed(testCtx(t), api, table, simpleItems(3, "B"), SeedOptions{Force: true})
	if err != nil || res.Written != 3 {
		t.Errorf("Seed with Force = %+v, %v; want 3 written", res, err)
	}
	if n := countItems(t, api, table); n != 6 {
		t.Errorf("after a forced Seed the table holds %d items; want 6", n)
	}
}

func TestSeedMissingTable(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	_, err := Seed(testCtx(t), api, dynamotest.UniqueName("missing"), simpleItems(1, "A"), SeedOptions{})
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "does not exist") || !isTableNotFound(err) {
		t.Errorf("Seed into a missing table: %v; want a sentence saying it does not exist", err)
	}
}

func TestSeedDedupesAndChecksKeys(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := seedTable(t, api, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})

	items := simpleItems(5, "A")
	dup := Item{"PK": strAttr("A"), "SK": strAttr("ITEM#0001"), "n": strAttr("second")}
	items = append(items, dup)
	// Without dedupe DynamoDB rejects the whole batch: "Provided list of
	// item keys contains duplicates".
	res, err := Seed(testCtx(t), api, table, items, SeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 5 || res.Duplicates != 1 || res.Batches != 1 {
		t.Errorf("result %+v; want 5 written, 1 duplicate, 1 batch", res)
	}
	out, err := api.GetItem(testCtx(t), &dynamodb.GetItemInput{TableName: aws.String(table), Key: Item{"PK": strAttr("A"), "SK": strAttr("ITEM#0001")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := itemcodec.KeyString(out.Item["n"]); got != "second" {
		t.Errorf("the duplicate key holds n=%q; want the last write, \"second\"", got)
	}

	for _, tc := range []struct {
		item Item
		want string
	}{
		{Item{"PK": strAttr("A")}, "item 2 cannot go into table " + table + ": the key attribute SK is missing."},
		{Item{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": strAttr("x")}, "item 2 cannot go into table " + table + ": its key attribute PK must be of type S."},
	} {
		_, err := Seed(testCtx(t), api, table, []Item{items[0], tc.item}, SeedOptions{Force: true})
		if err == nil || err.Error() != tc.want {
			t.Errorf("Seed(%v): %v; want %q", tc.item, err, tc.want)
		}
	}
}

// flakyWrites is a fault injector around the real DynamoDB Local client: it
// withholds some write requests from the engine and hands them back as
// UnprocessedItems, as DynamoDB does when it throttles part of a batch.
type flakyWrites struct {
	*dynamodb.Client
	mu      sync.Mutex
	calls   int
	drop    int // requests withheld per faulty call
	faulty  int // how many calls are faulty; <0 for all
	dropped int
}

func (f *flakyWrites) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	f.calls++
	faulty := f.faulty < 0 || f.calls <= f.faulty
	f.mu.Unlock()
	if !faulty {
		return f.Client.BatchWriteItem(ctx, in, optFns...)
	}
	send := map[string][]types.WriteRequest{}
	held := map[string][]types.WriteRequest{}
	for table, reqs := range in.RequestItems {
		k := min(f.drop, len(reqs))
		send[table], held[table] = reqs[:len(reqs)-k], reqs[len(reqs)-k:]
		f.mu.Lock()
		f.dropped += k
		f.mu.Unlock()
	}
	cp := *in
	cp.RequestItems = send
	out := &dynamodb.BatchWriteItemOutput{}
	if len(send[firstKey(send)]) > 0 {
		var err error
		if out, err = f.Client.BatchWriteItem(ctx, &cp, optFns...); err != nil {
			return nil, err
		}
	}
	if out.UnprocessedItems == nil {
		out.UnprocessedItems = map[string][]types.WriteRequest{}
	}
	for table, reqs := range held {
		out.UnprocessedItems[table] = append(out.UnprocessedItems[table], reqs...)
	}
	return out, nil
}

func firstKey[V any](m map[string]V) string {
	for k := range m {
		return k
	}
	return ""
}

func TestSeedRetriesUnprocessedItems(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})
	api := &flakyWrites{Client: sdk, drop: 7, faulty: 3}

	items := simpleItems(120, "A") // 5 chunks
	res, err := Seed(testCtx(t), api, table, items, SeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != len(items) || res.Retries < 3 || res.Batches != 5+res.Retries {
		t.Errorf("result %+v; want all %d written with at least 3 retries", res, len(items))
	}
	if api.dropped != 21 {
		t.Errorf("the injector withheld %d requests; want 21", api.dropped)
	}
	if n := countItems(t, sdk, table); n != len(items) {
		t.Errorf("the table holds %d items; want %d", n, len(items))
	}
}

func TestSeedGivesUpOnPersistentUnprocessedItems(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})
	api := &flakyWrites{Client: sdk, drop: 1, faulty: -1}

	o := SeedOptions{retry: seedRetryPolicy{attempts: 3, base: time.Millisecond, max: 4 * time.Millisecond}}
	res, err := Seed(testCtx(t), api, table, simpleItems(10, "A"), o)
	want := "seed table " + table + ": DynamoDB left 1 item unprocessed after 3 attempts (the table is throttling writes: wait before seeding again); 9 of 10 items reached the table (acknowledged); seed again with --force to write them all."
	if err == nil || err.Error() != want {
		t.Fatalf("Seed: %v; want %q", err, want)
	}
	if res.Written != 9 || res.Batches != 3 || res.Retries != 2 {
		t.Errorf("result %+v; want 9 written in 3 batches, 2 of them retries", res)
	}
}

func TestSeedStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := seedTable(t, api, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})

	ctx, cancel := context.WithCancel(testCtx(t))
	items := simpleItems(2000, "A") // 80 chunks
	res, err := Seed(ctx, api, table, items, SeedOptions{Progress: func(written, total int) { cancel() }})
	// Stopped, not failed: the caller names the signal; every batch in
	// flight was waited for, so none is in doubt.
	var stop *SeedStopError
	if !errors.As(err, &stop) || !stop.Stopped || stop.Result.Written != res.Written || res.InDoubt != 0 ||
		!strings.HasPrefix(stop.Sentence("SIGTERM"), fmt.Sprintf("seed table %s: stopped by SIGTERM; %d of 2000 items reached the table (acknowledged); ", table, res.Written)) {
		t.Errorf("Seed cancelled: %v (%+v); want a stop naming what reached the table", err, res)
	}
	if res.Written >= len(items) || res.Written == 0 {
		t.Errorf("cancelled Seed wrote %d of %d; want some but not all", res.Written, len(items))
	}
}

// streamOf yields items one at a time, as a file reader does.
func streamOf(items []Item) func() (Item, error) {
	i := 0
	return func() (Item, error) {
		if i == len(items) {
			return nil, io.EOF
		}
		i++
		return items[i-1], nil
	}
}

// A small stream goes in as few requests as the items need, not one partial
// batch per worker; a key repeated after its first batch was sent still ends
// with its last value.
func TestSeedStreamBatchesAndLastValue(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	spec := TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}}

	small := seedTable(t, api, spec)
	res, err := SeedStream(testCtx(t), api, small, streamOf(simpleItems(13, "A")), SeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 13 || res.Batches != 1 {
		t.Errorf("13 items: %+v; want 13 written in 1 batch", res)
	}

	big := seedTable(t, api, spec)
	items := simpleItems(100, "A")
	for i := range 30 {
		items = append(items, Item{"PK": strAttr("A"), "SK": strAttr(fmt.Sprintf("ITEM#%04d", i)), "n": strAttr("second")})
	}
	res, err = SeedStream(testCtx(t), api, big, streamOf(items), SeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A repeat whose first value was already sent is written again; one
	// still waiting in its batch replaces it there. Full batches plus the
	// pooled rests make exactly the requests the written items need.
	if res.Written+res.Duplicates != len(items) || res.Batches != (res.Written+itemcodec.BatchWriteLimit-1)/itemcodec.BatchWriteLimit {
		t.Errorf("130 items over 100 keys: %+v; want every item written or replaced, in full batches", res)
	}
	if n := countItems(t, api, big); n != 100 {
		t.Errorf("the table holds %d items; want 100", n)
	}
	for i := range 30 {
		out, err := api.GetItem(testCtx(t), &dynamodb.GetItemInput{TableName: aws.String(big), Key: Item{"PK": strAttr("A"), "SK": strAttr(fmt.Sprintf("ITEM#%04d", i))}})
		if err != nil {
			t.Fatal(err)
		}
		if got := itemcodec.KeyString(out.Item["n"]); got != "second" {
			t.Errorf("ITEM#%04d holds n=%q; want the last value, \"second\"", i, got)
		}
	}
}

// A signal while batches are in flight: DynamoDB applies them and answers
// late (the fault proxy holds the answers), and the count still says
// exactly what reached the table, not 0.
func TestSeedCountsBatchesAckedAfterCancel(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "BatchWriteItem", Fault: dynamotest.LateAnswer(400 * time.Millisecond)})
	api := dynamodb.New(sdk.Options(), func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(p.URL) })

	ctx, cancel := context.WithCancel(testCtx(t))
	go func() {
		for p.Count("BatchWriteItem") < 4 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel() // the signal, with four batches sent and none answered
	}()
	items := simpleItems(300, "A") // 12 chunks
	res, err := Seed(ctx, api, table, items, SeedOptions{})
	var stop *SeedStopError
	if !errors.As(err, &stop) || !stop.Stopped || res.InDoubt != 0 {
		t.Errorf("Seed cancelled: %v (%d in doubt); want a stop, nothing in doubt", err, res.InDoubt)
	}
	n := countItems(t, sdk, table)
	if res.Written != n || n != 100 {
		t.Errorf("Seed says %d written; the table holds %d; want both 100 (four batches in flight)", res.Written, n)
	}
}
