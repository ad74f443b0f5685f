package dynamo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// The one-pass reader (answer_decode.go) against what it replaced: the
// old check (answer_old_test.go) followed by the SDK's own decoder. For
// every body, the reader accepts exactly the answers both accepted, names
// the problem the old check named, and decodes what the SDK decodes.

// sdkOracle is an SDK client whose every call is answered with body, and
// which has no answer check: what the SDK alone makes of a body.
type sdkOracle struct {
	mu   sync.Mutex
	body []byte
	api  *dynamodb.Client
}

func (o *sdkOracle) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}}, ContentLength: int64(len(o.body)),
		Body: io.NopCloser(bytes.NewReader(o.body)), Request: r}, nil
}

var oracle = func() *sdkOracle {
	o := &sdkOracle{}
	o.api = dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"), RetryMaxAttempts: 1,
		HTTPClient: o, Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")})
	return o
}()

// decode is the SDK's reading of body as the answer to params.
func (o *sdkOracle) decode(params any, body []byte) (any, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.body = body
	ctx := context.Background()
	switch in := params.(type) {
	case *dynamodb.QueryInput:
		return o.api.Query(ctx, in)
	case *dynamodb.ScanInput:
		return o.api.Scan(ctx, in)
	case *dynamodb.GetItemInput:
		return o.api.GetItem(ctx, in)
	case *dynamodb.ExecuteStatementInput:
		return o.api.ExecuteStatement(ctx, in)
	}
	return nil, fmt.Errorf("no oracle for %T", params)
}

// oldProblem is what the old check said of a 200 with body: "" when it
// passed it on to the SDK.
func oldProblem(params any, body []byte) string {
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return "HTTP 200 with an empty body"
	case trimmed[0] == '<':
		return "HTTP 200 with a web page"
	case !json.Valid(trimmed):
		return "HTTP 200 with broken JSON"
	}
	switch in := params.(type) {
	case *dynamodb.QueryInput:
		return oldCheckPage(trimmed, in.Select == types.SelectCount, in.FilterExpression != nil, in.ReturnConsumedCapacity)
	case *dynamodb.ScanInput:
		return oldCheckPage(trimmed, in.Select == types.SelectCount, in.FilterExpression != nil, in.ReturnConsumedCapacity)
	case *dynamodb.GetItemInput:
		return oldCheckGetItem(trimmed, in.ReturnConsumedCapacity)
	case *dynamodb.ExecuteStatementInput:
		return oldCheckStatement(trimmed, in.ReturnConsumedCapacity)
	}
	return ""
}

// rendered is an SDK output as text, for comparing two decodings: counts,
// items and keys as DynamoDB JSON, capacity figures.
func rendered(out any) string {
	var b strings.Builder
	items := func(its []map[string]types.AttributeValue) {
		fmt.Fprintf(&b, "items %v:", its != nil)
		for _, it := range its {
			b.Write(itemcodec.DynamoJSON(it))
			b.WriteByte(' ')
		}
	}
	key := func(name string, k map[string]types.AttributeValue) {
		if k != nil {
			fmt.Fprintf(&b, " %s %s", name, itemcodec.DynamoJSON(k))
		}
	}
	var cc *types.ConsumedCapacity
	switch o := out.(type) {
	case *dynamodb.QueryOutput:
		fmt.Fprintf(&b, "count %d scanned %d ", o.Count, o.ScannedCount)
		items(o.Items)
		key("lek", o.LastEvaluatedKey)
		cc = o.ConsumedCapacity
	case *dynamodb.ScanOutput:
		fmt.Fprintf(&b, "count %d scanned %d ", o.Count, o.ScannedCount)
		items(o.Items)
		key("lek", o.LastEvaluatedKey)
		cc = o.ConsumedCapacity
	case *dynamodb.GetItemOutput:
		key("item", o.Item)
		cc = o.ConsumedCapacity
	case *dynamodb.ExecuteStatementOutput:
		items(o.Items)
		fmt.Fprintf(&b, " token %q", aws.ToString(o.NextToken))
		key("lek", o.LastEvaluatedKey)
		cc = o.ConsumedCapacity
	}
	if cc != nil {
		f := func(p *float64) string {
			if p == nil {
				return "-"
			}
			return fmt.Sprint(*p)
		}
		part := func(c *types.Capacity) string {
			if c == nil {
				return "-"
			}
			return f(c.CapacityUnits) + "/" + f(c.ReadCapacityUnits) + "/" + f(c.WriteCapacityUnits)
		}
		fmt.Fprintf(&b, " cc %s/%s/%s %q table %s", f(cc.CapacityUnits), f(cc.ReadCapacityUnits), f(cc.WriteCapacityUnits), aws.ToString(cc.TableName), part(cc.Table))
		for _, m := range []map[string]types.Capacity{cc.GlobalSecondaryIndexes, cc.LocalSecondaryIndexes} {
			fmt.Fprintf(&b, " %d:", len(m))
			for k, v := range m {
				fmt.Fprintf(&b, " %s=%s", k, part(&v))
			}
		}
	}
	return b.String()
}

