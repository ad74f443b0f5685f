package dynamo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// AWS_CA_BUNDLE is honoured wherever HTTPS may be used, and not parsed when
// no request can use it. A bundle that is not PEM shows which: the SDK
// refuses it when it parses it.
func TestCABundleParsedOnlyWhenHTTPSMayUseIt(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	dir := t.TempDir()
	bundle := filepath.Join(dir, "bundle.pem")
	if err := os.WriteFile(bundle, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "config")
	if err := os.WriteFile(config, []byte("[profile process]\ncredential_process = /bin/false\nregion = us-east-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CA_BUNDLE", bundle)
	t.Setenv("AWS_CONFIG_FILE", config)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_ACCESS_KEY_ID", "local")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	ctx := context.Background()

	// Plain HTTP and keys in the environment: nothing uses HTTPS.
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatalf("plain HTTP with static keys: %v", err)
	}
	if _, err := c.ListTables(ctx); err != nil {
		t.Errorf("plain HTTP with static keys: %v", err)
	}
	if got := os.Getenv("AWS_CA_BUNDLE"); got != bundle {
		t.Errorf("AWS_CA_BUNDLE is %q after connecting, want %q", got, bundle)
	}

	refused := func(name string, o dynamo.Options) {
		t.Helper()
		_, err := dynamo.Connect(ctx, o)
		if err == nil || !strings.Contains(err.Error(), "CA bundle") {
			t.Errorf("%s: got %v, want the SDK's refusal of the bundle", name, err)
		}
	}
	// An HTTPS endpoint verifies its certificate against the bundle.
	refused("HTTPS endpoint", dynamo.Options{Endpoint: "https://127.0.0.1:1", Region: "us-east-1"})
	// Real AWS: HTTPS.
	refused("AWS", dynamo.Options{Region: "us-east-1"})
	// A credential process could reach AWS over HTTPS through the
	// configuration's client, so the bundle must be in it.
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	refused("plain HTTP with a credential process", dynamo.Options{Endpoint: ep, Profile: "process"})
	if got := os.Getenv("AWS_CA_BUNDLE"); got != bundle {
		t.Errorf("AWS_CA_BUNDLE is %q after connecting, want %q", got, bundle)
	}
}
