package dynamo

import (
	"context"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// caBundleEnv names the PEM file of extra certificate authorities that the
// SDK trusts for HTTPS.
const caBundleEnv = "AWS_CA_BUNDLE"

// loadConfig is awsconfig.LoadDefaultConfig, less one piece of start-up
// work that nothing would use: when AWS_CA_BUNDLE is set, the SDK parses
// every certificate of the bundle while it loads the configuration (about
// 6 ms for Debian's 140 certificates on a 2-core machine, a third of the
// time to a first result). Those certificates only verify HTTPS servers.
// With a plain-HTTP endpoint (DynamoDB Local) and static credentials (keys
// in the environment or the profile), no request of the session uses
// HTTPS, so the configuration is loaded without the bundle.
//
// Any other credential source (SSO, assume-role, a credential process, a
// container endpoint) may reach AWS over HTTPS through the configuration's
// HTTP client, which needs the bundle; then the configuration is loaded
// again the ordinary way. The variable is hidden only while the first load
// reads the environment, before any other goroutine of ours runs.
func loadConfig(ctx context.Context, endpoint string, loads []func(*awsconfig.LoadOptions) error) (aws.Config, error) {
	bundle, set := os.LookupEnv(caBundleEnv)
	if !set || bundle == "" || !plainHTTP(endpoint) {
		return awsconfig.LoadDefaultConfig(ctx, loads...)
	}
	_ = os.Unsetenv(caBundleEnv)
	cfg, err := awsconfig.LoadDefaultConfig(ctx, loads...)
	_ = os.Setenv(caBundleEnv, bundle)
	if err == nil && staticCredentials(cfg.Credentials) {
		return cfg, nil
	}
	return awsconfig.LoadDefaultConfig(ctx, loads...)
}

// plainHTTP reports whether endpoint is an http:// address, which no
// certificate is checked for.
func plainHTTP(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && strings.EqualFold(u.Scheme, "http") && u.Host != ""
}

// staticCredentials reports whether the credential chain resolved to fixed
// keys, which are read without any request.
func staticCredentials(p aws.CredentialsProvider) bool {
	if c, ok := p.(*aws.CredentialsCache); ok {
		return c.IsCredentialsProvider(credentials.StaticCredentialsProvider{})
	}
	return aws.IsCredentialsProvider(p, credentials.StaticCredentialsProvider{})
}
