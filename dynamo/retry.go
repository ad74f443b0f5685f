package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
)

// Retries. Every request is tried up to MaxAttempts times with the SDK's
// standard retryer: exponential backoff with full jitter, starting at
// DynamoDB's own 25 ms for server errors and at 1 s for throttling. The
// whole request, retries and waits included, stays inside the client's
// time-out, so the time-out is what a user waits for at most.
const (
	// DefaultMaxAttempts is how often a request is tried when neither
	// Options.MaxAttempts nor AWS_MAX_ATTEMPTS says otherwise: enough to ride
	// out a burst of throttling while the user watches it happen.
	DefaultMaxAttempts = 10

	// RetryMaxBackoff caps the wait between two attempts. The SDK's 20 s is
	// made for unattended jobs; someone at a terminal should see attempts
	// keep coming, and ten attempts then fit in DefaultTimeout on average.
	RetryMaxBackoff = 2 * time.Second

	retryBaseDelay = 25 * time.Millisecond // DynamoDB's own, as its SDK client sets it
)

// RetryEvent reports that one attempt of a request failed and that the next
// attempt is about to be made, after the backoff wait.
type RetryEvent struct {
	Operation   string // Query, GetItem, DescribeTable, ...
	Table       string // "" for ListTables
	Attempt     int    // the attempt about to be made: 2 for the first retry
	MaxAttempts int
	Throttled   bool   // DynamoDB refused for capacity (ProvisionedThroughputExceeded, Throttling, ...)
	Reason      string // what went wrong, short enough for a status line: "throttled", "connection reset"
	Err         error  // the failed attempt's error as the SDK gave it, for errors.As; show Reason instead
}

// String is the status line a UI shows while the request goes on:
// "throttled, retrying (2/10)".
func (e RetryEvent) String() string {
	return fmt.Sprintf("%s, retrying (%d/%d)", e.Reason, e.Attempt, e.MaxAttempts)
}

// OnRetry installs a function called each time a request is about to be
// retried, before the backoff wait, so a UI can say so instead of looking
// frozen. It is called from the goroutine that made the request; install it
// before the first request.
func (c *Client) OnRetry(f func(RetryEvent)) { c.retries.observe = f }

// MaxAttempts is how often one request is tried before its error is final.
func (c *Client) MaxAttempts() int { return c.retries.maxAttempts }

type retryObserverKey struct{}

// WithRetryObserver returns a context whose requests also report their
// retries to f, so that the reports of one request can be told from those of
// another (a UI tags them with its request id). Client.OnRetry still sees them.
func WithRetryObserver(ctx context.Context, f func(RetryEvent)) context.Context {
	return context.WithValue(ctx, retryObserverKey{}, f)
}

// retryHook is the client's retry policy and the way retries are observed.
type retryHook struct {
	maxAttempts int
	observe     func(RetryEvent)
}

// newRetryHook builds the retry policy from the options and the loaded SDK
// configuration, and installs its retryer into cfg. An explicit MaxAttempts
// wins over AWS_MAX_ATTEMPTS (or max_attempts in the profile), which wins over
// DefaultMaxAttempts.
func newRetryHook(cfg *aws.Config, o Options) *retryHook {
	h := &retryHook{maxAttempts: DefaultMaxAttempts}
	switch {
	case o.MaxAttempts > 0:
		h.maxAttempts = o.MaxAttempts
	case cfg.RetryMaxAttempts > 0:
		h.maxAttempts = cfg.RetryMaxAttempts
	}
	// The SDK would wrap our retryer to impose its own count; we already did.
	cfg.RetryMaxAttempts = 0
	cfg.Retryer = func() aws.Retryer { return h.retryer() }
	return h
}

// retryer is the standard retryer with three changes for an interactive
// reader:
//   - no retry quota (ratelimit.None). The quota is a token bucket shared by
//     every request of the client, meant to stop a fleet of servers from
//     amplifying an outage with retries; after ~100 throttled retries in one
//     session it refuses every retry ("retry quota exceeded") until requests
//     succeed again, so a tool left open on a throttled table would stop
//     retrying at all. One user's reads amplify nothing.
//   - a read whose answer was cut off in transit is retried (see install):
//     reading again is harmless, and the SDK retries no operation for it.
//   - a refused connection is not: nothing listens there, and ten attempts
//     would only make a wrong --endpoint-url take seconds to report;
//   - nor is a TLS handshake that failed (tlsFailure, errors.go): an
//     https:// URL of a plain-HTTP endpoint, an untrusted certificate. The
//     next attempt meets the same server.
func (h *retryHook) retryer() aws.RetryerV2 {
	std := retry.NewStandard(func(so *retry.StandardOptions) {
		so.MaxAttempts = h.maxAttempts
		so.MaxBackoff = RetryMaxBackoff
		so.BaseDelay = retryBaseDelay
		so.RateLimiter = ratelimit.None
		so.Retryables = append([]retry.IsErrorRetryable{
			retry.NoRetryCanceledError{},
			retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
				if errors.Is(err, syscall.ECONNREFUSED) || tlsFailure(err) {
					return aws.FalseTernary
				}
				return aws.UnknownTernary
			}),
		}, so.Retryables...)
	})
	return observingRetryer{RetryerV2: std, h: h}
}

