package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"dynascope/textfmt"
)

// Where a tail starts reading.
const (
	TailLatest      = "latest"       // writes from now on
	TailTrimHorizon = "trim-horizon" // everything the stream still holds (24 hours)
)

// Polling. DynamoDB allows about 5 GetRecords a second per shard (more
// readers of one shard are throttled), and an empty shard answers at once
// with no records: polling it flat out would spend that allowance and the
// user's streams read request units on nothing. So a shard that had records
// is read again after MinShardInterval, and an empty one after a wait that
// doubles from TailMinPoll to TailMaxPoll: a new write is seen within
// TailMaxPoll at most.
const (
	MinShardInterval = 200 * time.Millisecond // 5 calls a second
	TailMinPoll      = 250 * time.Millisecond
	TailMaxPoll      = time.Second
	// rediscover is how often the shard list is read again while shards are
	// open: DynamoDB closes each shard after about four hours and opens a
	// child, and splits add shards.
	rediscover = 30 * time.Second
)

// TailOptions say where a tail starts and how it polls.
type TailOptions struct {
	From    string        // TailLatest ("" too) or TailTrimHorizon
	MaxPoll time.Duration // the longest wait on an empty shard; TailMaxPoll when zero
	// OnRequest, if set, is called with each request of this tail as it is
	// recorded, on the tail's goroutine: a UI logs them apart from reads.
	OnRequest func(Request)
	// OnNotice, if set, is told on the tail's goroutine what the tail did
	// not take as it came: the first dropped record of each kind, each
	// trimmed answer. The tail goes on; its counts come with each notice.
	OnNotice func(TailNotice)
	// Counts, if set, holds the tail's counts when Tail returns.
	Counts *TailCounts
}

// Bounds of a tail that cannot read.
const (
	// maxRenewals is how many iterators in a row a shard may get renewed
	// (expired, trimmed) without one GetRecords answering: an endpoint that
	// expires every iterator is unreadable, not a reason to loop.
	maxRenewals = 3
	// unreadableAfter is how long a tail may go without one GetRecords
	// answered before its end by --for or Ctrl-C is a failure: a stream
	// throttled or refused all along is not an idle one.
	unreadableAfter = 5 * time.Second
)

// tailShard is one shard being read.
type tailShard struct {
	shard
	start    st.ShardIteratorType // where a fresh iterator starts when there is nothing to start after
	iter     *string
	lastSeq  string // the highest sequence number read: records at or below it are dropped
	after    string // a renewed iterator starts after this sequence number; "" for start
	due      time.Time
	wait     time.Duration // the current wait after an empty answer
	lastGet  time.Time     // the last GetRecords sent: the next waits MinShardInterval
	renewals int           // iterators renewed in a row without an answer
}

// tailRun is one Tail: its shards, counts and the retry last heard of.
type tailRun struct {
	s       *StreamClient
	info    StreamInfo
	o       TailOptions
	maxPoll time.Duration
	emit    func([]StreamRecord) error
	counts  TailCounts
	said    map[string]bool // the drop kinds already said
	retried *RetryEvent     // the last retry of the request under way
	lastOK  time.Time       // the last GetRecords answered; zero before the first
	pending []string        // notices of the batch being checked, said with its counts
}

// Tail reads the stream until ctx ends, handing each GetRecords's records
// to emit in shard order (per item, the order of its writes). Every answer
// is checked: sequence numbers only move forward per shard, records are
// the table's writes with its key, DescribeStream is about this stream;
// what is dropped is counted and said (TailOptions.OnNotice). It follows
// child shards once their parent is read to its end, renews an expired
// iterator after the last sequence number read (at most maxRenewals in a
// row), goes on after trimmed data without reading anything twice, and
// backs off on empty shards, never more than 5 GetRecords a second per
// shard. It returns ctx's error when ctx ends with the stream readable, an
// error saying so when it was not (no GetRecords answered for
// unreadableAfter), the first request that failed for good, or emit's
// error.
func (s *StreamClient) Tail(ctx context.Context, info StreamInfo, o TailOptions, emit func([]StreamRecord) error) error {
	run := &tailRun{s: s, info: info, o: o, maxPoll: o.MaxPoll, emit: emit, said: map[string]bool{}}
	if run.maxPoll <= 0 {
		run.maxPoll = TailMaxPoll
	}
	if o.OnRequest != nil {
		ctx = context.WithValue(ctx, streamObserverKey{}, o.OnRequest)
	}
	outer, _ := ctx.Value(retryObserverKey{}).(func(RetryEvent))
	ctx = WithRetryObserver(ctx, func(e RetryEvent) {
		run.retried = &e
		if outer != nil {
			outer(e)
		}
	})
	err := run.loop(ctx)
	if o.Counts != nil {
		*o.Counts = run.counts
	}
	if IsTailEnd(err) && ctx.Err() != nil {
		return run.unreadable(err)
	}
	return err
}

