package dynamo

// The answers answer.go decodes itself, in one pass with their checks:
// Query and Scan pages, GetItem, ExecuteStatement. Each becomes the SDK's
// own output type, which answerProtocol hands to the SDK in place of its
// decoding, or one sentence saying what DynamoDB would never send.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// answerFields are the fields of an answer that are read; any other is
// skipped, as the SDK skips it.
type answerFields uint8

const (
	fieldCounts answerFields = 1 << iota // Count, ScannedCount
	fieldItems                           // Items
	fieldKey                             // LastEvaluatedKey
	fieldItem                            // Item (GetItem)
	fieldToken                           // NextToken (ExecuteStatement)
)

// answerRead is an answer's fields as read.
type answerRead struct {
	count, scanned []byte // number text; nil when absent or null
	items          []map[string]types.AttributeValue
	hasItems       bool
	key            map[string]types.AttributeValue // LastEvaluatedKey; nil when absent or null
	item           map[string]types.AttributeValue // GetItem's Item; nil when absent or null
	token          *string                         // NextToken; nil when absent or null
	badToken       bool                            // a NextToken that is not a non-empty string
	capacity       capacityRead
}

// readAnswer reads body, an answer with the fields want. A body that is
// not JSON at all is broken (a proxy's hiccup, tried again, as a web page
// is); else a problem is one of shape.
func readAnswer(body []byte, want answerFields) (a answerRead, problem string, broken bool) {
	r := newAnswerReader(body)
	err := r.answer(&a, want)
	if r.ws(); err != nil || r.i != len(r.b) {
		if !json.Valid(body) {
			return a, "", true
		}
		if r.problem == "" {
			r.problem = "JSON of a shape it cannot have"
		}
		return a, r.problem, false
	}
	return a, "", false
}

func (r *answerReader) answer(a *answerRead, want answerFields) error {
	if r.ws() != '{' {
		return r.fail("a %s where the answer's object was expected", r.kind())
	}
	return r.object(func(raw []byte) error {
		switch field := string(raw); {
		case want&fieldCounts != 0 && (field == "Count" || field == "ScannedCount"):
			into := &a.count
			if field == "ScannedCount" {
				into = &a.scanned
			}
			*into = nil
			if r.null() {
				return nil
			}
			n, ok := r.number()
			if !ok {
				return r.typeErr(field)
			}
			*into = n
		case want&fieldItems != 0 && field == "Items":
			a.items, a.hasItems = nil, false
			if r.null() {
				return nil
			}
			items, err := r.items()
			a.items, a.hasItems = items, err == nil
			return err
		case want&fieldKey != 0 && field == "LastEvaluatedKey":
			return r.keyField(&a.key, field)
		case want&fieldItem != 0 && field == "Item":
			return r.keyField(&a.item, field)
		case want&fieldToken != 0 && field == "NextToken":
			a.token, a.badToken = nil, false
			if r.null() {
				return nil
			}
			s, ok := r.text()
			if !ok {
				a.badToken = true
				return r.skip(2)
			}
			a.token, a.badToken = &s, s == ""
		case field == "ConsumedCapacity":
			a.capacity = capacityRead{}
			if r.null() {
				return nil
			}
			return r.capacity(&a.capacity)
		default:
			return r.skip(2)
		}
		return nil
	})
}

// keyField reads a field that holds one item or key, null for none.
func (r *answerReader) keyField(into *map[string]types.AttributeValue, field string) error {
	*into = nil
	if r.null() {
		return nil
	}
	if r.ws() != '{' {
		return r.typeErr(field)
	}
	it, err := r.item(2)
	*into = it
	return err
}

// readPage reads and checks a Query or Scan answer: counts that are whole,
// not negative and consistent with the items and the filter, the items
// (unless Select=COUNT), a LastEvaluatedKey that is not empty, and the
// capacity asked for.
func readPage(body []byte, countOnly, filtered bool, rcc types.ReturnConsumedCapacity) (answerRead, int32, int32, string, bool) {
	a, problem, broken := readAnswer(body, fieldCounts|fieldItems|fieldKey)
	if problem != "" || broken {
		return a, 0, 0, problem, broken
	}
	if a.count == nil || a.scanned == nil {
		return a, 0, 0, "no Count or no ScannedCount", false
	}
	count, err1 := strconv.ParseInt(string(a.count), 10, 32)
	scanned, err2 := strconv.ParseInt(string(a.scanned), 10, 32)
	switch {
	case err1 != nil || err2 != nil:
		return a, 0, 0, fmt.Sprintf("a Count %s or ScannedCount %s that is not a whole number", a.count, a.scanned), false
	case count < 0 || scanned < 0:
		return a, 0, 0, fmt.Sprintf("a negative count (Count %d, ScannedCount %d)", count, scanned), false
	case count > scanned:
		return a, 0, 0, fmt.Sprintf("Count %d larger than ScannedCount %d", count, scanned), false
	case !filtered && count != scanned:
		// Only a filter keeps fewer than were read: pages that keep
		// nothing would otherwise page on unbounded.
		return a, 0, 0, fmt.Sprintf("Count %d smaller than ScannedCount %d although no filter was asked for", count, scanned), false
	}
	if !countOnly {
		if !a.hasItems {
			return a, 0, 0, fmt.Sprintf("no Items although Count %d", count), false
		}
		if int64(len(a.items)) != count {
			return a, 0, 0, fmt.Sprintf("%d items but Count %d", len(a.items), count), false
		}
	}
	if a.key != nil && len(a.key) == 0 {
		return a, 0, 0, "an empty LastEvaluatedKey", false
	}
	return a, int32(count), int32(scanned), a.capacity.check(rcc), false
}

