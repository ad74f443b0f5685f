package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// The UI's paged reads send exactly the requests they sent before the
// reader moved into dynamo: opening the demo's CUST#7, G to its end, the
// reverse order and G again, a Limit and n twice, a count of the partition
// and of ORDER. Each Query as it left (Limit, ExclusiveStartKey, order,
// Select) and what DynamoDB Local answered, off the wire; the skip-scan's
// Limit 1 requests, which run side by side, are left out (their own tests
// pin them). Update with -update, only where a change of requests is
// intended.
func TestPagedReadRequestsUI(t *testing.T) {
	table, ep := demoTable(t)
	client, _, tap := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#7", Region: "us-east-1", Endpoint: ep}, 120, 35)
	var rec bytes.Buffer
	mark := 0
	step := func(what string, keys ...string) {
		hs.keys(keys...)
		fmt.Fprintf(&rec, "## %s: %s\n", what, strings.Join(keys, " "))
		xs := tap.Exchanges("Query")
		for _, x := range xs[mark:] {
			var in struct{ Limit int }
			_ = json.Unmarshal(x.Request, &in)
			if in.Limit == 1 {
				continue
			}
			fmt.Fprintln(&rec, x.Record(table))
		}
		mark = len(xs)
		fmt.Fprintf(&rec, "status: %s\n", strings.ReplaceAll(hs.m.status.Info+hs.m.status.Err, table, "TABLE"))
	}
	step("open")
	step("to the end", "tab", "G")
	step("further", "G")
	step("reverse", "r", "G")
	step("limit", "l", "5", "0", "0", "enter", "n", "n")
	step("count the partition", "tab", "g", "#", "y")
	step("count ORDER", "j", "#", "y")
	golden.RequireEqual(t, rec.Bytes())
}
