package ui

import (
	"context"
	"reflect"
	"sync"

	"dynascope/config"
	"dynascope/dynamo"
)

// prefetchStore sends the first requests of a start with --table (the key
// schema) and --pk (the partition's first page) as soon as Run is called,
// before the program has set up the terminal and worked through its
// start-up messages, and hands their answers to the model's first calls
// of the same requests. A request the model makes differently, or makes a
// second time, goes to the store as usual.
//
// The first screen then waits on DynamoDB alone: without it the requests
// leave only after Init's batch has queued behind the terminal's start-up
// messages and their frames, several milliseconds on a slow machine.
type prefetchStore struct {
	Store
	table string

	keysDone chan struct{} // closed when keys and keysErr are set
	keys     dynamo.Table
	keysErr  error

	queryDone chan struct{} // closed when page and queryErr are set; nil without --pk
	q         dynamo.QueryInput
	sent      bool // the query was sent; false when its input was not valid
	page      dynamo.Page
	queryErr  error
	cancel    context.CancelFunc // cancels the prefetched query

	mu        sync.Mutex
	keysUsed  bool
	queryUsed bool
	observer  func(dynamo.RetryEvent) // the adopting call's, once adopted
	early     []dynamo.RetryEvent     // retries reported before adoption
	adopted   bool
}

// newPrefetchStore starts the requests; table must be set. The first page
// is sized to a terminal of rows rows, as the model sizes it before the
// window's size is known (Model.screenRows).
func newPrefetchStore(ctx context.Context, s Store, table, index, pk string, settings config.Settings, rows int) *prefetchStore {
	p := &prefetchStore{Store: s, table: table, keysDone: make(chan struct{})}
	if pk != "" {
		p.queryDone = make(chan struct{})
	}
	qctx, cancel := context.WithCancel(ctx)
	p.cancel = cancel
	qctx = dynamo.WithRetryObserver(qctx, p.retried)
	go func() {
		defer cancel()
		p.keys, p.keysErr = s.TableKeys(qctx, table)
		close(p.keysDone)
		if p.queryDone == nil {
			return
		}
		defer close(p.queryDone)
		if p.keysErr != nil {
			return
		}
		// The query openPartition sends once the table is open.
		ks, err := p.keys.Schema(index)
		if err != nil {
			return
		}
		q := screenSized(partitionQuery(p.keys.Name, index, pk, settings), rows)
		if _, err := dynamo.BuildQuery(ks, q); err != nil {
			return
		}
		p.q, p.sent = q, true
		p.page, p.queryErr = s.Query(qctx, q)
	}()
	return p
}

// retried passes a retry of the prefetched query on to the call that
// adopted it, or keeps it for that call.
func (p *prefetchStore) retried(e dynamo.RetryEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.adopted {
		p.early = append(p.early, e)
		return
	}
	if p.observer != nil {
		p.observer(e)
	}
}

func (p *prefetchStore) TableKeys(ctx context.Context, name string) (dynamo.Table, error) {
	p.mu.Lock()
	first := !p.keysUsed && name == p.table
	p.keysUsed = p.keysUsed || first
	p.mu.Unlock()
	if !first {
		return p.Store.TableKeys(ctx, name)
	}
	select {
	case <-p.keysDone:
		return p.keys, p.keysErr
	case <-ctx.Done():
		return dynamo.Table{}, ctx.Err()
	}
}

func (p *prefetchStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	if p.queryDone == nil {
		return p.Store.Query(ctx, q)
	}
	p.mu.Lock()
	first := !p.queryUsed
	p.queryUsed = true
	p.mu.Unlock()
	if !first {
		return p.Store.Query(ctx, q)
	}
	// The first query can only be the prefetched one once the table is
	// open, so the keys are in.
	select {
	case <-p.keysDone:
	case <-ctx.Done():
		p.cancel()
		return dynamo.Page{}, ctx.Err()
	}
	p.adopt(ctx)
	select {
	case <-p.queryDone:
	case <-ctx.Done():
		p.cancel()
		return dynamo.Page{}, ctx.Err()
	}
	if !p.sent || !reflect.DeepEqual(p.q, q) {
		p.cancel()
		return p.Store.Query(ctx, q)
	}
	return p.page, p.queryErr
}

// adopt makes ctx's retry observer the prefetched query's, replaying the
// retries reported so far.
func (p *prefetchStore) adopt(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.adopted, p.observer = true, dynamo.RetryObserverOf(ctx)
	if p.observer != nil {
		for _, e := range p.early {
			p.observer(e)
		}
	}
	p.early = nil
}
