package cli

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// maxSentence is the longest error sentence dynascope prints: details go
// behind --debug or into the error chain, never onto the line.
const maxSentence = 300

// secondSentence finds a sentence's end followed by another's start.
var secondSentence = regexp.MustCompile(`[.!?] +[A-Z]`)

// rawSDK finds the AWS SDK's and Go's own words, which name no cause a
// user can act on.
var rawSDK = regexp.MustCompile(`operation error |https response error|deserialization failed|context canceled|RequestID:|StatusCode:`)

// sentenceProblem says what keeps msg from being one sentence of at most
// maxSentence characters, or "".
func sentenceProblem(msg string) string {
	switch {
	case len(msg) > maxSentence:
		return fmt.Sprintf("%d characters", len(msg))
	case strings.Contains(msg, "\n"):
		return "more than one line"
	case !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?"):
		return "no sentence's end"
	case secondSentence.MatchString(msg):
		return "more than one sentence"
	case rawSDK.MatchString(msg):
		return "the SDK's raw text"
	}
	return ""
}

// A corpus of misbehaving endpoints, through every reading command: every
// error is one sentence of at most 300 characters that ends as a sentence
// does. Before, a cut-off ExecuteStatement answer showed the SDK's raw
// text, and an overrun named two sentences' worth.
func TestEveryFaultIsOneShortSentence(t *testing.T) {
	table, ep := seededDemo(t)
	long := strings.Repeat("~", 1802)
	faults := []dynamotest.Fault{
		dynamotest.AccessDenied, dynamotest.ExpiredToken, dynamotest.UnrecognizedClient,
		dynamotest.Throughput, dynamotest.Throttling, dynamotest.InternalError, dynamotest.Plain500,
		dynamotest.Drop, dynamotest.Reset, dynamotest.Truncate, dynamotest.Hang,
		dynamotest.BareStatus(503), dynamotest.Redirect(307, "http://127.0.0.1:1/"),
		dynamotest.RepeatItems(), dynamotest.BackwardKey(), dynamotest.Replay(),
		dynamotest.LastKey(`{"PK":{"S":"CUST#42"},"SK":{"S":"ORDER#` + long + `"}}`),
		dynamotest.LastKey(`{"PK":{"S":"CUST#42"},"SK":{"N":"1"}}`),
		dynamotest.DescribeName("Other"), dynamotest.TableNames("", "App", "App"),
		dynamotest.ForeignItem(`{"PK":{"S":"CUST#8"},"SK":{"S":"FOREIGN#1"}}`),
		dynamotest.BadAttribute(`{"X":"1"}`), dynamotest.LyingCounts(5, 1),
		dynamotest.EndlessPages(0.5), dynamotest.EndlessStatement(), dynamotest.CheapEndlessScan(),
	}
	conn := func(p *dynamotest.Proxy) []string {
		return []string{"--endpoint-url", p.URL, "--max-attempts", "2", "--timeout", "500ms"}
	}
	commands := [][]string{
		{"tables"},
		{"item", "--table", table, "--pk", "CUST#42", "--sk", "PROFILE"},
		{"layout", "--table", table, "--max-rcu", "5"},
		{"query", "--table", table, "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--all-pages"},
		{"get", "--table", table, "--pk", "CUST#42", "--sk", "PROFILE"},
		{"groups", "--table", table, "--pk", "CUST#42", "--count"},
		{"scan", "--table", table, "--max-rcu", "20"},
		{"partiql", `SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`, "--yes"},
	}
	bad := 0
	for _, f := range faults {
		p := dynamotest.StartProxy(t, ep)
		p.Inject(dynamotest.Rule{Fault: f})
		for _, args := range commands {
			sent := len(p.Calls())
			_, _, err := cli(t, append(append([]string{}, args...), conn(p)...)...)
			if err == nil {
				continue
			}
			if why := sentenceProblem(err.Error()); why != "" {
				bad++
				t.Errorf("%s, %s: %s: %.400s", f, args[0], why, err)
			}
			// No endless loop: a bounded number of requests, whatever the
			// fault (counted, not timed, so a loaded machine cannot fail it).
			// Endless 0.5 RCU pages are stopped by the read's estimate of
			// the demo table (about 450 RCU), some 1,000 requests.
			if n := len(p.Calls()) - sent; n > 2048 {
				t.Errorf("%s, %s: %d requests", f, args[0], n)
			}
		}
	}
	if bad > 0 {
		t.Logf("%d sentences out of bounds", bad)
	}
}

// The checker itself: what it passes and what it refuses.
func TestSentenceProblem(t *testing.T) {
	for msg, want := range map[string]string{
		"query CUST#7 on App: stopped by SIGTERM.": "",
		"--max-rcu must be 1 or more, not 0.":      "",
		"one. Two.":                                "more than one sentence",
		"no end":                                   "no sentence's end",
		"a\nb.":                                    "more than one line",
		strings.Repeat("x", 301) + ".":             "302 characters",
		"see https://docs.aws.amazon.com/x.html for the rest.":                                                                   "",
		"operation error DynamoDB: ExecuteStatement, https response error StatusCode: 200, RequestID: , deserialization failed.": "the SDK's raw text",
	} {
		if got := sentenceProblem(msg); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
}
