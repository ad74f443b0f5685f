package dynamotest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Proxy is a loopback HTTP proxy in front of a real DynamoDB endpoint
// (DynamoDB Local in tests). It records the operation of every request that
// passes through it, and injects faults by rule: it is a fault injector
// around the real engine, never an imitation of DynamoDB. Safe for
// concurrent use.
type Proxy struct {
	// URL is the proxy's endpoint, e.g. http://127.0.0.1:41234; give it to
	// the client under test instead of the upstream endpoint.
	URL string

	upstream string
	srv      *httptest.Server
	client   *http.Client
	done     chan struct{} // closed when the proxy stops, releasing hung requests
	stop     sync.Once

	mu    sync.Mutex
	rules []*ruleState
	calls []Call
}

// Rule says which requests get a fault. Each rule counts the requests that
// match its operation (every attempt of a retried request is one request)
// and applies its fault to the From-th of them and the Count-1 after it.
type Rule struct {
	Op    string // operation as in X-Amz-Target ("Query"); "" matches every operation
	From  int    // first matching request the fault applies to, from 1; 0 means 1
	Count int    // how many matching requests from From get the fault; 0 means all of them
	Fault Fault
}

type ruleState struct {
	Rule
	seen int
}

// Call is the record of one request that reached the proxy.
type Call struct {
	Seq        int         // order of arrival, from 1
	Op         string      // the operation from X-Amz-Target, e.g. "Query"
	Statements []string    // PartiQL statements of ExecuteStatement, BatchExecuteStatement, ExecuteTransaction
	Write      bool        // the request can change data or tables (see IsWrite)
	Fault      string      // the fault injected, "" when forwarded untouched
	Status     int         // HTTP status answered; 0 when no answer was sent
	Header     http.Header // as sent, credentials included: tests check what went out
	// Arrived and Answered: when the proxy received the request and when
	// its handler ended (answered, or a fault ended it).
	Arrived, Answered time.Time
}

// InSequence is the longest run of calls each sent after the one before it
// was answered: the round trips a client waited through one after another
// (the number of calls when they were sent one at a time).
func InSequence(calls []Call) int {
	depth := make([]int, len(calls))
	longest := 0
	for i, c := range calls { // in order of arrival: what c waited for came earlier
		depth[i] = 1
		for j := range i {
			if !calls[j].Answered.After(c.Arrived) {
				depth[i] = max(depth[i], depth[j]+1)
			}
		}
		longest = max(longest, depth[i])
	}
	return longest
}

// MostAtOnce is the most of calls that were at the proxy at once: 1 for
// requests sent one after another, 2 for two sent together.
func MostAtOnce(calls []Call) int {
	most := 0
	for _, c := range calls {
		n := 0
		for _, o := range calls {
			if !o.Arrived.After(c.Arrived) && o.Answered.After(c.Arrived) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// StartProxy starts a proxy on 127.0.0.1 in front of upstream (an endpoint
// URL such as Endpoint(t) returns) and stops it when the test ends.
func StartProxy(t testing.TB, upstream string) *Proxy {
	t.Helper()
	p := &Proxy{
		upstream: strings.TrimSuffix(upstream, "/"),
		done:     make(chan struct{}),
		// Its own transport: a fault that breaks a connection must not leave
		// a poisoned idle connection in a pool that other tests share.
		client: &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16}},
	}
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(p.serve))
	// Aborted and reset connections are the point here, not news.
	p.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	p.srv.Start()
	p.URL = p.srv.URL
	t.Cleanup(p.Close)
	return p
}

// Close stops the proxy, releasing requests held by Hang or Delay. StartProxy
// registers it with t.Cleanup; calling it twice is harmless.
func (p *Proxy) Close() {
	p.stop.Do(func() {
		close(p.done)
		p.srv.CloseClientConnections()
		p.srv.Close()
		p.client.CloseIdleConnections()
	})
}

