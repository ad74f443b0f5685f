package ui

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
	"dynascope/ui/widget"
)

// at is the other writer on the item of the same partition at sk.
func at(o dynamotest.OtherWriter, sk string) dynamotest.OtherWriter {
	return o.At(dynamo.Item{"PK": o.Key["PK"], "SK": s(sk)})
}

// The races in the UI, through Update with the real client and
// writer: the item is read into the items pane, edited, and between the
// confirmation and DynamoDB Local the proxy lets a second writer change it.
// Each case ends with the other writer's change intact — the refusal
// screen, nothing written; or written around it — and u after it takes
// back only the UI's own change, if any.
func TestEditingAgainstASecondWriter(t *testing.T) {
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.PKSK())
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	const sk = "ORDER#2025-01-09#A11"
	// Keys; "=TEXT" is typed.
	addStatus := []string{"a", "=status", "tab", "ctrl+u", "=S", "tab", "=SHIPPED", "enter"}
	for i, tc := range []struct {
		name    string
		keys    []string // from the items pane; "=TEXT" is typed, the item under the cursor, up to the confirmation
		other   func(o dynamotest.OtherWriter) error
		checkAt string // the key whose item the other writer's change is checked at; "" for the item read
		ours    func(it dynamo.Item)
		rows    int    // attributes the refusal screen lists: only those that differ
		now     string // a value of now the refusal screen shows
	}{
		{name: "the attribute being added was added", keys: append([]string{"E"}, addStatus...),
			other: func(o dynamotest.OtherWriter) error { return o.Set("status", s("CANCELLED")) }, rows: 1, now: `S "CANCELLED"`},
		{name: "the attribute being changed was changed", keys: []string{"E", "j", "j", "j", "enter", "ctrl+u", "=25", "enter"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("total", n("30")) }, rows: 1, now: "N 30"},
		{name: "the attribute being removed was changed", keys: []string{"E", "j", "j", "x"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("note", s("urgent")) }, rows: 1, now: `S "urgent"`},
		{name: "the item was deleted", keys: append([]string{"E"}, addStatus...),
			other: func(o dynamotest.OtherWriter) error {
				return o.Delete()
			}, rows: 5, now: "the item no longer exists"},
		{name: "the item was replaced", keys: append([]string{"E"}, addStatus...),
			other: func(o dynamotest.OtherWriter) error {
				return o.Put(dynamo.Item{"PK": o.Key["PK"], "SK": o.Key["SK"], "total": n("20"), "status": s("NEW")})
			}, rows: 2, now: `S "NEW"`},
		{name: "an unrelated attribute was added", keys: append([]string{"E"}, addStatus...),
			other: func(o dynamotest.OtherWriter) error { return o.Set("flag", s("theirs")) },
			ours:  func(it dynamo.Item) { it["status"] = s("SHIPPED") }},
		{name: "delete: an attribute read was changed", keys: []string{"D"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("total", n("30")) }, rows: 1, now: "N 30"},
		{name: "duplicate: the new key was taken", keys: []string{"d", "j", "enter", "ctrl+u", "=ORDER#dup", "enter"},
			other: func(o dynamotest.OtherWriter) error {
				return at(o, "ORDER#dup").Put(dynamo.Item{"PK": o.Key["PK"], "SK": s("ORDER#dup"), "total": n("99")})
			},
			checkAt: "ORDER#dup", rows: 4, now: "N 99"},
		{name: "key change: an attribute read was changed", keys: []string{"E", "j", "enter", "ctrl+u", "=ORDER#moved", "enter"},
			other: func(o dynamotest.OtherWriter) error { return o.Set("note", s("urgent")) }, rows: 2, now: `S "urgent"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			pk := fmt.Sprintf("CUST#race-%d", i)
			o := dynamotest.OtherWriter{SDK: sdk, Table: table, Key: dynamo.Item{"PK": s(pk), "SK": s(sk)}}
			if err := o.Put(dynamo.Item{"PK": s(pk), "SK": s(sk), "total": n("20"), "note": s("gift")}); err != nil {
				t.Fatal(err)
			}
			client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true})
			if err != nil {
				t.Fatal(err)
			}
			j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			w, err := edit.Open(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Timeout: 5 * time.Second}, true, j)
			if err != nil {
				t.Fatal(err)
			}
			hs := newHarnessOn(t, Options{Store: newPrefetchStore(ctx, client, table, "", pk, config.Settings{}, 35), Editor: w,
				Table: table, PK: pk, Region: "us-east-1", Endpoint: p.URL}, 120, 35)
			hs.contains("Items · 1 loaded")
			hs.keys("tab")
			for _, k := range tc.keys {
				if text, ok := strings.CutPrefix(k, "="); ok {
					hs.typeText(text)
				} else {
					hs.keys(k)
				}
			}
			hs.keys("w")
			hs.contains("Write · shown before it is sent")
			check := o
			if tc.checkAt != "" {
				check = at(o, tc.checkAt)
			}
			var theirs dynamo.Item
			sw := p.BeforeNextWrite(t, func() error {
				err := tc.other(o)
				theirs = check.Get(t)
				return err
			})
			hs.keys("y")
			if !sw.Ran() {
				t.Fatalf("the second writer did not run before the write:\n%s", hs.screen())
			}
			if testing.Verbose() {
				t.Log("\n" + hs.screen())
			}
			want := maps.Clone(theirs)
			if tc.ours == nil {
				hs.contains("Write · refused: nothing was written", tc.now)
				rows, in := 0, false
				for _, l := range strings.Split(hs.screen(), "\n") {
					if widget.Width(l) > 120 {
						t.Errorf("a line of %d columns: %s", widget.Width(l), l)
					}
					switch {
					case strings.Contains(l, "attribute  as read"):
						in = true
					case strings.Contains(l, "changed by someone else since the read"), strings.Contains(l, "no longer exists"):
						in = false
					case in:
						rows++
					}
				}
				if rows != tc.rows {
					t.Errorf("the refusal screen lists %d attributes, want %d:\n%s", rows, tc.rows, hs.screen())
				}
			} else {
				hs.contains("Write · done", "written:")
				tc.ours(want)
			}
			if got := check.Get(t); !edit.SameItem(got, want) {
				t.Fatalf("after the write: %s, want %s\n%s", edit.ItemText(got), edit.ItemText(want), hs.screen())
			}
			if tc.checkAt == "" && at(o, "ORDER#moved").Get(t) != nil {
				t.Fatal("the refused key change wrote its new item")
			}

			// u: a refused write left nothing to undo; a write that went
			// through is taken back, and only it.
			hs.keys("esc", "esc")
			hs.keys("u")
			if tc.ours == nil {
				hs.contains("nothing to undo")
			} else {
				hs.contains("undo of write 1")
				hs.keys("y")
				hs.contains("Write · done")
			}
			if got := check.Get(t); !edit.SameItem(got, theirs) {
				t.Errorf("after u: %s, want the other writer's %s", edit.ItemText(got), edit.ItemText(theirs))
			}
		})
	}
}
