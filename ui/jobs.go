package ui

import (
	"context"
	"dynascope/dynamo"
	"dynascope/ui/overlay"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// What the model keeps of its jobs besides their ids (inflight.go): a
// count asked for and running, the export and the exports in flight, the
// samples logged, the overlays' cursors kept, and the sender that reaches
// the program from requests' goroutines. Values and small types that know
// nothing of the model, so model.go can hold them.

// countAsk is a count announced with its cost, waiting for a yes.
type countAsk struct {
	on     bool
	target countTarget
	marks  bool // the question is A's: read the query's other pages to mark them (marks.go)
}

// countJob is a count in flight: its read (a dynamo.QueryPager stepped
// one message at a time: the pages so far, what they cost, the estimate's
// stop) and the context its pages go out with.
type countJob struct {
	ctx    context.Context
	target countTarget
	read   dynamo.QueryPager
}

// counted is what the pages so far counted, how many requests they took
// and what they cost.
func (c countJob) counted() (n, reqs int, spent dynamo.Capacity) {
	r := c.read.Result()
	return r.Count, r.Pages, r.Capacity()
}

func (c countJob) progress() string {
	return fmt.Sprintf("counting %s, %d so far", c.target.label, c.read.Result().Count)
}

// exportJob is the export in flight, on the root model: its progress and
// its answer arrive there.
type exportJob struct {
	job
	running bool
	src     exportSource
	path    string
	done    int // items written so far
}

// exportTracker follows the exports in flight. A UI that quits while one
// runs (Ctrl-C, SIGHUP, SIGTERM) cancels it, waits for it to remove its
// partial file, and then says that it was interrupted: Run returns an
// error, so the exit code says so too.
type exportTracker struct {
	wg          sync.WaitGroup
	mu          sync.Mutex
	closing     bool
	interrupted []string
}

func (t *exportTracker) start() { t.wg.Add(1) }

func (t *exportTracker) end(path string, n, total int, err error) {
	t.mu.Lock()
	if t.closing && err != nil {
		t.interrupted = append(t.interrupted, fmt.Sprintf("export to %s interrupted after %d of %d items; the partial file was removed.", path, n, total))
	}
	t.mu.Unlock()
	t.wg.Done()
}

// close marks the UI as quitting; call it before cancelling the exports.
func (t *exportTracker) close() {
	t.mu.Lock()
	t.closing = true
	t.mu.Unlock()
}

// wait waits at most d for the exports to end, and returns the sentence of
// each that was interrupted, or of each that did not end in time.
func (t *exportTracker) wait(d time.Duration) error {
	done := make(chan struct{})
	go func() { t.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		return errors.New("an export was still writing when the UI quit; its file may be incomplete (its name ends in .partial).")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.interrupted) == 0 {
		return nil
	}
	return errors.New(strings.Join(t.interrupted, " "))
}

// sampleLogged counts a sample's requests already in the request log.
type sampleLogged struct{ id, n int }

// partitionPlace is a partition of the table or of one of its indexes.
type partitionPlace struct{ index, pk string }

// cursorSpot is where a kept cursor belongs: an overlay, a partition, an item.
type cursorSpot struct {
	id         overlay.ID
	at         partitionPlace
	itemPK, sk string
}

// sender reaches the running program from the goroutine of a request. The
// Model holds it by pointer, so that Run can connect it to the program after
// the Model was handed over; unconnected (in tests), it drops what it gets.
type sender struct {
	mu   sync.Mutex
	send func(tea.Msg)
}

func (s *sender) set(f func(tea.Msg)) {
	s.mu.Lock()
	s.send = f
	s.mu.Unlock()
}

// connected tells whether messages reach a program.
func (s *sender) connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.send != nil
}

func (s *sender) deliver(msg tea.Msg) {
	if s == nil {
		return
	}
	s.mu.Lock()
	f := s.send
	s.mu.Unlock()
	if f != nil {
		f(msg)
	}
}

// countTarget is what a count counts: one entity type, or the partition.
type countTarget struct {
	label string // "ORDER", or "partition"
	id    string // the type's id (keys.Class.ID)
	whole bool
	q     dynamo.QueryInput // Select=COUNT, the type's key condition
	est   dynamo.Estimate   // the announced "at most" (whole table or index): the one estimate
}

// exportSource is what an export writes: n rows, decoded one by one as
// they are written (in the command's goroutine, not in Update), so that a
// large export never holds every item at once.
type exportSource struct {
	n    int
	item func(row int) (dynamo.Item, bool) // false: the row's page was released from memory
	// where tells, for a row whose page was released, that page: its number
	// in the query, the ExclusiveStartKey it was read with, how many items
	// it had, and the row's place in it.
	where    func(row int) (pageNo int, startKey dynamo.Item, n, at int)
	released int               // rows whose page is released now
	store    Store             // reads released pages again
	q        dynamo.QueryInput // the query the pages are of
	first    int32             // the Limit of its first page when sized to the screen (pageQuery)
}

// Rows is how many rows the export writes.
func (s exportSource) Rows() int { return s.n }

// Released is how many of them are in pages read again.
func (s exportSource) Released() int { return s.released }
