package dynamo

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
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
}

// tailShard is one shard being read.
type tailShard struct {
	shard
	start   st.ShardIteratorType // where a fresh iterator starts when nothing was read yet
	iter    *string
	lastSeq string // the last sequence number read: a renewed iterator starts after it
	due     time.Time
	wait    time.Duration // the current wait after an empty answer
}

// Tail reads the stream until ctx ends, handing each GetRecords's records
// to emit in shard order (per item, the order of its writes). It follows
// child shards once their parent is read to its end, renews an expired
// iterator after the last sequence number read, and backs off on empty
// shards. It returns ctx's error when ctx ends, or the first request that
// failed for good (retries and their messages as for every request), or
// emit's error.
func (s *StreamClient) Tail(ctx context.Context, info StreamInfo, o TailOptions, emit func([]StreamRecord) error) error {
	maxPoll := o.MaxPoll
	if maxPoll <= 0 {
		maxPoll = TailMaxPoll
	}
	if o.OnRequest != nil {
		ctx = context.WithValue(ctx, streamObserverKey{}, o.OnRequest)
	}
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
		done, err := s.poll(ctx, info, next, maxPoll, emit)
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
func (s *StreamClient) poll(ctx context.Context, info StreamInfo, sh *tailShard, maxPoll time.Duration, emit func([]StreamRecord) error) (done bool, err error) {
	if sh.iter == nil {
		it, err := s.iterator(ctx, info, sh.id, sh.start, sh.lastSeq)
		if isTrimmed(err) {
			sh.start, sh.lastSeq = st.ShardIteratorTypeTrimHorizon, ""
			sh.due = time.Now().Add(MinShardInterval)
			return false, nil
		}
		if err != nil {
			return false, err
		}
		sh.iter = it
	}
	out, err := s.records(ctx, info, sh.iter)
	switch {
	case isExpired(err):
		// Iterators live 15 minutes; renewed after the last record read,
		// nothing is skipped or read twice.
		sh.iter = nil
		sh.due = time.Now()
		return false, nil
	case isTrimmed(err):
		sh.iter, sh.start, sh.lastSeq = nil, st.ShardIteratorTypeTrimHorizon, ""
		sh.due = time.Now()
		return false, nil
	case err != nil:
		return false, err
	}
	if len(out.Records) > 0 {
		recs := make([]StreamRecord, 0, len(out.Records))
		for _, r := range out.Records {
			recs = append(recs, recordOf(r, sh.id))
		}
		sh.lastSeq = recs[len(recs)-1].Sequence
		if err := emit(recs); err != nil {
			return false, err
		}
		sh.wait = 0
		sh.due = time.Now().Add(MinShardInterval)
	} else {
		sh.wait = min(max(2*sh.wait, TailMinPoll), maxPoll)
		sh.due = time.Now().Add(sh.wait)
	}
	sh.iter = out.NextShardIterator
	if aws.ToString(sh.iter) == "" {
		return true, nil
	}
	return false, nil
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
