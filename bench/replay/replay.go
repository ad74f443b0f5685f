// Package replay records DynamoDB's own answers to one paged read (a
// Query, a Scan or an ExecuteStatement) and serves them again on loopback,
// as fast as the client can ask: a benchmark then measures the client's
// cost of a read, not the engine's. The answers are the engine's bytes;
// only a replay of several laps (to read more items than the recording
// holds) rewrites them, giving each lap's sort keys a prefix of their own
// ("03/" in the fourth lap) so that every key is new and in order, and
// chaining the laps by a LastEvaluatedKey (or NextToken) at each lap's end.
package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Recording is one read's answers as the engine sent them.
type Recording struct {
	Op       string // Query, Scan or ExecuteStatement
	PK, SK   string // the table's key attribute names (SK "" for none)
	Describe []byte // the DescribeTable answer
	Pages    [][]byte
	// starts[i] is the continuation that asks for page i: the
	// ExclusiveStartKey as keyText writes it, or the NextToken.
	starts []string
	last   map[string]string // the last item of the last page: attribute -> S value
	Items  int
}

// capture is an HTTP client that keeps each answer's body.
type capture struct {
	mu     sync.Mutex
	bodies [][]byte
	client *http.Client
}

func (c *capture) Do(r *http.Request) (*http.Response, error) {
	resp, err := c.client.Do(r)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.bodies = append(c.bodies, body)
	c.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

func (c *capture) lastBody() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bodies[len(c.bodies)-1]
}

// Record reads one read to its end from endpoint with the bare SDK and
// keeps every answer: op "Query" reads partition pk of table, "Scan" the
// whole table, "ExecuteStatement" runs statement. Every request asks for
// ConsumedCapacity INDEXES, as dynascope does.
func Record(ctx context.Context, endpoint, table, op, pk, statement string) (*Recording, error) {
	c := &capture{client: &http.Client{}}
	api := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint), HTTPClient: c,
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
	d, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, err
	}
	rec := &Recording{Op: op, Describe: c.lastBody()}
	for _, k := range d.Table.KeySchema {
		if k.KeyType == "HASH" {
			rec.PK = aws.ToString(k.AttributeName)
		} else {
			rec.SK = aws.ToString(k.AttributeName)
		}
	}
	var key map[string]types.AttributeValue // the SDK's continuation of a Query or Scan
	token := ""
	start := ""
	for {
		switch op {
		case "Query":
			o, err := api.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("#pk = :pk"),
				ExpressionAttributeNames:  map[string]string{"#pk": rec.PK},
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
				ExclusiveStartKey:         key, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				return nil, err
			}
			key = o.LastEvaluatedKey
		case "Scan":
			o, err := api.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), ExclusiveStartKey: key, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				return nil, err
			}
			key = o.LastEvaluatedKey
		case "ExecuteStatement":
			in := &dynamodb.ExecuteStatementInput{Statement: aws.String(statement), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
			if token != "" {
				in.NextToken = aws.String(token)
			}
			o, err := api.ExecuteStatement(ctx, in)
			if err != nil {
				return nil, err
			}
			token = aws.ToString(o.NextToken)
		default:
			return nil, fmt.Errorf("replay records Query, Scan or ExecuteStatement, not %s", op)
		}
		body := c.lastBody()
		next, items, err := continuation(op, body)
		if err != nil {
			return nil, err
		}
		rec.starts = append(rec.starts, start)
		rec.Pages = append(rec.Pages, body)
		rec.Items += items
		if next == "" {
			break
		}
		start = next
	}
	if err := rec.readLast(); err != nil {
		return nil, err
	}
	return rec, nil
}

// continuation reads an answer's continuation as the server matches it
// (a LastEvaluatedKey as canonical JSON, or the NextToken) and its count
// of items.
func continuation(op string, body []byte) (string, int, error) {
	var a struct {
		Items            []json.RawMessage
		LastEvaluatedKey map[string]any
		NextToken        string
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return "", 0, err
	}
	if op == "ExecuteStatement" {
		return a.NextToken, len(a.Items), nil
	}
	if a.LastEvaluatedKey == nil {
		return "", len(a.Items), nil
	}
	b, err := json.Marshal(a.LastEvaluatedKey) // map keys sorted: canonical
	return string(b), len(a.Items), err
}

