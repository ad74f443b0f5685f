package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// Arguments become check's options through runF, with no network.
func TestNewCheckCmd(t *testing.T) {
	def := checkRunOptions{File: "dynascope.yaml", MaxItems: dynamo.DefaultSampleItems, MaxRCU: dynamo.DefaultSampleRCU, Output: "text"}
	with := func(f func(*checkRunOptions)) checkRunOptions { o := def; f(&o); return o }
	checkOptions(t, newCheckCmd, func(o *checkRunOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, []optionsCase[checkRunOptions]{
		{args: nil, want: def},
		{args: []string{"--table", "App", "--patterns", "ci.yaml", "--max-rcu", "500", "--max-items", "30000", "--output", "junit"},
			want: with(func(o *checkRunOptions) {
				o.Table, o.File, o.MaxRCU, o.MaxItems, o.Output = "App", "ci.yaml", 500, 30000, "junit"
			})},
		{args: []string{"--output", "github"}, want: with(func(o *checkRunOptions) { o.Output = "github" })},
		{args: []string{"--output", "json"}, want: with(func(o *checkRunOptions) { o.Output = "json" })},
		{args: []string{"--output", "table"}, usage: "--output takes text, json, junit or github"},
		{args: []string{"--max-rcu", "0.4"}, usage: "--max-rcu must be at least 0.5"},
		{args: []string{"--max-items", "0"}, usage: "--max-items must be a positive number, not 0"},
		{args: []string{"App"}, usage: "unexpected argument"},
	})
}

// checkFile writes a patterns file for check into a folder of the test's
// own and returns its path.
func checkFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ceilingsFile is two of the demo's patterns with ceilings: the latest
// order costs 0.5 RCU and returns a 38-byte item on the demo; the profile
// of CUST#42 is 25 bytes.
func ceilingsFile(table, maxRCU, maxItem string) string {
	return `table: ` + table + `
patterns:
  - name: latest order
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    reverse: true
    limit: 1
    maxRCU: ` + maxRCU + `
    example: {customerId: "42"}
  - name: customer profile
    pk: "CUST#{customerId}"
    sk: {eq: "PROFILE"}
    maxItemBytes: ` + maxItem + `
    example: {customerId: "42"}
`
}

type ciCheckJSON struct {
	Table    string `json:"table"`
	Patterns []struct {
		Name        string   `json:"name"`
		OK          bool     `json:"ok"`
		RCU         *float64 `json:"rcu"`
		Ceiling     *float64 `json:"ceiling"`
		LargestItem int      `json:"largestItem"`
		ItemCeiling *int     `json:"itemCeiling"`
		Verdict     string   `json:"verdict"`
		Line        int      `json:"line"`
	} `json:"patterns"`
	Drift []struct {
		Kind     string   `json:"kind"`
		Entity   *string  `json:"entity"`
		Count    int      `json:"count"`
		Examples []string `json:"examples"`
		Guess    *string  `json:"guess"`
		Message  string   `json:"message"`
		Line     int      `json:"line"`
	} `json:"drift"`
	Sample *struct {
		Items    int            `json:"items"`
		Requests int            `json:"requests"`
		RCU      capacityObject `json:"consumedCapacity"`
		MaxRCU   float64        `json:"maxRCU"`
		Complete bool           `json:"complete"`
	} `json:"sample"`
	OK       bool           `json:"ok"`
	Exit     int            `json:"exitCode"`
	Capacity capacityObject `json:"consumedCapacity"`
}

func decodeCICheck(t *testing.T, out string) ciCheckJSON {
	t.Helper()
	var c ciCheckJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("check's JSON: %v\n%s", err, out)
	}
	return c
}

