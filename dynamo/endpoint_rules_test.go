package dynamo_test

import (
	"context"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// The endpoint is chosen by the AWS CLI's rules, as the SDK has them:
// --endpoint-url (Options.Endpoint) over AWS_ENDPOINT_URL_DYNAMODB over
// AWS_ENDPOINT_URL over the profile's services section over the profile's
// endpoint_url, and none of the configured ones with
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true or the profile's
// ignore_configured_endpoint_urls = true. No request is sent.
func TestEndpointRules(t *testing.T) {
	const config = `[profile plain]
region = us-east-1

[profile global]
region = us-east-1
endpoint_url = http://127.0.0.1:1001

[profile service]
region = us-east-1
endpoint_url = http://127.0.0.1:1001
services = local-dynamodb

[profile ignoring]
region = us-east-1
endpoint_url = http://127.0.0.1:1001
services = local-dynamodb
ignore_configured_endpoint_urls = true

[services local-dynamodb]
dynamodb =
  endpoint_url = http://127.0.0.1:1002
`
	cases := []struct {
		name, profile, given string
		env                  map[string]string
		want                 string
	}{
		{name: "nothing configured", profile: "plain", want: ""},
		{name: "the profile's endpoint_url", profile: "global", want: "http://127.0.0.1:1001"},
		{name: "the services section over endpoint_url", profile: "service", want: "http://127.0.0.1:1002"},
		{name: "AWS_ENDPOINT_URL over the profile", profile: "service", env: map[string]string{"AWS_ENDPOINT_URL": "http://127.0.0.1:1003"}, want: "http://127.0.0.1:1003"},
		{name: "AWS_ENDPOINT_URL_DYNAMODB over AWS_ENDPOINT_URL", profile: "service",
			env: map[string]string{"AWS_ENDPOINT_URL": "http://127.0.0.1:1003", "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:1004"}, want: "http://127.0.0.1:1004"},
		{name: "--endpoint-url over everything", profile: "service", given: "http://127.0.0.1:1005",
			env: map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:1004"}, want: "http://127.0.0.1:1005"},
		{name: "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS ignores the environment and the profile", profile: "service",
			env: map[string]string{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true", "AWS_ENDPOINT_URL": "http://127.0.0.1:1003", "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:1004"}, want: ""},
		{name: "the profile's ignore_configured_endpoint_urls", profile: "ignoring",
			env: map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:1004"}, want: ""},
		{name: "--endpoint-url is never ignored", profile: "ignoring", given: "http://127.0.0.1:1005",
			env: map[string]string{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}, want: "http://127.0.0.1:1005"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			awsHome(t, config, "")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			_, got, err := dynamo.CodeTarget(context.Background(), dynamo.Options{Profile: c.profile, Endpoint: c.given})
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("endpoint %q, want %q", got, c.want)
			}
		})
	}
}

// The configured endpoint is where requests go, and a loopback one is a
// local engine: a region and fake keys are supplied for it.
func TestConfiguredEndpointReachesDynamoDBLocal(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	awsHome(t, "[profile local]\nendpoint_url = "+ep+"\n", "")
	proxy := dynamotest.StartProxy(t, ep)
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", proxy.URL)
	ctx := context.Background()
	c, err := dynamo.Connect(ctx, dynamo.Options{Profile: "local", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint() != proxy.URL || c.Region() != "us-east-1" {
		t.Errorf("endpoint %q region %q", c.Endpoint(), c.Region())
	}
	if _, err := c.ListTables(ctx); err != nil {
		t.Fatal(err)
	}
	if proxy.Count("ListTables") != 1 {
		t.Errorf("%d ListTables through AWS_ENDPOINT_URL_DYNAMODB, want 1", proxy.Count("ListTables"))
	}
}
