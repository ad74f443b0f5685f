package dynamotest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"
)

// LateAnswer forwards the request at once, so the engine applies it, and
// holds the engine's answer for d before relaying it: a write DynamoDB has
// acknowledged while the client was told to stop. The upstream call is not
// tied to the client, which may give up in the meantime.
func LateAnswer(d time.Duration) Fault { return lateFault(d) }

type lateFault time.Duration

func (d lateFault) String() string { return "late answer " + time.Duration(d).String() }
func (d lateFault) apply(x *exchange) {
	status, out, ok := x.fetchDetached()
	if !ok {
		return
	}
	if !x.wait(time.Duration(d)) {
		return
	}
	x.answer(status, nil, out)
}

// fetchDetached sends the request upstream whether or not the client is
// still waiting, and returns the engine's answer; on a broken upstream it
// has answered 502 (when anyone still listens).
func (x *exchange) fetchDetached() (int, []byte, bool) {
	req, err := http.NewRequestWithContext(context.WithoutCancel(x.r.Context()), http.MethodPost, x.p.upstream+x.r.URL.RequestURI(), bytes.NewReader(x.body))
	if err != nil {
		x.fail(err)
		return 0, nil, false
	}
	copyHeader(req.Header, x.r.Header)
	resp, err := x.p.client.Do(req)
	if err != nil {
		x.fail(err)
		return 0, nil, false
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		x.fail(err)
		return 0, nil, false
	}
	return resp.StatusCode, out, true
}

// LateDelivery is a slow link on the way in: it holds a request for a
// while and then delivers it to the engine, also when the client has given
// up on it meanwhile — the write that lands after its sender said it had
// no answer. Its Landed channel is closed once the engine has answered the
// held request, so a test can look at the item after that.
type LateDelivery struct {
	hold   time.Duration
	once   sync.Once
	landed chan struct{}
	mu     sync.Mutex
	status int // the engine's answer to the held request
}

// DeliverLate holds each request it is given for hold, then sends it on
// to the engine whatever the client did meanwhile, and relays the answer
// if the client still waits. Give it to one request (Rule.Count 1): it
// reports the first one's landing.
func DeliverLate(hold time.Duration) *LateDelivery {
	return &LateDelivery{hold: hold, landed: make(chan struct{})}
}

func (f *LateDelivery) String() string { return "late delivery " + f.hold.String() }

func (f *LateDelivery) apply(x *exchange) {
	t := time.NewTimer(f.hold)
	defer t.Stop()
	select {
	case <-t.C:
	case <-x.p.done: // the proxy stops: the request never lands
		return
	}
	status, out, ok := x.fetchDetached()
	f.mu.Lock()
	f.status = status
	f.mu.Unlock()
	f.once.Do(func() { close(f.landed) })
	if !ok || x.r.Context().Err() != nil {
		return // nobody is waiting for the answer any more
	}
	x.answer(status, nil, out)
}

// Landed is closed once the held request has reached the engine and the
// engine has answered it.
func (f *LateDelivery) Landed() <-chan struct{} { return f.landed }

// Status is the engine's HTTP status for the held request: 200 when it
// was applied, 400 when DynamoDB refused it (its condition failed); 0
// before it landed.
func (f *LateDelivery) Status() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// WaitLanded waits until the held request has landed, at most limit, and
// tells whether it did.
func (f *LateDelivery) WaitLanded(limit time.Duration) bool {
	select {
	case <-f.landed:
		return true
	case <-time.After(limit):
		return false
	}
}
