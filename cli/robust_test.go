package cli

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// Recognisable fake credentials: any of them in any output is a leak.
const (
	fakeKeyID  = "AKIADYNASCOPETEST001"
	fakeSecret = "dynascopeFakeSecret/never+shown/0123456789abcd"
	fakeToken  = "dynascopeFakeSessionToken/never+shown/FwoGZXIvYXdzEJr//////////wEaDA0123456789"
)

// isolateAWS points the SDK at empty config files and no instance metadata,
// so that nothing from the machine running the tests takes part.
func isolateAWS(t *testing.T) string {
	t.Helper()
	return dynamotest.IsolateAWS(t)
}

func useFakeCredentials(t *testing.T) {
	t.Helper()
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", fakeKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", fakeSecret)
	t.Setenv("AWS_SESSION_TOKEN", fakeToken)
}

func checkNoSecrets(t *testing.T, where, text string) {
	t.Helper()
	for _, s := range []string{fakeKeyID, fakeSecret, fakeToken, "FwoGZXIvYXdzEJr"} {
		if strings.Contains(text, s) {
			t.Errorf("%s shows a credential (%.12s...):\n%s", where, s, text)
		}
	}
}

// checkSentence: one line, ending as a sentence does.
func checkSentence(t *testing.T, where string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", where)
		return
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !(strings.HasSuffix(msg, ".") || strings.HasSuffix(msg, "?")) {
		t.Errorf("%s: not one sentence: %q", where, msg)
	}
}

// AWS's own signature errors quote the canonical request, and with it the
// session token; an access key id can come back on the first line.
var echoFaults = []dynamotest.Fault{
	dynamotest.APIError(400, "com.amazon.coral.service#InvalidSignatureException",
		"The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.\n\n"+
			"The Canonical String for this request should have been\n'POST\n/\n\nhost:127.0.0.1\nx-amz-security-token:"+fakeToken+"\n'"),
	dynamotest.APIError(400, "com.amazon.coral.service#IncompleteSignatureException",
		"Authorization header requires 'Signature' parameter. Authorization=AWS4-HMAC-SHA256 Credential="+fakeKeyID+"/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host"),
	dynamotest.APIError(400, "com.amazon.coral.validate#ValidationException",
		"echo: X-Amz-Security-Token="+fakeToken+" secret_access_key="+fakeSecret),
}

