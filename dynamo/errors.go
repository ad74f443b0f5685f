package dynamo

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/textfmt"
)

// UserError is an error a user can act on (textfmt.UserError): one sentence
// saying what failed and what to do. It lives in textfmt so that packages
// below dynamo (itemcodec) can say such sentences too.
type UserError = textfmt.UserError

// Explain maps an error from a request into one actionable sentence. It is the
// one place that knows how AWS failures look; what names the operation and
// table ("query CUST#42 on App").
func Explain(err error, what, endpoint string) error {
	if err == nil {
		return nil
	}
	var ce *CredentialsError // credentials.go: names the profile
	if errors.As(err, &ce) {
		return &UserError{Msg: Redact(fmt.Sprintf("%s: %s.", what, strings.TrimSuffix(ce.Msg, "."))), Err: err}
	}
	var ue *UserError
	if errors.As(err, &ue) {
		return err
	}
	where := "AWS"
	if endpoint != "" {
		where = PublicEndpoint(endpoint)
	}
	mk := func(format string, a ...any) error {
		return &UserError{Msg: Redact(fmt.Sprintf(format, a...)), Err: err}
	}
	// Before the retries' words: with one attempt allowed (--max-attempts
	// 1), a TLS failure arrives as the last of its attempts.
	if msg := explainTLS(err, where); msg != "" {
		return mk("%s: %s", what, msg)
	}
	if msg, ok := explainRetries(err, what, where); ok { // retry.go
		return &UserError{Msg: Redact(msg), Err: err}
	}

	var bad *BadAnswerError
	if errors.As(err, &bad) {
		return mk("%s: %s", what, bad.sentence(where, 1))
	}

	switch {
	case errors.Is(err, context.Canceled):
		return mk("%s: cancelled.", what)
	case errors.Is(err, context.DeadlineExceeded):
		return mk("%s: no answer from %s within the time-out; check the endpoint or raise --timeout.", what, where)
	}

	var rnf *types.ResourceNotFoundException
	if errors.As(err, &rnf) {
		return mk("%s: the table or index does not exist at %s; check --table, --index and --region.", what, where)
	}
	var ptee *types.ProvisionedThroughputExceededException
	var rle *types.RequestLimitExceeded
	if errors.As(err, &ptee) || errors.As(err, &rle) {
		return mk("%s: throttled by DynamoDB after retries; wait and retry, or lower the request rate.", what)
	}

	var missingRegion *aws.MissingRegionError
	if errors.As(err, &missingRegion) {
		return mk("%s: no AWS region is set; pass --region or set AWS_REGION.", what)
	}
	if strings.Contains(err.Error(), "failed to retrieve credentials") || strings.Contains(err.Error(), "failed to refresh cached credentials") {
		if strings.Contains(err.Error(), "SSO") || strings.Contains(err.Error(), "sso") {
			return mk("%s: the AWS SSO session has expired or is missing; run 'aws sso login'.", what)
		}
		return mk("%s: no AWS credentials found; run 'aws configure' or 'aws sso login', or pass --profile.", what)
	}

	var api smithy.APIError
	if errors.As(err, &api) {
		return mk("%s", explainAPI(api, what, where))
	}

	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &opErr) || errors.As(err, &dnsErr) || strings.Contains(err.Error(), "connection refused") {
		return mk("%s: cannot reach %s; is the endpoint right and the service running?", what, where)
	}
	var deser *smithy.DeserializationError
	if errors.As(err, &deser) || strings.Contains(err.Error(), "deserialization failed") {
		// The SDK's own words ("https response error StatusCode: 200,
		// RequestID: , deserialization failed") mean nothing to a user.
		return mk("%s: %s answered with something the AWS SDK cannot read as DynamoDB's answer, which DynamoDB never sends; check --endpoint-url and any proxy in between.", what, where)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return mk("%s: no complete answer from %s within the time-out; retry, or raise --timeout.", what, where)
	}
	if cutOff(err) {
		// An operation not sent again when cut off (ExecuteStatement):
		// the SDK's words would name only "unexpected EOF".
		return mk("%s: the answer from %s was cut off in transit; check the network or any proxy in between.", what, where)
	}
	return mk("%s: %s.", what, strings.TrimSuffix(firstLine(err.Error()), "."))
}

// explainAPI is the sentence for an error DynamoDB (or the endpoint)
// answered with a code: credentials, permissions, throttling, a request
// DynamoDB rejected, else the code and the endpoint's first line.
func explainAPI(api smithy.APIError, what, where string) string {
	code := api.ErrorCode()
	switch code {
	case "AccessDeniedException", "UnauthorizedOperation", "UnrecognizedClientException":
		if code == "UnrecognizedClientException" {
			return fmt.Sprintf("%s: the AWS credentials are not valid for this account or region; check --profile and --region.", what)
		}
		if m := notAuthorized.FindStringSubmatch(api.ErrorMessage()); m != nil {
			return fitQuote(what+": access denied: these credentials may not call "+m[1]+" on ", m[2], "; an IAM policy must allow it.")
		}
		return fitQuote(what+": access denied; the credentials lack permission for this operation (", firstLine(api.ErrorMessage()), ").")
	case "ExpiredTokenException", "ExpiredToken":
		return fmt.Sprintf("%s: the AWS session token has expired; run 'aws sso login' or refresh your credentials.", what)
	case "ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded":
		return fmt.Sprintf("%s: throttled by DynamoDB after retries; wait and retry, or lower the request rate.", what)
	case "ValidationException":
		return fitQuote(what+": DynamoDB rejected the request: ", strings.TrimSuffix(firstLine(api.ErrorMessage()), "."), ".")
	case "ResourceNotFoundException":
		return fmt.Sprintf("%s: the table or index does not exist at %s; check --table, --index and --region.", what, where)
	case "InternalServerError":
		return fmt.Sprintf("%s: DynamoDB had an internal error; retry in a moment.", what)
	}
	return fitQuote(what+": "+code+": ", strings.TrimSuffix(firstLine(api.ErrorMessage()), "."), ".")
}

