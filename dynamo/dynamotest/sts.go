package dynamotest

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// STS is a stand-in for AWS STS on loopback, for tests of profiles that
// assume a role: point AWS_ENDPOINT_URL_STS at URL. It answers AssumeRole
// in the query protocol that both the Go SDK and the AWS CLI speak, and
// grants a session only when the request was signed with SourceKeyID (the
// source profile's key), names RoleARN and, for a role that wants MFA
// (Serial set), the device Serial and the code Code, as a role's trust
// policy would; anything else gets STS's AccessDenied. Each session it
// grants has credentials of its own (Granted), which DynamoDB Local takes
// as it takes any. It is STS's part only: DynamoDB is still DynamoDB Local.
type STS struct {
	URL string

	SourceKeyID, RoleARN, Serial, Code string
	// Duration is the length of a session when the request asks for none
	// (STS's default, one hour).
	Duration time.Duration

	srv   *httptest.Server
	mu    sync.Mutex
	calls []STSCall
}

// STSCall is one request the stand-in received and what it answered.
type STSCall struct {
	Action, RoleARN, SessionName, Serial, Code, DurationSeconds string
	SignedBy                                                    string // the access key id of the request's signature
	// Granted holds the session's access key id, secret and token; empty
	// when it was refused.
	Granted [3]string
}

// StartSTS starts the stand-in for one role; serial and code are "" for a
// role without MFA. It stops when the test ends.
func StartSTS(t testing.TB, sourceKeyID, roleARN, serial, code string) *STS {
	t.Helper()
	s := &STS{SourceKeyID: sourceKeyID, RoleARN: roleARN, Serial: serial, Code: code, Duration: time.Hour}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Calls are the requests received so far, in order.
func (s *STS) Calls() []STSCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]STSCall(nil), s.calls...)
}

var signedBy = regexp.MustCompile(`Credential=([A-Z0-9]+)/`)

func (s *STS) serve(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f := r.PostForm
	c := STSCall{
		Action: f.Get("Action"), RoleARN: f.Get("RoleArn"), SessionName: f.Get("RoleSessionName"),
		Serial: f.Get("SerialNumber"), Code: f.Get("TokenCode"), DurationSeconds: f.Get("DurationSeconds"),
	}
	if m := signedBy.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		c.SignedBy = m[1]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.calls) + 1
	refuse := func(msg string) {
		s.calls = append(s.calls, c)
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>%s</Message></Error><RequestId>stand-in-%d</RequestId></ErrorResponse>`, xmlText(msg), n)
	}
	switch {
	case c.Action != "AssumeRole":
		refuse("the STS stand-in answers AssumeRole only, not " + c.Action)
		return
	case c.SignedBy != s.SourceKeyID:
		refuse(fmt.Sprintf("the request was signed by %q, not by the source profile's key", c.SignedBy))
		return
	case c.RoleARN != s.RoleARN:
		refuse("User is not authorized to perform: sts:AssumeRole on resource: " + c.RoleARN)
		return
	case s.Serial != "" && (c.Serial != s.Serial || c.Code != s.Code):
		refuse("MultiFactorAuthentication failed with invalid MFA one time pass code. ")
		return
	}
	d := s.Duration
	if v := c.DurationSeconds; v != "" {
		var secs int
		fmt.Sscan(v, &secs)
		d = time.Duration(secs) * time.Second
	}
	c.Granted = [3]string{
		fmt.Sprintf("ASIASTANDIN%09d", n),
		fmt.Sprintf("standInSecret/%d/0123456789abcdefghijklmnopqrstuv", n),
		fmt.Sprintf("standInSessionToken/%d/FwoGZXIvYXdzEJr//////////wEaDstandin", n),
	}
	s.calls = append(s.calls, c)
	w.Header().Set("Content-Type", "text/xml")
	fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>`+
		`<Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey><SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials>`+
		`<AssumedRoleUser><AssumedRoleId>AROASTANDIN:%s</AssumedRoleId><Arn>%s</Arn></AssumedRoleUser>`+
		`</AssumeRoleResult><ResponseMetadata><RequestId>stand-in-%d</RequestId></ResponseMetadata></AssumeRoleResponse>`,
		c.Granted[0], xmlText(c.Granted[1]), xmlText(c.Granted[2]), time.Now().Add(d).UTC().Format(time.RFC3339),
		xmlText(c.SessionName), xmlText(assumedRoleARN(c.RoleARN, c.SessionName)), n)
}

// assumedRoleARN is the ARN STS names an assumed role's session by:
// arn:aws:iam::ACCOUNT:role/NAME gives arn:aws:sts::ACCOUNT:assumed-role/NAME/SESSION.
func assumedRoleARN(role, session string) string {
	parts := strings.SplitN(role, ":", 6)
	if len(parts) != 6 || !strings.HasPrefix(parts[5], "role/") {
		return role
	}
	return "arn:aws:sts::" + parts[4] + ":assumed-role/" + strings.TrimPrefix(parts[5], "role/") + "/" + session
}

func xmlText(s string) string {
	var b []byte
	b, _ = xml.Marshal(struct {
		XMLName xml.Name `xml:"x"`
		V       string   `xml:",chardata"`
	}{V: s})
	return string(b[len("<x>") : len(b)-len("</x>")])
}
