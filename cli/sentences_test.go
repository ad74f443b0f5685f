package cli

import (
	"testing"

	"dynascope/dynamo/dynamotest"
)

// A corpus of misbehaving endpoints, through every reading command: every
// error is one sentence of at most 300 characters that ends as a sentence
// does. Before, a cut-off ExecuteStatement answer showed the SDK's raw
// text, and an overrun named two sentences' worth.
func TestEveryFaultIsOneShortSentence(t *testing.T) {
	table, ep := seededDemo(t)
	faults := dynamotest.Corpus("CUST#42", "ORDER#", "CUST#8")
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
			if why := dynamotest.SentenceProblem(err.Error()); why != "" {
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
