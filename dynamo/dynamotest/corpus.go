package dynamotest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Corpus is the campaign of misbehaving endpoints every reading command
// and the UI's reads are run through (TestEveryFaultIsOneShortSentence in
// cli, TestUIEveryFault in ui): errors DynamoDB and IAM answer, broken
// connections and web servers that are not DynamoDB, and answers a request
// could not have produced. pk is a partition of the table under test whose
// items have sort keys (SK) beginning with skPrefix, and other a partition
// the reads of pk never ask for: the faults that name a key (a key past
// DynamoDB's limits, one of the wrong type, a foreign item) name theirs.
// Each call makes new faults: Replay and RepeatItems remember what they
// answered, so one call's faults belong to one run.
func Corpus(pk, skPrefix, other string) []Fault {
	long := strings.Repeat("~", 1802)
	return []Fault{
		AccessDenied, ExpiredToken, UnrecognizedClient,
		Throughput, Throttling, InternalError, Plain500,
		Drop, Reset, Truncate, Hang,
		BareStatus(503), Redirect(307, "http://127.0.0.1:1/"),
		RepeatItems(), BackwardKey(), Replay(),
		LastKey(keyJSON(pk, map[string]string{"S": skPrefix + long})),
		LastKey(keyJSON(pk, map[string]string{"N": "1"})),
		DescribeName("Other"), TableNames("", "App", "App"),
		ForeignItem(keyJSON(other, map[string]string{"S": "FOREIGN#1"})),
		BadAttribute(`{"X":"1"}`), LyingCounts(5, 1),
		EndlessPages(0.5), EndlessStatement(), CheapEndlessScan(),
	}
}

// keyJSON is a key of the PK/SK tables in DynamoDB JSON.
func keyJSON(pk string, sk map[string]string) string {
	b, err := json.Marshal(map[string]any{"PK": map[string]string{"S": pk}, "SK": sk})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// MaxSentence is the longest error sentence dynascope shows: details go
// behind --debug or into the error chain, never onto the line.
const MaxSentence = 300

// secondSentence finds a sentence's end followed by another's start.
var secondSentence = regexp.MustCompile(`[.!?] +[A-Z]`)

// rawSDK finds the AWS SDK's and Go's own words, which name no cause a
// user can act on.
var rawSDK = regexp.MustCompile(`operation error |https response error|deserialization failed|context canceled|RequestID:|StatusCode:`)

// SentenceProblem says what keeps msg from being one sentence of at most
// MaxSentence characters in dynascope's words, or "" when it is one.
func SentenceProblem(msg string) string {
	switch {
	case len(msg) > MaxSentence:
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
