package ui

import "context"

// The requests the root has in flight. Every reply carries the id of the
// request it answers, and the root drops a reply whose id is no longer the
// one it waits for: the user has moved on. inFlight owns all of that: the
// id counter (one for every request, so no two share an id), the id and
// cancel function of each kind of request the root tracks, at most one of
// a kind at a time, and the check of a reply against them. Overlays never
// start requests (ARCHITECTURE.md): the root does, through this.

// flightKind is a kind of request the root tracks.
type flightKind int

const (
	flightQuery     flightKind = iota // the items pane's Query or GetItem, or a released page read again
	flightTable                       // the DescribeTable (or cached keys) that opens a table
	flightDiscover                    // the skip-scan of the open partition
	flightCount                       // an exact count (count.go)
	flightSample                      // the overview's sample
	flightBulk                        // a Scan or PartiQL read, planned or running
	flightWrite                       // a write: never cancelled, its outcome must be known
	flightBulkWrite                   // a bulk change: stopped only between items (edit.Writer.ApplyBulk)
	flightExplain                     // why an empty result is empty: the nearest keys' Queries (explain.go)
	flightKinds
)

// inFlight is what is in flight. It is a value, as the model is: a copy
// shares the cancel functions, which is harmless, since only the newest
// model is used.
type inFlight struct {
	seq  int // the last id handed out
	jobs [flightKinds]job
	// What the query in flight is, for the status line and its reply.
	next    bool   // a further page of the results shown
	get     bool   // a GetItem (a pattern's), not a Query
	pattern string // the pattern it runs, "" for a hand-made request
}

// newID hands out a request id, for a request that something else keeps
// track of (an overlay's, an export's, a live tail's).
func (f *inFlight) newID() int {
	f.seq++
	return f.seq
}

// start begins a request of kind k: its id, and a context under parent
// that stop and cancel end. The request of that kind before it, if any,
// is cancelled.
func (f *inFlight) start(parent context.Context, k flightKind) (int, context.Context) {
	f.stop(k)
	ctx, cancel := context.WithCancel(parent)
	id := f.newID()
	f.jobs[k] = job{id: id, cancel: cancel}
	return id, ctx
}

// mark begins a request of kind k that has no context of its own to
// cancel (the table's opening, a write), and returns its id.
func (f *inFlight) mark(k flightKind) int {
	f.stop(k)
	id := f.newID()
	f.jobs[k] = job{id: id}
	return id
}

// id is the id of the request of kind k in flight, 0 for none.
func (f inFlight) id(k flightKind) int { return f.jobs[k].id }

// waits tells whether a reply to request id is the one kind k waits for;
// a stale one (cancelled, or superseded by a newer request) is not.
func (f inFlight) waits(k flightKind, id int) bool { return f.jobs[k].id == id }

// live tells whether id is a request of any of the kinds given in flight.
func (f inFlight) live(id int, ks ...flightKind) bool {
	if id == 0 {
		return false
	}
	for _, k := range ks {
		if f.jobs[k].id == id {
			return true
		}
	}
	return false
}

// busy tells whether a request of any of the kinds given is in flight.
func (f inFlight) busy(ks ...flightKind) bool {
	for _, k := range ks {
		if f.jobs[k].id != 0 {
			return true
		}
	}
	return false
}

// cancel cancels the request of kind k, keeping it as the one in flight:
// its reply brings what it read before it stopped.
func (f *inFlight) cancel(k flightKind) {
	if c := f.jobs[k].cancel; c != nil {
		c()
	}
}

// stop cancels the request of kind k, if any, and forgets it: a reply
// that comes anyway is stale. For the query it forgets what it was too.
func (f *inFlight) stop(k flightKind) {
	f.jobs[k] = f.jobs[k].stop()
	if k == flightQuery {
		f.next, f.get, f.pattern = false, false, ""
	}
}

// job is a request in flight besides the query: its id, to drop stale
// replies, and how to cancel it.
type job struct {
	id     int
	cancel context.CancelFunc
}

// stop cancels the job, if any, and forgets it.
func (j job) stop() job {
	if j.cancel != nil {
		j.cancel()
	}
	return job{}
}
