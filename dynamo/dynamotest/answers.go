package dynamotest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The faults in this file play a server that answers, but wrongly: a
// corporate proxy, a mock server, a half-broken emulator, or some other web
// server behind a wrong endpoint. Most forward the request to the real engine
// and then change its answer, so that everything not named stays true.

// answerFault forwards the request and rewrites the answer; a nil rewrite
// result means "answer what upstream said".
type answerFault struct {
	name    string
	rewrite func(x *exchange, status int, body []byte) (int, http.Header, []byte)
}

func (f answerFault) String() string { return f.name }
func (f answerFault) apply(x *exchange) {
	status, _, body, ok := x.fetch()
	if !ok {
		return
	}
	st, h, b := f.rewrite(x, status, body)
	x.answer(st, h, b)
}

// fetch sends the request upstream and returns its answer whole; on a
// broken upstream it has already answered 502.
func (x *exchange) fetch() (int, http.Header, []byte, bool) {
	req, err := http.NewRequestWithContext(x.r.Context(), http.MethodPost, x.p.upstream+x.r.URL.RequestURI(), bytes.NewReader(x.body))
	if err != nil {
		x.fail(err)
		return 0, nil, nil, false
	}
	copyHeader(req.Header, x.r.Header)
	resp, err := x.p.client.Do(req)
	if err != nil {
		x.fail(err)
		return 0, nil, nil, false
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		x.fail(err)
		return 0, nil, nil, false
	}
	return resp.StatusCode, resp.Header, out, true
}

// answer sends a complete answer. A nil header gets DynamoDB's own: JSON
// content type and a correct X-Amz-Crc32, so that only what the fault
// changed is wrong.
func (x *exchange) answer(status int, h http.Header, body []byte) {
	if h == nil {
		h = http.Header{}
		h.Set("Content-Type", "application/x-amz-json-1.0")
		h.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
		h.Set("X-Amzn-Requestid", requestID())
	}
	for k, v := range h {
		x.w.Header()[k] = v
	}
	x.w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	x.status = status
	x.w.WriteHeader(status)
	_, _ = x.w.Write(body)
}

// edit rewrites a successful JSON answer field by field; other answers
// (errors) pass unchanged.
func edit(name string, f func(x *exchange, m map[string]json.RawMessage)) Fault {
	return answerFault{name: name, rewrite: func(x *exchange, status int, body []byte) (int, http.Header, []byte) {
		var m map[string]json.RawMessage
		if status != http.StatusOK || json.Unmarshal(body, &m) != nil {
			return status, nil, body
		}
		f(x, m)
		b, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		return status, nil, b
	}}
}

// replace answers with a fixed status, content type and body instead of
// upstream's answer; the request still reaches upstream, as it would
// through a proxy that mangles answers.
func replace(name string, status int, contentType, body string) Fault {
	return answerFault{name: name, rewrite: func(*exchange, int, []byte) (int, http.Header, []byte) {
		h := http.Header{}
		if contentType != "" {
			h.Set("Content-Type", contentType)
		}
		return status, h, []byte(body)
	}}
}

// requestField reads one top-level field of the request body.
func (x *exchange) requestField(name string) json.RawMessage {
	var in map[string]json.RawMessage
	_ = json.Unmarshal(x.body, &in)
	return in[name]
}

