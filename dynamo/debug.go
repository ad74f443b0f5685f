package dynamo

// --debug: one line on the debug writer for every request sent and one for
// its answer (or its failure), attempt by attempt, written by middleware in
// the SDK's stack, where the operation, the attempt, the HTTP exchange and
// the decoded answer are all at hand. The SDK's own logger is not used: its
// text holds the signed headers, and every line of it would need scrubbing.
// These lines hold no header at all; bodies (DebugBodies) are DynamoDB
// JSON, which carries no credential, and every line still passes through
// Redact and, as item text on screen does, through textfmt.Sanitize.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"dynascope/textfmt"
)

// DebugLevel says what --debug writes about requests.
type DebugLevel int

// The debug levels: nothing, a line per request and per answer, and the
// same lines with the request's and the answer's bodies.
const (
	DebugOff DebugLevel = iota
	DebugRequests
	DebugBodies
)

// debugLog writes the debug lines of one client; nil writes nothing.
type debugLog struct {
	mu          sync.Mutex
	w           io.Writer
	bodies      bool
	maxAttempts int
	now         func() time.Time
}

// newDebugLog is the debug log the options ask for, nil for none.
func newDebugLog(o Options, maxAttempts int) *debugLog {
	if o.Debug == DebugOff || o.DebugTo == nil {
		return nil
	}
	return &debugLog{w: o.DebugTo, bodies: o.Debug == DebugBodies, maxAttempts: maxAttempts, now: time.Now}
}

// line writes one line in one Write, so that the lines of requests sent
// at once (a Scan's segments) never mix.
func (l *debugLog) line(fields []string) {
	s := textfmt.Sanitize(Redact(strings.Join(fields, " "))) + "\n"
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, s)
}

// debugCall follows one operation call through its attempts.
type debugCall struct {
	op, table   string
	capacity    bool // the request asked for ConsumedCapacity
	attempt     int
	sent        time.Time // zero until the request went out
	status      int       // 0 while no answer came
	requestID   string
	answerBytes []byte // the answer's body, with DebugBodies
}

// install adds the debug middleware to every operation call of a client.
func (l *debugLog) install(do *dynamodb.Options) {
	if l == nil {
		return
	}
	do.APIOptions = append(do.APIOptions, func(stack *middleware.Stack) error {
		c := &debugCall{} // the stack is built anew for every call
		params := middleware.InitializeMiddlewareFunc("dynascopeDebugParams", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			c.op = middleware.GetOperationName(ctx)
			c.table, c.capacity = debugParams(in.Parameters)
			return next.HandleInitialize(ctx, in)
		})
		// Outermost in the deserialize step, which runs once per attempt:
		// the answer is decoded here, its capacity readable.
		answer := middleware.DeserializeMiddlewareFunc("dynascopeDebugAnswer", func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			c.attempt++
			c.sent, c.status, c.requestID, c.answerBytes = time.Time{}, 0, "", nil
			out, md, err := next.HandleDeserialize(ctx, in)
			if !c.sent.IsZero() {
				l.line(c.answerFields(l, out.Result, err))
			}
			return out, md, err
		})
		// Innermost: the request as it goes on the wire, and the raw answer.
		exchange := middleware.DeserializeMiddlewareFunc("dynascopeDebugExchange", func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			req, ok := in.Request.(*smithyhttp.Request)
			if !ok {
				return next.HandleDeserialize(ctx, in)
			}
			fields := c.fields(l, "request")
			fields = append(fields, "endpoint="+PublicEndpoint(req.URL.Scheme+"://"+req.URL.Host))
			if l.bodies {
				body, again := requestBody(req)
				in.Request = again
				fields = append(fields, "body="+string(body))
			}
			l.line(fields)
			c.sent = l.now()
			out, md, err := next.HandleDeserialize(ctx, in)
			if resp, ok := out.RawResponse.(*smithyhttp.Response); ok {
				c.status = resp.StatusCode
				c.requestID = resp.Header.Get("X-Amzn-Requestid")
				if c.requestID == "" {
					c.requestID = resp.Header.Get("X-Amz-Request-Id")
				}
				if l.bodies && resp.Body != nil {
					// Read here and handed on whole: the answer check and
					// the SDK's decoder read it after us.
					b, rerr := io.ReadAll(resp.Body)
					_ = resp.Body.Close()
					resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{rerr}))
					c.answerBytes = b
				}
			}
			return out, md, err
		})
		return errors.Join(
			stack.Initialize.Add(params, middleware.After),
			stack.Deserialize.Add(answer, middleware.Before),
			stack.Deserialize.Add(exchange, middleware.After),
		)
	})
}

// errReader returns err at the end of a body read ahead, so that a body
// cut off in transit still fails where the SDK reads it.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