// unreadable is the error a tail ends with when ctx ended it: ctx's own
// when the stream answered lately, else one sentence saying it could not
// be read and why.
func (run *tailRun) unreadable(err error) error {
	last := run.lastOK
	if run.retried == nil || !run.lastOK.IsZero() && time.Since(last) < unreadableAfter {
		return err
	}
	what := "no GetRecords was answered"
	if !run.lastOK.IsZero() {
		what = fmt.Sprintf("no GetRecords was answered in its last %s", time.Since(run.lastOK).Round(time.Second))
	}
	return &UserError{Msg: fmt.Sprintf("the stream of table %s could not be read: %s, each attempt %s (%d of %d tried).",
		run.info.Table, what, textfmt.Sanitize(run.retried.Reason), run.retried.Attempt, run.retried.MaxAttempts)}
}

func (run *tailRun) loop(ctx context.Context) error {
	s, info, o := run.s, run.info, run.o
	list, err := s.shards(ctx, info)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	active := map[string]*tailShard{}
	var order []string // reading order: parents before children, as listed
	add := func(sh shard, start st.ShardIteratorType) {
		active[sh.id] = &tailShard{shard: sh, start: start}
		order = append(order, sh.id)
	}
	for _, sh := range list {
		known[sh.id] = true
		switch {
		case o.From == TailTrimHorizon:
			add(sh, st.ShardIteratorTypeTrimHorizon)
		case !sh.closed:
			add(sh, st.ShardIteratorTypeLatest)
		}
	}
	nextDiscover := time.Now().Add(rediscover)
	discover := func() error {
		list, err := s.shards(ctx, info)
		if err != nil {
			return err
		}
		for _, sh := range list {
			if !known[sh.id] {
				known[sh.id] = true
				// A shard that appeared after the start holds only writes
				// made since: read it from its beginning.
				add(sh, st.ShardIteratorTypeTrimHorizon)
			}
		}
		nextDiscover = time.Now().Add(rediscover)
		return nil
	}
	for {
		next := s.nextShard(active, order)
		wake := nextDiscover
		if next != nil && next.due.Before(wake) {
			wake = next.due
		}
		if err := sleepUntil(ctx, wake); err != nil {
			return err
		}
		if next == nil || !time.Now().Before(nextDiscover) {
			if err := discover(); err != nil {
				return err
			}
			order = compact(order, active)
			continue
		}
		done, err := run.poll(ctx, next)
		if err != nil {
			return err
		}
		if done {
			// Read to its end: its children (a split, or the rollover) now
			// hold the item's next writes.
			delete(active, next.id)
			order = compact(order, active)
			if err := discover(); err != nil {
				return err
			}
		}
	}
}

// nextShard is the readable shard due first: one whose parent is not still
// being read (records of one item move to the child only after the
// parent's last one).
func (s *StreamClient) nextShard(active map[string]*tailShard, order []string) *tailShard {
	var best *tailShard
	for _, id := range order {
		sh := active[id]
		if sh == nil || active[sh.parent] != nil {
			continue
		}
		if best == nil || sh.due.Before(best.due) {
			best = sh
		}
	}
	return best
}

// poll reads one shard once; done says the shard is read to its end.
func (run *tailRun) poll(ctx context.Context, sh *tailShard) (done bool, err error) {
	s, info := run.s, run.info
	if sh.iter == nil {
		it, err := s.iterator(ctx, info, sh.id, sh.start, sh.after)
		if isTrimmed(err) {
			return false, run.trimmed(sh, true)
		}
		if err != nil {
			return false, err
		}
		sh.iter = it
	}
	run.retried = nil
	sh.lastGet = time.Now()
	out, err := s.records(ctx, info, sh.iter)
	switch {
	case isExpired(err):
		// Iterators live 15 minutes; renewed after the last record read,
		// nothing is skipped or read twice.
		run.counts.Renewed++
		return false, run.renew(sh, "ExpiredIteratorException")
	case isTrimmed(err):
		return false, run.trimmed(sh, false)
	case err != nil:
		return false, err
	}
	run.lastOK, sh.renewals = time.Now(), 0
	recs := make([]StreamRecord, 0, len(out.Records))
	for _, r := range out.Records {
		rec := recordOf(r, sh.id)
		why := checkRecord(info, r, rec, sh.lastSeq)
		if isSequence(rec.Sequence) && (sh.lastSeq == "" || seqAfter(rec.Sequence, sh.lastSeq)) {
			sh.lastSeq, sh.after = rec.Sequence, rec.Sequence
		}
		if why != "" {
			run.dropped(why, sh, rec)
			continue
		}
		recs = append(recs, rec)
	}
	for _, text := range run.pending {
		run.notice(text) // with the counts of the whole batch
	}
	run.pending = run.pending[:0]
	if len(recs) > 0 {
		if err := run.emit(recs); err != nil {
			return false, err
		}
		sh.wait = 0
		sh.due = time.Now().Add(MinShardInterval)
	} else {
		sh.wait = min(max(2*sh.wait, TailMinPoll), run.maxPoll)
		sh.due = time.Now().Add(sh.wait)
	}
	sh.iter = out.NextShardIterator
	if aws.ToString(sh.iter) == "" {
		return true, nil
	}
	return false, nil
}

