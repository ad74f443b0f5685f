package dynamo

// The AWS CLI's two time-outs of the wire, --cli-connect-timeout and
// --cli-read-timeout, beside dynascope's own Timeout of the whole request.
// The CLI's connect time-out bounds setting up a connection, its TLS
// handshake included; its read time-out bounds each wait for the next
// bytes of an answer, not the whole answer. A time-out the user did not
// set is left to the SDK (30 s to connect, 10 s for the handshake, no read
// time-out), inside Timeout anyway.

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// wireHTTPClient is the SDK's HTTP client with the connect time-out and the
// wait for an answer's headers, nil when neither is set. It is given to the
// configuration, so that the credential providers' clients (STS, SSO) have
// them too, and the CA bundle (AWS_CA_BUNDLE) is added to it by the SDK.
func wireHTTPClient(o Options) *awshttp.BuildableClient {
	if o.ConnectTimeout <= 0 && o.ReadTimeout <= 0 {
		return nil
	}
	c := awshttp.NewBuildableClient()
	if d := o.ConnectTimeout; d > 0 {
		c = c.WithDialerOptions(func(dl *net.Dialer) { dl.Timeout = d }).
			WithTransportOptions(func(t *http.Transport) { t.TLSHandshakeTimeout = d })
	}
	if d := o.ReadTimeout; d > 0 {
		c = c.WithTransportOptions(func(t *http.Transport) { t.ResponseHeaderTimeout = d })
	}
	return c
}

// httpDoer is what the SDK sends requests through.
type httpDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// readTimeoutClient bounds each read of an answer's body by d: the headers
// are bounded by the transport (wireHTTPClient), and a body that stops
// arriving part way is closed after d without a byte, failing the attempt
// with a ReadTimeoutError, which the SDK retries as a time-out.
type readTimeoutClient struct {
	inner httpDoer
	d     time.Duration
}

// withReadTimeout wraps a DynamoDB client's HTTP client when the options
// set a read time-out.
func withReadTimeout(inner httpDoer, d time.Duration) httpDoer {
	if d <= 0 || inner == nil {
		return inner
	}
	return readTimeoutClient{inner: inner, d: d}
}

func (c readTimeoutClient) Do(r *http.Request) (*http.Response, error) {
	resp, err := c.inner.Do(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &stallGuard{body: resp.Body, d: c.d}
	return resp, nil
}

// stallGuard is a body whose every Read must return within d.
type stallGuard struct {
	body    io.ReadCloser
	d       time.Duration
	stalled atomic.Bool
}

func (g *stallGuard) Read(p []byte) (int, error) {
	t := time.AfterFunc(g.d, func() {
		g.stalled.Store(true)
		_ = g.body.Close() // ends the Read that waits
	})
	n, err := g.body.Read(p)
	t.Stop()
	if err != nil && g.stalled.Load() {
		return n, &ReadTimeoutError{Wait: g.d}
	}
	return n, err
}

func (g *stallGuard) Close() error { return g.body.Close() }

// ReadTimeoutError is an answer that stopped arriving for longer than the
// read time-out.
type ReadTimeoutError struct{ Wait time.Duration }

func (e *ReadTimeoutError) Error() string {
	return fmt.Sprintf("the answer stopped arriving for %s (the read timeout, --cli-read-timeout)", e.Wait)
}

// Timeout marks it as a time-out, which the SDK's retryer retries.
func (e *ReadTimeoutError) Timeout() bool { return true }
