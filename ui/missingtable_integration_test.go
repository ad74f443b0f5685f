package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"dynascope/dynamo/dynamotest"
)

// 37.8 against DynamoDB Local: a table name one letter off opens the
// picker with the real table offered and selected, having sent one
// ListTables and DescribeTable calls alone (no item read); quitting there
// ends the program with the sentence, and enter opens the table offered.
func TestMissingTableAgainstDynamoDBLocal(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	wrong := table + "s"

	start := func() (*teatest.TestModel, *dynamotest.Tap) {
		client, _, tap := localClient(t, ep)
		m := New(Options{Store: client, Table: wrong, Region: "us-east-1", Endpoint: ep, ConfigDir: t.TempDir()})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 35),
			teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
		t.Cleanup(func() { _ = tm.Quit() })
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("did you mean")) },
			teatest.WithDuration(20*time.Second))
		return tm, tap
	}

	tm, tap := start()
	tm.Send(keyPress("esc"))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	if name, _ := final.picker.Selected(); name != table || final.picker.Suggested != table {
		t.Fatalf("selected %q, suggested %q; want %s", name, final.picker.Suggested, table)
	}
	err := final.quitError()
	if err == nil || !strings.Contains(err.Error(), "describe table "+wrong+": the table or index does not exist") ||
		!strings.Contains(err.Error(), `did you mean "`+table+`"?`) {
		t.Fatalf("quitting from the picker: %v, want the sentence and the suggestion", err)
	}
	lists := 0
	for _, x := range tap.Exchanges("") {
		switch x.Op {
		case "ListTables":
			lists++
		case "DescribeTable":
		default:
			t.Errorf("%s sent; the picker of a missing table reads no items", x.Op)
		}
	}
	if lists != 1 {
		t.Errorf("%d ListTables, want 1", lists)
	}

	tm, _ = start()
	tm.Send(keyPress("enter"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("(string) of table")) },
		teatest.WithDuration(20*time.Second))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final = tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	if final.table.Name != table {
		t.Fatalf("enter opened %q, want %s", final.table.Name, table)
	}
	if err := final.quitError(); err != nil {
		t.Fatalf("quitting with the table open: %v, want no error", err)
	}
}
