package dynamo

import (
	"testing"
	"time"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
)

// The cache file of a role is the one the AWS CLI names: the SHA-1 of the
// AssumeRole arguments as Python's json.dumps(args, sort_keys=True)
// writes them. The expected names were computed with Python 3.11's json
// and hashlib from the same arguments; the second has every escape
// Python writes (quote, backslash, non-ASCII, a character beyond the BMP,
// DEL).
func TestRoleCacheKeyIsTheCLIs(t *testing.T) {
	hour := time.Hour
	cases := []struct {
		p    awsconfig.SharedConfig
		want string
	}{
		{awsconfig.SharedConfig{RoleARN: "arn:aws:iam::123456789012:role/Reader", MFASerial: "arn:aws:iam::123456789012:mfa/ann"},
			"131a642f71c3f6c59a6784c38b07b85e80590196"},
		{awsconfig.SharedConfig{RoleARN: "arn:aws:iam::123456789012:role/Reader", MFASerial: "arn:aws:iam::123456789012:mfa/ann",
			RoleDurationSeconds: &hour, ExternalID: "ext-\"quoted\"\\ /é😀\x7f", RoleSessionName: "ann@example.com"},
			"ddf3d7131105fadb07bd2f8fcf1a00830ef1e8af"},
		{awsconfig.SharedConfig{RoleARN: "arn:aws:iam::123456789012:role/Reader"},
			"06e18bcbdbfffc486b253dbbbb69e22601a058f9"},
	}
	for _, c := range cases {
		if got := roleCacheKey(c.p); got != c.want {
			t.Errorf("%+v: key %s, want %s (%s)", c.p, got, c.want, pythonJSON(map[string]any{"RoleArn": c.p.RoleARN}))
		}
	}
}

// An expiry is read as the CLI writes it and in ISO 8601.
func TestParseCacheTime(t *testing.T) {
	want := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, s := range []string{"2025-01-02T03:04:05UTC", "2025-01-02T03:04:05Z", "2025-01-02T03:04:05+00:00", "2025-01-02T04:04:05+01:00"} {
		if got, ok := parseCacheTime(s); !ok || !got.Equal(want) {
			t.Errorf("%q: %v %v", s, got, ok)
		}
	}
	if _, ok := parseCacheTime("tomorrow"); ok {
		t.Error("tomorrow is no expiry")
	}
}