// MaxSentence is the longest sentence an error says: what the endpoint
// said beyond it stays in the error chain (UserError.Err), for --debug.
const MaxSentence = textfmt.MaxSentence

// notAuthorized reads the action and resource an AccessDeniedException
// names.
var notAuthorized = regexp.MustCompile(`is not authorized to perform: (\S+) on resource: (\S+?)(?: because|\s|$)`)

// fitQuote is head, quote and tail as one sentence of at most MaxSentence
// characters (textfmt.FitSentence).
func fitQuote(head, quote, tail string) string { return textfmt.FitSentence(head, quote, tail) }

// tlsFailure tells whether err is a TLS handshake that failed: the
// endpoint answered in plain text (an http endpoint behind an https://
// URL), its certificate is not trusted, or the handshake broke off
// otherwise. Another attempt meets the same server and the same
// certificate, so none of them is retried (retry.go).
func tlsFailure(err error) bool {
	return plainAnswer(err) || tlsHandshake(err)
}

// plainAnswer tells an https:// request answered in plain text: net/http's
// own sentence when the bytes look like HTTP (it makes no error type for
// it), else TLS's RecordHeaderError.
func plainAnswer(err error) bool {
	var header tls.RecordHeaderError
	return errors.As(err, &header) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// tlsHandshake tells a handshake refused or a certificate not trusted.
// crypto/tls says an alert as a *net.OpError whose Op is "remote error"
// (the server refused) or "local error" (this side gave up).
func tlsHandshake(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && (op.Op == "remote error" || op.Op == "local error") {
		return true
	}
	var alert tls.AlertError
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &alert) || errors.As(err, &verify) ||
		errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid)
}

// explainTLS is the sentence for a TLS handshake that failed, "" for any
// other error.
func explainTLS(err error, where string) string {
	if plainAnswer(err) {
		if rest, ok := strings.CutPrefix(where, "https://"); ok {
			return fmt.Sprintf("the endpoint %s does not speak TLS; is it http://%s?", where, rest)
		}
		return fmt.Sprintf("%s answered in plain text where TLS was asked for; check the endpoint and any proxy in between.", where)
	}
	if !tlsHandshake(err) {
		return ""
	}
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	why := ""
	switch {
	case errors.As(err, &host):
		why = host.Error()
	case errors.As(err, &unknown):
		why = unknown.Error()
	case errors.As(err, &invalid):
		why = invalid.Error()
	case errors.As(err, &verify):
		why = verify.Err.Error()
	default:
		return fmt.Sprintf("the TLS handshake with %s failed (%s); check --endpoint-url and any proxy in between.", where, tlsCause(err))
	}
	return fmt.Sprintf("the TLS certificate of %s is not trusted (%s); check --endpoint-url, or point AWS_CA_BUNDLE at the PEM file of the authority that signed it.", where, strings.TrimPrefix(why, "x509: "))
}

// tlsCause is the innermost words of a TLS error: the alert.
func tlsCause(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	var alert tls.AlertError
	if errors.As(err, &alert) {
		return alert.Error()
	}
	return err.Error()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Secrets. Credentials must never reach an error text, a log or the screen,
// yet servers and credential helpers echo what they were sent: AWS's
// signature errors quote the canonical request, security token included.
// Every credential the client signs with is remembered, and Explain's
// sentences are scrubbed of those values and of anything shaped like one.

var secrets struct {
	sync.RWMutex
	vals map[string]bool
}

// secretShapes match credentials we were never handed: access key ids, and
// the values of the headers and parameters that carry tokens and signatures.
var secretShapes = regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b|((?i:x-amz-security-token|security-token|session_?token|secret_?access_?key|signature)["']?\s*[:=]\s*["']?)[^\s'",]*[^\s'",.]`)

// Redact removes credentials from a text meant for people.
func Redact(s string) string {
	secrets.RLock()
	for v := range secrets.vals {
		s = strings.ReplaceAll(s, v, "[redacted]")
	}
	secrets.RUnlock()
	return secretShapes.ReplaceAllString(s, "${1}[redacted]")
}

// rememberSecrets wraps a credentials provider so that whatever it hands
// out is known to Redact.
func rememberSecrets(p aws.CredentialsProvider) aws.CredentialsProvider {
	if p == nil {
		return nil
	}
	return secretKeeper{p}
}

type secretKeeper struct{ p aws.CredentialsProvider }

func (k secretKeeper) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := k.p.Retrieve(ctx)
	if err == nil {
		secrets.Lock()
		if secrets.vals == nil {
			secrets.vals = map[string]bool{}
		}
		for _, v := range []string{c.AccessKeyID, c.SecretAccessKey, c.SessionToken} {
			// Short values are placeholders such as DynamoDB Local's "local";
			// scrubbing them would mangle ordinary words.
			if len(v) >= 12 {
				secrets.vals[v] = true
			}
		}
		secrets.Unlock()
	}
	return c, err
}

// IsAccessDenied tells whether IAM refused the request: with a
// least-privilege policy, a table the user may list but not describe.
func IsAccessDenied(err error) bool {
	var api smithy.APIError
	if !errors.As(err, &api) {
		return false
	}
	switch api.ErrorCode() {
	case "AccessDeniedException", "UnauthorizedOperation":
		return true
	}
	return false
}