// observingRetryer reports each retry. GetRetryToken is the one point where
// the SDK has decided to retry (the error is retryable, attempts remain) and
// still holds the request's context.
type observingRetryer struct {
	aws.RetryerV2
	h *retryHook
}

func (r observingRetryer) GetRetryToken(ctx context.Context, opErr error) (func(error) error, error) {
	release, err := r.RetryerV2.GetRetryToken(ctx, opErr)
	if err == nil {
		r.h.report(ctx, opErr)
	}
	return release, err
}

// retryState follows one operation call through its attempts.
type retryState struct {
	table    string
	attempts int   // attempts started
	retried  error // the error of the last attempt that was retried
}

type retryStateKey struct{}

func (h *retryHook) report(ctx context.Context, err error) {
	st, _ := middleware.GetStackValue(ctx, retryStateKey{}).(*retryState)
	if st == nil {
		return
	}
	st.retried = err
	reason, throttled := retryReason(err)
	e := RetryEvent{
		Operation: awsmiddleware.GetOperationName(ctx), Table: st.table,
		Attempt: st.attempts + 1, MaxAttempts: h.maxAttempts,
		Throttled: throttled, Reason: reason, Err: err,
	}
	if f, ok := ctx.Value(retryObserverKey{}).(func(RetryEvent)); ok && f != nil {
		f(e)
	}
	if h.observe != nil {
		h.observe(e)
	}
}

// install adds, to every operation call, the middleware that counts its
// attempts and keeps the last retried error.
func (h *retryHook) install(do *dynamodb.Options) {
	do.APIOptions = append(do.APIOptions, func(stack *middleware.Stack) error {
		st := &retryState{} // the stack is built anew for every call
		table := middleware.InitializeMiddlewareFunc("dynascopeRetryTable", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			st.table = tableOf(in.Parameters)
			return next.HandleInitialize(ctx, in)
		})
		loop := middleware.FinalizeMiddlewareFunc("dynascopeRetryState", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(middleware.WithStackValue(ctx, retryStateKey{}, st), in)
			// A time-out that ends the backoff wait leaves only "context
			// deadline exceeded"; the failures that caused the wait are
			// what the user needs to hear about.
			if err != nil && st.retried != nil && errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				err = &retriesCut{attempts: st.attempts, last: st.retried, err: err}
			}
			return out, md, err
		})
		attempt := middleware.FinalizeMiddlewareFunc("dynascopeRetryAttempt", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			st.attempts++
			out, md, err := next.HandleFinalize(ctx, in)
			if err != nil && cutOff(err) && rereadableOps[awsmiddleware.GetOperationName(ctx)] {
				err = &retryableRead{err} // only here is the operation known
			}
			return out, md, err
		})
		return errors.Join(
			stack.Initialize.Add(table, middleware.After),
			stack.Finalize.Insert(loop, "Retry", middleware.Before),
			stack.Finalize.Insert(attempt, "Retry", middleware.After),
		)
	})
}

func tableOf(params any) string {
	switch in := params.(type) {
	case *dynamodb.QueryInput:
		return aws.ToString(in.TableName)
	case *dynamodb.GetItemInput:
		return aws.ToString(in.TableName)
	case *dynamodb.ScanInput:
		return aws.ToString(in.TableName)
	case *dynamodb.DescribeTableInput:
		return aws.ToString(in.TableName)
	}
	return ""
}

// rereadableOps are the operations that may be sent again without a second thought.
var rereadableOps = map[string]bool{"ListTables": true, "DescribeTable": true, "Query": true, "GetItem": true, "Scan": true}

// retryableRead marks a failed read as worth another attempt.
type retryableRead struct{ err error }

func (e *retryableRead) Error() string        { return e.err.Error() }
func (e *retryableRead) Unwrap() error        { return e.err }
func (e *retryableRead) RetryableError() bool { return true }

// retriesCut is a request whose retries the time-out cut short.
type retriesCut struct {
	attempts  int
	last, err error
}

func (e *retriesCut) Error() string {
	return fmt.Sprintf("%v (after %d attempts; last failure: %v)", e.err, e.attempts, e.last)
}
func (e *retriesCut) Unwrap() []error { return []error{e.err, e.last} }

var throttleCheck = retry.IsErrorThrottles(retry.DefaultThrottles)

// IsThrottled tells an attempt DynamoDB refused for capacity
// (ProvisionedThroughputExceeded, Throttling, RequestLimitExceeded, ...),
// which a writer that paces itself answers by slowing down.
func IsThrottled(err error) bool {
	return err != nil && throttleCheck.IsErrorThrottle(err) == aws.TrueTernary
}

