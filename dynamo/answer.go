package dynamo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Answers are untrusted. Whatever sits at the endpoint (DynamoDB, a
// corporate proxy, a mock server, some other web server behind a wrong
// --endpoint-url) may answer anything, and the SDK hands most of it over as
// if it were DynamoDB's: an empty 200 becomes an empty, complete page; an
// attribute value {} takes the previous attribute's value (its
// deserializeAttributeMap reuses one variable across entries). So every
// answer to a read is checked here, on the raw body: an answer DynamoDB
// would never send becomes a BadAnswerError. The answers that carry items
// (Query, Scan, GetItem, ExecuteStatement) are decoded by the same pass
// that checks them (answer_decode.go), and the SDK is handed the result
// (answerProtocol) rather than reading the body a second time.

// BadAnswerError is an answer DynamoDB would never send.
type BadAnswerError struct {
	Op      string // the operation answered: Query, Scan, DescribeTable, ...
	Problem string // what was wrong with it: "Count 9 is larger than ScannedCount 5"
	// Transient marks damage a second attempt may not meet (an empty or
	// cut body, a page from a proxy in between); such answers are retried.
	Transient bool
}

func (e *BadAnswerError) Error() string {
	return fmt.Sprintf("the answer to %s is not DynamoDB's: %s", e.Op, e.Problem)
}

// RetryableError tells the SDK's retryer whether to try again.
func (e *BadAnswerError) RetryableError() bool { return e.Transient }

// answerCheck is the state of one operation call: what was asked, which
// decides what the answer must hold, and the answer once decoded.
type answerCheck struct {
	op     string
	params any
	// decoded is the SDK output the check read the answer into (a
	// *dynamodb.QueryOutput, ...), for answerProtocol; nil for the
	// answers the SDK decodes itself.
	decoded any
}

// installAnswerCheck adds the check to every operation call of a client.
func installAnswerCheck(do *dynamodb.Options) {
	if do.Protocol != nil {
		do.Protocol = answerProtocol{do.Protocol}
	}
	do.APIOptions = append(do.APIOptions, func(stack *middleware.Stack) error {
		st := &answerCheck{}
		params := middleware.InitializeMiddlewareFunc("dynascopeAnswerParams", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			st.params = in.Parameters
			st.op = middleware.GetOperationName(ctx)
			return next.HandleInitialize(middleware.WithStackValue(ctx, answerStateKey{}, st), in)
		})
		// Added last in the deserialize step, so it is the innermost: it sees
		// the raw body before the checksum check and the SDK's decoder.
		check := middleware.DeserializeMiddlewareFunc("dynascopeAnswerCheck", func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleDeserialize(ctx, in)
			if err != nil {
				return out, md, err
			}
			resp, ok := out.RawResponse.(*smithyhttp.Response)
			if !ok || resp.Body == nil {
				return out, md, err
			}
			body, rerr := readBody(resp)
			_ = resp.Body.Close()
			if rerr != nil {
				return out, md, rerr // a cut or stalled body: the SDK's own errors say so
			}
			resp.Body = io.NopCloser(bytes.NewReader(body))
			if bad := st.check(resp.StatusCode, resp.Header, body); bad != nil {
				return out, md, bad
			}
			return out, md, nil
		})
		return errors.Join(
			stack.Initialize.Add(params, middleware.After),
			stack.Deserialize.Add(check, middleware.After),
		)
	})
}

// readBody reads a whole answer, in one buffer of its declared length.
func readBody(resp *smithyhttp.Response) ([]byte, error) {
	if n := resp.ContentLength; n > 0 && n < 64<<20 {
		var b bytes.Buffer
		b.Grow(int(n) + 1) // +1: EOF is seen without growing
		_, err := b.ReadFrom(resp.Body)
		return b.Bytes(), err
	}
	return io.ReadAll(resp.Body)
}

