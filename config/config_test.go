package config

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
)

func TestSplitPairFlag(t *testing.T) {
	cases := []struct {
		args       []string
		rest       []string
		a, b       string
		found      bool
		wantErrMsg string
	}{
		{[]string{"--table", "App", "--sk-between", "A", "B", "--limit", "1"}, []string{"--table", "App", "--limit", "1"}, "A", "B", true, ""},
		{[]string{"-sk-between", "-1", "5"}, nil, "-1", "5", true, ""},
		{[]string{"--pk", "x"}, []string{"--pk", "x"}, "", "", false, ""},
		{[]string{"--sk-between", "A"}, nil, "", "", false, "--sk-between takes two values: --sk-between LOW HIGH"},
		{[]string{"--sk-between=A"}, nil, "", "", false, "--sk-between takes two values: --sk-between LOW HIGH"},
		{[]string{"--sk-between", "A", "B", "--sk-between", "C", "D"}, nil, "", "", false, "--sk-between is given twice"},
		{[]string{"--", "--sk-between", "A", "B"}, []string{"--", "--sk-between", "A", "B"}, "", "", false, ""},
	}
	for _, c := range cases {
		rest, a, b, found, err := SplitPairFlag(c.args, "sk-between")
		if c.wantErrMsg != "" {
			if err == nil || err.Error() != c.wantErrMsg {
				t.Errorf("%v: error %v, want %q", c.args, err, c.wantErrMsg)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(rest, c.rest) || a != c.a || b != c.b || found != c.found {
			t.Errorf("%v: got %v %q %q %v %v", c.args, rest, a, b, found, err)
		}
	}
}

func TestConnectionFlagsAndEnvironment(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var c Connection
	c.Register(fs)
	if err := fs.Parse([]string{"--table", "App", "--profile", "p", "--region", "eu-west-1", "--endpoint-url", "http://127.0.0.1:8000", "--timeout", "3s"}); err != nil {
		t.Fatal(err)
	}
	o := c.DynamoOptions()
	if c.Table != "App" || o.Profile != "p" || o.Region != "eu-west-1" || o.Endpoint != "http://127.0.0.1:8000" || o.Timeout != 3*time.Second {
		t.Errorf("flags: %+v %+v", c, o)
	}

	// The SDK's own endpoint variables are left to the SDK, which applies
	// them with the rest of its rules (AWS_IGNORE_CONFIGURED_ENDPOINT_URLS,
	// the profile's endpoint_url and services section; dynamo's
	// TestEndpointRules): read here, they would bypass those rules.
	c.Endpoint = ""
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:2")
	if ep := c.DynamoOptions().Endpoint; ep != "" {
		t.Errorf("the environment's endpoint was read here: %q", ep)
	}
	c.Endpoint = "http://127.0.0.1:3"
	if ep := c.DynamoOptions().Endpoint; ep != "http://127.0.0.1:3" {
		t.Errorf("the flag must win: %q", ep)
	}
	if err := (Connection{}).RequireTable("query"); err == nil {
		t.Error("RequireTable accepted no table")
	}
}

// The AWS CLI's time-outs take its seconds (whole or decimal) or a
// duration, into the one option each; --debug takes no value, or body.
func TestWireTimeoutAndDebugFlags(t *testing.T) {
	parse := func(args ...string) (Connection, error) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var c Connection
		c.Register(fs)
		return c, fs.Parse(args)
	}
	c, err := parse("--cli-connect-timeout", "5", "--cli-read-timeout", "2.5")
	if err != nil || c.ConnectTimeout != 5*time.Second || c.ReadTimeout != 2500*time.Millisecond {
		t.Errorf("seconds: %v %v %v", c.ConnectTimeout, c.ReadTimeout, err)
	}
	o := c.DynamoOptions()
	if o.ConnectTimeout != 5*time.Second || o.ReadTimeout != 2500*time.Millisecond {
		t.Errorf("options: %v %v", o.ConnectTimeout, o.ReadTimeout)
	}
	if c, err := parse("--cli-read-timeout", "500ms", "--cli-connect-timeout", "0"); err != nil || c.ReadTimeout != 500*time.Millisecond || c.ConnectTimeout != 0 {
		t.Errorf("duration: %v %v", c.ReadTimeout, err)
	}
	for _, bad := range []string{"-1", "soon", "NaN", "1e9", "-2s"} {
		if _, err := parse("--cli-read-timeout", bad); err == nil || !strings.Contains(err.Error(), "--cli-read-timeout takes a number of seconds such as 5") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for args, want := range map[string]dynamo.DebugLevel{"--debug": dynamo.DebugRequests, "--debug=body": dynamo.DebugBodies, "--debug=false": dynamo.DebugOff, "": dynamo.DebugOff} {
		var list []string
		if args != "" {
			list = []string{args}
		}
		c, err := parse(list...)
		if err != nil || c.Debug != want || c.DynamoOptions().Debug != want {
			t.Errorf("%q: %v %v", args, c.Debug, err)
		}
	}
	if _, err := parse("--debug=headers"); err == nil || !strings.Contains(err.Error(), `--debug takes no value, or --debug=body for the bodies too, not "headers"`) {
		t.Errorf("--debug=headers: %v", err)
	}
}