var (
	// EmptyBody200 answers 200 with no body at all.
	EmptyBody200 = replace("empty 200", http.StatusOK, "application/x-amz-json-1.0", "")
	// EmptyObject200 answers 200 with the JSON object {}.
	EmptyObject200 = replace("empty object 200", http.StatusOK, "application/x-amz-json-1.0", "{}")
	// HTML200 answers 200 with a web page, as a captive portal or a wrong
	// endpoint would.
	HTML200 = replace("HTML 200", http.StatusOK, "text/html", "<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>\n")
	// Unavailable503 answers 503 with an empty body, as a load balancer
	// with no healthy target does.
	Unavailable503 = replace("503", http.StatusServiceUnavailable, "", "")

	// MalformedJSON200 answers 200 with the first half of the real answer,
	// its length and checksum correct: only the JSON is broken.
	MalformedJSON200 Fault = answerFault{name: "malformed JSON 200", rewrite: func(_ *exchange, status int, body []byte) (int, http.Header, []byte) {
		return http.StatusOK, nil, body[:len(body)/2]
	}}

	// CRCMismatch sends the real answer with a changed letter inside it
	// and the checksum of the original: data damaged in transit.
	CRCMismatch Fault = answerFault{name: "CRC32 mismatch", rewrite: func(_ *exchange, status int, body []byte) (int, http.Header, []byte) {
		sum := crc32.ChecksumIEEE(body)
		b := bytes.Clone(body)
		if i := bytes.LastIndexByte(b, '#'); i >= 0 {
			b[i] = '$'
		} else if len(b) > 1 {
			b[1] ^= 0x20
		}
		h := http.Header{}
		h.Set("Content-Type", "application/x-amz-json-1.0")
		h.Set("X-Amz-Crc32", strconv.FormatUint(uint64(sum), 10))
		return status, h, b
	}}

	// RepeatKey answers with the ExclusiveStartKey of the request as its
	// LastEvaluatedKey (LastEvaluatedTableName for ListTables): a server
	// that sends the reader back to where it started. The first page,
	// which has no start, passes unchanged.
	RepeatKey = edit("repeated key", func(x *exchange, m map[string]json.RawMessage) {
		if start := x.requestField("ExclusiveStartKey"); start != nil {
			m["LastEvaluatedKey"] = start
		}
		if start := x.requestField("ExclusiveStartTableName"); start != nil {
			m["LastEvaluatedTableName"] = start
		}
	})

	// EmptyPageWithKey answers a page with nothing in it but a key to go on
	// from: the request's own start key when it has one, else upstream's.
	EmptyPageWithKey = edit("empty page with key", func(x *exchange, m map[string]json.RawMessage) {
		if _, ok := m["TableNames"]; ok {
			m["TableNames"] = json.RawMessage(`[]`)
			start := x.requestField("ExclusiveStartTableName")
			if start == nil {
				start = json.RawMessage(`"aaa"`)
			}
			m["LastEvaluatedTableName"] = start
			return
		}
		if start := x.requestField("ExclusiveStartKey"); start != nil {
			m["LastEvaluatedKey"] = start
		}
		if _, ok := m["Items"]; ok {
			m["Items"] = json.RawMessage(`[]`)
		}
		m["Count"], m["ScannedCount"] = json.RawMessage(`0`), json.RawMessage(`0`)
	})

	// InfiniteCapacity reports the consumed capacity as "Infinity", which
	// the SDK's JSON protocol reads as +Inf.
	InfiniteCapacity = edit("Inf capacity", func(x *exchange, m map[string]json.RawMessage) {
		m["ConsumedCapacity"] = json.RawMessage(`{"CapacityUnits":"Infinity","TableName":"x"}`)
	})
)

// LyingCounts answers with the given Count and ScannedCount instead of the
// real ones.
func LyingCounts(count, scanned int) Fault {
	return edit(fmt.Sprintf("Count %d ScannedCount %d", count, scanned), func(x *exchange, m map[string]json.RawMessage) {
		m["Count"] = json.RawMessage(strconv.Itoa(count))
		m["ScannedCount"] = json.RawMessage(strconv.Itoa(scanned))
	})
}

// EndlessPages answers a Query on a sort-key prefix (begins_with), or on
// the whole partition (a count's read), with a page that never ends: no items, a
// LastEvaluatedKey one step past the key it started from, always inside the
// prefix (or the partition), so each key moves forward and DynamoDB takes it as a start; and a
// consumed capacity of units. A server feeding a read pages the table
// cannot hold: only a stop on cost ends it. Other requests pass.
func EndlessPages(units float64) Fault {
	return edit(fmt.Sprintf("endless pages of %g RCU", units), func(x *exchange, m map[string]json.RawMessage) {
		var cond string
		var names map[string]string
		var vals map[string]map[string]json.RawMessage
		_ = json.Unmarshal(x.requestField("KeyConditionExpression"), &cond)
		_ = json.Unmarshal(x.requestField("ExpressionAttributeNames"), &names)
		_ = json.Unmarshal(x.requestField("ExpressionAttributeValues"), &vals)
		pk, begins := pkEqRE.FindStringSubmatch(cond), beginsRE.FindStringSubmatch(cond)
		if pk == nil {
			return
		}
		// A read of the whole partition (a count's) pages on SK, the sort
		// key of the tables the tests make, from its start.
		pkName, skName, sk := names[pk[1]], "SK", ""
		if begins != nil {
			if json.Unmarshal(vals[begins[2]]["S"], &sk) != nil {
				return
			}
			skName = names[begins[1]]
		}
		var start map[string]map[string]string
		if json.Unmarshal(x.requestField("ExclusiveStartKey"), &start) == nil && start[skName]["S"] != "" {
			sk = start[skName]["S"]
		}
		m["LastEvaluatedKey"], _ = json.Marshal(map[string]any{pkName: vals[pk[2]], skName: map[string]string{"S": sk + "~"}})
		if _, ok := m["Items"]; ok {
			m["Items"] = json.RawMessage(`[]`)
		}
		m["Count"], m["ScannedCount"] = json.RawMessage(`0`), json.RawMessage(`0`)
		m["ConsumedCapacity"] = json.RawMessage(fmt.Sprintf(`{"CapacityUnits":%g,"TableName":"x"}`, units))
	})
}

