package cli

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// The write that lands after dynascope gave up, on the command
// line: a slow link holds put, update or delete past --timeout and
// delivers it to DynamoDB Local a second later. dynascope says the write
// is in doubt (never "nothing was written"), exits 1 with the one sentence,
// the journal shows it IN DOUBT, and once it has landed undo takes it back;
// the journal then shows it done.
func TestWriteInDoubtOnTheCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		op     string
		args   []string
		landed string // the status once the write landed; "" for no item
	}{
		{"update", "UpdateItem", []string{"update", "--set", "status=S:SHIPPED"}, "SHIPPED"},
		{"delete", "DeleteItem", []string{"delete"}, ""},
		{"put", "PutItem", []string{"put", "--set", "status=S:NEW"}, "NEW"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sdk, table := orderTable(t)
			if tc.op == "PutItem" {
				if _, err := sdk.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: orderKey()}); err != nil {
					t.Fatal(err)
				}
			}
			p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
			late := dynamotest.DeliverLate(2 * time.Second)
			p.Inject(dynamotest.Rule{Op: tc.op, Count: 1, Fault: late})
			args := append([]string{tc.args[0], "--endpoint-url", p.URL, "--timeout", "1s", "--table", table, "--pk", "CUST#42", "--sk", "ORDER#1", "--allow-writes"}, tc.args[1:]...)
			out, _, err := cli(t, args...)
			if err == nil {
				t.Fatalf("a write with no answer exited 0:\n%s", out)
			}
			msg := err.Error()
			for _, text := range []string{out, msg} {
				if strings.Contains(text, "nothing was written") || strings.Contains(text, "0 WCU") {
					t.Errorf("a write in doubt called unwritten, or free:\n%s", text)
				}
			}
			if !strings.HasPrefix(out, "no answer: "+tc.op+" on "+table+", PK = CUST#42, SK = ORDER#1 may still be applied\n") ||
				!strings.Contains(out, "units: unknown, no answer came; if it lands, AWS charges the 1 WCU predicted\n") ||
				!strings.Contains(out, "journal: entry 1 in ") || !strings.Contains(out, ", in doubt; 'dynascope journal' shows it, 'dynascope undo --entry 1 --allow-writes' takes it back once it has landed\n") {
				t.Errorf("the output:\n%s", out)
			}
			if !strings.HasPrefix(msg, tc.op+" on "+table+": no answer within the time-out: it may still be applied; 'dynascope journal' shows it as entry 1") || len(msg) > 300 {
				t.Errorf("the sentence (%d characters): %s", len(msg), msg)
			}
			jout, _, err := cli(t, "journal")
			if err != nil || !strings.Contains(jout, ": IN DOUBT (no answer: it may have been applied), WCU unknown\n") {
				t.Errorf("journal: %v\n%s", err, jout)
			}
			if !late.WaitLanded(10 * time.Second) {
				t.Fatal("the held write never reached DynamoDB Local")
			}
			if got := status(t, sdk, table); got != tc.landed {
				t.Fatalf("after the late write: %q, want %q", got, tc.landed)
			}
			uout, _, err := cli(t, "undo", "--endpoint-url", p.URL, "--entry", "1", "--allow-writes")
			if err != nil {
				t.Fatalf("undo of the landed write: %v\n%s", err, uout)
			}
			want := "OPEN" // as it was: the order read, or none before the put
			if tc.op == "PutItem" {
				want = ""
			}
			if got := status(t, sdk, table); got != want {
				t.Errorf("after the undo: %q, want %q", got, want)
			}
			jout, _, _ = cli(t, "journal")
			if !strings.Contains(jout, ": done, WCU unknown, undone by 2\n") {
				t.Errorf("journal after the undo:\n%s", jout)
			}
		})
	}
}

// A write in doubt as JSON: written null (not false), consumedWCU null
// with a note, the journal entry and its state.
func TestWriteInDoubtAsJSON(t *testing.T) {
	_, table := orderTable(t)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: dynamotest.DeliverLate(2 * time.Second)})
	out, _, err := cli(t, "update", "--endpoint-url", p.URL, "--timeout", "1s", "--table", table, "--pk", "CUST#42", "--sk", "ORDER#1",
		"--set", "status=S:SHIPPED", "--allow-writes", "--output", "json")
	if err == nil {
		t.Fatal("exit 0")
	}
	var res struct {
		State       string
		Written     *bool
		ConsumedWCU *float64
		Notes       []string
		Journal     struct {
			Entry int
			State string
		}
	}
	if jerr := json.Unmarshal([]byte(out), &res); jerr != nil {
		t.Fatalf("%v: %s", jerr, out)
	}
	if res.State != "in doubt" || res.Written != nil || res.ConsumedWCU != nil || res.Journal.Entry != 1 || res.Journal.State != "in doubt" ||
		len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "may still be applied, and its units are unknown") || !strings.Contains(out, `"written": null`) {
		t.Errorf("in doubt as JSON: %+v\n%s", res, out)
	}
}

// The run killed while its write is in flight (SIGKILL: no mark, no
// last word): the journal entry written before the request went out is
// in doubt on the next run, says that no answer was recorded, and undo
// works whether the write landed or not.
func TestWriteJournalledBeforeAKill(t *testing.T) {
	for _, lands := range []bool{true, false} {
		name := map[bool]string{true: "the write lands", false: "the write never lands"}[lands]
		t.Run(name, func(t *testing.T) {
			sdk, table := orderTable(t)
			p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
			var late *dynamotest.LateDelivery
			if lands {
				late = dynamotest.DeliverLate(time.Second)
				p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: late})
			} else {
				p.Inject(dynamotest.Rule{Op: "UpdateItem", Count: 1, Fault: dynamotest.Hang})
			}
			_, stderr, code := signalAfter(t, p, "UpdateItem", 1, syscall.SIGKILL, "update", "--endpoint-url", p.URL, "--table", table,
				"--pk", "CUST#42", "--sk", "ORDER#1", "--set", "status=S:SHIPPED", "--allow-writes")
			if code != -1 { // killed: no exit status of its own
				t.Errorf("status %d after SIGKILL; stderr %s", code, stderr)
			}
			jout, _, err := cli(t, "journal")
			if err != nil || !strings.Contains(jout, "1  ") || !strings.Contains(jout, "UpdateItem PK = CUST#42, SK = ORDER#1 on "+table) ||
				!strings.Contains(jout, ": IN DOUBT (no answer was recorded: the run ended before it came), WCU unknown\n") ||
				!strings.Contains(jout, `     ~ status: S "OPEN" → S "SHIPPED"`) {
				t.Fatalf("journal after the kill: %v\n%s", err, jout)
			}
			if lands && !late.WaitLanded(10*time.Second) {
				t.Fatal("the held write never landed")
			}
			want := map[bool]string{true: "SHIPPED", false: "OPEN"}[lands]
			if got := status(t, sdk, table); got != want {
				t.Fatalf("status %q, want %q", got, want)
			}
			p.ClearFaults()
			uout, _, err := cli(t, "undo", "--endpoint-url", p.URL, "--allow-writes")
			switch {
			case lands && err != nil:
				t.Errorf("undo of the write that landed: %v\n%s", err, uout)
			case !lands && (err == nil || !strings.HasPrefix(err.Error(), "nothing to undo: journal entry 1 has not landed") || !strings.HasPrefix(uout, "not undone: ")):
				t.Errorf("undo of the write that never landed: %v\n%s", err, uout)
			}
			if got := status(t, sdk, table); got != "OPEN" {
				t.Errorf("after the undo: %q", got)
			}
		})
	}
}

func orderKey() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#1"}}
}