// check is what is wrong with the capacity an answer reported, asked as
// asked, or "".
func (c capacityRead) check(asked types.ReturnConsumedCapacity) string {
	if c.cc == nil {
		if asked != "" && asked != types.ReturnConsumedCapacityNone {
			return "no ConsumedCapacity although it was asked for"
		}
		return ""
	}
	return c.problem
}

// finiteUnits reads a capacity figure: ok for a finite number that is not
// negative (f < 0 says a negative one was refused).
func finiteUnits(raw []byte) (f float64, ok bool) {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != f || f > maxFloat || f < -maxFloat {
		return 0, false
	}
	return f, f >= 0
}

const maxFloat = 1.7976931348623157e308

// decodeQuery, decodeScan, decodeGetItem and decodeStatement read an
// answer into the SDK's output, or say what is wrong with it.
func decodeQuery(body []byte, in *dynamodb.QueryInput) (any, string, bool) {
	a, count, scanned, problem, broken := readPage(body, in.Select == types.SelectCount, in.FilterExpression != nil, in.ReturnConsumedCapacity)
	if problem != "" || broken {
		return nil, problem, broken
	}
	return &dynamodb.QueryOutput{Items: a.items, Count: count, ScannedCount: scanned, LastEvaluatedKey: a.key, ConsumedCapacity: a.capacity.cc}, "", false
}

func decodeScan(body []byte, in *dynamodb.ScanInput) (any, string, bool) {
	a, count, scanned, problem, broken := readPage(body, in.Select == types.SelectCount, in.FilterExpression != nil, in.ReturnConsumedCapacity)
	if problem != "" || broken {
		return nil, problem, broken
	}
	return &dynamodb.ScanOutput{Items: a.items, Count: count, ScannedCount: scanned, LastEvaluatedKey: a.key, ConsumedCapacity: a.capacity.cc}, "", false
}

func decodeGetItem(body []byte, in *dynamodb.GetItemInput) (any, string, bool) {
	a, problem, broken := readAnswer(body, fieldItem)
	if problem == "" && !broken {
		problem = a.capacity.check(in.ReturnConsumedCapacity)
	}
	if problem != "" || broken {
		return nil, problem, broken
	}
	return &dynamodb.GetItemOutput{Item: a.item, ConsumedCapacity: a.capacity.cc}, "", false
}

// decodeStatement reads an ExecuteStatement answer: its items, a NextToken
// that is text, and the capacity asked for. DynamoDB Local answers without
// ConsumedCapacity even when asked; the request is then marked NoCapacity,
// never shown as 0.
func decodeStatement(body []byte, in *dynamodb.ExecuteStatementInput) (any, string, bool) {
	a, problem, broken := readAnswer(body, fieldItems|fieldToken|fieldKey)
	switch {
	case problem != "" || broken:
	case !a.hasItems:
		problem = "no Items"
	case a.badToken:
		problem = "a NextToken that is not a non-empty string"
	case a.capacity.cc != nil:
		problem = a.capacity.problem
	}
	if problem != "" || broken {
		return nil, problem, broken
	}
	return &dynamodb.ExecuteStatementOutput{Items: a.items, NextToken: a.token, LastEvaluatedKey: a.key, ConsumedCapacity: a.capacity.cc}, "", false
}

// answerStateKey keys an operation call's answerCheck in its context, for
// answerProtocol.
type answerStateKey struct{}

// answerProtocol is the SDK's protocol, except that an answer the check
// already decoded is handed over as it is instead of being read again.
type answerProtocol struct{ smithyhttp.ClientProtocol }

// DeserializeResponse adopts the check's output when it has one for out.
func (p answerProtocol) DeserializeResponse(ctx context.Context, schema *smithy.OperationSchema, reg *smithy.TypeRegistry, resp *smithyhttp.Response, out smithy.Deserializable) error {
	if st, _ := middleware.GetStackValue(ctx, answerStateKey{}).(*answerCheck); st != nil && st.decoded != nil {
		d := st.decoded
		st.decoded = nil
		if adopt[dynamodb.QueryOutput](out, d) || adopt[dynamodb.ScanOutput](out, d) ||
			adopt[dynamodb.GetItemOutput](out, d) || adopt[dynamodb.ExecuteStatementOutput](out, d) {
			return nil
		}
	}
	return p.ClientProtocol.DeserializeResponse(ctx, schema, reg, resp, out)
}

// adopt copies decoded into out when both are a *T.
func adopt[T any](out smithy.Deserializable, decoded any) bool {
	o, ok := any(out).(*T)
	v, ok2 := decoded.(*T)
	if ok && ok2 {
		*o = *v
	}
	return ok && ok2
}
