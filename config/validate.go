package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"dynascope/dynamo"
)

// The checks of connection values, shared by the flags and the settings
// file so that a value is refused the same way wherever it is written. Each
// error is one sentence without its final full stop, for either caller to
// frame.

// CheckEndpoint refuses an endpoint that is not an http:// or https:// URL
// with a host. A password in it is not repeated.
func CheckEndpoint(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("endpoint must be an http:// or https:// URL such as http://127.0.0.1:8000, not %q", dynamo.PublicEndpoint(v))
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("endpoint %q has no valid port (1 to 65535)", dynamo.PublicEndpoint(v))
		}
	}
	return nil
}

// regionRE is the shape of every AWS region name (us-east-1, cn-north-1,
// us-gov-west-1) and of DynamoDB Local's made-up ones.
var regionRE = regexp.MustCompile(`^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$`)

// CheckRegion refuses a region name that cannot be one, such as "us east 1".
func CheckRegion(v string) error {
	if !regionRE.MatchString(v) {
		return fmt.Errorf("region must be a name such as us-east-1 (letters, digits and dashes), not %q", v)
	}
	return nil
}

// endpointFlag, regionFlag, timeoutFlag, attemptsFlag, wireTimeoutFlag
// and debugFlag are the connection flags that check their value when it
// is parsed.
type (
	endpointFlag    struct{ p *string }
	regionFlag      struct{ p *string }
	timeoutFlag     struct{ p *time.Duration }
	attemptsFlag    struct{ p *int }
	wireTimeoutFlag struct {
		p    *time.Duration
		name string
	}
	debugFlag struct{ p *dynamo.DebugLevel }
)

func (f endpointFlag) String() string { return derefString(f.p) }
func (f endpointFlag) Set(v string) error {
	if err := CheckEndpoint(v); err != nil {
		return errors.New("--endpoint-url: " + err.Error())
	}
	*f.p = v
	return nil
}

func (f regionFlag) String() string { return derefString(f.p) }
func (f regionFlag) Set(v string) error {
	if err := CheckRegion(v); err != nil {
		return errors.New("--region: " + err.Error())
	}
	*f.p = v
	return nil
}

func (f timeoutFlag) String() string {
	if f.p == nil {
		return ""
	}
	return f.p.String()
}
func (f timeoutFlag) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("--timeout takes a positive duration such as 15s or 2m, not %q", v)
	}
	*f.p = d
	return nil
}

func (f attemptsFlag) String() string {
	if f.p == nil || *f.p == 0 {
		return ""
	}
	return strconv.Itoa(*f.p)
}
func (f attemptsFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 100 {
		return fmt.Errorf("--max-attempts takes a whole number from 1 to 100, not %q", v)
	}
	*f.p = n
	return nil
}

// wireTimeoutFlag takes seconds, as the AWS CLI's --cli-connect-timeout and
// --cli-read-timeout do (a whole or decimal number), or a duration such as
// 500ms; 0 leaves it to the SDK.
func (f wireTimeoutFlag) String() string {
	if f.p == nil || *f.p == 0 {
		return "0"
	}
	return f.p.String()
}
func (f wireTimeoutFlag) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		// The CLI's form: seconds. A day is plenty for either time-out.
		s, ferr := strconv.ParseFloat(v, 64)
		if ferr == nil && !math.IsNaN(s) && s >= 0 && s <= 86400 {
			d, err = time.Duration(s*float64(time.Second)), nil
		}
	}
	if err != nil || d < 0 {
		return fmt.Errorf("--%s takes a number of seconds such as 5 (or a duration such as 500ms; 0 for the SDK's default), not %q", f.name, v)
	}
	*f.p = d
	return nil
}

// debugFlag is --debug alone (the requests and answers), --debug=body (with
// their bodies) or --debug=false. It is a bool flag to both flag packages,
// so that --debug takes no value; to pflag it is of the kind "boolfunc",
// whose help shows no value either, and whose refusals are its own
// sentence rather than "takes true or false".
func (f debugFlag) String() string {
	if f.p == nil {
		return "false"
	}
	switch *f.p {
	case dynamo.DebugRequests:
		return "true"
	case dynamo.DebugBodies:
		return "body"
	}
	return "false"
}
func (f debugFlag) Set(v string) error {
	switch strings.ToLower(v) {
	case "true", "on", "1", "":
		*f.p = dynamo.DebugRequests
	case "body", "bodies":
		*f.p = dynamo.DebugBodies
	case "false", "off", "0":
		*f.p = dynamo.DebugOff
	default:
		return fmt.Errorf("--debug takes no value, or --debug=body for the bodies too, not %q", v)
	}
	return nil
}
func (debugFlag) IsBoolFlag() bool { return true }
func (debugFlag) Type() string     { return "boolfunc" }

func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