// A pattern over its RCU or item-size ceiling fails the check (exit 1);
// at its ceiling it holds (exit 0). JSON, text, JUnit and GitHub all say
// so, and point at the ceiling's line.
func TestCheckCeilings(t *testing.T) {
	table, ep := seededDemo(t)
	held := checkFile(t, ceilingsFile(table, "0.5", "25"))
	out, stderr, err := cli(t, "check", "--endpoint-url", ep, "--patterns", held, "--output", "json")
	if err != nil {
		t.Fatalf("at their ceilings: %v\n%s", err, stderr)
	}
	c := decodeCICheck(t, out)
	if !c.OK || c.Exit != 0 || len(c.Patterns) != 2 || c.Sample != nil || len(c.Drift) != 0 {
		t.Fatalf("held: %+v", c)
	}
	p := c.Patterns[0]
	if p.Name != "latest order" || !p.OK || p.RCU == nil || *p.RCU != 0.5 || p.Ceiling == nil || *p.Ceiling != 0.5 {
		t.Errorf("latest order at its ceiling: %+v", p)
	}
	if q := c.Patterns[1]; !q.OK || q.LargestItem != 25 || q.ItemCeiling == nil || *q.ItemCeiling != 25 || q.Ceiling != nil {
		t.Errorf("the profile at its item ceiling: %+v", q)
	}
	if !strings.Contains(stderr, "check of table "+table+": 2 patterns with their examples; the file declares no entities:, so no drift sample") {
		t.Errorf("announcement: %q", stderr)
	}

	// Lowered below what they cost: exit 1, both named.
	low := checkFile(t, ceilingsFile(table, "0.4", "24"))
	out, _, err = cli(t, "check", "--endpoint-url", ep, "--patterns", low, "--output", "json")
	if err == nil || exitCode(false, err) != 1 || err.Error() != `2 of 2 patterns fail the check: "latest order", "customer profile".` {
		t.Fatalf("over their ceilings: %v", err)
	}
	c = decodeCICheck(t, out)
	if c.OK || c.Exit != 1 {
		t.Errorf("over: ok %v, exit %d", c.OK, c.Exit)
	}
	if p := c.Patterns[0]; p.OK || p.Verdict != "one request, but it cost 0.5 RCU, over its ceiling of 0.4 (maxRCU)" || p.Line != 8 {
		t.Errorf("latest order over its ceiling: %+v", p)
	}
	if q := c.Patterns[1]; q.OK || q.Verdict != "one request, but it returned an item of 25 bytes, over its ceiling of 24 bytes (maxItemBytes)" || q.Line != 13 {
		t.Errorf("the profile over its item ceiling: %+v", q)
	}

	text, _, _ := cli(t, "check", "--endpoint-url", ep, "--patterns", low)
	if !regexp.MustCompile(`latest order +Query +1 +0\.5 +0\.4 +38 +- +FAIL: one request, but it cost 0\.5 RCU, over its ceiling of 0\.4 \(maxRCU\)\n`).MatchString(text) {
		t.Errorf("text:\n%s", text)
	}

	gh, _, _ := cli(t, "check", "--endpoint-url", ep, "--patterns", low, "--output", "github")
	wantGH := "::error file=" + low + ",line=8,title=dynascope check%3A pattern latest order::one request, but it cost 0.5 RCU, over its ceiling of 0.4 (maxRCU)\n" +
		"::error file=" + low + ",line=13,title=dynascope check%3A pattern customer profile::one request, but it returned an item of 25 bytes, over its ceiling of 24 bytes (maxItemBytes)\n" +
		"dynascope check of " + table + ": 0 of 2 patterns hold\n"
	if gh != wantGH {
		t.Errorf("github:\n%s\nwant\n%s", gh, wantGH)
	}

	junit, _, _ := cli(t, "check", "--endpoint-url", ep, "--patterns", low, "--output", "junit")
	suites := parseJUnit(t, junit)
	if suites.Tests != 2 || suites.Failures != 2 || len(suites.Suites) != 1 || suites.Suites[0].Cases[0].Failure == nil ||
		suites.Suites[0].Cases[0].Line != 8 || suites.Suites[0].Cases[0].Name != "latest order" {
		t.Errorf("junit: %+v\n%s", suites, junit)
	}
}

// parseJUnit reads check's JUnit XML with encoding/xml and, where Debian's
// libxml2-utils is installed (scripts/test.sh installs it), with xmllint
// too: a parser says it is XML, not an eye.
func parseJUnit(t *testing.T, doc string) junitSuites {
	t.Helper()
	var s junitSuites
	if err := xml.Unmarshal([]byte(doc), &s); err != nil {
		t.Fatalf("encoding/xml cannot read the JUnit XML: %v\n%s", err, doc)
	}
	path, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xmllint is missing under CI: scripts/test.sh installs Debian's libxml2-utils")
		}
		t.Log("no xmllint: the JUnit XML was checked by encoding/xml only")
		return s
	}
	cmd := exec.Command(path, "--noout", "-")
	cmd.Stdin = strings.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xmllint refuses the JUnit XML: %v: %s\n%s", err, stderr.String(), doc)
	}
	return s
}

