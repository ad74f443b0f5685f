package config

import (
	"flag"
	"reflect"
	"testing"
	"time"
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

	// The SDK's own endpoint variables apply when no flag is given, the
	// service-specific one first.
	c.Endpoint = ""
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	if ep := c.DynamoOptions().Endpoint; ep != "http://127.0.0.1:1" {
		t.Errorf("AWS_ENDPOINT_URL: %q", ep)
	}
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:2")
	if ep := c.DynamoOptions().Endpoint; ep != "http://127.0.0.1:2" {
		t.Errorf("AWS_ENDPOINT_URL_DYNAMODB: %q", ep)
	}
	c.Endpoint = "http://127.0.0.1:3"
	if ep := c.DynamoOptions().Endpoint; ep != "http://127.0.0.1:3" {
		t.Errorf("the flag must win: %q", ep)
	}
	if err := (Connection{}).RequireTable("query"); err == nil {
		t.Error("RequireTable accepted no table")
	}
}