// FreeEndlessScan answers every Scan itself, without asking upstream: no
// items, a consumed capacity of 0 and a LastEvaluatedKey never sent before,
// so neither the repeated-key check nor a cap on what the answers say they
// cost ends the read.
func FreeEndlessScan() Fault {
	return &numberedFault{name: "free endless Scan", body: func(n int) []byte {
		return fmt.Appendf(nil, `{"Count":0,"ScannedCount":0,"Items":[],"LastEvaluatedKey":{"PK":{"S":"endless#%d"},"SK":{"S":"x"}},"ConsumedCapacity":{"CapacityUnits":0,"TableName":"x"}}`, n)
	}}
}

// pkEqRE and beginsRE find the name and value placeholders of a key
// condition's partition key and its begins_with.
var (
	pkEqRE   = regexp.MustCompile(`(#\w+)\s*=\s*(:\w+)`)
	beginsRE = regexp.MustCompile(`begins_with\s*\(\s*(#\w+)\s*,\s*(:\w+)\s*\)`)
)

// BareStatus answers with an HTTP status and an empty body, as a web
// server or proxy that is not DynamoDB does (404, 403, 413, 301).
func BareStatus(status int) Fault {
	return replace(fmt.Sprintf("bare %d", status), status, "", "")
}

// Redirect answers with an HTTP redirect status, an empty body and a
// Location header, as a web server that moved (or an HTTP-to-HTTPS
// front) does.
func Redirect(status int, location string) Fault {
	return answerFault{name: fmt.Sprintf("redirect %d", status), rewrite: func(*exchange, int, []byte) (int, http.Header, []byte) {
		return status, http.Header{"Location": {location}}, nil
	}}
}

// BadAttribute adds an attribute "zz" with the given raw JSON value to the
// first item of the answer (the first page of a Query or Scan, the item of
// a GetItem), after every other attribute: `{}`, `{"S":null}`,
// `{"X":"1"}`.
func BadAttribute(raw string) Fault {
	return edit("attribute "+strings.Trim(nameRE.ReplaceAllString(raw, " "), " "), func(x *exchange, m map[string]json.RawMessage) {
		change := func(item json.RawMessage) json.RawMessage {
			var attrs map[string]json.RawMessage
			if json.Unmarshal(item, &attrs) != nil {
				return item
			}
			attrs["zz"] = json.RawMessage(raw)
			b, _ := json.Marshal(attrs)
			return b
		}
		if it, ok := m["Item"]; ok {
			m["Item"] = change(it)
			return
		}
		var items []json.RawMessage
		if json.Unmarshal(m["Items"], &items) != nil || len(items) == 0 {
			return
		}
		items[0] = change(items[0])
		m["Items"], _ = json.Marshal(items)
	})
}

// nameRE finds what a test or table name cannot hold.
var nameRE = regexp.MustCompile(`[^A-Za-z0-9]+`)

type stallFault struct{}

func (stallFault) String() string { return "stall mid-body" }
func (stallFault) apply(x *exchange) {
	status, _, body, ok := x.fetch()
	if !ok {
		return
	}
	copyHeader(x.w.Header(), http.Header{"Content-Type": {"application/x-amz-json-1.0"}})
	x.w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	x.status = status
	x.w.WriteHeader(status)
	_, _ = x.w.Write(body[:len(body)/2])
	if f, ok := x.w.(http.Flusher); ok {
		f.Flush()
	}
	x.wait(-1) // until the client gives up or the proxy stops
	panic(http.ErrAbortHandler)
}

// StallMidBody sends the headers and half the body of the real answer,
// then nothing more until the client gives up.
var StallMidBody Fault = stallFault{}

// Replay answers every request it applies to with the answer to the first
// of them: a cache in between that ignores what was asked.
func Replay() Fault {
	r := &replayFault{}
	return r
}

type replayFault struct {
	mu   sync.Mutex
	body []byte
}

func (r *replayFault) String() string { return "replay" }
func (r *replayFault) apply(x *exchange) {
	r.mu.Lock()
	body := r.body
	r.mu.Unlock()
	if body == nil {
		status, _, b, ok := x.fetch()
		if !ok {
			return
		}
		if status != http.StatusOK {
			x.answer(status, nil, b)
			return
		}
		r.mu.Lock()
		r.body = b
		r.mu.Unlock()
		body = b
	}
	x.answer(http.StatusOK, nil, body)
}
