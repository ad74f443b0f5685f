// Seeding: creating a table and loading items into it. This file holds the
// ONLY code in dynascope that writes to DynamoDB; everything else reads. The
// writes go through WriteAPI, which nothing but this file takes, so the
// read-only guarantee of the explorer is a matter of types, not of care.

package dynamo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// IsEmpty tells whether the table holds no items. It reads at most a few
// one-item Scan pages, so it is cheap on tables of any size. When those pages
// decide nothing it answers false: a table is only called empty when DynamoDB
// said the scan was complete.
func IsEmpty(ctx context.Context, api API, table string) (bool, error) {
	var start Item
	for range maxEmptyScanPages {
		cctx, cancel := context.WithTimeout(ctx, seedCallTimeout)
		// Select=COUNT keeps the response small without our having to know
		// the key names for a projection.
		out, err := api.Scan(cctx, &dynamodb.ScanInput{
			TableName:         aws.String(table),
			Limit:             aws.Int32(1),
			Select:            types.SelectCount,
			ExclusiveStartKey: start,
		})
		cancel()
		if err != nil {
			return false, Explain(err, "scan table "+table, sdkEndpoint(api))
		}
		if out.Count > 0 || out.ScannedCount > 0 {
			return false, nil
		}
		if len(out.LastEvaluatedKey) == 0 {
			return true, nil
		}
		start = out.LastEvaluatedKey
	}
	return false, nil
}

// DefaultSeedWorkers is how many batches Seed keeps in flight unless
// SeedOptions.Workers says otherwise: enough to hide the round trip, few
// enough not to provoke throttling on a fresh on-demand table.
const DefaultSeedWorkers = 4

// seedRetryPolicy bounds the retries of unprocessed items.
type seedRetryPolicy struct {
	attempts int           // BatchWriteItem calls per chunk, the first included
	base     time.Duration // the first backoff; it doubles each time
	max      time.Duration // the cap on one backoff
	call     time.Duration // bounds one request; seedCallTimeout when zero
}

var defaultSeedRetry = seedRetryPolicy{attempts: 10, base: 50 * time.Millisecond, max: 5 * time.Second}

// SeedOptions tune Seed.
type SeedOptions struct {
	// Force writes into a table that already holds items.
	Force bool
	// Workers is how many BatchWriteItem requests are in flight at once;
	// DefaultSeedWorkers when zero. More fill a local engine or a
	// provisioned table faster, and get a fresh on-demand table throttled.
	Workers int
	// Progress, when set, is called after each batch with the items written
	// so far and the total. Calls come from worker goroutines one at a time,
	// and written never decreases.
	Progress func(written, total int)
	// OnBatch, when set, is called after each batch with the tally so far
	// (Written, Retries: the resends of items DynamoDB left unprocessed,
	// which is how throttling shows), one call at a time.
	OnBatch func(SeedResult)
	// Total is the item count SeedStream hands to Progress; 0 when unknown.
	Total int

	retry seedRetryPolicy // zero means defaultSeedRetry; tests shorten it
}

// SeedResult reports what Seed did.
type SeedResult struct {
	Written    int           // items DynamoDB accepted
	Duplicates int           // input items dropped because a later one had the same key
	Batches    int           // BatchWriteItem requests sent, retries included
	Retries    int           // of those, requests that resent unprocessed items
	WCU        float64       // write capacity consumed, as DynamoDB reported it
	Duration   time.Duration // wall time of the writes
	// InDoubt counts the items of batches whose answer was lost (or
	// could not be trusted): they may have been applied, so they are
	// neither in Written nor called unwritten. InDoubtBatches names them.
	InDoubt        int
	InDoubtBatches []SeedBatch
}

// Seed writes items into an existing table with BatchWriteItem, 25 at a time
// and a few batches in parallel, resending what DynamoDB leaves unprocessed
// with jittered exponential backoff. It refuses a table that already holds
// items unless o.Force is set: seeding is for fresh tables, and overwriting
// someone's items by accident cannot be undone. Items with the same primary
// key are written once, the last one winning, because DynamoDB rejects a
// batch that names a key twice.
func Seed(ctx context.Context, api WriteAPI, table string, items []Item, o SeedOptions) (SeedResult, error) {
	var res SeedResult
	t, err := seedTarget(ctx, api, table, o.Force)
	if err != nil {
		return res, err
	}
	items, dups, err := dedupeByKey(t, items)
	if err != nil {
		return res, err
	}
	run := newSeedRun(ctx, api, table, o, len(items))
	defer run.cancel()
	chunks := make(chan []Item)
	for range run.workers() {
		run.wg.Go(func() { run.work(chunks) })
	}
feed:
	for i := 0; i < len(items); i += itemcodec.BatchWriteLimit {
		select {
		case chunks <- items[i:min(i+itemcodec.BatchWriteLimit, len(items))]:
		case <-run.ctx.Done():
			break feed
		}
	}
	close(chunks)
	res, err = run.finish(len(items))
	res.Duplicates = dups
	return res, err
}

