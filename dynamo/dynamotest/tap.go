package dynamotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Tap is a loopback reverse proxy that keeps what DynamoDB itself answered:
// the raw response of every request, read from the wire rather than from
// the client under test, so that a test can compare the client's record
// with the engine's.
type Tap struct {
	URL string

	mu        sync.Mutex
	exchanges []Exchange
}

// Exchange is one request and DynamoDB's raw answer to it.
type Exchange struct {
	Op       string  // from X-Amz-Target, e.g. "Query"
	Status   int     // HTTP status
	Limit    int     // the request's Limit; 0 when it had none
	Count    int     // the response's Count
	More     bool    // the response has a LastEvaluatedKey
	Capacity float64 // the response's ConsumedCapacity.CapacityUnits
	Request  []byte
	Response []byte
}

// StartTap starts a tap on 127.0.0.1 in front of upstream and stops it when
// the test ends.
func StartTap(t testing.TB, upstream string) *Tap {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatalf("tap upstream %q: %v", upstream, err)
	}
	tap := &Tap{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		req, _ := resp.Request.Context().Value(tapBody{}).([]byte)
		tap.record(resp.Request.Header.Get("X-Amz-Target"), resp.StatusCode, req, body)
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r = r.WithContext(context.WithValue(r.Context(), tapBody{}, body))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tap.URL = srv.URL
	return tap
}

// tapBody keys the request body in the request's context, for the answer.
type tapBody struct{}

func (t *Tap) record(target string, status int, req, resp []byte) {
	var in struct{ Limit int }
	_ = json.Unmarshal(req, &in)
	var out struct {
		Count            int
		LastEvaluatedKey map[string]any
		ConsumedCapacity struct{ CapacityUnits float64 }
	}
	_ = json.Unmarshal(resp, &out)
	x := Exchange{Op: target[strings.LastIndexByte(target, '.')+1:], Status: status, Limit: in.Limit, Count: out.Count,
		More: len(out.LastEvaluatedKey) > 0, Capacity: out.ConsumedCapacity.CapacityUnits, Request: req, Response: resp}
	t.mu.Lock()
	t.exchanges = append(t.exchanges, x)
	t.mu.Unlock()
}

// Exchanges returns the answered requests of operation op ("" for all), in
// the order their answers arrived.
func (t *Tap) Exchanges(op string) []Exchange {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []Exchange
	for _, x := range t.exchanges {
		if op == "" || x.Op == op {
			out = append(out, x)
		}
	}
	return out
}

func (x Exchange) String() string {
	return fmt.Sprintf("%s %d: Limit %d, Count %d, more %v, %v RCU", x.Op, x.Status, x.Limit, x.Count, x.More, x.Capacity)
}

// Record is the exchange as a test pins it: the request's JSON with its
// keys sorted and the table's unique name as TABLE, then what paging and
// cost depend on in the answer (Count, ScannedCount, capacity,
// LastEvaluatedKey).
func (x Exchange) Record(table string) string {
	var in map[string]any
	if err := json.Unmarshal(x.Request, &in); err != nil {
		return fmt.Sprintf("unreadable request %q: %v", x.Request, err)
	}
	if in["TableName"] == table {
		in["TableName"] = "TABLE"
	}
	req, _ := json.Marshal(in)
	var out struct {
		Count, ScannedCount int
		LastEvaluatedKey    map[string]any
		ConsumedCapacity    struct{ CapacityUnits float64 }
	}
	if err := json.Unmarshal(x.Response, &out); err != nil {
		return fmt.Sprintf("%s\n  -> unreadable answer %q: %v", req, x.Response, err)
	}
	last := "none"
	if out.LastEvaluatedKey != nil {
		b, _ := json.Marshal(out.LastEvaluatedKey)
		last = string(b)
	}
	return fmt.Sprintf("%s\n  -> Count %d, ScannedCount %d, %v RCU, LastEvaluatedKey %s", req, out.Count, out.ScannedCount, out.ConsumedCapacity.CapacityUnits, last)
}