// Every failure, through every command: the sentence never carries the
// credentials that were sent, nor does anything else printed, nor the
// request log.
func TestSecretsNeverShown(t *testing.T) {
	table, ep := seededDemo(t)
	useFakeCredentials(t)
	faults := append([]dynamotest.Fault{
		dynamotest.AccessDenied, dynamotest.ExpiredToken, dynamotest.UnrecognizedClient,
		dynamotest.Throughput, dynamotest.Throttling, dynamotest.InternalError, dynamotest.Plain500,
		dynamotest.Drop, dynamotest.Reset, dynamotest.Truncate, dynamotest.Hang,
	}, echoFaults...)
	for _, f := range faults {
		p := dynamotest.StartProxy(t, ep)
		p.Inject(dynamotest.Rule{Fault: f})
		conn := []string{"--endpoint-url", p.URL, "--max-attempts", "2", "--timeout", "500ms"}
		for _, args := range [][]string{
			append([]string{"tables"}, conn...),
			append([]string{"query", "--table", table, "--pk", "CUST#42"}, conn...),
			append([]string{"get", "--table", table, "--pk", "CUST#42", "--sk", "PROFILE"}, conn...),
			append([]string{"groups", "--table", table, "--pk", "CUST#42"}, conn...),
		} {
			out, errOut, err := cli(t, args...)
			where := fmt.Sprintf("%s: %s", f, args[0])
			checkSentence(t, where, err)
			if err != nil {
				checkNoSecrets(t, where+" error", err.Error())
			}
			checkNoSecrets(t, where+" stdout", out)
			checkNoSecrets(t, where+" stderr", errOut)
		}

		c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: p.URL, MaxAttempts: 2, Timeout: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var log []string
		c.OnRequest(func(r dynamo.Request) { log = append(log, fmt.Sprintf("%+v", r)) })
		c.OnRetry(func(e dynamo.RetryEvent) { log = append(log, e.String()) })
		_, _ = c.ListTables(context.Background())
		_, _ = c.Query(context.Background(), dynamo.QueryInput{Table: table, PK: "CUST#42"})
		if len(log) == 0 {
			t.Errorf("%s: nothing in the request log", f)
		}
		checkNoSecrets(t, fmt.Sprintf("%s: request log", f), strings.Join(log, "\n"))

		// The credentials did go out: the test looks where they could leak.
		calls := p.Calls()
		if len(calls) == 0 || calls[0].Header.Get("X-Amz-Security-Token") != fakeToken || !strings.Contains(calls[0].Header.Get("Authorization"), fakeKeyID) {
			t.Fatalf("%s: the fake credentials were not used", f)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"key ASIAABCDEFGHIJKLMNOP here":           "key [redacted] here",
		"x-amz-security-token:abc/def+ghi= next":  "x-amz-security-token:[redacted] next",
		`{"SessionToken": "abc", "Other": "x"}`:   `{"SessionToken": "[redacted]", "Other": "x"}`,
		"Signature=0123abcd, SignedHeaders=host":  "Signature=[redacted], SignedHeaders=host",
		"aws_secret_access_key = wJalrXUtnFEMI/K": "aws_secret_access_key = [redacted]",
		"DynamoDB Local is fine":                  "DynamoDB Local is fine",
	} {
		if got := dynamo.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// An expired SSO login: one sentence that says what to run.
func TestExpiredSSOSession(t *testing.T) {
	home := isolateAWS(t)
	config := `[profile corp]
sso_session = corp
sso_account_id = 123456789012
sso_role_name = Explorer
region = eu-west-1

[sso-session corp]
sso_start_url = https://example.awsapps.com/start
sso_region = eu-west-1
sso_registration_scopes = sso:account:access
`
	if err := os.WriteFile(filepath.Join(home, "config"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha1.Sum([]byte("corp"))
	cache := filepath.Join(home, ".aws", "sso", "cache")
	token := `{"accessToken": "` + fakeToken + `", "expiresAt": "2020-01-01T00:00:00Z", "region": "eu-west-1", "startUrl": "https://example.awsapps.com/start"}`
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, hex.EncodeToString(sum[:])+".json"), []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	// Not a loopback endpoint, so the real credential chain is used; the
	// credentials fail before any request would leave.
	_, errOut, err := cli(t, "tables", "--profile", "corp", "--endpoint-url", "https://dynamodb.invalid")
	want := "list tables: the AWS SSO session of profile corp has expired or is missing; run 'aws sso login --profile corp'."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if err != nil {
		checkNoSecrets(t, "expired SSO", err.Error()+errOut)
	}
}

// No credentials anywhere: one sentence that says what to do.
func TestCLINoCredentials(t *testing.T) {
	isolateAWS(t)
	_, _, err := cli(t, "query", "--table", "App", "--pk", "x", "--region", "eu-west-1", "--endpoint-url", "https://dynamodb.invalid")
	want := "describe table App: no AWS credentials found; run 'aws configure' or 'aws sso login', or pass --profile."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// Query denied, the rest allowed: the commands that need no Query work.
func TestCLIAccessDeniedOnQuery(t *testing.T) {
	table, ep := seededDemo(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.AccessDenied})
	if _, _, err := cli(t, "tables", "--endpoint-url", p.URL, "--table", table); err != nil {
		t.Errorf("tables: %v", err)
	}
	if out, _, err := cli(t, "get", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--sk", "PROFILE"); err != nil || !strings.Contains(out, `"count": 1`) {
		t.Errorf("get: %v\n%s", err, out)
	}
	for _, cmd := range []string{"query", "groups"} {
		_, _, err := cli(t, cmd, "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42")
		prefix := "query CUST#42 on " + table + ": access denied: these credentials may not call dynamodb:Query on "
		if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), "dynamodb:Query") {
			t.Errorf("%s: %v", cmd, err)
		}
	}
}

// --timeout bounds a request, retries included; --max-attempts counts tries.
func TestCLITimeoutAndMaxAttempts(t *testing.T) {
	table, ep := seededDemo(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.Delay(300 * time.Millisecond)})
	if _, _, err := cli(t, "query", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--timeout", "5s"); err != nil {
		t.Errorf("slow but within --timeout: %v", err)
	}

	p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.Hang})
	began := time.Now()
	_, _, err := cli(t, "query", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--timeout", "300ms")
	want := "query CUST#42 on " + table + ": no answer from " + p.URL + " within the time-out; check the endpoint or raise --timeout."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("--timeout 300ms returned after %v", d)
	}

	p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Throughput})
	before := p.Count("Query")
	_, _, err = cli(t, "query", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#42", "--max-attempts", "2")
	want = "query CUST#42 on " + table + ": still throttled by DynamoDB after 2 attempts; wait and retry, or lower the request rate."
	if err == nil || err.Error() != want || p.Count("Query")-before != 2 {
		t.Errorf("got  %v after %d attempts\nwant %s", err, p.Count("Query")-before, want)
	}
}
