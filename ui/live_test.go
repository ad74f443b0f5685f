package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
	"dynascope/ui/overlay"
)

// liveRig is the UI on CUST#42 of a table with a stream, reached through a
// recording proxy; the test writes around it, as another application would.
func liveRig(t *testing.T, extra ...map[string]types.AttributeValue) (*harness, *dynamotest.Proxy, func(map[string]types.AttributeValue), string) {
	t.Helper()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.WithStream(dynamotest.PKSK(), types.StreamViewTypeNewAndOldImages))
	put := func(it map[string]types.AttributeValue) {
		t.Helper()
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-01-09#A11"), "total": nv("20")})
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("PROFILE"), "name": sv("Ann")})
	for _, it := range extra {
		put(it)
	}
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	o := dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true}
	client, err := dynamo.Connect(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := dynamo.ConnectStreams(context.Background(), o, client)
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: client, Streams: sc, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.contains(fmt.Sprintf("Items · %d loaded", 2+len(extra)))
	return hs, p, put, table
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func nv(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// nextLive delivers the tail's messages until cond holds, without running
// the wait for the next one to completion (it blocks until a write).
func nextLive(t *testing.T, hs *harness, cmd tea.Cmd, cond func() bool) tea.Cmd {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for !cond() {
		if cmd == nil {
			t.Fatalf("the tail stopped: %q", hs.m.live.err)
		}
		got := make(chan tea.Msg, 1)
		go func(c tea.Cmd) { got <- c() }(cmd)
		select {
		case msg := <-got:
			cmd = hs.step(msg)
		case <-deadline:
			t.Fatalf("no live event within 15 s; the pane shows %d lines", len(hs.m.live.lines))
		}
	}
	return cmd
}

// T opens the live pane: the partition's writes arrive as lines, the items
// pane changes in place from the new images with no Query sent, writes to
// other partitions are left out, GetRecords shows in the request log as a
// stream request, help states the price, and nothing but reads is sent.
func TestLivePane(t *testing.T) {
	hs, p, put, _ := liveRig(t)
	queries := p.Count("Query")
	cmd := hs.step(keyPress("T"))
	hs.noteAction(keyPress("T"))
	if hs.m.topID() != overlay.LiveID {
		t.Fatalf("T opened %d", hs.m.topID())
	}
	cmd = nextLive(t, hs, cmd, func() bool { return hs.m.live.polls > 0 })
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-01-09#A11"), "total": nv("20"), "status": sv("SHIPPED")})
	put(map[string]types.AttributeValue{"PK": sv("CUST#7"), "SK": sv("ORDER#2025-02-01#B1")})
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-04-01#A20"), "total": nv("50")})
	cmd = nextLive(t, hs, cmd, func() bool { return len(hs.m.live.lines) >= 2 })
	hs.contains("MODIFY ORDER", `status: (none) → S "SHIPPED"`, "INSERT ORDER", "CUST#42 / ORDER#2025-04-01#A20", "Writes to CUST#42 · live · 2 records")
	hs.lacks("CUST#7")
	var sks []string
	for _, it := range memItems(hs.m.items) {
		sks = append(sks, keyOf(it, "SK")+":"+keyOf(it, "status"))
	}
	if strings.Join(sks, ",") != "ORDER#2025-01-09#A11:SHIPPED,ORDER#2025-04-01#A20:,PROFILE:" {
		t.Errorf("items after the writes: %v", sks)
	}
	if n := p.Count("Query") - queries; n != 0 {
		t.Errorf("the live pane sent %d queries", n)
	}
	// The item the last record changed is marked for a moment; the tick of
	// an older mark leaves it, its own clears it.
	if hs.m.items.Changed != "ORDER#2025-04-01#A20" || hs.m.live.markGen < 2 {
		t.Errorf("marked %q (generation %d), want the inserted order", hs.m.items.Changed, hs.m.live.markGen)
	}
	hs.send(liveMarkDoneMsg{gen: hs.m.live.markGen - 1})
	if hs.m.items.Changed == "" {
		t.Error("an older mark's tick cleared the newest mark")
	}
	hs.send(liveMarkDoneMsg{gen: hs.m.live.markGen})
	if hs.m.items.Changed != "" {
		t.Errorf("the mark stayed after its tick: %q", hs.m.items.Changed)
	}
	var streamLogged bool
	for i, k := range hs.m.log.Kinds {
		streamLogged = streamLogged || k == "stream" && hs.m.log.Reqs[i].Operation == "GetRecords"
	}
	if !streamLogged {
		t.Error("no GetRecords in the request log")
	}
	hs.send(keyPress("?"))
	hs.contains("streams read request unit, billed apart from table reads")
	hs.send(keyPress("esc"))
	hs.noteAction(keyPress("q"))
	cmd = hs.step(keyPress("q"))
	_ = cmd
	if hs.m.live.id != 0 || hs.m.topID() == overlay.LiveID {
		t.Errorf("q left the tail running (id %d) or the pane open", hs.m.live.id)
	}
	if w := p.Writes(); len(w) > 0 {
		t.Errorf("writes: %+v", w)
	}
}

// The live pane names a record's type as the types pane beside it does:
// an ORDER|… key in a partition that also holds ORDER#… is ORDER|, a
// further ORDER#… is ORDER.
func TestLivePaneNamesAsTheTypesPane(t *testing.T) {
	hs, _, put, _ := liveRig(t, map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER|2023-05-01|18c1")})
	hs.contains("ORDER|")
	cmd := hs.step(keyPress("T"))
	cmd = nextLive(t, hs, cmd, func() bool { return hs.m.live.polls > 0 })
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER|2023-05-02|19d2")})
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-04-01#A20")})
	nextLive(t, hs, cmd, func() bool { return len(hs.m.live.lines) >= 2 })
	if a, b := hs.m.live.lines[0].Text, hs.m.live.lines[1].Text; !strings.Contains(a, " INSERT ORDER| ") || !strings.Contains(b, " INSERT ORDER ") {
		t.Errorf("live lines %q, %q; want ORDER| then ORDER", a, b)
	}
	hs.send(keyPress("q"))
}

// A table without a stream: the pane says so in one sentence with the
// command that would enable it, and the tail is not running.
func TestLivePaneNoStream(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	o := dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true}
	client, _ := dynamo.Connect(context.Background(), o)
	sc, _ := dynamo.ConnectStreams(context.Background(), o, client)
	hs := newHarnessOn(t, Options{Store: client, Streams: sc, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL}, 160, 35)
	hs.keys("T")
	hs.contains("has no stream", "--stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES", "stopped")
	if hs.m.live.id != 0 {
		t.Error("the tail runs on a table without a stream")
	}
	if w := p.Writes(); len(w) > 0 {
		t.Errorf("writes: %+v", w)
	}
}

// A record of an item this session's editor wrote is marked as yours; one
// of another item is not.
func TestLiveMarksOwnWrites(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	for _, it := range []map[string]types.AttributeValue{
		{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-01-09#A11"), "total": nv("20")},
		{"PK": sv("CUST#42"), "SK": sv("PROFILE"), "name": sv("Ann")},
	} {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	ep := dynamotest.Endpoint(t)
	client, _ := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: ep, Region: "us-east-1", NoSchemaCache: true})
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := edit.Open(context.Background(), dynamo.Options{Endpoint: ep, Region: "us-east-1"}, true, j)
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: client, Editor: w, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: ep}, 120, 35)
	hs.contains("Items · 2 loaded")
	hs.keys("tab", "E")
	hs.contains("Edit · ORDER#2025-01-09#A11")
	hs.keys("j", "j", "enter", "ctrl+u")
	hs.typeText("21")
	hs.keys("enter", "w", "y")
	hs.contains("written: 1 WCU consumed")
	hs.keys("esc")
	keysOf := func(sk string) dynamo.Item { return dynamo.Item{"PK": sv("CUST#42"), "SK": sv(sk)} }
	if !hs.m.writtenHere(keysOf("ORDER#2025-01-09#A11")) || hs.m.writtenHere(keysOf("PROFILE")) {
		t.Errorf("written here: order %v, profile %v", hs.m.writtenHere(keysOf("ORDER#2025-01-09#A11")), hs.m.writtenHere(keysOf("PROFILE")))
	}
	// The pane marks it: its record, as the stream would carry it.
	m := hs.m
	m.live.info = dynamo.StreamInfo{Table: table, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, ViewType: "KEYS_ONLY"}
	m = m.liveRecords([]dynamo.StreamRecord{{Event: "MODIFY", Keys: keysOf("ORDER#2025-01-09#A11")}, {Event: "MODIFY", Keys: keysOf("PROFILE")}})
	if len(m.live.lines) != 2 || !m.live.lines[0].Mine || m.live.lines[1].Mine {
		t.Errorf("lines %+v", m.live.lines)
	}
}