// Item data and names reach the XML and the annotations: control
// characters no XML may hold are replaced, and a workflow command's
// separators are escaped, so neither can end the document or the
// command early.
func TestCheckOutputsHoldHostileText(t *testing.T) {
	if got := xmlText("a\x00b\x1bc\td"); got != "a\uFFFDb\uFFFDc\td" {
		t.Errorf("xmlText: %q", got)
	}
	line := ghAnnotation("error", "ci/a,b:c.yaml", 3, "pattern x::y", "100% bad\nnext")
	if line != "::error file=ci/a%2Cb%3Ac.yaml,line=3,title=pattern x%3A%3Ay::100%25 bad%0Anext\n" {
		t.Errorf("annotation: %q", line)
	}
	var b bytes.Buffer
	rep := &checkReport{Table: "T\x00", File: "f.yaml"}
	if err := writeCheckJUnit(&b, rep); err != nil {
		t.Fatal(err)
	}
	parseJUnit(t, b.String())
}

// fixtureTable is a table shaped as the demo's (PK, SK and GSI1), seeded
// from the check fixtures with `seed --file`, as docs/ci.md seeds one in CI.
func fixtureTable(t *testing.T) (table, endpoint string) {
	t.Helper()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.WithGSI(dynamotest.PKSK(), "GSI1", "GSI1PK", "S", "GSI1SK", "S", types.ProjectionTypeAll))
	if _, stderr, err := cli(t, "seed", "--endpoint-url", ep, "--table", table, "--file", "testdata/check/app.jsonl"); err != nil {
		t.Fatalf("seed the fixtures: %v\n%s", err, stderr)
	}
	return table, ep
}

