package ui

import (
	"context"

	"dynascope/dynamo"
)

// A request the SDK retries (throttled, a dropped connection) can take
// seconds. Its retries are reported as they happen so that the status line
// says "throttled, retrying (2/10)" instead of looking frozen.

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
