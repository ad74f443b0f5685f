// Package config holds dynascope's settings and connections: the connection
// flags layered over the AWS SDK's own environment and shared config, and the
// settings file (named connections, key overrides, theme, caps, prices).
//
// It imports dynamo (for the options it fills in), textfmt and yamlfile;
// never ui, patterns or the command line. Access patterns live in patterns.
package config

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"dynascope/dynamo"
)

// Connection says which DynamoDB to talk to and how; every command has it.
type Connection struct {
	Table    string
	Profile  string
	Region   string
	Endpoint string
	Timeout  time.Duration
	// MaxAttempts is how often one request is tried; 0 leaves it to
	// AWS_MAX_ATTEMPTS or dynamo.DefaultMaxAttempts.
	MaxAttempts int
	// Name is the named connection of the settings file (--connection);
	// "" means the file's default, NoConnection none (settings.go).
	Name string
	// ConnectTimeout and ReadTimeout are the AWS CLI's time-outs of the
	// wire (--cli-connect-timeout, --cli-read-timeout); 0 for the SDK's.
	ConnectTimeout, ReadTimeout time.Duration
	// Debug is --debug: a line on DebugTo for every request and answer.
	Debug dynamo.DebugLevel

	// What the command line gives the client beside the flags: where
	// --debug writes (stderr; the UI's log file) and how an MFA code is
	// asked for (on the terminal; nil refuses such a profile).
	DebugTo  io.Writer
	MFAToken func(context.Context, dynamo.MFARequest) (string, error)
}

// Register adds the connection flags, named as the AWS CLI names them.
func (c *Connection) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.Table, "table", "", "table name")
	fs.StringVar(&c.Profile, "profile", "", "AWS shared-config profile (default: AWS_PROFILE or 'default')")
	// These four check their value as it is parsed (validate.go): a wrong
	// one is a sentence, never a silent default or ten attempts at nothing.
	fs.Var(regionFlag{&c.Region}, "region", "AWS region (default: AWS_REGION or the profile's region)")
	fs.Var(endpointFlag{&c.Endpoint}, "endpoint-url", "DynamoDB endpoint, e.g. http://127.0.0.1:8000 for DynamoDB Local; it wins over every configured one (default: the AWS CLI's rules: AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL, the profile's services section, its endpoint_url; none with AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true)")
	c.Timeout = dynamo.DefaultTimeout
	fs.Var(timeoutFlag{&c.Timeout}, "timeout", "time-out of each request, its retries included")
	fs.Var(attemptsFlag{&c.MaxAttempts}, "max-attempts", fmt.Sprintf("tries per request when DynamoDB throttles or fails (default: AWS_MAX_ATTEMPTS or %d)", dynamo.DefaultMaxAttempts))
	fs.Var(wireTimeoutFlag{&c.ConnectTimeout, "cli-connect-timeout"}, "cli-connect-timeout", "the AWS CLI's connect time-out: at most this long to set up a connection, its TLS handshake included; in seconds as the CLI takes it, or a duration such as 500ms (default: the SDK's 30 s, within --timeout)")
	fs.Var(wireTimeoutFlag{&c.ReadTimeout, "cli-read-timeout"}, "cli-read-timeout", "the AWS CLI's read time-out: at most this long waiting for the next bytes of an answer; in seconds as the CLI takes it, or a duration (default: none but --timeout)")
	fs.Var(debugFlag{&c.Debug}, "debug", "write a line to stderr for every request and answer (operation, endpoint, HTTP status, request id, attempt, latency, capacity; the UI writes them to a log file); --debug=body adds the bodies")
	fs.Func("connection", "named connection from the settings file ('dynascope config show'); its endpoint, region and profile apply under these flags and over the environment (default: the file's connection:; 'none' for none)", c.setName)
}

// DynamoOptions turns the flags and the named connection into client
// options (see Options); a settings file that cannot be read is left out
// here, and reported by Options.
func (c Connection) DynamoOptions() dynamo.Options {
	o, _ := c.Options()
	return o
}

// flagsAndEnv turns the flags into client options. An endpoint neither
// given nor named here is left to the SDK's own rules (its environment
// and shared config), which the client applies.
func (c Connection) flagsAndEnv() dynamo.Options {
	return dynamo.Options{
		Profile: c.Profile, Region: c.Region, Endpoint: c.Endpoint, Timeout: c.Timeout, MaxAttempts: c.MaxAttempts,
		ConnectTimeout: c.ConnectTimeout, ReadTimeout: c.ReadTimeout,
		Debug: c.Debug, DebugTo: c.DebugTo, MFAToken: c.MFAToken,
	}
}

// RequireTable says in one sentence that a command needs --table.
func (c Connection) RequireTable(cmd string) error {
	if c.Table == "" {
		return fmt.Errorf("%s needs a table: pass --table NAME (list them with 'dynascope tables')", cmd)
	}
	return nil
}

// SplitPairFlag pulls a two-valued flag such as `--sk-between A B` out of args,
// since the flag package only knows single values. It returns the remaining
// args and the two values, or found=false.
func SplitPairFlag(args []string, name string) (rest []string, a, b string, found bool, err error) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if arg != "-"+name && arg != "--"+name {
			if strings.HasPrefix(arg, "--"+name+"=") || strings.HasPrefix(arg, "-"+name+"=") {
				return nil, "", "", false, fmt.Errorf("--%s takes two values: --%s LOW HIGH", name, name)
			}
			rest = append(rest, arg)
			continue
		}
		if found {
			return nil, "", "", false, fmt.Errorf("--%s is given twice", name)
		}
		if i+2 >= len(args) {
			return nil, "", "", false, fmt.Errorf("--%s takes two values: --%s LOW HIGH", name, name)
		}
		a, b, found = args[i+1], args[i+2], true
		i += 2
	}
	return rest, a, b, found, nil
}