// announcedCap is the RCU check said its drift sample would spend at most.
func announcedCap(t *testing.T, stderr string) float64 {
	t.Helper()
	m := regexp.MustCompile(`then a drift sample of up to \d+ items / ([0-9.]+) RCU \(whole items, one Scan\)\n`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the sample's cost was not said before it: %q", stderr)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Against DynamoDB Local, the demo's file on a table seeded from fixtures:
// exit 0 clean, and the sample costs what it said (what DynamoDB answered,
// read off the wire, within the announced cap and equal to the report's);
// after the demo's traffic, its one order written the old way is drift
// (exit 3) with a guess at why; a ceiling lowered below a pattern's cost
// fails (exit 1) whatever the drift. JUnit and GitHub say the same.
func TestCheckDriftOnFixtures(t *testing.T) {
	table, ep := fixtureTable(t)
	tap := dynamotest.StartTap(t, ep)
	out, stderr, err := cli(t, "check", "--endpoint-url", tap.URL, "--table", table, "--patterns", "../dynascope.yaml", "--max-rcu", "5", "--output", "json")
	if err != nil {
		t.Fatalf("clean fixtures: %v\n%s\n%s", err, stderr, out)
	}
	c := decodeCICheck(t, out)
	if !c.OK || c.Exit != 0 || len(c.Drift) != 0 || c.Sample == nil || !c.Sample.Complete || c.Sample.Items != 12 {
		t.Fatalf("clean: %+v", c)
	}
	for _, p := range c.Patterns {
		if !p.OK || p.RCU == nil {
			t.Errorf("pattern %+v", p)
		}
	}
	capRCU := announcedCap(t, stderr)
	wire, all := 0.0, 0.0
	for _, x := range tap.Exchanges("Scan") {
		wire += x.Capacity
	}
	for _, x := range tap.Exchanges("") {
		all += x.Capacity
	}
	if wire != c.Sample.RCU.Total || wire > capRCU || wire <= 0 || capRCU != 5 {
		t.Errorf("the sample cost %v on the wire, %v reported, %v announced", wire, c.Sample.RCU.Total, capRCU)
	}
	if all != c.Capacity.Total || c.Sample.Requests != len(tap.Exchanges("Scan")) {
		t.Errorf("the run cost %v on the wire, %v reported; %d Scans, %d reported", all, c.Capacity.Total, len(tap.Exchanges("Scan")), c.Sample.Requests)
	}

	// The demo's traffic, a few writes: its old-way order drifts.
	api := dynamotest.SDK(t)
	ctx, cancel := context.WithCancel(context.Background())
	traffic := demodata.Traffic(time.Now())
	n, err := dynamo.DemoTraffic(ctx, api, table, 5*time.Millisecond, func(step int) dynamo.Item {
		if step == demodata.DriftStep+2 {
			cancel()
		}
		return traffic(step)
	})
	cancel()
	if err != nil || n < demodata.DriftStep+1 {
		t.Fatalf("traffic: %d writes, %v", n, err)
	}
	out, _, err = cli(t, "check", "--endpoint-url", ep, "--table", table, "--patterns", "../dynascope.yaml", "--max-rcu", "5", "--output", "json")
	if err == nil || exitCode(false, err) != 3 || err.Error() != "every pattern holds, but the sample drifted from the declared entities (1 finding)." {
		t.Fatalf("drift: %v\n%s", err, out)
	}
	c = decodeCICheck(t, out)
	if c.Exit != 3 || c.OK || len(c.Drift) != 1 {
		t.Fatalf("drift: %+v", c)
	}
	d := c.Drift[0]
	if d.Kind != "unmatched-key" || d.Count != 1 || len(d.Examples) != 1 || !strings.HasPrefix(d.Examples[0], "CUST#42 / ORDER|") ||
		d.Guess == nil || *d.Guess != "an old delimiter? (| where Order's SK has #)" || d.Line != orderLine(t) {
		t.Errorf("the old order: %+v", d)
	}
	gh, _, _ := cli(t, "check", "--endpoint-url", ep, "--table", table, "--patterns", "../dynascope.yaml", "--max-rcu", "5", "--output", "github")
	if !strings.HasPrefix(gh, "::warning file=../dynascope.yaml,line="+strconv.Itoa(orderLine(t))+",title=dynascope check%3A drift (unmatched-key)::ORDER|…: 1 item whose SK matches no declared template, an old delimiter? (| where Order's SK has #)%0Ae.g. CUST#42 / ORDER|") {
		t.Errorf("github:\n%s", gh)
	}
	junit, _, _ := cli(t, "check", "--endpoint-url", ep, "--table", table, "--patterns", "../dynascope.yaml", "--max-rcu", "5", "--output", "junit")
	s := parseJUnit(t, junit)
	if s.Tests != 9 || s.Failures != 1 || len(s.Suites) != 2 || s.Suites[1].Cases[0].Failure == nil || s.Suites[1].Cases[0].Failure.Type != "unmatched-key" {
		t.Errorf("junit: %+v\n%s", s, junit)
	}

	// A ceiling below a pattern's cost: exit 1, the drift still reported.
	demo, err := os.ReadFile("../dynascope.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lowered := strings.Replace(string(demo), "    description: one request returns the profile and every order\n",
		"    description: one request returns the profile and every order\n    maxRCU: 0.4\n", 1)
	out, _, err = cli(t, "check", "--endpoint-url", ep, "--table", table, "--patterns", checkFile(t, lowered), "--max-rcu", "5", "--output", "json")
	if err == nil || exitCode(false, err) != 1 || !strings.HasPrefix(err.Error(), `1 of 8 patterns fail the check ("customer with orders"), and the sample drifted`) {
		t.Fatalf("lowered ceiling: %v", err)
	}
	if c = decodeCICheck(t, out); c.Exit != 1 || c.Patterns[0].OK || *c.Patterns[0].Ceiling != 0.4 || len(c.Drift) != 1 {
		t.Errorf("lowered: %+v", c)
	}
}

// orderLine is the line of the demo file's Order entity.
func orderLine(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("../dynascope.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if l == "  - name: Order" {
			return i + 1
		}
	}
	t.Fatal("dynascope.yaml declares no Order")
	return 0
}

// The project's own CI runs check on the demo table with the demo's file,
// reading the whole table: every pattern holds and nothing drifts.
func TestCheckDemoTable(t *testing.T) {
	table, ep := seededDemo(t)
	out, stderr, err := cli(t, "check", "--endpoint-url", ep, "--table", table, "--patterns", "../dynascope.yaml",
		"--max-items", "30000", "--max-rcu", "500", "--output", "json")
	if err != nil {
		t.Fatalf("the demo: %v\n%s\n%s", err, stderr, out)
	}
	c := decodeCICheck(t, out)
	if !c.OK || c.Sample == nil || !c.Sample.Complete || c.Sample.Items != 21073 || len(c.Patterns) != 8 {
		t.Errorf("the demo: %+v", c)
	}
	if c.Sample.RCU.Total > announcedCap(t, stderr) {
		t.Errorf("the sample spent %v, over the %v it announced", c.Sample.RCU.Total, announcedCap(t, stderr))
	}
}