// retryReason names what went wrong with one attempt, in a few words.
func retryReason(err error) (reason string, throttled bool) {
	if IsThrottled(err) {
		return "throttled", true
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "InternalServerError" {
		return "DynamoDB internal error", false
	}
	var bad *BadAnswerError
	if errors.As(err, &bad) {
		return "not a DynamoDB answer", false
	}
	var status interface{ HTTPStatusCode() int }
	if errors.As(err, &status) && status.HTTPStatusCode() >= 500 {
		return fmt.Sprintf("HTTP %d from the server", status.HTTPStatusCode()), false
	}
	switch {
	case cutOff(err):
		return "answer cut off", false
	case errors.Is(err, syscall.ECONNRESET) || strings.Contains(err.Error(), "connection reset"):
		return "connection reset", false
	case errors.Is(err, io.EOF) || isSendError(err):
		return "connection lost", false
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "deadline exceeded") || strings.Contains(err.Error(), "timeout"):
		return "the answer did not arrive in time, or arrived too slowly", false
	}
	var deser *smithy.DeserializationError
	if errors.As(err, &deser) || strings.Contains(err.Error(), "deserialization failed") {
		return "an answer the AWS SDK cannot read", false
	}
	return "the request failed without an answer", false
}

func isSendError(err error) bool {
	var conn interface{ ConnectionError() bool }
	return errors.As(err, &conn) && conn.ConnectionError()
}

// cutOff tells an answer that ended before its declared length.
func cutOff(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// explainRetries gives the sentence for a request that failed after
// retrying, or ok=false to leave the error to the rest of Explain.
func explainRetries(err error, what, where string) (sentence string, ok bool) {
	if errors.Is(err, context.Canceled) {
		return "", false
	}
	var cut *retriesCut
	if errors.As(err, &cut) {
		reason, throttled := retryReason(cut.last)
		if throttled {
			return fmt.Sprintf("%s: still throttled by DynamoDB after %s when the time-out ran out; wait and retry, lower the request rate, or raise --timeout.", what, attemptsText(cut.attempts)), true
		}
		var bad *BadAnswerError
		var status interface{ HTTPStatusCode() int }
		switch {
		case errors.As(cut.last, &bad):
			return fmt.Sprintf("%s: %s (on each of %s, until the time-out ran out)", what, strings.TrimSuffix(bad.sentence(where, 1), "."), attemptsText(cut.attempts)) + ".", true
		case reason == "DynamoDB internal error":
			return fmt.Sprintf("%s: DynamoDB had an internal error on each of %s until the time-out ran out; retry in a moment, or raise --timeout.", what, attemptsText(cut.attempts)), true
		case errors.As(cut.last, &status) && status.HTTPStatusCode() >= 500:
			return fmt.Sprintf("%s: %s answered HTTP %d (a server error) to each of %s until the time-out ran out; retry in a moment, or raise --timeout.", what, where, status.HTTPStatusCode(), attemptsText(cut.attempts)), true
		}
		return fmt.Sprintf("%s: no answer from %s within the time-out after %s (the last one failed: %s); retry, or raise --timeout.", what, where, attemptsText(cut.attempts), reason), true
	}
	var maxErr *retry.MaxAttemptsError
	if !errors.As(err, &maxErr) {
		return "", false
	}
	n := attemptsText(maxErr.Attempt)
	reason, throttled := retryReason(maxErr.Err)
	var api smithy.APIError
	var bad *BadAnswerError
	switch {
	case errors.As(maxErr.Err, &bad):
		return fmt.Sprintf("%s: %s", what, bad.sentence(where, maxErr.Attempt)), true
	case throttled:
		return fmt.Sprintf("%s: still throttled by DynamoDB after %s; wait and retry, or lower the request rate.", what, n), true
	case reason == "DynamoDB internal error":
		return fmt.Sprintf("%s: DynamoDB had an internal error on each of %s; retry in a moment.", what, n), true
	case strings.HasPrefix(reason, "HTTP "):
		var status interface{ HTTPStatusCode() int }
		errors.As(maxErr.Err, &status)
		return fmt.Sprintf("%s: %s answered HTTP %d (a server error) to each of %s; retry in a moment.", what, where, status.HTTPStatusCode(), n), true
	case errors.As(err, &api):
		return "", false // a retryable code of its own; Explain knows it
	case reason == "answer cut off":
		return fmt.Sprintf("%s: the answer from %s was cut off in transit on each of %s; check the network or any proxy in between.", what, where, n), true
	case reason == "connection reset" || reason == "connection lost":
		if isDialError(err) {
			return "", false // cannot reach: Explain says so
		}
		return fmt.Sprintf("%s: the connection to %s broke before an answer came (%s, each %s); check the network or any proxy in between.", what, where, n, reason), true
	}
	return "", false
}

func isDialError(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || strings.Contains(err.Error(), "dial tcp")
}

func attemptsText(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// RetryObserverOf is the observer WithRetryObserver put in ctx, nil if none:
// for a request sent ahead under another context whose caller adopts it
// (the UI's first Query, sent before the program starts).
func RetryObserverOf(ctx context.Context) func(RetryEvent) {
	f, _ := ctx.Value(retryObserverKey{}).(func(RetryEvent))
	return f
}
