package ui

import (
	"context"
	"reflect"
	"sync"
	"testing"

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
	p := newPrefetchStore(context.Background(), cs, "App", "", "CUST#42", config.Settings{})
	tbl, err := p.TableKeys(context.Background(), "App")
	if err != nil || tbl.Name != "App" {
		t.Fatalf("keys: %v %+v", err, tbl)
	}
	q := dynamo.QueryInput{Table: "App", PK: "CUST#42"}
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
	p := newPrefetchStore(context.Background(), cs, "App", "", "CUST#42", config.Settings{})
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
	p := newPrefetchStore(context.Background(), cs, "App", "", "", config.Settings{})
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

// A cancelled caller is not kept waiting for the request sent ahead.
func TestPrefetchCancelled(t *testing.T) {
	cs, _ := prefetchFixture()
	p := newPrefetchStore(context.Background(), cs, "App", "", "CUST#42", config.Settings{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Query(ctx, dynamo.QueryInput{Table: "App", PK: "CUST#42"}); err == nil {
		// The prefetched answer may already be in; then it is served, which
		// is also right. Only a hang would be wrong, and the test returned.
		t.Log("served the prefetched answer")
	}
}