// seedTarget describes the table a load writes into and, unless force is
// set, checks that it is empty.
func seedTarget(ctx context.Context, api WriteAPI, table string, force bool) (Table, error) {
	d, err := describeRaw(ctx, api, table)
	if err != nil {
		return Table{}, Explain(err, "seed table "+table, sdkEndpoint(api))
	}
	if !force {
		empty, err := IsEmpty(ctx, api, table)
		if err != nil {
			return Table{}, err
		}
		if !empty {
			return Table{}, &UserError{Msg: fmt.Sprintf("table %s already holds items; pass --force to write into it anyway.", table)}
		}
	}
	return tableFromDescription(d), nil
}

// seedRun is one load's workers and their tally.
type seedRun struct {
	parent context.Context // the caller's: cancelled by a signal
	ctx    context.Context
	cancel context.CancelFunc
	api    WriteAPI
	table  string
	o      SeedOptions
	total  int // for Progress; 0 when unknown
	began  time.Time

	wg       sync.WaitGroup
	mu       sync.Mutex
	res      SeedResult
	firstErr error
}

func newSeedRun(parent context.Context, api WriteAPI, table string, o SeedOptions, total int) *seedRun {
	if o.retry.attempts == 0 {
		o.retry = defaultSeedRetry
	}
	ctx, cancel := context.WithCancel(parent)
	return &seedRun{parent: parent, ctx: ctx, cancel: cancel, api: api, table: table, o: o, total: total, began: time.Now()}
}

func (r *seedRun) workers() int {
	if r.o.Workers <= 0 {
		return DefaultSeedWorkers
	}
	return r.o.Workers
}

// work writes the chunks it receives until the channel closes; after a
// failure it only drains them, so the feeder never blocks.
func (r *seedRun) work(chunks <-chan []Item) {
	for chunk := range chunks {
		if r.ctx.Err() != nil {
			continue
		}
		st, err := writeSeedChunk(r.ctx, r.api, r.table, chunk, r.o.retry)
		r.mu.Lock()
		r.res.Written += st.written
		r.res.Batches += st.batches
		r.res.Retries += st.batches - min(st.batches, 1)
		r.res.WCU += st.wcu
		if st.doubt != nil {
			r.res.InDoubt += st.doubt.Items
			r.res.InDoubtBatches = append(r.res.InDoubtBatches, *st.doubt)
		}
		if r.o.Progress != nil && st.written > 0 {
			r.o.Progress(r.res.Written, r.total)
		}
		if r.o.OnBatch != nil {
			r.res.Duration = time.Since(r.began)
			r.o.OnBatch(r.res)
		}
		if err != nil && r.firstErr == nil {
			r.firstErr = err
		}
		r.mu.Unlock()
		if err != nil {
			r.cancel()
		}
	}
}

// finish waits for the workers and says how the load ended: a cancelled
// load that wrote less than it was given is an error, with Written telling
// how many items reached the table.
func (r *seedRun) finish(want int) (SeedResult, error) {
	r.wg.Wait()
	r.res.Duration = time.Since(r.began)
	stopped := r.parent.Err() != nil
	if r.firstErr == nil && !(stopped && (want < 0 || r.res.Written < want)) {
		return r.res, nil
	}
	err := r.firstErr
	if stopped && (err == nil || errors.Is(err, context.Canceled)) {
		err = nil // the signal, which the caller names
	}
	return r.res, &SeedStopError{Table: r.table, Result: r.res, Total: max(want, r.total, 0), Stopped: stopped && err == nil, Err: err}
}

type seedChunkStats struct {
	written int
	batches int
	wcu     float64
	doubt   *SeedBatch // the requests whose answer was lost, if it was
}

