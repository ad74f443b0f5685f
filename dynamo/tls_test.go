package dynamo_test

import (
	"context"
	"crypto/tls"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// tlsClient connects to endpoint with the default ten attempts and counts
// the retries it makes.
func tlsClient(t *testing.T, endpoint string) (*dynamo.Client, *int) {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", "local")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: endpoint, Region: "us-east-1", Timeout: 20 * time.Second, SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	retries := new(int)
	c.OnRetry(func(dynamo.RetryEvent) { *retries++ })
	return c, retries
}

// https:// in front of DynamoDB Local, which speaks plain HTTP: named at
// once, on the first attempt, with the URL that works (issue 37.10; it
// took ten attempts and blamed the network or a proxy).
func TestHTTPSToPlainHTTPEndpoint(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	https := "https://" + strings.TrimPrefix(ep, "http://")
	c, retries := tlsClient(t, https)
	if c.MaxAttempts() < 2 {
		t.Fatalf("the client tries %d times; the test needs retries to be possible", c.MaxAttempts())
	}
	_, err := c.ListTables(context.Background())
	want := "list tables: the endpoint " + https + " does not speak TLS; is it " + ep + "?"
	if err == nil || err.Error() != want {
		t.Errorf("ListTables: %v\nwant %s", err, want)
	}
	_, err = c.Query(context.Background(), dynamo.QueryInput{Table: "App", PK: "CUST#42"})
	if err == nil || !strings.HasSuffix(err.Error(), ": the endpoint "+https+" does not speak TLS; is it "+ep+"?") {
		t.Errorf("Query: %v", err)
	}
	if *retries != 0 {
		t.Errorf("%d retries; a TLS handshake that failed is not retried", *retries)
	}
	// With one attempt allowed, the failure is the last attempt's, and
	// still named as what it is.
	one, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: https, Region: "us-east-1", Timeout: 20 * time.Second, MaxAttempts: 1, SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := one.ListTables(context.Background()); err == nil || err.Error() != want {
		t.Errorf("--max-attempts 1: %v\nwant %s", err, want)
	}
}

// An endpoint whose certificate is not trusted, and one whose handshake
// fails though its certificate is: named, with what to do, and never
// retried.
func TestTLSHandshakeFailures(t *testing.T) {
	quiet := log.New(io.Discard, "", 0) // the servers' own log of each refused handshake
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = quiet
	srv.StartTLS()
	defer srv.Close()
	c, retries := tlsClient(t, srv.URL)
	_, err := c.ListTables(context.Background())
	want := "list tables: the TLS certificate of " + srv.URL + " is not trusted (certificate signed by unknown authority); check --endpoint-url, or point AWS_CA_BUNDLE at the PEM file of the authority that signed it."
	if err == nil || err.Error() != want {
		t.Errorf("untrusted: %v\nwant %s", err, want)
	}
	if *retries != 0 {
		t.Errorf("untrusted: %d retries", *retries)
	}

	// Trusted through AWS_CA_BUNDLE, but the server wants a client
	// certificate: the handshake is refused by the server.
	strict := httptest.NewUnstartedServer(http.NotFoundHandler())
	strict.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert, MaxVersion: tls.VersionTLS12}
	strict.Config.ErrorLog = quiet
	strict.StartTLS()
	defer strict.Close()
	bundle := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: strict.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CA_BUNDLE", bundle)
	c, retries = tlsClient(t, strict.URL)
	_, err = c.ListTables(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "list tables: the TLS handshake with "+strict.URL+" failed (tls: ") || !strings.HasSuffix(err.Error(), "); check --endpoint-url and any proxy in between.") {
		t.Errorf("refused handshake: %v", err)
	}
	if *retries != 0 {
		t.Errorf("refused handshake: %d retries", *retries)
	}
}