// readLast finds the last item of the last page, which a lap's end
// continues from.
func (rec *Recording) readLast() error {
	var a struct {
		Items []map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(rec.Pages[len(rec.Pages)-1], &a); err != nil {
		return err
	}
	if len(a.Items) == 0 {
		return errors.New("the read's last page holds no item: record a read that ends with one")
	}
	rec.last = map[string]string{}
	for _, name := range []string{rec.PK, rec.SK} {
		var s string
		if v, ok := a.Items[len(a.Items)-1][name]["S"]; ok && json.Unmarshal(v, &s) == nil {
			rec.last[name] = s
		} else if name != "" {
			return fmt.Errorf("the key attribute %s is not a string: the replay's laps prefix string sort keys only", name)
		}
	}
	return nil
}

// Server serves a recording on 127.0.0.1.
type Server struct {
	URL  string
	rec  *Recording
	laps int
	srv  *http.Server
	// Requests counts the requests served, by operation.
	mu       sync.Mutex
	Requests map[string]int
}

// Serve starts serving rec, laps times over (1: the recording as it is).
func Serve(rec *Recording, laps int) (*Server, error) {
	if laps < 1 || laps > 100 {
		return nil, fmt.Errorf("laps takes 1 to 100, not %d", laps)
	}
	if laps > 1 && rec.SK == "" {
		return nil, errors.New("a replay of several laps needs a sort key to prefix")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), rec: rec, laps: laps, Requests: map[string]int{}}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { _ = s.srv.Close() }

// Items is how many items a whole read of the replay returns.
func (s *Server) Items() int { return s.rec.Items * s.laps }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	// A moment before answering: the SDK closes a request's body as soon
	// as the answer's headers are in, and when they come before
	// net/http's transport has seen the end of the body it was writing,
	// the transport drops the connection and the SDK fails with "use of
	// closed network connection" while it reads the answer (then tries
	// again). 200 µs was not always enough on a loaded machine; a real
	// endpoint is never as quick as 1 ms, and the wait is not CPU of
	// either side.
	time.Sleep(time.Millisecond)
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	s.mu.Lock()
	s.Requests[op]++
	s.mu.Unlock()
	var answer []byte
	switch {
	case op == "DescribeTable":
		answer = s.describe()
	case op == s.rec.Op:
		answer, err = s.page(body)
	default:
		err = fmt.Errorf("the replay serves DescribeTable and %s, not %s", s.rec.Op, op)
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amzn-Requestid", "replay")
	if err != nil {
		answer, _ = json.Marshal(map[string]string{"__type": "com.amazon.coral.validate#ValidationException", "message": "replay: " + err.Error()})
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(answer)), 10))
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write(answer)
		return
	}
	w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(answer)), 10))
	w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
	_, _ = w.Write(answer)
}

// page answers one request of the read: the recorded page its
// continuation asks for, in its lap.
func (s *Server) page(req []byte) ([]byte, error) {
	var in struct {
		ExclusiveStartKey map[string]any
		NextToken         string
	}
	if err := json.Unmarshal(req, &in); err != nil {
		return nil, err
	}
	start := in.NextToken
	lap := 0
	if s.rec.Op != "ExecuteStatement" {
		start = ""
		if in.ExclusiveStartKey != nil {
			sk, _ := in.ExclusiveStartKey[s.rec.SK].(map[string]any)
			if v, ok := sk["S"].(string); ok && s.laps > 1 {
				lap, v = lapOf(v)
				sk["S"] = v
			}
			b, _ := json.Marshal(in.ExclusiveStartKey)
			start = string(b)
		}
	} else if s.laps > 1 && start != "" {
		lap, start = lapOf(start)
	}
	if start == s.lastContinuation() && start != "" {
		lap, start = lap+1, "" // a lap's end: the next lap from its start
	}
	for i, st := range s.rec.starts {
		if st == start && lap < s.laps {
			return s.lapPage(i, lap), nil
		}
	}
	return nil, fmt.Errorf("no recorded page goes on from %q (lap %d)", start, lap)
}

// describe is the DescribeTable answer, its item count and size laps
// times the recorded ones: the table a replay of laps laps serves, so a
// read of all of it stays within the estimate announced from them.
func (s *Server) describe() []byte {
	if s.laps == 1 {
		return s.rec.Describe
	}
	var d map[string]any
	if err := json.Unmarshal(s.rec.Describe, &d); err != nil {
		return s.rec.Describe
	}
	t, _ := d["Table"].(map[string]any)
	for _, f := range []string{"ItemCount", "TableSizeBytes"} {
		if n, ok := t[f].(float64); ok {
			t[f] = n * float64(s.laps)
		}
	}
	b, err := json.Marshal(d)
	if err != nil {
		return s.rec.Describe
	}
	return b
}

// lastContinuation is the continuation a lap's end is given: the key of
// the last item read (as keyText writes it), or a token of its own.
func (s *Server) lastContinuation() string {
	if s.rec.Op == "ExecuteStatement" {
		return "replay-lap-end"
	}
	m := map[string]any{}
	for name, v := range s.rec.last {
		m[name] = map[string]any{"S": v}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// lapPage is recorded page i as lap lap serves it.
func (s *Server) lapPage(i, lap int) []byte {
	body := s.rec.Pages[i]
	if s.laps == 1 {
		return body
	}
	prefix := fmt.Sprintf("%02d/", lap)
	body = bytes.ReplaceAll(body, []byte(`"`+s.rec.SK+`":{"S":"`), []byte(`"`+s.rec.SK+`":{"S":"`+prefix))
	if s.rec.Op == "ExecuteStatement" {
		body = bytes.ReplaceAll(body, []byte(`"NextToken":"`), []byte(`"NextToken":"`+prefix))
	}
	if i < len(s.rec.Pages)-1 || lap == s.laps-1 {
		return body
	}
	// The end of a lap that is not the last: go on into the next.
	var more string
	if s.rec.Op == "ExecuteStatement" {
		more = `"NextToken":"` + prefix + `replay-lap-end",`
	} else {
		key := map[string]any{}
		for name, v := range s.rec.last {
			if name == s.rec.SK {
				v = prefix + v
			}
			key[name] = map[string]any{"S": v}
		}
		b, _ := json.Marshal(key)
		more = `"LastEvaluatedKey":` + string(b) + `,`
	}
	return append([]byte("{"+more), body[1:]...)
}

// lapOf splits a lap's prefix off a value: ("03/ORDER#1") is lap 3.
func lapOf(v string) (int, string) {
	if len(v) >= 3 && v[2] == '/' {
		if n, err := strconv.Atoi(v[:2]); err == nil {
			return n, v[3:]
		}
	}
	return 0, v
}
