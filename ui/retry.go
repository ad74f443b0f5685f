package ui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
)

// A request the SDK retries (throttled, a dropped connection) can take
// seconds. Its retries are reported as they happen so that the status line
// says "throttled, retrying (2/10)" instead of looking frozen.

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

// retryingMsg says that request id is about to be tried again. It carries
// the event's own sentence only (RetryEvent.String): the failed attempt's
// error is raw SDK text, never scrubbed, and must not reach the screen.
type retryingMsg struct {
	id        int
	text      string
	throttled bool
}

// observe returns ctx with the retries of its requests reported as request id.
func (m Model) observe(ctx context.Context, id int) context.Context {
	s := m.send
	if s == nil {
		return ctx
	}
	return dynamo.WithRetryObserver(ctx, func(e dynamo.RetryEvent) {
		s.deliver(retryingMsg{id: id, text: sanitize(e.String()), throttled: e.Throttled})
	})
}

// retrying shows a retry of a request still in flight; a late report of a
// request that is done or cancelled is dropped.
func (m Model) retrying(msg retryingMsg) Model {
	live := m.flight.live(msg.id, flightQuery, flightDiscover, flightCount, flightSample) || msg.id != 0 && msg.id == m.export.id ||
		m.screen == screenLoading && m.flight.live(msg.id, flightTable)
	if live {
		m.status.Retry, m.status.RetryID = msg.text, msg.id
	}
	return m
}
