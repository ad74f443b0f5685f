package ui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// The overview against DynamoDB Local, in a running program: a small
// single-table design (customers with profile, addresses and orders; orders
// with items and shipments) sampled by parallel Scan, progress arriving
// through the program's sender. The layout is the one put in, and every
// Scan's capacity in the log is the one DynamoDB Local returned.
func TestFlowOverviewAgainstDynamoDBLocal(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	put := func(pk, sk string) {
		t.Helper()
		it := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk), "note": s(strings.Repeat("n", 200))}
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put item: %v", err)
		}
	}
	for c := 1; c <= 12; c++ {
		cust := fmt.Sprintf("CUST#%03d", c)
		put(cust, "PROFILE")
		put(cust, "ADDRESS#1")
		for o := 1; o <= 3; o++ {
			id := fmt.Sprintf("A%03d%d", c, o)
			put(cust, fmt.Sprintf("ORDER#2025-0%d-01#%s", o, id))
			put("ORDER#"+id, "ITEM#01")
			put("ORDER#"+id, "ITEM#02")
			put("ORDER#"+id, "SHIPMENT#1")
		}
	}
	const total = 12 * (2 + 3*4)

	tap := dynamotest.StartTap(t, ep)
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: tap.URL, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var scans []dynamo.Request
	client.OnRequest(func(r dynamo.Request) {
		if r.Operation == "Scan" {
			mu.Lock()
			scans = append(scans, r)
			mu.Unlock()
		}
	})
	m := New(Options{Store: client, Table: table, Region: "us-east-1", Endpoint: ep, ConfigDir: t.TempDir()})
	var tm *teatest.TestModel
	var progress sync.WaitGroup
	progress.Add(1)
	var once sync.Once
	m.send.set(func(msg tea.Msg) {
		if _, ok := msg.(sampleProgressMsg); ok {
			once.Do(progress.Done)
		}
		tm.Send(msg)
	})
	tm = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 35),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = tm.Quit() })
	waitFor := func(want string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
			teatest.WithDuration(20*time.Second))
	}
	// The renderer rewrites only the cells that change: wait for text no
	// earlier screen held.
	waitFor("remembered here")
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	waitFor("Reconstructs")
	// Two segments, so that the sample is parallel.
	tm.Send(keyPress("tab"))
	tm.Send(keyPress("tab"))
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Send(keyPress("2"))
	tm.Send(keyPress("enter"))
	waitFor("LARGEST PARTITIONS SEEN")
	progress.Wait() // at least one progress report reached the program
	time.Sleep(200 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	sc := ansi.Strip(final.View().Content)

	lay := final.overview.Lay
	if lay.Items != total || len(lay.Families) != 2 {
		t.Fatalf("layout: %d items, %d families; want %d and 2:\n%s", lay.Items, len(lay.Families), total, sc)
	}
	want := map[string]string{"CUST#*": "ADDRESS,ORDER,PROFILE", "ORDER#*": "ITEM,SHIPMENT"}
	for _, f := range lay.Families {
		var ts []string
		for _, ty := range f.Types {
			ts = append(ts, ty.Entity)
		}
		if got := strings.Join(ts, ","); got != want[f.Pattern] {
			t.Errorf("family %s has types %s, want %s", f.Pattern, got, want[f.Pattern])
		}
	}
	for _, s := range []string{"ADDRESS 12 · ORDER 36 · PROFILE 12", "ITEM 72 · SHIPMENT 36", "the whole table was read"} {
		if !strings.Contains(sc, s) {
			t.Errorf("screen lacks %q:\n%s", s, sc)
		}
	}
	// Every Scan is in the log with the capacity of DynamoDB Local's raw
	// answer, and in the total. Segments run side by side: a log entry is
	// matched to an answer by Count and capacity.
	mu.Lock()
	reported := len(scans)
	mu.Unlock()
	got := tap.Exchanges("Scan")
	// The table fits the sample's caps and one page: one Scan reads it whole.
	if len(got) != 1 || got[0].Limit != 0 || reported != len(got) {
		t.Fatalf("%d Scans answered, %d reported by the client; want one whole read", len(got), reported)
	}
	sum := 0.0
	for _, x := range got {
		sum += x.Capacity
	}
	used := make([]bool, len(got))
	logged := 0
	for i, r := range final.log.Reqs {
		if r.Operation != "Scan" {
			continue
		}
		logged++
		match := -1
		for j, x := range got {
			if !used[j] && x.Count == int(r.Count) && x.Capacity == r.Capacity.Total {
				match = j
				break
			}
		}
		if match < 0 || final.log.Kinds[i] != "sample" {
			t.Errorf("logged Scan %d (%s): Count %d, %v RCU; DynamoDB Local answered %v", i+1, final.log.Kinds[i], r.Count, r.Capacity.Total, got)
			continue
		}
		used[match] = true
	}
	if logged != len(got) || final.log.Total.Total != sum {
		t.Errorf("log: %d Scans, Σ %v RCU; DynamoDB Local: %d Scans, %v RCU", logged, final.log.Total.Total, len(got), sum)
	}
	if !strings.Contains(sc, "Σ "+fmtRCU(sum)+" RCU · "+plural(len(got), "request", "requests")) {
		t.Errorf("status lacks the session total:\n%s", sc)
	}
	t.Logf("%d Scans, %s RCU; the screen:\n%s", len(got), fmtRCU(sum), sc)
}

// The overview against a server that answers every Scan with an empty page
// at 0 RCU and a new key: it stops at its RCU cap, counting each page at
// DynamoDB's minimum, and says it read nothing; the Scans are in the log.
// Before, it read for ever at 0%.
func TestFlowOverviewFreeEndlessScanStopsAtCap(t *testing.T) {
	table, ep := examplePartition(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Scan", Count: 400, Fault: dynamotest.FreeEndlessScan()}) // 400: an end should the cap not hold
	tm, shots := startRecorded(t, New(Options{Store: proxyClient(t, p.URL, 1), Table: table, Region: "us-east-1", Endpoint: p.URL, ConfigDir: t.TempDir()}))
	shots.waitSeen(t, "remembered here")
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	shots.waitSeen(t, "Reconstructs")
	tm.Send(keyPress("tab")) // the RCU cap: 5
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Send(keyPress("5"))
	tm.Send(keyPress("enter"))
	shots.waitSeen(t, "✗ stopped before any item was read.", "enter samples")
	final := finalModel(t, tm)
	if n := p.Count("Scan"); n > 20 || n != len(final.log.Reqs) {
		t.Errorf("%d Scans reached the server, %d in the log; want the 10 a 5 RCU cap allows at 0.5 each (and a probe)", n, len(final.log.Reqs))
	}
}
