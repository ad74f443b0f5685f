package ui

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// screens keeps every screen a model drew, so that a test can tell what was
// on screen at some point, not only at the end.
type screens struct {
	mu  sync.Mutex
	all []string
}

func (s *screens) add(v string) {
	s.mu.Lock()
	s.all = append(s.all, v)
	s.mu.Unlock()
}

// seen tells whether some screen had every one of want.
func (s *screens) seen(want ...string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range s.all {
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(sc, w)
		}
		if ok {
			return true
		}
	}
	return false
}

// waitSeen waits until some screen had every one of want.
func (s *screens) waitSeen(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !s.seen(want...) {
		if time.Now().After(deadline) {
			s.mu.Lock()
			last := ""
			if n := len(s.all); n > 0 {
				last = s.all[n-1]
			}
			s.mu.Unlock()
			t.Fatalf("no screen showed %q; the last:\n%s", want, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// recorded is the root model, recording each screen it draws after a message.
type recorded struct {
	Model
	shots *screens
}

func (r recorded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := r.Model.Update(msg)
	r.Model = m.(Model)
	r.shots.add(ansi.Strip(r.Model.View().Content))
	return r, cmd
}

// startRecorded runs m in teatest at 120x35, its retries reaching the
// program as they do under Run.
func startRecorded(t *testing.T, m Model) (*teatest.TestModel, *screens) {
	t.Helper()
	shots := &screens{}
	var prog atomic.Pointer[teatest.TestModel]
	m.send.set(func(msg tea.Msg) {
		for prog.Load() == nil { // a reply can come before NewTestModel returns
			time.Sleep(time.Millisecond)
		}
		prog.Load().Send(msg)
	})
	tm := teatest.NewTestModel(t, recorded{Model: m, shots: shots}, teatest.WithInitialTermSize(120, 35),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	prog.Store(tm)
	t.Cleanup(func() { _ = tm.Quit() })
	return tm, shots
}

func finalModel(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(recorded).Model
}

// examplePartition is a table holding CUST#42 as the article writes it.
func examplePartition(t *testing.T) (table, endpoint string) {
	t.Helper()
	api := dynamotest.SDK(t)
	endpoint = dynamotest.Endpoint(t)
	table = dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, it := range example() {
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put item: %v", err)
		}
	}
	return table, endpoint
}

func proxyClient(t *testing.T, url string, attempts int) *dynamo.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: url, Region: "us-east-1", MaxAttempts: attempts})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Throttled twice, the first page says so in the status line while it is
// retried ("throttled, retrying (2/10)" rather than a frozen screen), then
// shows its results.
func TestFlowThrottledRequestSaysItRetries(t *testing.T) {
	table, ep := examplePartition(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Query", Count: 2, Fault: dynamotest.Throttling})
	client := proxyClient(t, p.URL, dynamo.DefaultMaxAttempts)
	tm, shots := startRecorded(t, New(Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL, ConfigDir: t.TempDir()}))
	shots.waitSeen(t, "Query · throttled, retrying (2/10)")
	shots.waitSeen(t, "Query · throttled, retrying (3/10)")
	shots.waitSeen(t, "Items · 3 loaded", "ORDER#2025-03-01#A17")
	if shots.seen("retrying", "Items · 3 loaded") {
		t.Error("the retry stayed on screen after the results came")
	}
	final := finalModel(t, tm)
	if n := len(final.log.Reqs); n != 1 || final.log.Reqs[0].Err != nil || final.log.Reqs[0].Count != 3 {
		t.Errorf("log = %+v, want one request, answered on its third attempt", final.log.Reqs)
	}
	if got := p.Count("Query"); got != 3 {
		t.Errorf("%d Query attempts reached DynamoDB, want 3", got)
	}
}

// Throttled to the end, a request fails with one sentence (never the SDK's
// text), stays in the log, and what was shown stays.
func TestFlowThrottledToTheEndKeepsWhatWasShown(t *testing.T) {
	table, ep := examplePartition(t)
	p := dynamotest.StartProxy(t, ep)
	client := proxyClient(t, p.URL, 3)
	tm, shots := startRecorded(t, New(Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL, ConfigDir: t.TempDir()}))
	shots.waitSeen(t, "Items · 3 loaded")
	p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Throttling})
	tm.Send(keyPress("r"))
	shots.waitSeen(t, "throttled, retrying (2/3)")
	shots.waitSeen(t, "still throttled by DynamoDB after 3")
	final := finalModel(t, tm)
	sc := ansi.Strip(final.View().Content)
	for _, want := range []string{"Items · 3 loaded", "ScanIndexForward=true", "⚠ throttled", "✗ query CUST#42 on " + table + ": still throttled"} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	if strings.Contains(sc, "retrying") || strings.Contains(sc, "ThrottlingException") {
		t.Errorf("the screen shows a retry or raw SDK text after the request ended:\n%s", sc)
	}
	if n := len(final.log.Reqs); n != 2 || final.log.Reqs[0].Err != nil || final.log.Reqs[1].Err == nil {
		t.Fatalf("log = %+v, want the page and the failed request", final.log.Reqs)
	}
	if got := p.Count("Query"); got != 4 {
		t.Errorf("%d Query attempts reached DynamoDB, want 1 + 3", got)
	}
}

// A request that never answers: esc cancels it, the results shown stay,
// and the cancelled request is in the log.
func TestFlowHungRequestCancelledByEsc(t *testing.T) {
	table, ep := examplePartition(t)
	p := dynamotest.StartProxy(t, ep)
	client := proxyClient(t, p.URL, 0)
	tm, shots := startRecorded(t, New(Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL, ConfigDir: t.TempDir()}))
	shots.waitSeen(t, "Items · 3 loaded")
	p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Hang})
	tm.Send(keyPress("r"))
	shots.waitSeen(t, "Query · esc cancels") // the spinner, after its delay
	tm.Send(keyPress("esc"))
	shots.waitSeen(t, "cancelled; what was loaded stays", "Items · 3 loaded")
	shots.waitSeen(t, "  2 Query", "✗") // the cancelled request, logged
	final := finalModel(t, tm)
	sc := ansi.Strip(final.View().Content)
	if !strings.Contains(sc, "ORDER#2025-03-01#A17") || !strings.Contains(sc, "PROFILE") || !strings.Contains(sc, "ScanIndexForward=true") {
		t.Errorf("the results shown before did not stay:\n%s", sc)
	}
	if final.busy() {
		t.Error("a request is still in flight")
	}
	if n := len(final.log.Reqs); n != 2 || final.log.Reqs[1].Err == nil {
		t.Fatalf("log = %+v, want the cancelled request with its error", final.log.Reqs)
	}
}