// typeCount is the types pane's count of the type named entity, as the
// pane shows it ("" when no row has that name).
func typeCount(hs *harness, entity string) string {
	for i, r := range hs.m.groups.types() {
		if r.Entity == entity {
			return hs.m.groups.countText(i + 1)
		}
	}
	return ""
}

// The types pane's counts follow the items the live pane changes: two
// orders inserted and the profile removed by another writer make ORDER 3
// and PROFILE 0, as the items pane beside it holds, with no Query sent
// (issue 37.11: the pane said ORDER 2 while 13 orders were loaded).
func TestLiveRecordsKeepTypeCounts(t *testing.T) {
	hs, p, put, table := liveRig(t)
	if o, pr := typeCount(hs, "ORDER"), typeCount(hs, "PROFILE"); o != "1" || pr != "1" {
		t.Fatalf("before the writes: ORDER %q, PROFILE %q; want 1 and 1", o, pr)
	}
	// ORDER was counted (Select=COUNT) before the writes: its count is
	// outrun by them too.
	for _, r := range hs.m.groups.types() {
		if r.Entity == "ORDER" {
			hs.m.groups = hs.m.groups.counted(r.ID(), 1, 1, dynamo.Capacity{})
		}
	}
	queries := p.Count("Query")
	cmd := hs.step(keyPress("T"))
	cmd = nextLive(t, hs, cmd, func() bool { return hs.m.live.polls > 0 })
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-04-01#A20"), "total": nv("50")})
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-05-01#A21"), "total": nv("60")})
	api := dynamotest.SDK(t)
	if _, err := api.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table),
		Key: map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("PROFILE")}}); err != nil {
		t.Fatal(err)
	}
	nextLive(t, hs, cmd, func() bool { return len(hs.m.live.lines) >= 3 })
	if n := len(memItems(hs.m.items)); n != 3 {
		t.Fatalf("the items pane holds %d items, want 3", n)
	}
	if o, pr := typeCount(hs, "ORDER"), typeCount(hs, "PROFILE"); o != "3" || pr != "0" {
		t.Errorf("after the writes: ORDER %q, PROFILE %q; want 3 and 0, as loaded", o, pr)
	}
	if all := hs.m.groups.countText(0); all != "3" {
		t.Errorf("the partition row says %q, want 3", all)
	}
	if n := p.Count("Query") - queries; n != 0 {
		t.Errorf("the counts sent %d queries", n)
	}
	hs.send(keyPress("q"))
}