// renew drops the shard's iterator for a fresh one, after the last
// sequence number read, no sooner than the shard's GetRecords rate allows;
// past maxRenewals in a row without an answer the stream is unreadable.
func (run *tailRun) renew(sh *tailShard, why string) error {
	sh.iter = nil
	sh.renewals++
	if sh.renewals > maxRenewals {
		return &UserError{Msg: fmt.Sprintf("the stream of table %s cannot be read: GetRecords answered %s to %d fresh iterators of shard %s in a row; check --endpoint-url.",
			run.info.Table, why, sh.renewals, textfmt.Sanitize(sh.id))}
	}
	sh.due = sh.lastGet.Add(MinShardInterval)
	return nil
}

// trimmed goes on after an answer saying the shard's records asked for
// are past the stream's 24 hours: after the last sequence number read
// while that is still held, else from the oldest record the stream holds
// (also when nothing was read yet), the records read before dropped as
// repeated. It says so in one sentence when something was read.
func (run *tailRun) trimmed(sh *tailShard, atIterator bool) error {
	var text string
	switch {
	case atIterator && sh.after != "":
		// The records after the last one read are gone themselves.
		text = fmt.Sprintf("the stream of table %s no longer holds the records of shard %s after sequence number %s (older than 24 hours): they were skipped, and reading goes on from the oldest record it holds.",
			run.info.Table, sh.id, sh.after)
		sh.after, sh.start = "", st.ShardIteratorTypeTrimHorizon
	case sh.after != "":
		text = fmt.Sprintf("the stream of table %s said the records at shard %s's iterator are older than 24 hours (TrimmedDataAccessException): reading goes on after sequence number %s, the last one read, and nothing is read twice.",
			run.info.Table, sh.id, sh.after)
	default:
		// Nothing read of the shard, so nothing skipped: DynamoDB Local
		// answers so to a LATEST iterator of a shard that was empty, and
		// the shard's records are read from its oldest.
		sh.start = st.ShardIteratorTypeTrimHorizon
		return run.renew(sh, "TrimmedDataAccessException")
	}
	run.counts.Trimmed++
	run.notice(textfmt.Sanitize(text))
	return run.renew(sh, "TrimmedDataAccessException")
}

// dropped counts a record left out, and says the first of its kind.
func (run *tailRun) dropped(why string, sh *tailShard, rec StreamRecord) {
	var text string
	switch why {
	case dropRepeated:
		run.counts.Repeated++
		text = fmt.Sprintf("a record of shard %s came again or out of order (sequence number %s, at or below %s read): such records are dropped and counted.", sh.id, rec.Sequence, sh.lastSeq)
	case dropKeyless:
		run.counts.Keyless++
		text = fmt.Sprintf("a %s record of shard %s does not carry the key of table %s (its attributes and types): such records are dropped and counted.", rec.Event, sh.id, run.info.Table)
	default:
		run.counts.Unknown++
		text = fmt.Sprintf("a record of shard %s has event type %q and sequence number %q, not a write (INSERT, MODIFY or REMOVE) with one: such records are dropped and counted.", sh.id, clip(rec.Event, 40), clip(rec.Sequence, 50))
	}
	if !run.said[why] {
		run.said[why] = true
		run.pending = append(run.pending, textfmt.Sanitize(text))
	}
}

func (run *tailRun) notice(text string) {
	if run.o.OnNotice != nil {
		run.o.OnNotice(TailNotice{Text: text, Counts: run.counts})
	}
}

// compact drops from order the shards no longer read.
func compact(order []string, active map[string]*tailShard) []string {
	out := order[:0]
	for _, id := range order {
		if active[id] != nil {
			out = append(out, id)
		}
	}
	return out
}

// sleepUntil waits for t or for ctx to end.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// IsTailEnd tells the error a tail ends with when its context ends: the
// normal way to stop one, not a failure.
func IsTailEnd(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
