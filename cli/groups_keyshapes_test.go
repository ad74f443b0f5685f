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

// groupsOf runs `groups` on a partition and returns its groups as
// "entity[prefix]=count" (count "-" when not counted), and the request count.
func groupsOf(t *testing.T, ep, table, pk string, extra ...string) (got []string, requests int, complete bool) {
	t.Helper()
	out, _, err := cli(t, append([]string{"groups", "--endpoint-url", ep, "--table", table, "--pk", pk}, extra...)...)
	if err != nil {
		t.Fatalf("groups %s: %v", pk, err)
	}
	var o struct {
		Groups []struct {
			Entity, Prefix string
			Count          *int
		}
		Requests int
		Complete bool
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	for _, g := range o.Groups {
		c := "-"
		if g.Count != nil {
			c = fmt.Sprint(*g.Count)
		}
		got = append(got, fmt.Sprintf("%s[%s]=%s", g.Entity, g.Prefix, c))
	}
	return got, o.Requests, o.Complete
}

// The key shapes of issue 29, from fixtures of our own loaded into DynamoDB
// Local, each grouped as a practitioner names it: a migration's three
// delimiters in one partition (before: ORDER# and 20 one-item ORDER|
// types, and the budget ran out), a bare label beside the label with a
// suffix (before: two groups both called METADATA), compact ISO times
// (before: "value"), a two-character delimiter (before: the family pass:*),
// letter-led ids and a list of user names (before: a type each), and a
// table with a partition key only (before: no items). No two groups share
// a name (before: ORDER and ORDER, META and META): the partition's own
// delimiter keeps the plain name, the others are named by their prefix.
func TestGroupsKeyShapes(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	table := dynamotest.UniqueName("shapes")
	t.Cleanup(func() { deleteTables(table) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", "testdata/keyshapes/keyshapes.jsonl"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		pk      string
		want    string
		maxReqs int
	}{
		{"CUST#mig", "ORDER[ORDER#]=- ORDER|[ORDER|]=- PROFILE[PROFILE]=- order[order/]=-", 8},
		{"VIN#mig", "#META#[#META#]=- META[META#]=- ORDER[ORDER#]=- ORDER/[ORDER/]=- ORDER|[ORDER|]=-", 7},
		{"DOC#1", "METADATA[METADATA#]=- TYPES[TYPES#]=-", 7},
		{"SENSOR#1", "timestamp[]=-", 3},
		{"pass::0007", "seat[seat::]=-", 3},
		// Letter-led hex ids beside digit-led ones (before: "hex id" then
		// one type per letter-led id), and user names under a list.
		{"TAGS#1", "hex id[]=-", 6},
		{"MEET#1#ATTENDEES", "name[]=-", 5},
		// Version rows (DynamoDB's version-history pattern) are one value
		// group, not a type per version (issue 36.7).
		{"ITEM#ver", "PROFILE[PROFILE]=- version[]=-", 1},
	}
	for _, c := range cases {
		got, reqs, complete := groupsOf(t, ep, table, c.pk)
		if strings.Join(got, " ") != c.want || !complete || reqs > c.maxReqs {
			t.Errorf("groups %s: %q in %d requests (complete %v); want %q in at most %d", c.pk, got, reqs, complete, c.want, c.maxReqs)
		}
	}
	// Counted, the bare label is in its type's count.
	if got, _, _ := groupsOf(t, ep, table, "DOC#1", "--count"); strings.Join(got, " ") != "METADATA[METADATA#]=3 TYPES[TYPES#]=2" {
		t.Errorf("groups DOC#1 --count: %q", got)
	}
	if got, _, _ := groupsOf(t, ep, table, "TAGS#1", "--count"); strings.Join(got, " ") != "hex id[]=6" {
		t.Errorf("groups TAGS#1 --count: %q", got)
	}
	if got, _, _ := groupsOf(t, ep, table, "CUST#mig", "--count"); strings.Join(got, " ") != "ORDER[ORDER#]=3 ORDER|[ORDER|]=20 PROFILE[PROFILE]=1 order[order/]=3" {
		t.Errorf("groups CUST#mig --count: %q", got)
	}
	out, _, err := cli(t, "layout", "--endpoint-url", ep, "--table", table, "--output", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pass::*", "METADATA 3 · TYPES 2", "timestamp 4", "ORDER 3 · ORDER| 20 · PROFILE 1 · order 3",
		"#META# 1 · META 1 · ORDER 1 · ORDER/ 1 · ORDER| 1", "hex id 6", "name 4", "PROFILE 1 · version 4"} {
		if !strings.Contains(out, want) {
			t.Errorf("layout lacks %q:\n%s", want, out)
		}
	}

	only := dynamotest.UniqueName("pkonly")
	t.Cleanup(func() { deleteTables(only) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", only, "--file", "testdata/keyshapes/pkonly.jsonl", "--pk-name", "id"); err != nil {
		t.Fatal(err)
	}
	if got, reqs, complete := groupsOf(t, ep, only, "user-7"); strings.Join(got, " ") != "user[]=1" || reqs != 1 || !complete {
		t.Errorf("groups on a partition key only: %q in %d requests (complete %v); want the one item in 1", got, reqs, complete)
	}
	out, _, err = cli(t, "layout", "--endpoint-url", ep, "--table", only, "--output", "table")
	if err != nil || !strings.Contains(out, "user 2") {
		t.Errorf("layout on a partition key only: %v\n%s", err, out)
	}
}

// Letter-led ids past the first page are read one request each: groups
// says so in one line, in its text and in its JSON.
func TestGroupsSteppedNote(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	table := dynamotest.UniqueName("stepped")
	t.Cleanup(func() { deleteTables(table) })
	var b strings.Builder
	for i := range 160 {
		h := uint64(i+1) * 0x9E3779B97F4A7C15 >> 20
		fmt.Fprintf(&b, "{\"PK\": \"TAGS#1\", \"SK\": \"%c%011x\"}\n", "0123456789abcdef"[i%16], h)
	}
	file := filepath.Join(t.TempDir(), "tags.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", file); err != nil {
		t.Fatal(err)
	}
	out, _, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "TAGS#1")
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ Note string }
	if err := json.Unmarshal([]byte(out), &o); err != nil || !strings.HasPrefix(o.Note, "the skip-scan cannot jump letter-led ids in one step (hex id)") {
		t.Errorf("groups JSON note %q (%v):\n%s", o.Note, err, out)
	}
	out, _, err = cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "TAGS#1", "--output", "table")
	if err != nil || strings.Count(out, "\nnote: the skip-scan cannot jump letter-led ids in one step (hex id)") != 1 {
		t.Errorf("groups text (%v):\n%s", err, out)
	}
	// A partition the first page holds needs no walk, and no note.
	out, _, _ = cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "TAGS#none")
	if strings.Contains(out, "note") {
		t.Errorf("an empty partition has a note:\n%s", out)
	}
}
