package cli

import (
	"regexp"
	"strings"
	"testing"
)

// One table has one figure (issue 36.8). On the demo table the scan bound
// was 450 RCU in one segment and 451.5 in four, and a PartiQL Query of one
// partition announced the whole table's 450 without saying why. Now the
// scan in one to four segments (the table's 1 MB pages), the query
// --all-pages and the PartiQL Query plan announce the same figure; the
// Query plan says why it is the table's, and one that fixes the whole
// primary key is bounded by one item.
func TestOneFigurePerTable(t *testing.T) {
	table, ep := seededDemo(t)
	bound := regexp.MustCompile(`→ predicted ≤ ([0-9.]+) RCU`)
	figure := func(what, stderr string) string {
		t.Helper()
		m := bound.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("%s announced no bound: %q", what, stderr)
		}
		return m[1]
	}
	var figures []string
	for _, segs := range []string{"1", "2", "4"} {
		// Without --yes the scan only announces: nothing is read.
		_, stderr, err := cli(t, "scan", "--endpoint-url", ep, "--table", table, "--segments", segs)
		if err == nil || strings.Contains(stderr, "(the table's") {
			t.Errorf("scan in %s segments: %v, %q", segs, err, stderr)
		}
		figures = append(figures, figure("scan --segments "+segs, stderr))
	}
	_, stderr, err := cli(t, "partiql", `SELECT PK, SK FROM "`+table+`" WHERE PK = 'CUST#42'`, "--endpoint-url", ep, "--output", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "\nat most the whole table, as a Query reads one partition and DynamoDB tells no partition's size before it is read: 21073 items / 3.5 MiB → predicted ≤ ") {
		t.Errorf("the Query plan's bound does not say why: %q", stderr)
	}
	figures = append(figures, figure("partiql", stderr))
	_, stderr, err = cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--all-pages")
	if err != nil {
		t.Fatal(err)
	}
	figures = append(figures, figure("query --all-pages", stderr))
	for _, f := range figures {
		if f != figures[0] {
			t.Errorf("one table, several figures: %v", figures)
			break
		}
	}
	if figures[0] != "451" {
		t.Errorf("the demo table's figure is %s RCU, want 451 (896 units, and 6 pages' rounding)", figures[0])
	}

	// Eight segments, more than the table's four 1 MB pages: the table's
	// figure, and what the further pages add.
	_, stderr, _ = cli(t, "scan", "--endpoint-url", ep, "--table", table, "--segments", "8")
	if !strings.Contains(stderr, "→ predicted ≤ 453 RCU (the table's 451, and 2 for 8 segments, each ending on a page of its own)") {
		t.Errorf("8 segments: %q", stderr)
	}

	// The whole primary key: one item at most.
	out, stderr, err := cli(t, "partiql", `SELECT * FROM "`+table+`" WHERE PK = 'CUST#42' AND SK = 'PROFILE'`, "--endpoint-url", ep, "--output", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "WHERE fixes the partition key PK = 'CUST#42' and the sort key SK = 'PROFILE')\n") ||
		!strings.Contains(stderr, "\nat most one item, as WHERE fixes the whole primary key → predicted ≤ 50 RCU, what DynamoDB's largest item (400 KB) costs") ||
		strings.Count(out, "\n") != 1 {
		t.Errorf("full key: %q\n%s", stderr, out)
	}
}
