package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
)

// Ctrl-C (the run's context cancelled) while the second page of a Scan
// hangs: it ends at once, the first page is printed with stop "cancelled"
// and the key the segment would go on from, and the exit is an error that
// says so. The same for a PartiQL Scan.
func TestCLIScanCancelledKeepsWhatWasRead(t *testing.T) {
	table, ep := seededDemo(t)
	for _, tc := range []struct {
		op   string
		args []string
	}{
		{"Scan", []string{"scan", "--table", table, "--limit", "25", "--yes"}},
		{"ExecuteStatement", []string{"partiql", `SELECT * FROM "` + table + `"`, "--yes"}},
	} {
		proxy := dynamotest.StartProxy(t, ep)
		proxy.Inject(dynamotest.Rule{Op: tc.op, From: 2, Fault: dynamotest.Hang})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for proxy.Count(tc.op) < 2 {
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(100 * time.Millisecond)
			cancel()
		}()
		var out, errb bytes.Buffer
		began := time.Now()
		err := run(ctx, append(tc.args, "--endpoint-url", proxy.URL), &out, &errb)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "stopped by Ctrl-C: the output holds the") {
			t.Fatalf("%s: error %v\n%s", tc.op, err, errb.String())
		}
		if d := time.Since(began); d > 12*time.Second { // a hang not cancelled runs into the 15 s default time-out; a loaded machine may take seconds
			t.Errorf("%s: took %v", tc.op, d)
		}
		var res struct {
			Items  []json.RawMessage
			Count  int
			Pages  int
			Stop   string
			Resume json.RawMessage
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%s: %v\n%s", tc.op, err, out.String())
		}
		if res.Stop != "cancelled" || res.Count == 0 || len(res.Items) != res.Count || string(res.Resume) == "null" {
			t.Errorf("%s: stop %q, %d items (count %d), resume %s", tc.op, res.Stop, len(res.Items), res.Count, res.Resume)
		}
		if !strings.Contains(errb.String(), "stopped by Ctrl-C after") {
			t.Errorf("%s: stderr %s", tc.op, errb.String())
		}
	}
}