// fields are the words every line of an attempt starts with.
func (c *debugCall) fields(l *debugLog, kind string) []string {
	f := []string{"debug:", l.now().Format("15:04:05.000"), kind, c.op}
	if c.table != "" {
		f = append(f, "table="+c.table)
	}
	return append(f, fmt.Sprintf("attempt=%d/%d", c.attempt, l.maxAttempts))
}

// answerFields are the words of the answer's line: its HTTP status (none
// when no answer came), request id, latency (from the request's sending
// to the answer decoded), capacity or error, and body.
func (c *debugCall) answerFields(l *debugLog, result any, err error) []string {
	f := c.fields(l, "answer")
	status := "none"
	if c.status != 0 {
		status = strconv.Itoa(c.status)
	}
	f = append(f, "status="+status)
	if c.requestID != "" {
		f = append(f, "request-id="+c.requestID)
	}
	f = append(f, fmt.Sprintf("latency=%.1fms", float64(l.now().Sub(c.sent).Microseconds())/1000))
	if err != nil {
		f = append(f, "error="+strconv.Quote(debugError(err)))
	} else if unit, units, ok := consumed(result); ok && c.capacity {
		// A figure DynamoDB did not send is unknown, never 0.
		v := "unknown"
		if units != nil {
			v = strconv.FormatFloat(*units, 'f', -1, 64)
		}
		f = append(f, unit+"="+v)
	}
	if l.bodies && c.answerBytes != nil {
		f = append(f, "body="+string(c.answerBytes))
	}
	return f
}

// debugError is a failed attempt's cause in one short line: the API's
// error code and message, or the transport's error.
func debugError(err error) string {
	s := err.Error()
	var api smithy.APIError
	if errors.As(err, &api) {
		s = api.ErrorCode() + ": " + api.ErrorMessage()
	}
	s = firstLine(s)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// requestBody reads a request's body and returns the request with the
// same bytes to send: the signature covers them, so they are not changed.
func requestBody(req *smithyhttp.Request) ([]byte, *smithyhttp.Request) {
	stream := req.GetStream()
	if stream == nil {
		return nil, req
	}
	b, err := io.ReadAll(stream)
	if err != nil {
		return nil, req
	}
	again, err := req.SetStream(bytes.NewReader(b))
	if err != nil {
		return b, req
	}
	return b, again
}

// debugParams reads the table an input names and whether it asks for
// ConsumedCapacity, from the fields every DynamoDB input that has them
// calls TableName and ReturnConsumedCapacity.
func debugParams(params any) (table string, capacity bool) {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	v = v.Elem()
	if f := v.FieldByName("TableName"); f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.String {
		table = f.Elem().String()
	}
	if f := v.FieldByName("ReturnConsumedCapacity"); f.IsValid() && f.Kind() == reflect.String {
		rc := f.String()
		capacity = rc != "" && rc != string(types.ReturnConsumedCapacityNone)
	}
	return table, capacity
}

// consumed is the capacity an answer reports: its unit (rcu or wcu), the
// units (nil when DynamoDB sent none) and ok=false for an operation that
// never reports any.
func consumed(result any) (unit string, units *float64, ok bool) {
	unit = "rcu"
	var one *types.ConsumedCapacity
	var many []types.ConsumedCapacity
	switch r := result.(type) {
	case *dynamodb.QueryOutput:
		one = r.ConsumedCapacity
	case *dynamodb.ScanOutput:
		one = r.ConsumedCapacity
	case *dynamodb.GetItemOutput:
		one = r.ConsumedCapacity
	case *dynamodb.ExecuteStatementOutput:
		one = r.ConsumedCapacity
	case *dynamodb.BatchGetItemOutput:
		many = r.ConsumedCapacity
	case *dynamodb.PutItemOutput:
		unit, one = "wcu", r.ConsumedCapacity
	case *dynamodb.UpdateItemOutput:
		unit, one = "wcu", r.ConsumedCapacity
	case *dynamodb.DeleteItemOutput:
		unit, one = "wcu", r.ConsumedCapacity
	case *dynamodb.BatchWriteItemOutput:
		unit, many = "wcu", r.ConsumedCapacity
	case *dynamodb.TransactWriteItemsOutput:
		unit, many = "wcu", r.ConsumedCapacity
	default:
		return "", nil, false
	}
	if one != nil && one.CapacityUnits != nil {
		v := *one.CapacityUnits
		return unit, &v, true
	}
	var sum float64
	var seen bool
	for _, c := range many {
		if c.CapacityUnits != nil {
			sum, seen = sum+*c.CapacityUnits, true
		}
	}
	if seen {
		return unit, &sum, true
	}
	return unit, nil, true
}
