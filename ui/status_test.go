package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// The spinner shows only once a request has been in flight for a while, and
// never for a request that is already answered.
func TestSpinnerOnlyAfterDelay(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example(), cap: halfRCU()})
	cmd := hs.step(keyPress("r"))
	id := hs.m.flight.id(flightQuery)
	hs.contains("Query")
	if hs.m.status.Spinning {
		t.Fatal("spinning at once")
	}
	hs.step(spinnerDueMsg{id: id})
	if !hs.m.status.Spinning {
		t.Fatal("no spinner after the delay")
	}
	hs.contains("esc cancels")
	hs.run(cmd)
	if hs.m.status.Spinning || hs.m.flight.busy(flightQuery) {
		t.Fatal("spinner still on after the reply")
	}
	hs.step(spinnerDueMsg{id: id}) // late: the request is done
	if hs.m.status.Spinning {
		t.Fatal("a stale delay started the spinner")
	}
}

func TestBackgroundPicksPalette(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.send(tea.BackgroundColorMsg{Color: color.White})
	if hs.m.dark {
		t.Fatal("a white background was taken for dark")
	}
	if hs.m.st.Sel.GetBackground() != newStyles(false, false).Sel.GetBackground() {
		t.Error("light palette not applied")
	}
	hs.send(tea.BackgroundColorMsg{Color: color.Black})
	if !hs.m.dark {
		t.Fatal("a black background was taken for light")
	}
}

func TestThrottledRequestShowsInStatus(t *testing.T) {
	thr := &dynamo.UserError{Msg: "query CUST#42 on App: throttled by DynamoDB after retries; wait and retry, or lower the request rate.",
		Err: &types.ProvisionedThroughputExceededException{}}
	hs := openExample(t, 120, 35, canned{err: thr}, canned{items: example(), cap: halfRCU()})
	hs.keys("r")
	hs.contains("⚠ throttled", "✗ query CUST#42 on App: throttled")
	hs.keys("r")
	hs.lacks("⚠ throttled")
}

func TestNextPagesAreLabelledInTheLog(t *testing.T) {
	p1, p2 := pageOf("CUST#7", 0, 100), pageOf("CUST#7", 100, 5)
	hs := newHarness(t, Options{Table: "App", PK: "CUST#7"}, 120, 35,
		canned{items: p1, last: p1[99], cap: dynamo.Capacity{Total: 1.5, Table: 1.5}},
		canned{items: p2, cap: dynamo.Capacity{Total: 0.5, Table: 0.5}})
	hs.keys("n")
	if l := hs.line("  2 Query"); !strings.Contains(l, `PK = "CUST#7" · page 2`) || !strings.Contains(l, "0.5 RCU") {
		t.Errorf("page 2 line = %q", l)
	}
	if l := hs.line("  1 Query"); strings.Contains(l, "page") || !strings.Contains(l, "1.5 RCU") {
		t.Errorf("page 1 line = %q", l)
	}
	hs.contains("Σ 2 RCU · 2 requests")
}

// Only the rows on screen are formatted: a hundred thousand loaded items
// draw about as fast as a hundred.
func BenchmarkViewLoadedItems(b *testing.B) {
	for _, count := range []int{100, 100_000} {
		b.Run(fmt.Sprint(count), func(b *testing.B) {
			fs := &fakeStore{tables: map[string]dynamo.Table{"App": appTable()}}
			m := New(Options{Store: fs, Table: "App"})
			m.w, m.h = 120, 35
			m.table, m.haveTable = appTable(), true
			ks, _ := m.table.Schema("")
			m.setSchema(ks)
			m.screen, m.focus = screenPartition, paneItems
			m.query = dynamo.QueryInput{Table: "App", PK: "CUST#7"}
			items := pageOf("CUST#7", 0, count)
			m.items = m.items.SetItems(items, m.layout().itemsW-2)
			m.items = m.items.Move(count/2, m.layout().itemRows)
			b.ResetTimer()
			for range b.N {
				_ = m.View()
			}
		})
	}
}

// A retry of the request in flight shows in the status line until the
// request is done; a report for a request no longer in flight is dropped.
func TestRetryShowsWhileInFlight(t *testing.T) {
	hs := openExample(t, 120, 35, canned{items: example(), cap: halfRCU()})
	cmd := hs.step(keyPress("r"))
	id := hs.m.flight.id(flightQuery)
	hs.send(retryingMsg{id: id, text: "throttled, retrying (2/10)", throttled: true})
	hs.contains("Query · throttled, retrying (2/10)")
	hs.send(retryingMsg{id: id + 7, text: "connection reset, retrying (3/10)"})
	hs.lacks("connection reset")
	hs.run(cmd)
	hs.lacks("retrying")
	hs.send(retryingMsg{id: id, text: "throttled, retrying (3/10)"}) // late
	hs.lacks("retrying")
	// Esc clears it with the request.
	hs.step(keyPress("r"))
	hs.send(retryingMsg{id: hs.m.flight.id(flightQuery), text: "throttled, retrying (2/10)"})
	hs.keys("esc")
	hs.lacks("retrying")
	hs.contains("cancelled; what was loaded stays", "Items · 3 loaded")

}

// The sender reaches the program once connected, and drops what it gets
// before: a test without a program, or a report after the program ended.
func TestSenderDelivers(t *testing.T) {
	var nilSender *sender
	nilSender.deliver(retryingMsg{id: 1}) // no panic
	s := &sender{}
	s.deliver(retryingMsg{id: 1})
	var got []tea.Msg
	s.set(func(m tea.Msg) { got = append(got, m) })
	s.deliver(retryingMsg{id: 2, text: "throttled, retrying (2/10)"})
	if len(got) != 1 || got[0].(retryingMsg).id != 2 {
		t.Fatalf("delivered %+v", got)
	}
}