// foldedField tells a body with an object key that encoding/json would
// take for one of DynamoDB's field names by its case-insensitive match
// ("count" for Count), which the old check read and the SDK did not.
func foldedField(body []byte) bool {
	fields := []string{"Count", "ScannedCount", "Items", "LastEvaluatedKey", "ConsumedCapacity", "CapacityUnits", "Table",
		"GlobalSecondaryIndexes", "LocalSecondaryIndexes", "Item", "NextToken"}
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok {
			for _, f := range fields {
				if s != f && strings.EqualFold(s, f) || s != f && strings.EqualFold(strings.ReplaceAll(s, "ſ", "s"), f) || s != f && strings.EqualFold(strings.ReplaceAll(s, "K", "k"), f) {
					return true
				}
			}
		}
	}
}

// stricter are the problems the reader names where the old check passed
// the answer and the SDK read it: capacity figures the old check did not
// look at (ReadCapacityUnits, WriteCapacityUnits), and the
// LastEvaluatedKey of an ExecuteStatement, which it did not read.
func stricter(params any, problem string) bool {
	if strings.HasPrefix(problem, "a consumed capacity of") || strings.HasPrefix(problem, "a negative consumed capacity") ||
		strings.Contains(problem, "where ConsumedCapacity") {
		return true
	}
	_, statement := params.(*dynamodb.ExecuteStatementInput)
	return statement
}

// agree holds the reader to the oracle on one body.
func agree(t *testing.T, params any, body []byte) {
	t.Helper()
	if foldedField(body) {
		return
	}
	st := &answerCheck{op: "Op", params: params}
	bad := st.check(http.StatusOK, http.Header{}, body)
	old := oldProblem(params, body)
	sdk, sdkErr := oracle.decode(params, body)
	switch {
	case bad == nil && (old != "" || sdkErr != nil):
		t.Fatalf("%T %q: accepted; the old check said %q, the SDK %v", params, body, old, sdkErr)
	case bad != nil && old == "" && sdkErr == nil:
		if !stricter(params, bad.Problem) {
			t.Fatalf("%T %q: refused (%s); the old check and the SDK accepted it", params, body, bad.Problem)
		}
	case bad != nil && old != "" && sdkErr == nil:
		// Refused for the old check's reason (a body the SDK cannot read
		// either may be refused for what makes it unreadable first).
		if !strings.HasPrefix(bad.Problem, old) && !strings.Contains(old, " where ") && !strings.HasPrefix(old, "JSON of a shape") && !stricter(params, bad.Problem) {
			t.Fatalf("%T %q: %q; the old check said %q", params, body, bad.Problem, old)
		}
	case bad == nil:
		if got, want := rendered(st.decoded), rendered(sdk); got != want {
			t.Fatalf("%T %q: decoded\n%s\nthe SDK\n%s", params, body, got, want)
		}
	}
}