// Inject adds fault rules. Rules are tried in the order they were added;
// the first whose window includes a request decides its fault, but every
// matching rule counts the request.
func (p *Proxy) Inject(rules ...Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range rules {
		if r.From <= 0 {
			r.From = 1
		}
		p.rules = append(p.rules, &ruleState{Rule: r})
	}
}

// ClearFaults removes every rule: from now on requests pass untouched.
func (p *Proxy) ClearFaults() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = nil
}

// Calls returns the record of every request so far, in order of arrival.
func (p *Proxy) Calls() []Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Call(nil), p.calls...)
}

// Ops returns the operation of every request so far, in order of arrival.
func (p *Proxy) Ops() []string {
	var ops []string
	for _, c := range p.Calls() {
		ops = append(ops, c.Op)
	}
	return ops
}

// Count returns how many requests of one operation arrived ("" counts all).
func (p *Proxy) Count(op string) int {
	n := 0
	for _, c := range p.Calls() {
		if op == "" || c.Op == op {
			n++
		}
	}
	return n
}

// Writes returns the requests that could change data or tables.
func (p *Proxy) Writes() []Call {
	var w []Call
	for _, c := range p.Calls() {
		if c.Write {
			w = append(w, c)
		}
	}
	return w
}

// readOps are the operations that cannot change anything. Writes are
// decided by this allow-list, not by a list of writes, so that an operation
// added to DynamoDB later counts as a write until someone looks at it.
var readOps = map[string]bool{}

func init() {
	for _, op := range strings.Fields(`ListTables DescribeTable Query GetItem Scan BatchGetItem TransactGetItems
		DescribeTimeToLive DescribeContinuousBackups DescribeContributorInsights DescribeLimits DescribeEndpoints
		DescribeKinesisStreamingDestination DescribeTableReplicaAutoScaling DescribeGlobalTable DescribeGlobalTableSettings
		DescribeBackup DescribeExport DescribeImport DescribeBulkOperation ListTagsOfResource ListBackups ListGlobalTables
		ListExports ListImports ListContributorInsights ListBulkOperations GetResourcePolicy
		DescribeStream GetShardIterator GetRecords ListStreams`) {
		readOps[op] = true
	}
}

// partiQLOps are the operations whose effect depends on their statements.
var partiQLOps = map[string]bool{"ExecuteStatement": true, "BatchExecuteStatement": true, "ExecuteTransaction": true}

// IsWrite tells whether a request can change data or tables: any operation
// that is not a known read, and PartiQL unless every statement is a SELECT.
func IsWrite(op string, statements []string) bool {
	if readOps[op] {
		return false
	}
	if !partiQLOps[op] {
		return true
	}
	if len(statements) == 0 {
		return true
	}
	for _, s := range statements {
		if firstWord(s) != "SELECT" {
			return true
		}
	}
	return false
}

// firstWord returns a statement's first keyword, upper-cased, after blanks,
// comments and opening parentheses.
func firstWord(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n(")
		switch {
		case strings.HasPrefix(s, "--"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s, "*/"); i >= 0 {
				s = s[i+2:]
				continue
			}
			return ""
		}
		end := strings.IndexFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		})
		if end < 0 {
			end = len(s)
		}
		return strings.ToUpper(s[:end])
	}
}

