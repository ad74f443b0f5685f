// Package dynamotest gives integration tests a DynamoDB Local endpoint and
// uniquely named tables that are removed when the test ends.
//
// It imports nothing of dynascope's, so that dynamo's own tests can use it;
// tests import it, programs never do.
package dynamotest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// EnvEndpoint names the variable `make test` sets to the local engine's URL.
const EnvEndpoint = "DYNASCOPE_TEST_ENDPOINT"

// Endpoint returns the DynamoDB Local endpoint for integration tests. Without
// one the test is skipped, except under CI=true, where it fails: CI must never
// pass by skipping what it exists to check.
func Endpoint(t testing.TB) string {
	t.Helper()
	ep := os.Getenv(EnvEndpoint)
	if ep == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set and CI=true: integration tests need DynamoDB Local (run 'make test')", EnvEndpoint)
		}
		t.Skipf("%s is not set; run 'make test' to start DynamoDB Local", EnvEndpoint)
	}
	return ep
}

// Need stops a test whose tool is missing: `make test` installs it from
// Debian (package pkg), so under CI=true that fails the test with a sentence
// naming what is missing; elsewhere it skips.
func Need(t testing.TB, what, pkg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed and CI=true; run 'make test', which installs Debian's %s", what, pkg)
	}
	t.Skipf("%s is not installed; run 'make test' or apt-get install %s", what, pkg)
}

// SDK returns a raw SDK client for the local engine, with fake credentials.
func SDK(t testing.TB) *dynamodb.Client {
	t.Helper()
	ep := Endpoint(t)
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(ep),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
}

// UniqueName returns a table name no other test uses.
func UniqueName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// Table creates a uniquely named on-demand table with the given definition
// (TableName and BillingMode are filled in) and deletes it when the test ends.
func Table(t testing.TB, api *dynamodb.Client, in dynamodb.CreateTableInput) string {
	t.Helper()
	name := UniqueName(strings.ReplaceAll(t.Name(), "/", "_"))
	if len(name) > 255 {
		name = name[len(name)-255:]
	}
	in.TableName = aws.String(name)
	in.BillingMode = types.BillingModePayPerRequest
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := api.CreateTable(ctx, &in); err != nil {
		t.Fatalf("create table %s: %v", name, err)
	}
	DeleteAtEnd(t, api, name)
	return name
}

// DeleteAtEnd deletes the table when the test ends; a table that is not
// there (the test failed before creating it) is no error.
func DeleteAtEnd(t testing.TB, api *dynamodb.Client, name string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		if nf := (*types.ResourceNotFoundException)(nil); err != nil && !errors.As(err, &nf) {
			t.Errorf("delete table %s: %v", name, err)
		}
	})
}

// WithGSI adds to table definition in a global secondary index name with
// partition key pk and sort key sk, of DynamoDB types pkType and skType
// ("S", "N", "B"), projecting p. An attribute the definition already
// declares (the table's SK as the index's sort key, another index's key)
// is declared once, as DynamoDB requires.
func WithGSI(in dynamodb.CreateTableInput, name, pk, pkType, sk, skType string, p types.ProjectionType) dynamodb.CreateTableInput {
	in.AttributeDefinitions = slices.Clone(in.AttributeDefinitions)
	for _, d := range []types.AttributeDefinition{
		{AttributeName: aws.String(pk), AttributeType: types.ScalarAttributeType(pkType)},
		{AttributeName: aws.String(sk), AttributeType: types.ScalarAttributeType(skType)},
	} {
		if !slices.ContainsFunc(in.AttributeDefinitions, func(o types.AttributeDefinition) bool {
			return aws.ToString(o.AttributeName) == aws.ToString(d.AttributeName)
		}) {
			in.AttributeDefinitions = append(in.AttributeDefinitions, d)
		}
	}
	in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, gsi(name, pk, sk, types.Projection{ProjectionType: p}))
	return in
}

// PKSK is the usual single-table definition: string PK and SK.
func PKSK() dynamodb.CreateTableInput {
	return dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
	}
}

// IsolateAWS gives the test a home of its own, where the AWS SDK's shared
// config and credentials files are (empty until the test writes them: config
// and credentials in the home), and unsets every variable of the SDK's
// that could bring in the machine's credentials, profile, region or
// endpoints; instance metadata is off. It returns the home.
func IsolateAWS(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(home, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	// Unset, not empty: the SDK takes a set AWS_ENDPOINT_URL_DYNAMODB, even
	// an empty one, as a reason to look past AWS_ENDPOINT_URL, and the AWS
	// CLI reads an empty AWS_MAX_ATTEMPTS as a number.
	for _, k := range []string{
		"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
		"AWS_MAX_ATTEMPTS", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_DYNAMODB_STREAMS",
		"AWS_ENDPOINT_URL_STS", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_CA_BUNDLE", "AWS_DEFAULT_OUTPUT",
	} {
		t.Setenv(k, "") // marks the test as changing the environment, and restores it after
		if err := os.Unsetenv(k); err != nil {
			t.Fatal(err)
		}
	}
	return home
}
