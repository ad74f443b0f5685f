package cli

import (
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// 40.2: --rename and --set-default change many items, so on one item
// (--pk and --sk, no selector) update refuses them in one sentence that
// says what to give instead: with or without --allow-writes, --yes or
// --dry-run, before anything connects (not one request reaches the
// proxy), and the item is left as it was.
func TestSingleItemUpdateRefusesRenameAndDefault(t *testing.T) {
	sdk, table := bulkTable(t, 2, 0)
	before := tableImage(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	const want = "--rename and --set-default change many items: give a sort-key condition, --entity, --filter, --index or --keys (for one item, --set and --remove)."
	for _, change := range [][]string{{"--rename", "note=remark"}, {"--set-default", "tier=S:basic"}, {"--rename", "note=remark", "--set-default", "tier=S:basic", "--set", "status=S:X"}} {
		for _, extra := range [][]string{nil, {"--allow-writes"}, {"--dry-run"}, {"--allow-writes", "--output", "json"}} {
			args := slices.Concat([]string{"update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--sk", "ORDER#0001"}, change, extra)
			out, _, err := cli(t, args...)
			if err == nil || err.Error() != want {
				t.Errorf("%v: %v, want %q", args, err, want)
			}
			if strings.TrimSpace(out) != "" {
				t.Errorf("%v printed %q, want nothing on stdout", args, out)
			}
		}
	}
	if calls := p.Calls(); len(calls) != 0 {
		t.Errorf("%d requests reached DynamoDB (%v), want none: the refusal comes before connecting", len(calls), p.Ops())
	}
	if after := tableImage(t, sdk, table); !slices.Equal(before, after) {
		t.Error("a refused single-item update changed the table")
	}
}