// statements pulls the PartiQL statements out of a request body.
func statements(op string, body []byte) []string {
	if !partiQLOps[op] {
		return nil
	}
	var in struct {
		Statement          string
		Statements         []struct{ Statement string }
		TransactStatements []struct{ Statement string }
	}
	if json.Unmarshal(body, &in) != nil {
		return nil
	}
	var out []string
	if in.Statement != "" {
		out = append(out, in.Statement)
	}
	for _, s := range append(in.Statements, in.TransactStatements...) {
		out = append(out, s.Statement)
	}
	return out
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	op := r.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	stmts := statements(op, body)
	call := Call{Op: op, Statements: stmts, Write: IsWrite(op, stmts), Header: r.Header.Clone(), Arrived: time.Now()}

	p.mu.Lock()
	var fault Fault
	for _, rs := range p.rules {
		if rs.Op != "" && rs.Op != op {
			continue
		}
		rs.seen++
		if fault == nil && rs.seen >= rs.From && (rs.Count == 0 || rs.seen < rs.From+rs.Count) {
			fault = rs.Fault
		}
	}
	call.Seq = len(p.calls) + 1
	if fault != nil {
		call.Fault = fault.String()
	}
	p.calls = append(p.calls, call)
	idx := len(p.calls) - 1
	p.mu.Unlock()

	x := &exchange{p: p, w: w, r: r, op: op, body: body}
	defer func() { // also when a fault aborts the handler
		p.mu.Lock()
		p.calls[idx].Status = x.status
		p.calls[idx].Answered = time.Now()
		p.mu.Unlock()
	}()
	if fault != nil {
		fault.apply(x)
	} else {
		x.forward(false)
	}
}

// exchange is one request in flight through the proxy.
type exchange struct {
	p      *Proxy
	w      http.ResponseWriter
	r      *http.Request
	op     string
	body   []byte
	status int
}

// forward sends the request upstream and relays the answer; truncate sends
// only the first half of the body after declaring its full length.
func (x *exchange) forward(truncate bool) {
	status, header, out, ok := x.fetch()
	if !ok {
		return
	}
	copyHeader(x.w.Header(), header)
	x.w.Header().Set("Content-Length", fmt.Sprint(len(out)))
	x.status = status
	x.w.WriteHeader(status)
	if !truncate {
		_, _ = x.w.Write(out)
		return
	}
	_, _ = x.w.Write(out[:len(out)/2])
	if f, ok := x.w.(http.Flusher); ok {
		f.Flush()
	}
	// Aborting the handler closes the connection short of the declared
	// length, which is exactly a body cut off in transit.
	panic(http.ErrAbortHandler)
}

// copyHeader copies the end-to-end headers; hop-by-hop ones and the length
// belong to each connection.
func copyHeader(dst, src http.Header) {
	for k, v := range src {
		switch http.CanonicalHeaderKey(k) {
		case "Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length":
		default:
			dst[k] = v
		}
	}
}

// fail answers a broken upstream with a bare 502, the way a load balancer
// in front of DynamoDB would.
func (x *exchange) fail(err error) {
	if x.r.Context().Err() != nil {
		return // the client is gone; nobody to answer
	}
	x.status = http.StatusBadGateway
	http.Error(x.w, "dynamotest proxy: upstream: "+err.Error(), http.StatusBadGateway)
}

// hijack takes the raw connection, for faults below HTTP.
func (x *exchange) hijack() net.Conn {
	hj, ok := x.w.(http.Hijacker)
	if !ok {
		panic("dynamotest: the proxy's ResponseWriter cannot hijack")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	return conn
}

// wait sleeps for d (forever when d < 0) unless the client goes away or the
// proxy stops first; it reports whether the full time passed.
func (x *exchange) wait(d time.Duration) bool {
	var timer <-chan time.Time
	if d >= 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-timer:
		return true
	case <-x.r.Context().Done():
	case <-x.p.done:
	}
	return false
}

// Fault is what the proxy does to a request instead of, or before,
// forwarding it untouched.
type Fault interface {
	String() string
	apply(x *exchange)
}

type delayFault time.Duration

func (d delayFault) String() string { return "delay " + time.Duration(d).String() }
func (d delayFault) apply(x *exchange) {
	if x.wait(time.Duration(d)) {
		x.forward(false)
	}
}

// Delay holds the request for d, then forwards it.
func Delay(d time.Duration) Fault { return delayFault(d) }

type simpleFault string

