package dynamo

// Seeding from a stream of items of unknown length (a file of any size):
// memory holds a few batches, not the file.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"

	"dynascope/itemcodec"
)

// SeedStream writes the items next yields (io.EOF ends them) into an
// existing table, as Seed does. Items are routed to the workers by a hash of
// their primary key, and each worker writes its batches in order, so an item
// that repeats a key always lands after the earlier one and wins, as in
// Seed, without a set of every key seen. The workers' last partial batches
// are pooled and written after every full batch has landed: their keys are
// distinct across workers by the routing, so a file of 13 items is one
// request, not one per worker. o.Total, when known, is the total handed to
// Progress. An item without the table's key stops the load; a
// caller that validated its input first (as the CLI does) never sees that.
func SeedStream(ctx context.Context, api WriteAPI, table string, next func() (Item, error), o SeedOptions) (SeedResult, error) {
	t, err := seedTarget(ctx, api, table, o.Force)
	if err != nil {
		return SeedResult{}, err
	}
	run := newSeedRun(ctx, api, table, o, o.Total)
	defer run.cancel()
	n := run.workers()
	chans := make([]chan []Item, n)
	pending := make([][]Item, n)
	keys := make([]map[string]int, n) // key -> position in pending
	for i := range chans {
		chans[i] = make(chan []Item, 1)
		keys[i] = map[string]int{}
		run.wg.Go(func() { run.work(chans[i]) })
	}
	send := func(i int) bool {
		select {
		case chans[i] <- pending[i]:
		case <-run.ctx.Done():
			return false
		}
		pending[i] = make([]Item, 0, itemcodec.BatchWriteLimit)
		clear(keys[i])
		return true
	}
	var readErr error
	seen := 0
	for run.ctx.Err() == nil {
		it, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			readErr = err
			break
		}
		seen++
		k, err := PrimaryKey(t, it)
		if err != nil {
			readErr = &UserError{Msg: fmt.Sprintf("item %d cannot go into table %s: %s.", seen, t.Name, err)}
			break
		}
		h := fnv.New32a()
		h.Write([]byte(k))
		i := int(h.Sum32() % uint32(n))
		if j, ok := keys[i][k]; ok {
			pending[i][j] = it // DynamoDB refuses a batch naming a key twice
			run.mu.Lock()
			run.res.Duplicates++
			run.mu.Unlock()
			continue
		}
		keys[i][k] = len(pending[i])
		pending[i] = append(pending[i], it)
		if len(pending[i]) == itemcodec.BatchWriteLimit && !send(i) {
			break
		}
	}
	for i := range chans {
		close(chans[i])
	}
	if readErr != nil {
		run.cancel()
	} else {
		// Only now: an earlier value of a key in a pooled batch may still
		// be in its worker's queue, and must land first.
		run.wg.Wait()
		run.writeRest(slices.Concat(pending...))
	}
	res, err := run.finish(-1)
	if readErr != nil && (err == nil || errors.Is(err, context.Canceled)) {
		err = readErr
	}
	return res, err
}

// writeRest writes the pooled last items of a stream, whose keys are all
// distinct, in full batches and in parallel.
func (r *seedRun) writeRest(items []Item) {
	chunks := make(chan []Item)
	for range min(r.workers(), (len(items)+itemcodec.BatchWriteLimit-1)/itemcodec.BatchWriteLimit) {
		r.wg.Go(func() { r.work(chunks) })
	}
	defer close(chunks)
	for c := range slices.Chunk(items, itemcodec.BatchWriteLimit) {
		select {
		case chunks <- c:
		case <-r.ctx.Done():
			return
		}
	}
}
