package dynamotest

import (
	"strings"
	"testing"
)

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
		if got := SentenceProblem(msg); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
}