func (f simpleFault) String() string { return string(f) }
func (f simpleFault) apply(x *exchange) {
	switch f {
	case "drop":
		_ = x.hijack().Close()
	case "reset":
		conn := x.hijack()
		if tc, ok := conn.(*net.TCPConn); ok {
			// Linger 0 makes Close send RST instead of FIN.
			_ = tc.SetLinger(0)
		}
		_ = conn.Close()
	case "hang":
		x.wait(-1)
		panic(http.ErrAbortHandler)
	case "truncate":
		x.forward(true)
	case "plain 500":
		x.status = http.StatusInternalServerError
		x.w.Header().Set("Content-Type", "text/html")
		x.w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(x.w, "<html><body><h1>500 Internal Server Error</h1></body></html>\n")
	}
}

// The faults below the DynamoDB protocol.
var (
	// Drop closes the connection without answering.
	Drop Fault = simpleFault("drop")
	// Reset aborts the connection with a TCP RST.
	Reset Fault = simpleFault("reset")
	// Hang never answers; the request ends when the client gives up.
	Hang Fault = simpleFault("hang")
	// Truncate forwards the request, declares the answer's full
	// Content-Length, sends half of it and closes the connection.
	Truncate Fault = simpleFault("truncate")
	// Plain500 answers 500 with an HTML body, as a broken front end would.
	Plain500 Fault = simpleFault("plain 500")
)

type apiError struct {
	status       int
	typ, message string
}

func (e apiError) String() string { return e.typ[strings.LastIndexByte(e.typ, '#')+1:] }
func (e apiError) apply(x *exchange) {
	msg := e.message
	if strings.Contains(msg, "%") {
		var in struct{ TableName string }
		_ = json.Unmarshal(x.body, &in)
		msg = strings.NewReplacer("%op", x.op, "%table", in.TableName).Replace(msg)
	}
	b, _ := json.Marshal(map[string]string{"__type": e.typ, "message": msg})
	h := x.w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("Content-Length", fmt.Sprint(len(b)))
	h.Set("X-Amz-Crc32", fmt.Sprint(crc32.ChecksumIEEE(b)))
	h.Set("X-Amzn-Requestid", requestID())
	x.status = e.status
	x.w.WriteHeader(e.status)
	_, _ = x.w.Write(b)
}

func requestID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return strings.ToUpper(hex.EncodeToString(b))
}

// APIError answers with DynamoDB's JSON error shape: HTTP status, the
// __type (e.g. "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException")
// and a message, in which %op and %table stand for the request's operation
// and table name.
func APIError(status int, typ, message string) Fault {
	return apiError{status: status, typ: typ, message: message}
}

// The errors DynamoDB answers with, as it spells them.
var (
	// Throughput is a table or index out of provisioned capacity (400).
	Throughput = APIError(400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
		"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.")
	// Throttling is DynamoDB's control plane or on-demand limit refusing (400).
	Throttling = APIError(400, "com.amazon.coral.availability#ThrottlingException",
		"Rate of requests exceeds the allowed throughput.")
	// InternalError is DynamoDB failing on its side (500).
	InternalError = APIError(500, "com.amazonaws.dynamodb.v20120810#InternalServerError",
		"Internal server error")
	// AccessDenied is IAM refusing the operation; the message names it and the table (400).
	AccessDenied = APIError(400, "com.amazon.coral.service#AccessDeniedException",
		"User: arn:aws:iam::123456789012:user/explorer is not authorized to perform: dynamodb:%op on resource: arn:aws:dynamodb:us-east-1:123456789012:table/%table because no identity-based policy allows the dynamodb:%op action")
	// ExpiredToken is a session token past its expiry (400).
	ExpiredToken = APIError(400, "com.amazon.coral.service#ExpiredTokenException",
		"The security token included in the request is expired")
	// UnrecognizedClient is a key the region or account does not know (400).
	UnrecognizedClient = APIError(400, "com.amazon.coral.service#UnrecognizedClientException",
		"The security token included in the request is invalid.")
)
