package ui

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"dynascope/config"
	"dynascope/dynamo"
)

// countingStore records what reaches the real store behind the prefetcher.
type countingStore struct {
	Store
	mu      sync.Mutex
	keys    int
	queries []dynamo.QueryInput
}

func (c *countingStore) TableKeys(ctx context.Context, name string) (dynamo.Table, error) {
	c.mu.Lock()
	c.keys++
	c.mu.Unlock()
	return c.Store.TableKeys(ctx, name)
}

func (c *countingStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	c.mu.Lock()
	c.queries = append(c.queries, q)
	c.mu.Unlock()
	return dynamo.Page{Items: []dynamo.Item{{"PK": s("CUST#42"), "SK": s(q.PK)}}, Count: 1}, nil
}

func prefetchFixture() (*countingStore, dynamo.Table) {
	fs := &fakeStore{tables: map[string]dynamo.Table{"App": appTable()}}
	return &countingStore{Store: fs}, appTable()
}

// The model's first TableKeys and Query get the answers of the requests sent
// ahead: each reaches DynamoDB once.
func TestPrefetchServesTheFirstRequests(t *testing.T) {
	cs, _ := prefetchFixture()
	p := newPrefetchStore(context.Background(), cs, "App", "", "CUST#42", config.Settings{}, 35)
	tbl, err := p.TableKeys(context.Background(), "App")
	if err != nil || tbl.Name != "App" {
		t.Fatalf("keys: %v %+v", err, tbl)
	}
	q := dynamo.QueryInput{Table: "App", PK: "CUST#42", Limit: screenLimit(35)} // the first page, sized to the screen
	page, err := p.Query(context.Background(), q)
	if err != nil || page.Count != 1 {
		t.Fatalf("query: %v %+v", err, page)
	}
	if cs.keys != 1 || len(cs.queries) != 1 || !reflect.DeepEqual(cs.queries[0], q) {
		t.Errorf("sent %d TableKeys and %v", cs.keys, cs.queries)
	}
	// Later calls go to the store as usual.
	if _, err := p.Query(context.Background(), q); err != nil || len(cs.queries) != 2 {
		t.Errorf("second query: %v, %d sent", err, len(cs.queries))
	}
	if _, err := p.TableKeys(context.Background(), "App"); err != nil || cs.keys != 2 {
		t.Errorf("second TableKeys: %v, %d sent", err, cs.keys)
	}
}

// When the model's first query is not the one sent ahead, its own is sent.
func TestPrefetchDifferentFirstQuery(t *testing.T) {
	cs, _ := prefetchFixture()
	p := newPrefetchStore(context.Background(), cs, "App", "", "CUST#42", config.Settings{}, 35)
	q := dynamo.QueryInput{Table: "App", PK: "CUST#42", Reverse: true}
	if _, err := p.Query(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if len(cs.queries) != 2 || !reflect.DeepEqual(cs.queries[1], q) {
		t.Errorf("sent %v, want the model's own query last", cs.queries)
	}
}

// Without --pk nothing but the key schema is asked for ahead.
func TestPrefetchKeysOnly(t *testing.T) {
	cs, _ := prefetchFixture()
	p := newPrefetchStore(context.Background(), cs, "App", "", "", config.Settings{}, 35)
	if _, err := p.TableKeys(context.Background(), "App"); err != nil {
		t.Fatal(err)
	}
	q := dynamo.QueryInput{Table: "App", PK: "CUST#1"}
	if _, err := p.Query(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if cs.keys != 1 || len(cs.queries) != 1 {
		t.Errorf("sent %d TableKeys and %d queries", cs.keys, len(cs.queries))
	}
}

// blockingStore answers TableKeys at once (or not: blockKeys) and holds every
// Query until its context ends, reporting when one started and when one
// ended by cancellation.
type blockingStore struct {
	Store
	blockKeys bool
	started   chan struct{} // a Query (or TableKeys) is waiting
	cancelled chan error    // what the waiting request's context said
}

func newBlockingStore(blockKeys bool) *blockingStore {
	fs := &fakeStore{tables: map[string]dynamo.Table{"App": appTable()}}
	return &blockingStore{Store: fs, blockKeys: blockKeys, started: make(chan struct{}, 1), cancelled: make(chan error, 1)}
}

func (b *blockingStore) wait(ctx context.Context) error {
	b.started <- struct{}{}
	<-ctx.Done()
	b.cancelled <- ctx.Err()
	return ctx.Err()
}

func (b *blockingStore) TableKeys(ctx context.Context, name string) (dynamo.Table, error) {
	if b.blockKeys {
		return dynamo.Table{}, b.wait(ctx)
	}
	return b.Store.TableKeys(ctx, name)
}

func (b *blockingStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	return dynamo.Page{}, b.wait(ctx)
}

// A caller cancelled while the request sent ahead hangs gets
// context.Canceled, and the request sent ahead is cancelled too: whether
// it waits for the key schema or for the query.
func TestPrefetchCancelled(t *testing.T) {
	for _, blockKeys := range []bool{false, true} {
		bs := newBlockingStore(blockKeys)
		p := newPrefetchStore(context.Background(), bs, "App", "", "CUST#42", config.Settings{}, 35)
		select {
		case <-bs.started:
		case <-time.After(10 * time.Second):
			t.Fatal("the prefetch never sent its request")
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := p.Query(ctx, dynamo.QueryInput{Table: "App", PK: "CUST#42"})
			done <- err
		}()
		cancel()
		// A hang guard, not a speed goal: the call must return at all.
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("blockKeys=%v: Query returned %v, want context.Canceled", blockKeys, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("blockKeys=%v: a cancelled Query kept waiting for the prefetched request", blockKeys)
		}
		select {
		case err := <-bs.cancelled:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("blockKeys=%v: the request sent ahead ended with %v", blockKeys, err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("blockKeys=%v: the request sent ahead was not cancelled", blockKeys)
		}
	}
}
