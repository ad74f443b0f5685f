package dynamo

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// answer is one page as a server might send it, for driving a QueryPager:
// n items returned of scanned read, costing rcu, with more to read when
// last is set.
func answer(n, scanned int32, rcu float64, last string) Page {
	p := Page{Count: n, ScannedCount: scanned, Request: Request{Operation: "Query", Capacity: Capacity{Total: rcu}, Count: n, ScannedCount: scanned}}
	if last != "" {
		p.LastEvaluatedKey = Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: last}}
		p.Request.More = true
	}
	return p
}

// drive steps p through the answers, recording each request's Limit and
// start key; it stops at the first refusal of Next or error of Page.
func drive(t *testing.T, p *QueryPager, answers ...Page) (sent []string, err error) {
	t.Helper()
	for _, a := range answers {
		q, ok := p.Next()
		if !ok {
			return sent, nil
		}
		start := "-"
		if q.StartKey != nil {
			start = keyMapText(q.StartKey)
		}
		sent = append(sent, fmt.Sprintf("Limit %d from %s", q.Limit, start))
		if err := p.Page(a, nil); err != nil {
			return sent, err
		}
	}
	if _, ok := p.Next(); ok {
		t.Fatalf("the pager wants a page past the %d answers", len(answers))
	}
	return sent, nil
}

func TestQueryPagerStops(t *testing.T) {
	q := QueryInput{Table: "App", PK: "P"}
	unit := Estimate{RCU: 2, Known: true, Unit: 0.5}
	cases := []struct {
		name    string
		in      QueryRead
		answers []Page
		sent    string
		stop    StopReason
		last    string // the LastKey's SK, "" for nil
		goOn    bool
		left    int32
		errText string
	}{
		{name: "complete", in: QueryRead{Query: q}, answers: []Page{answer(3, 3, 1, "a"), answer(2, 2, 0.5, "")},
			sent: "[Limit 0 from - Limit 0 from {PK \"P\", SK \"a\"}]", stop: StopComplete},
		{name: "page cap", in: QueryRead{Query: q, MaxPages: 1}, answers: []Page{answer(3, 3, 1, "a")},
			sent: "[Limit 0 from -]", stop: StopPages, last: "a", goOn: true},
		{name: "every page's Limit", in: QueryRead{Query: withLimit(q, 4), MaxPages: 2}, answers: []Page{answer(4, 4, 1, "a"), answer(4, 4, 1, "b")},
			sent: "[Limit 4 from - Limit 4 from {PK \"P\", SK \"a\"}]", stop: StopPages, last: "b", goOn: true},
		{name: "limit met", in: QueryRead{Query: withLimit(q, 5), MaxItems: 5}, answers: []Page{answer(3, 3, 1, "a"), answer(2, 2, 1, "b")},
			sent: "[Limit 5 from - Limit 2 from {PK \"P\", SK \"a\"}]", stop: StopLimit, last: "b"},
		{name: "limit counts what a filter read", in: QueryRead{Query: withFilter(withLimit(q, 5), "x = 1"), MaxItems: 5}, answers: []Page{answer(1, 4, 1, "a"), answer(0, 1, 0.5, "b")},
			sent: "[Limit 5 from - Limit 1 from {PK \"P\", SK \"a\"}]", stop: StopLimit, last: "b"},
		{name: "limit left at the page cap", in: QueryRead{Query: withLimit(q, 10), MaxItems: 10, MaxPages: 1}, answers: []Page{answer(3, 3, 1, "a")},
			sent: "[Limit 10 from -]", stop: StopPages, last: "a", goOn: true, left: 7},
		{name: "cap", in: QueryRead{Query: q, MaxRCU: 1.5}, answers: []Page{answer(1, 1, 0.5, "a"), answer(1, 1, 0.5, "b"), answer(1, 1, 0.5, "c")},
			sent: "[Limit 3 from - Limit 2 from {PK \"P\", SK \"a\"} Limit 1 from {PK \"P\", SK \"b\"}]", stop: StopMaxRCU, last: "c", goOn: true},
		{name: "estimate", in: QueryRead{Query: q, Est: unit, What: "query --all-pages"}, answers: []Page{answer(9, 9, 3, "a"), answer(9, 9, 3, "b")},
			sent: "[Limit 0 from - Limit 0 from {PK \"P\", SK \"a\"}]", stop: StopEstimate, last: "b", goOn: true,
			errText: "query --all-pages stopped after 6 RCU, clearly more than the 2 RCU announced"},
		{name: "estimate spares a read at its end", in: QueryRead{Query: q, Est: unit}, answers: []Page{answer(9, 9, 3, "a"), answer(9, 9, 30, "")},
			sent: "[Limit 0 from - Limit 0 from {PK \"P\", SK \"a\"}]", stop: StopComplete},
		{name: "the cap decides, not the estimate", in: QueryRead{Query: q, Est: unit, MaxRCU: 100}, answers: []Page{answer(9, 9, 3, "a"), answer(9, 9, 3, "")},
			sent: "[Limit 200 from - Limit 291 from {PK \"P\", SK \"a\"}]", stop: StopComplete},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := NewQueryPager(c.in)
			sent, err := drive(t, &p, c.answers...)
			r := p.Result()
			if got := fmt.Sprint(sent); got != c.sent {
				t.Errorf("sent %s, want %s", got, c.sent)
			}
			if r.Stop != c.stop || r.Left != c.left {
				t.Errorf("stop %q, left %d; want %q, %d", r.Stop, r.Left, c.stop, c.left)
			}
			if got := keyOfItem(r.LastKey); got != c.last {
				t.Errorf("LastKey %q, want %q", got, c.last)
			}
			if got := r.GoOn() != nil; got != c.goOn {
				t.Errorf("GoOn %v, want %v", r.GoOn(), c.goOn)
			}
			var ee *EstimateError
			switch {
			case c.errText == "" && err != nil:
				t.Errorf("error %v", err)
			case c.errText != "" && (!errors.As(err, &ee) || len(err.Error()) < len(c.errText) || err.Error()[:len(c.errText)] != c.errText):
				t.Errorf("error %v, want an estimate overrun: %s", err, c.errText)
			}
			if r.Pages != len(r.Requests) || r.Pages != len(sent) {
				t.Errorf("%d pages, %d requests, %d sent", r.Pages, len(r.Requests), len(sent))
			}
		})
	}
}

