package dynamotest

import (
	"bytes"
	"context"
	"io"
	"net/http"
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
	req, err := http.NewRequestWithContext(context.WithoutCancel(x.r.Context()), http.MethodPost, x.p.upstream+x.r.URL.RequestURI(), bytes.NewReader(x.body))
	if err != nil {
		x.fail(err)
		return
	}
	copyHeader(req.Header, x.r.Header)
	resp, err := x.p.client.Do(req)
	if err != nil {
		x.fail(err)
		return
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		x.fail(err)
		return
	}
	if !x.wait(time.Duration(d)) {
		return
	}
	x.answer(resp.StatusCode, nil, out)
}
