package dynamo

// What a credential source's failure tells the user: which profile failed
// and the command that mends it, rather than the SDK's chain of wrapped
// errors.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
)

// CredentialsError is a credential source's failure in one sentence that
// names the profile (and device, and command to run); Explain puts what
// failed before it.
type CredentialsError struct {
	Msg string
	Err error
}

func (e *CredentialsError) Error() string { return e.Msg }
func (e *CredentialsError) Unwrap() error { return e.Err }

// ssoProfile is the profile of the loaded chain (the profile or one it
// takes its credentials from) that signs in with AWS SSO, "" for none.
func ssoProfile(cfg aws.Config) string {
	for _, p := range profileChain(cfg) { // rolecache.go
		if p.SSOSessionName != "" || p.SSOStartURL != "" {
			return p.Profile
		}
	}
	return ""
}

// explainedCredentials words the failures of an SSO profile's credentials.
type explainedCredentials struct {
	p   aws.CredentialsProvider
	sso string // the SSO profile; "" for none
}

func explainCredentials(p aws.CredentialsProvider, cfg aws.Config) aws.CredentialsProvider {
	if p == nil {
		return nil
	}
	return explainedCredentials{p: p, sso: ssoProfile(cfg)}
}

func (e explainedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := e.p.Retrieve(ctx)
	if err == nil || e.sso == "" {
		return c, err
	}
	var ce *CredentialsError
	var invalid *ssocreds.InvalidTokenError
	var netErr *net.OpError
	switch {
	case errors.As(err, &ce), errors.As(err, &netErr), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return c, err
	case errors.As(err, &invalid) || strings.Contains(strings.ToLower(err.Error()), "sso"):
		return c, &CredentialsError{Msg: fmt.Sprintf("the AWS SSO session of profile %s has expired or is missing; run 'aws sso login --profile %s'", e.sso, e.sso), Err: err}
	}
	return c, err
}