// check returns what is wrong with an answer, or nil; an answer it
// decodes is left in st.decoded.
func (st *answerCheck) check(status int, h http.Header, body []byte) *BadAnswerError {
	st.decoded = nil
	bad := func(transient bool, format string, a ...any) *BadAnswerError {
		return &BadAnswerError{Op: st.op, Problem: fmt.Sprintf(format, a...), Transient: transient}
	}
	if status >= 500 {
		return nil // the SDK retries these and Explain names the status
	}
	if sum := h.Get("X-Amz-Crc32"); sum != "" {
		want, err := strconv.ParseUint(sum, 10, 32)
		if err != nil || uint32(want) != crc32.ChecksumIEEE(body) {
			return bad(true, "a body that does not match its CRC32 checksum (damaged in transit)")
		}
	}
	trimmed := bytes.TrimSpace(body)
	if status != http.StatusOK {
		var e struct {
			Type string `json:"__type"`
		}
		if json.Unmarshal(trimmed, &e) == nil && e.Type != "" {
			return nil // DynamoDB's own error shape: the SDK reads it
		}
		what := "an empty body"
		if len(trimmed) > 0 {
			what = "a body that is not DynamoDB's error JSON"
		}
		if loc := h.Get("Location"); loc != "" && loc != sdkNoLocation && status >= 300 && status < 400 {
			// DynamoDB never redirects: the endpoint is a web server that
			// moved, or an HTTP front of an HTTPS one. Where it points is
			// what the user needs, without a password in it.
			return bad(false, "HTTP %d (%s): the endpoint redirects to %s", status, http.StatusText(status), locationText(loc))
		}
		return bad(false, "HTTP %d (%s) with %s", status, http.StatusText(status), what)
	}
	switch {
	case len(trimmed) == 0:
		return bad(true, "HTTP 200 with an empty body")
	case trimmed[0] == '<':
		return bad(true, "HTTP 200 with a web page (%q) instead of JSON", preview(trimmed))
	}
	var problem string
	broken := false
	switch in := st.params.(type) {
	case *dynamodb.QueryInput:
		st.decoded, problem, broken = decodeQuery(trimmed, in)
	case *dynamodb.ScanInput:
		st.decoded, problem, broken = decodeScan(trimmed, in)
	case *dynamodb.GetItemInput:
		st.decoded, problem, broken = decodeGetItem(trimmed, in)
	case *dynamodb.ExecuteStatementInput:
		st.decoded, problem, broken = decodeStatement(trimmed, in)
	default:
		// The small answers the SDK decodes itself.
		if broken = !json.Valid(trimmed); broken {
			break
		}
		switch st.params.(type) {
		case *dynamodb.DescribeTableInput:
			problem = checkDescribe(trimmed)
		case *dynamodb.ListTablesInput:
			problem = checkListTables(trimmed)
		}
	}
	switch {
	case broken:
		return bad(true, "HTTP 200 with broken JSON (%q)", preview(trimmed))
	case problem != "":
		return bad(false, "%s", problem)
	}
	return nil
}

// sdkNoLocation is the Location the SDK's HTTP client puts on a 301 or 302
// that came without one, to keep Go's client from following it.
const sdkNoLocation = "https://amazonaws.com/badhttpredirectlocation"

// locationText is a Location header fit for a sentence: its password
// masked, quoted when it holds what a terminal must not receive, and cut
// when long.
func locationText(loc string) string {
	loc = PublicEndpoint(loc)
	if r := []rune(loc); len(r) > 100 {
		loc = string(r[:100]) + "…"
	}
	if strings.IndexFunc(loc, func(r rune) bool { return !strconv.IsPrint(r) }) >= 0 {
		return strconv.Quote(loc)
	}
	return loc
}

// preview is the start of a body, short enough for a sentence.
func preview(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return s
}

func checkListTables(body []byte) string {
	var a struct{ TableNames *[]string }
	if err := json.Unmarshal(body, &a); err != nil || a.TableNames == nil {
		return "no list of TableNames"
	}
	return ""
}

// sentence says what the endpoint sent, for Explain: "http://127.0.0.1:8000
// answered Query with HTTP 200 with an empty body, which DynamoDB never
// sends; check --endpoint-url." attempts > 1 says it happened every time.
func (e *BadAnswerError) sentence(where string, attempts int) string {
	each := ""
	if attempts > 1 {
		each = fmt.Sprintf(" (each of %s)", attemptsText(attempts))
	}
	return fmt.Sprintf("%s answered %s%s with %s, which DynamoDB never sends; check --endpoint-url and any proxy in between.", where, e.Op, each, e.Problem)
}

// userinfoRE finds a password in a URL that does not parse.
var userinfoRE = regexp.MustCompile(`(://[^/@:]*:)[^/@]*@`)

// PublicEndpoint is an endpoint URL fit to print or store: a password in it
// (http://user:pw@host) is replaced by "xxxxx".
func PublicEndpoint(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return userinfoRE.ReplaceAllString(endpoint, "${1}xxxxx@")
	}
	if u.User == nil {
		return endpoint
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
