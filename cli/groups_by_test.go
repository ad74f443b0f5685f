package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// groupsByAttr runs `groups --by attribute:NAME` and returns its groups as
// "value=count first..last" (value "null" for the items without it), the
// request count, whether it says complete, and its stderr.
func groupsByAttr(t *testing.T, ep, table, pk, attr string) (got string, requests int, stderr string) {
	t.Helper()
	out, stderr, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", pk, "--by", "attribute:"+attr)
	if err != nil {
		t.Fatalf("groups %s --by attribute:%s: %v", pk, attr, err)
	}
	var o struct {
		Attribute string
		Groups    []struct {
			Value       *string
			Count       int
			First, Last string
		}
		Complete bool
		Requests int
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.Attribute != attr || !o.Complete {
		t.Errorf("groups %s --by attribute:%s: attribute %q, complete %v", pk, attr, o.Attribute, o.Complete)
	}
	var parts []string
	for _, g := range o.Groups {
		v := "null"
		if g.Value != nil {
			v = *g.Value
		}
		parts = append(parts, fmt.Sprintf("%s=%d %s..%s", v, g.Count, g.First, g.Last))
	}
	return strings.Join(parts, ", "), o.Requests, stderr
}

// An OnlineShop-like partition whose items carry EntityType (a fixture of
// our own, AWS's key shapes: c#, i#, p#, sh#, shp#): grouped by it from one
// announced read, and offered by a note when groups runs without --by
// (before: no second grouping, and --by did not exist).
func TestGroupsByEntityAttribute(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	table := dynamotest.UniqueName("entitytype")
	t.Cleanup(func() { deleteTables(table) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", "testdata/keyshapes/entitytype.jsonl"); err != nil {
		t.Fatal(err)
	}
	got, reqs, stderr := groupsByAttr(t, ep, table, "o#1001", "EntityType")
	want := "order=1 c#501..c#501, invoice=1 i#7001..i#7001, orderItem=3 p#301..p#303, shipment=1 sh#9001..sh#9001, shipmentItem=2 shp#301..shp#302"
	if got != want || reqs != 1 {
		t.Errorf("o#1001 by EntityType: %q in %d requests; want %q in 1", got, reqs, want)
	}
	if !strings.Contains(stderr, "--by attribute:EntityType reads every item of the partition: at most the whole table") {
		t.Errorf("the whole read's bound is not announced first: %q", stderr)
	}
	// An item written before the attribute was is a group of its own.
	if got, _, _ := groupsByAttr(t, ep, table, "o#1002", "EntityType"); got != "order=1 c#502..c#502, orderItem=1 p#301..p#301, null=1 p#399..p#399" {
		t.Errorf("o#1002 by EntityType: %q", got)
	}
	// Without --by: a note names the attribute when every item of the first
	// page has it, and none when one item lacks it; no request more.
	note := "note: every item of the first page has EntityType, with few values; --by attribute:EntityType groups by it"
	for pk, wantNote := range map[string]bool{"o#1001": true, "o#1002": false} {
		out, stderr, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", pk)
		if err != nil {
			t.Fatalf("groups %s: %v", pk, err)
		}
		var o struct{ Requests int }
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stderr, note) != wantNote || strings.Count(stderr, "\n") > 1 || o.Requests != 1 {
			t.Errorf("groups %s: stderr %q in %d requests; want the note %v, in 1 request", pk, stderr, o.Requests, wantNote)
		}
	}
	// --count's whole read shows the note from its first page too.
	if _, stderr, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "o#1001", "--count"); err != nil || !strings.Contains(stderr, note) {
		t.Errorf("groups o#1001 --count: %v, stderr %q; want the note", err, stderr)
	}
	// A --by that is neither sk nor attribute:NAME is a usage error.
	for _, by := range []string{"foo", "attribute:", "entity"} {
		_, _, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "o#1001", "--by", by)
		if err == nil || exitCode(false, err) != 2 || !strings.Contains(err.Error(), "--by must be sk or attribute:NAME") {
			t.Errorf("--by %s: %v (exit %d); want a usage error", by, err, exitCode(false, err))
		}
	}
	// The sort-key grouping's own flags do nothing for an attribute: refused.
	for _, f := range [][]string{{"--count"}, {"--delimiter", "#"}, {"--max-requests", "3"}} {
		_, _, err := cli(t, append([]string{"groups", "--endpoint-url", ep, "--table", table, "--pk", "o#1001", "--by", "attribute:EntityType"}, f...)...)
		if err == nil || exitCode(false, err) != 2 || !strings.Contains(err.Error(), f[0]+" is for the sort-key grouping") {
			t.Errorf("--by attribute %s: %v; want a usage error", f[0], err)
		}
	}
	// --by sk is today's grouping by sort-key prefix.
	if got, _, _ := groupsOf(t, ep, table, "o#1002", "--by", "sk"); strings.Join(got, " ") != "c[c#]=- p[p#]=-" {
		t.Errorf("--by sk: %q", got)
	}
}

// AWS's published OnlineShop model carries EntityType on every item: its
// order partition groups by it as the model's authors name its entities.
func TestGroupsByEntityAttributeOnlineShop(t *testing.T) {
	model := filepath.Join(realModels, "amazon-dynamodb-design-patterns/AnOnlineShop_14.json")
	if _, err := os.Stat(model); err != nil {
		t.Skip("../shared/real-models is not beside this clone (from cli/, ../../shared); the published OnlineShop model is not tested.")
	}
	ep := dynamotest.Endpoint(t)
	prefix := dynamotest.UniqueName("shop") + "-"
	table := prefix + "OnlineShop"
	t.Cleanup(func() { deleteTables(table) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--workbench", model, "--table-prefix", prefix); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "o#12345")
	if err != nil || !strings.Contains(stderr, "--by attribute:EntityType") {
		t.Errorf("groups o#12345: %v, stderr %q; want the note naming EntityType", err, stderr)
	}
	got, _, _ := groupsByAttr(t, ep, table, "o#12345", "EntityType")
	want := "order=1 c#12345..c#12345, invoice=1 i#55443..i#55443, orderItem=2 p#12345..p#99887, shipment=2 sh#88899..sh#98765, shipmentItem=3 shp#12345..shp#55555"
	if got != want {
		t.Errorf("o#12345 by EntityType: %q; want %q", got, want)
	}
}