func withLimit(q QueryInput, n int32) QueryInput { q.Limit = n; return q }

func withFilter(q QueryInput, f string) QueryInput { q.Filter = f; return q }

func keyOfItem(k Item) string {
	if v, ok := k["SK"]; ok {
		return KeyText(v)[1 : len(KeyText(v))-1]
	}
	return ""
}

// A failed page stops the read where that page would have started, with
// its record; a cancelled one is a stop of its own. A pager is a value: a
// copy from before the failure tries the page again.
func TestQueryPagerFailure(t *testing.T) {
	p := NewQueryPager(QueryRead{Query: QueryInput{Table: "App", PK: "P"}})
	q, _ := p.Next()
	if err := p.Page(answer(2, 2, 0.5, "a"), nil); err != nil {
		t.Fatal(err)
	}
	before := p
	boom := errors.New("boom")
	if err := p.Page(Page{Request: Request{Operation: "Query", Err: boom}}, boom); err != boom {
		t.Fatalf("Page returned %v", err)
	}
	r := p.Result()
	if r.Stop != StopError || r.Failed == nil || keyOfItem(r.LastKey) != "a" || keyOfItem(r.GoOn()) != "a" || r.Pages != 1 {
		t.Errorf("after a failure: %+v", r)
	}
	if _, ok := p.Next(); ok {
		t.Error("a failed read wants another page")
	}
	q2, ok := before.Next()
	if !ok || keyOfItem(q2.StartKey) != "a" || q.StartKey != nil {
		t.Errorf("the copy from before the failure: %+v, %v", q2, ok)
	}
	cancelled := fmt.Errorf("query P on App: cancelled: %w", context.Canceled)
	if err := before.Page(Page{}, cancelled); err != cancelled || before.Result().Stop != StopCancelled || before.Result().Failed != nil {
		t.Errorf("cancelled: %v, %+v", err, before.Result())
	}
}

// OnPage sees each page before the read decides on the next; its error
// stops the read.
func TestQueryPagerOnPage(t *testing.T) {
	var seen []int32
	full := errors.New("disk full")
	p := NewQueryPager(QueryRead{Query: QueryInput{Table: "App", PK: "P"}, OnPage: func(pg Page) error {
		seen = append(seen, pg.Count)
		if len(seen) == 2 {
			return full
		}
		return nil
	}})
	_, err := drive(t, &p, answer(3, 3, 1, "a"), answer(4, 4, 1, "b"), answer(5, 5, 1, ""))
	if err != full || fmt.Sprint(seen) != "[3 4]" || p.Result().Stop != StopError || keyOfItem(p.Result().LastKey) != "b" {
		t.Errorf("err %v, seen %v, result %+v", err, seen, p.Result())
	}
}

func TestQueryResultOverCapText(t *testing.T) {
	rcu := func(f float64) string { return fmt.Sprint(f) }
	if got := (QueryResult{MaxRCU: 2, Spent: 2}).OverCapText("--max-rcu cap", rcu); got != "" {
		t.Errorf("at the cap: %q", got)
	}
	if got := (QueryResult{Spent: 9}).OverCapText("--max-rcu cap", rcu); got != "" {
		t.Errorf("with no cap: %q", got)
	}
	if got, want := (QueryResult{MaxRCU: 2, Spent: 3.5}).OverCapText("--max-rcu cap", rcu), OverCapText("1.5", "--max-rcu cap"); got != want {
		t.Errorf("past the cap: %q, want %q", got, want)
	}
}