var oracleParams = []any{
	&dynamodb.QueryInput{TableName: aws.String("T"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes},
	&dynamodb.QueryInput{TableName: aws.String("T"), Select: types.SelectCount, FilterExpression: aws.String("a = :a")},
	&dynamodb.ScanInput{TableName: aws.String("T")},
	&dynamodb.GetItemInput{TableName: aws.String("T"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}}},
	&dynamodb.ExecuteStatementInput{Statement: aws.String("SELECT * FROM T")},
}

var oracleSeeds = []string{
	`{"Count":1,"ScannedCount":1,"Items":[{"PK":{"S":"P"},"n":{"N":"-1.5e3"},"b":{"B":"AA=="},"m":{"M":{"x":{"L":[{"BOOL":true},{"NULL":true},{"SS":["a"]},{"NS":["1"]},{"BS":["AQ=="]}]}}}}],"ConsumedCapacity":{"CapacityUnits":0.5,"TableName":"T","Table":{"CapacityUnits":0.5},"GlobalSecondaryIndexes":{"G":{"CapacityUnits":1}}},"LastEvaluatedKey":{"PK":{"S":"P"}}}`,
	`{"Items":[{"PK":{"S":"a\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t"}}],"Count":1,"ScannedCount":1}`,
	"{\"Items\":[{\"PK\":{\"S\":\"\xff\xfe bad utf8\"}}],\"Count\":1,\"ScannedCount\":1}",
	`{"Count":0,"ScannedCount":0,"Items":[]}`,
	`{"Count":2,"ScannedCount":5,"Items":[{"a":{"S":"x","S":"y"}},{"a":{"N":"1","S":"y"}}]}`,
	`{"Count":1,"ScannedCount":1,"Items":[{"a":{"M":{"b":{}}}}]}`,
	`{"Count":1,"ScannedCount":1,"Items":[{"a":{"B":"not base64!"}}]}`,
	`{"Count":"1","ScannedCount":1,"Items":[{}]}`,
	`{"Item":{"PK":{"S":"P"}},"ConsumedCapacity":{"CapacityUnits":1}}`,
	`{"Items":[],"NextToken":"abc","ConsumedCapacity":{"CapacityUnits":1,"ReadCapacityUnits":"NaN"}}`,
	`null`, `[]`, `{"Count":1e2,"ScannedCount":1,"Items":[]}`, `{"Count":1,"ScannedCount":1,"Items":[null]}`,
	`{"Count":1,"ScannedCount":1,"Items":[5]}`, `{"Count":0,"ScannedCount":0,"Items":[],"LastEvaluatedKey":[]}`,
	`{"Count":0,"ScannedCount":0,"Items":[],"ConsumedCapacity":{"CapacityUnits":{"x":1}}}`,
	`{"Count":0 , "ScannedCount" : 0 ,"Items" : [ ] , "Other":[1,{"a":[true,false,null]}]}`,
}

// Every seed, as the answer to each kind of request.
func TestAnswerReaderAgreesWithOldCheckAndSDK(t *testing.T) {
	for _, body := range append(oracleSeeds, string(benchPageBody())) {
		for _, p := range oracleParams {
			agree(t, p, []byte(body))
		}
	}
}

// FuzzAnswerReader: any body, as the answer to each kind of request.
func FuzzAnswerReader(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, p := range oracleParams {
			agree(t, p, body)
		}
	})
}

// Nesting as deep as encoding/json allows is read; one level more is
// broken JSON, as json.Valid says.
func TestAnswerReaderDepthLimit(t *testing.T) {
	for _, depth := range []int{maxAnswerDepth - 1, maxAnswerDepth, maxAnswerDepth + 1} {
		// The body's object, Items, the item and its value make 4 levels;
		// each L level two more (its value's object and the list).
		levels := depth - 4
		v := strings.Repeat(`{"L":[`, levels/2) + `{"S":"x"}` + strings.Repeat(`]}`, levels/2)
		body := `{"Count":1,"ScannedCount":1,"Items":[{"a":` + v + `}]}`
		if levels%2 == 1 {
			body = `{"Count":1,"ScannedCount":1,"Items":[{"a":` + v + `}],"x":[]}`
		}
		for _, p := range oracleParams[:1] {
			agree(t, p, []byte(body))
		}
	}
}
