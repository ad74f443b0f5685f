package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
	"dynascope/ui/overlay"
)

// pinnedStore is the client with each answer's duration pinned, so that a
// golden of the request log does not depend on the clock; the answers are
// DynamoDB Local's.
type pinnedStore struct{ Store }

func (p pinnedStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	pg, err := p.Store.Query(ctx, q)
	pg.Request.Duration = 4200 * time.Microsecond
	return pg, err
}

// 39.4: a typo'd partition key of the demo table (the wrong delimiter,
// the wrong case) comes back empty; the hint line and the status bar offer
// w, and no Query beyond the partition's own is sent until it is pressed,
// whatever else is pressed. w says the reads and their bound first, then
// the nearest key that exists and the difference in one sentence; each of
// its Queries is in the request log with the RCU it consumed, and no more
// were sent than announced. Against DynamoDB Local, with the demo's
// entities declared; goldens at 120x35 and 80x24.
func TestWhyEmptyNamesTheDifference(t *testing.T) {
	table, ep := demoTable(t)
	set, path := demoPatterns(t)
	for _, tc := range []struct {
		name, pk, sentence string
	}{
		{"delimiter", "CUST|42", "PK: the table has CUST#42, cut by # where the built key has |"},
		{"case", "cust#42", "PK: the table has CUST#42, in another case than the built cust#42"},
	} {
		for _, sz := range [][2]int{{120, 35}, {80, 24}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, sz[0], sz[1]), func(t *testing.T) {
				client, queries, _ := localClient(t, ep)
				hs := newHarnessOn(t, Options{Store: pinnedStore{client}, Table: table, PK: tc.pk, Region: "us-east-1", Endpoint: "http://127.0.0.1:8000",
					Patterns: set, PatternsPath: path}, sz[0], sz[1])
				hs.contains("no items: w why empty", "w why empty")
				mask := func(screen string) []byte { return []byte(strings.ReplaceAll(screen, table, "ui-demo-TABLE0000000")) }
				t.Run("empty", func(t *testing.T) { golden.RequireEqual(t, mask(hs.screen())) })
				// Moving about, help, the log: nothing more is read.
				hs.keys("tab", "j", "k", "tab", "?", "esc", "L", "esc")
				if qs := queries(); len(qs) != 1 {
					t.Fatalf("%d Queries before w, want the partition's one: %+v", len(qs), qs)
				}
				before := hs.m.log.Total.Total
				hs.keys("w")
				screen := hs.screen()
				flat := strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
				for _, want := range []string{"Why empty", "asked PK = " + tc.pk, "no declared entity's template matches its shape",
					"at most 9 Queries, 550 RCU", "variant CUST#42", tc.sentence} {
					if !strings.Contains(flat, want) {
						t.Errorf("the overlay lacks %q:\n%s", want, screen)
					}
				}
				if hs.m.topID() != overlay.ExplainID {
					t.Fatal("no why-empty overlay")
				}
				sent := queries()[1:]
				if len(sent) == 0 || len(sent) > 9 {
					t.Fatalf("%d Queries sent, announced at most 9", len(sent))
				}
				logged, rcu := 0, 0.0
				for i, k := range hs.m.log.Kinds {
					if k == "why empty" {
						logged++
						rcu += hs.m.log.Reqs[i].Capacity.Total
					}
				}
				spent := 0.0
				for _, r := range sent {
					spent += r.Capacity.Total
				}
				if logged != len(sent) || rcu != spent || hs.m.log.Total.Total-before != spent || spent == 0 {
					t.Errorf("logged %d of %d Queries, %v RCU of %v", logged, len(sent), rcu, spent)
				}
				if !strings.Contains(flat, fmt.Sprintf("read in %d Queries, %s RCU, each in the request log", len(sent), fmtRCU(spent))) {
					t.Errorf("the cost is not said:\n%s", screen)
				}
				t.Run("why", func(t *testing.T) { golden.RequireEqual(t, mask(screen)) })
				hs.keys("esc")
				if hs.m.topID() != overlay.None || len(queries()) != 1+len(sent) {
					t.Errorf("esc: overlay %v, %d Queries", hs.m.topID(), len(queries()))
				}
			})
		}
	}
}

// A key the declarations read (a customer the demo does not hold) is
// named with its parameters; nothing holds it nor any of its variants.
func TestWhyEmptyNamesTheEntity(t *testing.T) {
	table, ep := demoTable(t)
	set, path := demoPatterns(t)
	client, queries, _ := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#999999", Region: "us-east-1", Endpoint: ep, Patterns: set, PatternsPath: path}, 120, 35)
	hs.keys("w")
	hs.contains("entity  Customer, Address, Order: customerId = 999999")
	hs.containsFlowing("no item has PK = CUST#999999, nor any of its variants (another delimiter, the other case, no padding), on any index")
	if n := len(queries()); n < 2 || n > 10 {
		t.Errorf("%d Queries, announced at most 1 + 9", n)
	}
}
