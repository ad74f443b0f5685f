package dynamo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"dynascope/itemcodec/number"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Answers are untrusted. Whatever sits at the endpoint (DynamoDB, a
// corporate proxy, a mock server, some other web server behind a wrong
// --endpoint-url) may answer anything, and the SDK hands most of it over as
// if it were DynamoDB's: an empty 200 becomes an empty, complete page; an
// attribute value {} takes the previous attribute's value (its
// deserializeAttributeMap reuses one variable across entries). So every
// answer to a read is checked here, on the raw body, before the SDK decodes
// it: an answer DynamoDB would never send becomes a BadAnswerError.

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
// decides what the answer must hold.
type answerCheck struct {
	op     string
	params any
}

// installAnswerCheck adds the check to every operation call of a client.
func installAnswerCheck(do *dynamodb.Options) {
	do.APIOptions = append(do.APIOptions, func(stack *middleware.Stack) error {
		st := &answerCheck{}
		params := middleware.InitializeMiddlewareFunc("dynascopeAnswerParams", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			st.params = in.Parameters
			st.op = middleware.GetOperationName(ctx)
			return next.HandleInitialize(ctx, in)
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
			body, rerr := io.ReadAll(resp.Body)
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

// check returns what is wrong with an answer, or nil.
func (st *answerCheck) check(status int, h http.Header, body []byte) *BadAnswerError {
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
	case !json.Valid(trimmed):
		return bad(true, "HTTP 200 with broken JSON (%q)", preview(trimmed))
	}
	var problem string
	switch in := st.params.(type) {
	case *dynamodb.QueryInput:
		problem = checkPage(trimmed, in.Select == types.SelectCount, in.FilterExpression != nil, in.ReturnConsumedCapacity)
	case *dynamodb.ScanInput:
		problem = checkPage(trimmed, in.Select == types.SelectCount, in.FilterExpression != nil, in.ReturnConsumedCapacity)
	case *dynamodb.GetItemInput:
		problem = checkGetItem(trimmed, in.ReturnConsumedCapacity)
	case *dynamodb.ExecuteStatementInput:
		problem = checkStatement(trimmed, in.ReturnConsumedCapacity)
	case *dynamodb.DescribeTableInput:
		problem = checkDescribe(trimmed)
	case *dynamodb.ListTablesInput:
		problem = checkListTables(trimmed)
	}
	if problem != "" {
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

// pageAnswer is the part of a Query or Scan answer that is checked.
type pageAnswer struct {
	Count            *json.Number
	ScannedCount     *json.Number
	Items            *[]itemValue
	LastEvaluatedKey *itemValue
	ConsumedCapacity *capacityAnswer
}

func checkPage(body []byte, countOnly, filtered bool, rcc types.ReturnConsumedCapacity) string {
	var a pageAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return answerErrText(err)
	}
	if a.Count == nil || a.ScannedCount == nil {
		return "no Count or no ScannedCount"
	}
	count, err1 := strconv.ParseInt(a.Count.String(), 10, 32)
	scanned, err2 := strconv.ParseInt(a.ScannedCount.String(), 10, 32)
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Sprintf("a Count %s or ScannedCount %s that is not a whole number", a.Count, a.ScannedCount)
	case count < 0 || scanned < 0:
		return fmt.Sprintf("a negative count (Count %d, ScannedCount %d)", count, scanned)
	case count > scanned:
		return fmt.Sprintf("Count %d larger than ScannedCount %d", count, scanned)
	case !filtered && count != scanned:
		// Only a filter keeps fewer than were read: pages that keep
		// nothing would otherwise page on unbounded.
		return fmt.Sprintf("Count %d smaller than ScannedCount %d although no filter was asked for", count, scanned)
	}
	if !countOnly {
		if a.Items == nil {
			return fmt.Sprintf("no Items although Count %d", count)
		}
		if int64(len(*a.Items)) != count {
			return fmt.Sprintf("%d items but Count %d", len(*a.Items), count)
		}
	}
	if a.LastEvaluatedKey != nil && len(a.LastEvaluatedKey.attrs) == 0 {
		return "an empty LastEvaluatedKey"
	}
	return checkCapacity(a.ConsumedCapacity, rcc)
}

func checkGetItem(body []byte, rcc types.ReturnConsumedCapacity) string {
	var a struct {
		Item             *itemValue
		ConsumedCapacity *capacityAnswer
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return answerErrText(err)
	}
	return checkCapacity(a.ConsumedCapacity, rcc)
}

// checkStatement checks an ExecuteStatement answer: its items, a NextToken
// that is text, and the capacity asked for.
func checkStatement(body []byte, rcc types.ReturnConsumedCapacity) string {
	var a struct {
		Items            *[]itemValue
		NextToken        *json.RawMessage
		ConsumedCapacity *capacityAnswer
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return answerErrText(err)
	}
	if a.Items == nil {
		return "no Items"
	}
	if a.NextToken != nil {
		var s string
		if json.Unmarshal(*a.NextToken, &s) != nil || s == "" {
			return "a NextToken that is not a non-empty string"
		}
	}
	if a.ConsumedCapacity == nil {
		// DynamoDB Local answers ExecuteStatement without it even when
		// asked; the request is then marked NoCapacity, never shown as 0.
		return ""
	}
	return checkCapacity(a.ConsumedCapacity, rcc)
}

func checkListTables(body []byte) string {
	var a struct{ TableNames *[]string }
	if err := json.Unmarshal(body, &a); err != nil || a.TableNames == nil {
		return "no list of TableNames"
	}
	return ""
}

// capacityAnswer is ConsumedCapacity: numbers arrive as JSON numbers, or as
// the strings "Infinity", "-Infinity" and "NaN", which the SDK reads as such.
type capacityAnswer struct {
	CapacityUnits          *json.RawMessage
	Table                  *struct{ CapacityUnits *json.RawMessage }
	GlobalSecondaryIndexes map[string]struct{ CapacityUnits *json.RawMessage }
	LocalSecondaryIndexes  map[string]struct{ CapacityUnits *json.RawMessage }
}

func checkCapacity(c *capacityAnswer, asked types.ReturnConsumedCapacity) string {
	if c == nil {
		if asked != "" && asked != types.ReturnConsumedCapacityNone {
			return "no ConsumedCapacity although it was asked for"
		}
		return ""
	}
	units := []*json.RawMessage{c.CapacityUnits}
	if c.Table != nil {
		units = append(units, c.Table.CapacityUnits)
	}
	for _, ix := range c.GlobalSecondaryIndexes {
		units = append(units, ix.CapacityUnits)
	}
	for _, ix := range c.LocalSecondaryIndexes {
		units = append(units, ix.CapacityUnits)
	}
	for _, u := range units {
		if u == nil {
			continue
		}
		f, err := strconv.ParseFloat(string(*u), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f < 0 {
			if err == nil && f < 0 {
				return fmt.Sprintf("a negative consumed capacity (%s units)", *u)
			}
			return fmt.Sprintf("a consumed capacity of %s units, which is not a finite number", *u)
		}
	}
	return ""
}

func answerErrText(err error) string {
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		return fmt.Sprintf("a %s where %s was expected", ue.Value, ue.Field)
	}
	if strings.HasPrefix(err.Error(), "a") {
		return err.Error() // ours: an attribute value ...
	}
	return "JSON of a shape it cannot have (" + strings.TrimPrefix(err.Error(), "json: ") + ")"
}

// itemValue is an item or key map: attribute name to attribute value.
type itemValue struct{ attrs map[string]attrValue }

func (v *itemValue) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return fmt.Errorf("an item that is null")
	}
	return json.Unmarshal(b, &v.attrs)
}

// attrValue is one attribute value. The SDK would read {}, {"S": null} or
// an unknown type tag as the previous attribute's value; here they fail.
type attrValue struct{}

func (attrValue) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || len(m) != 1 {
		return fmt.Errorf("an attribute value %s that is not one type and its value", preview(b))
	}
	for tag, raw := range m {
		if !validAttr(tag, raw) {
			return fmt.Errorf("an attribute value %s that is not a valid %s", preview(b), tag)
		}
	}
	return nil
}

func validAttr(tag string, raw json.RawMessage) bool {
	switch tag {
	case "S", "B":
		var s *string
		return json.Unmarshal(raw, &s) == nil && s != nil
	case "N":
		// The SDK takes any text as a number; DynamoDB never sends one
		// outside its grammar and its 38 digits.
		var s *string
		if json.Unmarshal(raw, &s) != nil || s == nil {
			return false
		}
		_, err := number.Parse(*s)
		return err == nil
	case "BOOL":
		var v *bool
		return json.Unmarshal(raw, &v) == nil && v != nil
	case "NULL":
		var v *bool
		return json.Unmarshal(raw, &v) == nil && v != nil && *v
	case "SS", "NS", "BS":
		var v []*string
		if json.Unmarshal(raw, &v) != nil || v == nil {
			return false
		}
		for _, s := range v {
			if s == nil {
				return false
			}
			if _, err := number.Parse(*s); tag == "NS" && err != nil {
				return false
			}
		}
		return true
	case "M":
		var v itemValue
		return json.Unmarshal(raw, &v) == nil && v.attrs != nil
	case "L":
		var v []attrValue
		return json.Unmarshal(raw, &v) == nil && v != nil
	}
	return false
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
