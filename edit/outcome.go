package edit

// What came of a write's request: which of its attempts got an answer.
// The SDK retries a request whose answer was lost; a later attempt's error
// says nothing of an earlier attempt that may have landed. So every
// attempt is followed (a deserialize middleware, innermost of the attempt
// loop), and only a write whose every attempt was answered, or that was
// never sent, is known not to have been applied.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"dynascope/dynamo"
)

// attempts follows the attempts of one request.
type attempts struct {
	mu     sync.Mutex
	sent   int // attempts that went to the network (or may have)
	lost   int // of those, attempts with no answer DynamoDB is known to have given
	status int // the last answer's HTTP status; 0 for none
	// throttled counts the attempts DynamoDB refused for capacity: the
	// SDK sends them again, and a bulk change slows down for them.
	throttled int
}

// option adds the middleware that follows each attempt to one call.
func (a *attempts) option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("dynascopeWriteAttempt",
				func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
					out, md, err := next.HandleDeserialize(ctx, in)
					a.record(out.RawResponse, err)
					return out, md, err
				}), middleware.Before)
		})
	}
}

func (a *attempts) record(raw any, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	status := 0 // the SDK hands a response of status 0 when none came
	if resp, ok := raw.(*smithyhttp.Response); ok && resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	switch {
	case err != nil && notSent(err):
		// Refused before any byte went out: nothing can land.
	case status > 0 && status < 500:
		// An answer: a success, or DynamoDB refusing (4xx), decided.
		a.sent++
		a.status = status
		if dynamo.IsThrottled(err) {
			a.throttled++
		}
	default:
		// No answer, a cut one, or a server error (5xx: DynamoDB's own
		// InternalServerError may come after the write was applied).
		a.sent++
		a.lost++
		a.status = status
	}
}

// notSent tells a connection that never opened: nothing was delivered.
func notSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// outcome is the state a write's error leaves it in, before the item is
// read again: done, refused (its condition failed), failed (not applied:
// an answer said no, or nothing was sent) or in doubt.
func (a *attempts) outcome(err error) State {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case err == nil:
		return StateDone
	case ConditionFailed(err):
		return StateRefused
	case a.sent == 0:
		return StateFailed // nothing left this machine
	case a.lost > 0:
		return StateInDoubt
	}
	var api smithy.APIError
	if errors.As(err, &api) && a.status >= 400 && a.status < 500 {
		return StateFailed // DynamoDB answered no to every attempt
	}
	return StateInDoubt
}

// InDoubtError is a write that got no answer: it may have been applied,
// or may still be. The journal holds it in doubt; undo takes it back
// once it has landed.
type InDoubtError struct {
	Plan  *Plan
	Entry *Entry // nil without a journal
	Cause string // why no answer came: "no answer within the time-out"
	Err   error
}

func (e *InDoubtError) Error() string {
	what := string(e.Plan.Op) + " on " + e.Plan.Table
	if e.Entry == nil {
		return fmt.Sprintf("%s: %s: it may still be applied", what, e.Cause)
	}
	n := e.Entry.Number
	return fmt.Sprintf("%s: %s: it may still be applied; 'dynascope journal' shows it as entry %d, 'dynascope undo --entry %d' can take it back once it has landed", what, e.Cause, n, n)
}

func (e *InDoubtError) Unwrap() error { return e.Err }

// errNotItsImage is a success answer to an UpdateItem or DeleteItem
// without the image of the item it asked for (ReturnValues ALL_NEW,
// ALL_OLD), which DynamoDB always sends for them (their condition is that
// the item exists), or with the image of another item: not DynamoDB's
// answer to this write (a cache in between, a mock), so the write is in
// doubt.
var errNotItsImage = errors.New("the answer held no image of the item written, which DynamoDB sends for this write")

// imageOf checks the image a successful UpdateItem or DeleteItem answered
// with: errNotItsImage unless it is of the item the plan writes.
func imageOf(p *Plan, img dynamo.Item) error {
	if img == nil || !SameItem(KeyOf(p.Keys, img), KeyOf(p.Keys, p.Old)) {
		return errNotItsImage
	}
	return nil
}

// noAnswer says in a few words why a write has no answer.
func noAnswer(err error) string {
	var api smithy.APIError
	switch {
	case errors.Is(err, context.Canceled):
		return "stopped before the answer came"
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer within the time-out"
	case errors.As(err, &api) && api.ErrorFault() == smithy.FaultServer:
		return "DynamoDB answered a server error (" + api.ErrorCode() + "), which may come after the write was applied"
	case errors.Is(err, syscall.ECONNRESET):
		return "the connection was reset before the answer"
	case errors.Is(err, errNotItsImage):
		return "the answer was not DynamoDB's to this write (it held no image of the item written)"
	}
	return "the answer was lost"
}

// NotLandedError is the undo of a write in doubt that finds the write has
// not landed: the item is as it was before it. Nothing was undone or
// changed, and the write stays in doubt: it may still land.
type NotLandedError struct{ Entry Entry }

// notLandedLead opens every NotLandedError, and so the journal's note of it.
const notLandedLead = "nothing to undo: "

func (e *NotLandedError) Error() string {
	if e.Entry.ID == "" && len(e.Entry.Items) == 1 && e.Entry.Version == 0 { // one item of a bulk entry, as UndoBulk hands it (never read from a journal: no version)
		return fmt.Sprintf(notLandedLead+"journal entry %d's write of %s has not landed (the item is as it was before it); nothing was changed", e.Entry.Number, e.Entry.Items[0].Key)
	}
	return fmt.Sprintf("nothing to undo: journal entry %d has not landed (the item is as it was before it); nothing was changed, and the entry stays in doubt: if it lands later, undo it then", e.Entry.Number)
}

// throttledAttempts is how many attempts DynamoDB refused for capacity.
func (a *attempts) throttledAttempts() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.throttled
}