// writeSeedChunk writes up to 25 items, resending the unprocessed ones until none
// are left or the attempts run out.
func writeSeedChunk(ctx context.Context, api WriteAPI, table string, chunk []Item, p seedRetryPolicy) (seedChunkStats, error) {
	var st seedChunkStats
	reqs := make([]types.WriteRequest, len(chunk))
	for i, it := range chunk {
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
	}
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			// Full jitter: a random wait up to the doubled backoff, so
			// parallel workers that were throttled together do not come
			// back together.
			backoff := min(p.base<<(attempt-1), p.max)
			wait := time.Duration(rand.Int64N(int64(backoff))) + time.Millisecond
			select {
			case <-ctx.Done():
				return st, Explain(ctx.Err(), "seed table "+table, sdkEndpoint(api))
			case <-time.After(wait):
			}
		}
		// A batch already sent is waited for past a signal: DynamoDB may
		// apply it anyway, and the count must say what it acknowledged.
		// No new batch or retry starts after one (work, and the backoff above).
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cmp.Or(p.call, seedCallTimeout))
		out, err := api.BatchWriteItem(cctx, &dynamodb.BatchWriteItemInput{
			RequestItems:           map[string][]types.WriteRequest{table: reqs},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		cancel()
		st.batches++
		if err != nil {
			if lostAnswer(err) {
				st.doubt = &SeedBatch{Items: len(reqs), First: reqs[0].PutRequest.Item}
			}
			return st, Explain(err, "seed table "+table, sdkEndpoint(api))
		}
		if err := checkUnprocessed("seed table "+table, table, reqs, out.UnprocessedItems); err != nil {
			// The answer cannot be trusted to say what was applied.
			st.doubt = &SeedBatch{Items: len(reqs), First: reqs[0].PutRequest.Item}
			return st, err
		}
		for _, cc := range out.ConsumedCapacity {
			st.wcu += aws.ToFloat64(cc.CapacityUnits)
		}
		left := out.UnprocessedItems[table]
		st.written += len(reqs) - len(left)
		if len(left) == 0 {
			return st, nil
		}
		if attempt+1 >= p.attempts {
			noun := "items"
			if len(left) == 1 {
				noun = "item"
			}
			return st, &UserError{Msg: fmt.Sprintf("seed table %s: DynamoDB left %d %s unprocessed after %d attempts (the table is throttling writes: wait before seeding again)", table, len(left), noun, p.attempts)}
		}
		reqs = left
	}
}

// dedupe checks that every item carries the table's key with the right types
// and keeps one item per primary key: the last one, in the place of the first.
func dedupeByKey(t Table, items []Item) ([]Item, int, error) {
	out := make([]Item, 0, len(items))
	seen := make(map[string]int, len(items))
	for i, it := range items {
		k, err := PrimaryKey(t, it)
		if err != nil {
			return nil, 0, &UserError{Msg: fmt.Sprintf("item %d cannot go into table %s: %s.", i+1, t.Name, err)}
		}
		if j, ok := seen[k]; ok {
			out[j] = it
			continue
		}
		seen[k] = len(out)
		out = append(out, it)
	}
	return out, len(items) - len(out), nil
}

// PrimaryKey renders an item's key as a map key, typed so that S "1" and
// N "1" differ.
func PrimaryKey(t Table, it Item) (string, error) {
	var b strings.Builder
	for _, k := range []*KeyAttr{&t.PK, t.SK} {
		if k == nil {
			continue
		}
		av, ok := it[k.Name]
		if !ok {
			return "", fmt.Errorf("the key attribute %s is missing", k.Name)
		}
		typ := ""
		switch av.(type) {
		case *types.AttributeValueMemberS:
			typ = "S"
		case *types.AttributeValueMemberN:
			typ = "N"
		case *types.AttributeValueMemberB:
			typ = "B"
		}
		if typ != k.Type {
			return "", fmt.Errorf("its key attribute %s must be of type %s", k.Name, k.Type)
		}
		// DynamoDB refuses the whole batch over one such key, so it is
		// named here, where --skip-invalid can leave the item out.
		limit := maxPKBytes
		if k != &t.PK {
			limit = maxSKBytes
		}
		switch n := itemcodec.ValueSize(av); {
		case n == 0 && typ != "N":
			return "", fmt.Errorf("its key attribute %s is empty, which DynamoDB refuses", k.Name)
		case n > limit:
			return "", fmt.Errorf("its key attribute %s is %d bytes, beyond DynamoDB's limit of %d", k.Name, n, limit)
		}
		s := itemcodec.KeyString(av)
		fmt.Fprintf(&b, "%s%d:%s", typ, len(s), s)
	}
	if n := itemcodec.ItemSize(it); n > maxItemBytes {
		return "", fmt.Errorf("it is %d bytes, beyond DynamoDB's 400 KB item limit", n)
	}
	return b.String(), nil
}

// DynamoDB's limits on a key value and an item, in bytes.
const (
	maxPKBytes   = 2048
	maxSKBytes   = 1024
	maxItemBytes = 400 << 10
)

// CheckKey says, as a clause, why an item cannot go into a table keyed as t
// (a key attribute missing or of another type); nil when it can.
func CheckKey(t Table, it Item) error {
	_, err := PrimaryKey(t, it)
	return err
}
