package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// The MFA profile of these tests: a role assumed with the keys of a source
// profile and the code of a virtual device.
const (
	mfaSourceKey = "AKIASOURCEPROFILE001"
	mfaRole      = "arn:aws:iam::123456789012:role/Reader"
	mfaDevice    = "arn:aws:iam::123456789012:mfa/ann"
	mfaCode      = "123456"
)

// awsHome makes a home of its own with these shared config files
// (dynamotest.IsolateAWS), so that nothing of the machine's takes part; it
// returns the home.
func awsHome(t *testing.T, config, credentials string) string {
	t.Helper()
	home := dynamotest.IsolateAWS(t)
	for name, text := range map[string]string{"config": config, "credentials": credentials} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// mfaProfile sets up the MFA profile "dev" with the STS stand-in behind
// AWS_ENDPOINT_URL_STS; it returns the stand-in and the home.
func mfaProfile(t *testing.T, extra string) (*dynamotest.STS, string) {
	t.Helper()
	sts := dynamotest.StartSTS(t, mfaSourceKey, mfaRole, mfaDevice, mfaCode)
	home := awsHome(t,
		"[profile base]\nregion = us-east-1\n\n[profile dev]\nrole_arn = "+mfaRole+"\nsource_profile = base\nmfa_serial = "+mfaDevice+"\nregion = us-east-1\n"+extra,
		"[base]\naws_access_key_id = "+mfaSourceKey+"\naws_secret_access_key = sourceSecret/0123456789abcdefghijklmnop\n")
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
	return sts, home
}

// prompts is an MFA prompt that answers code and counts its questions.
type prompts struct {
	code  string
	asked []dynamo.MFARequest
}

func (p *prompts) ask(_ context.Context, r dynamo.MFARequest) (string, error) {
	p.asked = append(p.asked, r)
	return p.code, nil
}

// An MFA profile reaches DynamoDB Local with the assumed role's
// credentials after one question, which names the profile, the role and
// the device; the session is cached where the AWS CLI caches it, so a
// second client asks nothing and sends no AssumeRole.
func TestMFAProfileAsksOnceAndCachesTheSession(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sts, home := mfaProfile(t, "")
	proxy := dynamotest.StartProxy(t, ep)
	ctx := context.Background()
	p := &prompts{code: mfaCode}
	o := dynamo.Options{Profile: "dev", Endpoint: proxy.URL, MFAToken: p.ask, NoSchemaCache: true}

	c, err := dynamo.Connect(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	// Connect asked, before any request: the typing is not the request's
	// time-out's.
	if len(p.asked) != 1 || p.asked[0] != (dynamo.MFARequest{Profile: "dev", RoleARN: mfaRole, Serial: mfaDevice}) {
		t.Fatalf("questions %+v, want one naming profile dev, its role and device", p.asked)
	}
	if _, err := c.ListTables(ctx); err != nil {
		t.Fatal(err)
	}
	calls := sts.Calls()
	if len(calls) != 1 || calls[0].Code != mfaCode || calls[0].Serial != mfaDevice || calls[0].Granted[0] == "" {
		t.Fatalf("STS calls %+v, want one granted AssumeRole with the code", calls)
	}
	// As the CLI sends it: no DurationSeconds (STS's hour), a session name.
	if calls[0].DurationSeconds != "" || !strings.HasPrefix(calls[0].SessionName, "dynascope-session-") {
		t.Errorf("AssumeRole sent DurationSeconds %q and session name %q", calls[0].DurationSeconds, calls[0].SessionName)
	}
	granted := calls[0].Granted
	signedWith(t, proxy, granted)

	// The CLI's cache file: its name, its fields, its expiry format.
	file := filepath.Join(home, ".aws", "cli", "cache", "131a642f71c3f6c59a6784c38b07b85e80590196.json")
	var entry struct {
		Credentials     map[string]string
		AssumedRoleUser map[string]string
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no session in the CLI's cache: %v", err)
	}
	if err := json.Unmarshal(data, &entry); err != nil {
		t.Fatal(err)
	}
	if c := entry.Credentials; c["AccessKeyId"] != granted[0] || c["SecretAccessKey"] != granted[1] || c["SessionToken"] != granted[2] ||
		!strings.HasSuffix(c["Expiration"], "UTC") || c["AccountId"] != "123456789012" || entry.AssumedRoleUser["Arn"] == "" {
		t.Errorf("cache entry %s", data)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("cache file mode %v (%v), want 0600", fi.Mode(), err)
	}

	// A second run: nothing asked, nothing sent to STS, the same session.
	p2 := &prompts{code: "000000"}
	o.MFAToken = p2.ask
	c2, err := dynamo.Connect(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c2.ListTables(ctx); err != nil {
		t.Fatal(err)
	}
	if len(p2.asked) != 0 || len(sts.Calls()) != 1 {
		t.Errorf("second run asked %d times and sent %d AssumeRole", len(p2.asked), len(sts.Calls()))
	}
	signedWith(t, proxy, granted)
}

// signedWith checks that the last request through the proxy was signed with
// the assumed role's key and carried its session token.
func signedWith(t *testing.T, proxy *dynamotest.Proxy, granted [3]string) {
	t.Helper()
	calls := proxy.Calls()
	if len(calls) == 0 {
		t.Fatal("no request reached DynamoDB Local")
	}
	h := calls[len(calls)-1].Header
	if !strings.Contains(h.Get("Authorization"), "Credential="+granted[0]+"/") || h.Get("X-Amz-Security-Token") != granted[2] {
		t.Errorf("the request was not signed with the assumed role's session: Authorization %q", h.Get("Authorization"))
	}
}

// A session the AWS CLI cached is used as it is; one that ends within the
// CLI's 15 minutes, or a damaged file, is assumed again.
func TestMFAProfileHonoursTheCLIsCache(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sts, home := mfaProfile(t, "")
	dir := filepath.Join(home, ".aws", "cli", "cache")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "131a642f71c3f6c59a6784c38b07b85e80590196.json")
	cliEntry := func(expires time.Time) string {
		// As botocore's JSONFileCache writes it (json.dumps' separators, the
		// expiry by strftime, ResponseMetadata too).
		return `{"Credentials": {"AccessKeyId": "ASIACLICACHED0000001", "SecretAccessKey": "cliSecret/abcdefghijklmnop", "SessionToken": "cliSessionToken/FwoGZXIvYXdzEJr/cli", "Expiration": "` +
			expires.UTC().Format("2006-01-02T15:04:05") + `UTC", "AccountId": "123456789012"}, "AssumedRoleUser": {"AssumedRoleId": "AROACLI:botocore-session-1", "Arn": "arn:aws:sts::123456789012:assumed-role/Reader/botocore-session-1"}, "ResponseMetadata": {"RequestId": "x", "HTTPStatusCode": 200, "HTTPHeaders": {}, "RetryAttempts": 0}}`
	}
	proxy := dynamotest.StartProxy(t, ep)
	ctx := context.Background()
	run := func(entry string) *prompts {
		t.Helper()
		if err := os.WriteFile(file, []byte(entry), 0o600); err != nil {
			t.Fatal(err)
		}
		p := &prompts{code: mfaCode}
		c, err := dynamo.Connect(ctx, dynamo.Options{Profile: "dev", Endpoint: proxy.URL, MFAToken: p.ask, NoSchemaCache: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListTables(ctx); err != nil {
			t.Fatal(err)
		}
		return p
	}

	if p := run(cliEntry(time.Now().Add(50 * time.Minute))); len(p.asked) != 0 || len(sts.Calls()) != 0 {
		t.Errorf("a valid session of the CLI's: asked %d times, %d AssumeRole", len(p.asked), len(sts.Calls()))
	}
	signedWith(t, proxy, [3]string{"ASIACLICACHED0000001", "", "cliSessionToken/FwoGZXIvYXdzEJr/cli"})

	if p := run(cliEntry(time.Now().Add(10 * time.Minute))); len(p.asked) != 1 || len(sts.Calls()) != 1 {
		t.Errorf("a session ending in 10 minutes: asked %d times, %d AssumeRole; want it assumed again", len(p.asked), len(sts.Calls()))
	}
	if p := run(`{"Credentials": {"AccessKeyId": "ASIA`); len(p.asked) != 1 || len(sts.Calls()) != 2 {
		t.Errorf("a damaged file: asked %d times, %d AssumeRole; want it assumed again", len(p.asked), len(sts.Calls()))
	}
}

// A profile's duration_seconds is sent, and it is part of the cache key, as
// in the CLI.
func TestMFAProfileDurationSeconds(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	sts, home := mfaProfile(t, "duration_seconds = 3600\n")
	p := &prompts{code: mfaCode}
	if _, err := dynamo.Connect(context.Background(), dynamo.Options{Profile: "dev", Endpoint: ep, MFAToken: p.ask}); err != nil {
		t.Fatal(err)
	}
	if calls := sts.Calls(); len(calls) != 1 || calls[0].DurationSeconds != "3600" {
		t.Fatalf("STS calls %+v, want DurationSeconds 3600", calls)
	}
	// Python: sha1(json.dumps({"RoleArn": ..., "SerialNumber": ..., "DurationSeconds": 3600}, sort_keys=True)).
	if _, err := os.Stat(filepath.Join(home, ".aws", "cli", "cache", "781a7f82cdd93b8f4ac447638fdcd2a2acd10ebe.json")); err != nil {
		t.Errorf("the session is not where the CLI looks for it: %v", err)
	}
}

// A wrong code, no way to ask and a role STS refuses are each one sentence
// naming the profile; nothing is cached.
func TestMFAProfileRefusals(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	_, home := mfaProfile(t, "")
	ctx := context.Background()
	connect := func(o dynamo.Options) error {
		o.Profile, o.Endpoint = "dev", ep
		_, err := dynamo.Connect(ctx, o)
		return err
	}
	wrong := &prompts{code: "654321"}
	err := connect(dynamo.Options{MFAToken: wrong.ask})
	want := "sign in: STS refused the MFA code of device " + mfaDevice + " for profile dev (MultiFactorAuthentication failed with invalid MFA one time pass code); run again with the device's current code."
	if err == nil || err.Error() != want {
		t.Errorf("wrong code:\n got %v\nwant %s", err, want)
	}
	err = connect(dynamo.Options{})
	if err == nil || !strings.Contains(err.Error(), "profile dev assumes role "+mfaRole+" with the MFA device "+mfaDevice+", and there is no terminal") {
		t.Errorf("no prompt: %v", err)
	}
	cancelled := func(ctx context.Context, _ dynamo.MFARequest) (string, error) { return "", context.Canceled }
	if err := connect(dynamo.Options{MFAToken: cancelled}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled prompt: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, ".aws", "cli", "cache")); len(entries) != 0 {
		t.Errorf("refusals left %d files in the cache", len(entries))
	}
}

// An SSO session that has expired or was never started names the command
// that starts it, for the profile that holds the SSO settings, also when
// the profile used takes its credentials from it.
func TestExpiredSSOSessionNamesTheLogin(t *testing.T) {
	awsHome(t, `[profile corp]
sso_session = corp
sso_account_id = 123456789012
sso_role_name = Reader
region = us-east-1

[profile legacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = us-east-1
sso_account_id = 123456789012
sso_role_name = Reader
region = us-east-1

[profile admin]
role_arn = arn:aws:iam::123456789012:role/Admin
source_profile = corp
region = us-east-1

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = us-east-1
`, "")
	ctx := context.Background()
	for profile, login := range map[string]string{"corp": "corp", "legacy": "legacy", "admin": "corp"} {
		c, err := dynamo.Connect(ctx, dynamo.Options{Profile: profile, MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListTables(ctx)
		want := "list tables: the AWS SSO session of profile " + login + " has expired or is missing; run 'aws sso login --profile " + login + "'."
		if err == nil || err.Error() != want {
			t.Errorf("profile %s:\n got %v\nwant %s", profile, err, want)
		}
	}
}
