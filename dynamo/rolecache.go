package dynamo

// Profiles that assume a role (role_arn with source_profile or
// credential_source), with MFA when they name a device (mfa_serial). The
// SDK resolves the profile, its source credentials and the role chain; it
// has no token prompt of its own and keeps the session in memory only, so
// every run would ask for a new code. Here its STS client is wrapped: the
// AssumeRole call is answered from the AWS CLI's cache of assumed-role
// sessions (~/.aws/cli/cache) while a session there is valid, written by
// either tool, and otherwise sent with the code the user types, its answer
// then cached for the next run, the CLI's way: the file name is the SHA-1
// of the call's arguments as botocore serialises them
// (BaseAssumeRoleCredentialFetcher._create_cache_key), the content the
// AssumeRole response, and a session expiring within 15 minutes is not
// used (CachedCredentialFetcher's expiry window).

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/aws/smithy-go"
)

// MFARequest is what a prompt for an MFA code names: the profile that
// assumes the role, the role, and the device whose code it needs.
type MFARequest struct {
	Profile string
	RoleARN string
	Serial  string // mfa_serial: a virtual device's ARN or a hardware serial number
}

// roleCacheWindow is the CLI's: a cached session that ends sooner is
// assumed again rather than used.
const roleCacheWindow = 15 * time.Minute

// DefaultRoleCacheDir is the AWS CLI's cache of assumed-role sessions,
// ~/.aws/cli/cache; "" when there is no home directory.
func DefaultRoleCacheDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".aws", "cli", "cache")
}

// roleCache answers AssumeRole from the cache and asks for MFA codes.
type roleCache struct {
	dir     string // "" for no cache
	prompt  func(context.Context, MFARequest) (string, error)
	timeout time.Duration // of the AssumeRole call, apart from the user's typing
	now     func() time.Time

	mu    sync.Mutex
	roles []awsconfig.SharedConfig // the profile and its sources that assume a role
}

func newRoleCache(o Options) *roleCache {
	dir := o.RoleCacheDir
	if dir == "" {
		dir = DefaultRoleCacheDir()
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &roleCache{dir: dir, prompt: o.MFAToken, timeout: timeout, now: time.Now}
}

// assumeRoleOptions is given to the SDK, which applies it to the provider
// of every profile of the chain that assumes a role.
func (rc *roleCache) assumeRoleOptions(ao *stscreds.AssumeRoleOptions) {
	ao.Client = &cachedAssumeRole{api: ao.Client, rc: rc}
	if ao.SerialNumber != nil {
		// The SDK asks for the code before it calls AssumeRole, but a
		// cached session needs none: cachedAssumeRole asks, after the cache.
		ao.TokenProvider = func() (string, error) { return "", nil }
	}
}

// profileChain is the loaded profile and the profiles it takes its
// credentials from (source_profile), in that order.
func profileChain(cfg aws.Config) []awsconfig.SharedConfig {
	var chain []awsconfig.SharedConfig
	for _, src := range cfg.ConfigSources {
		if sc, ok := src.(awsconfig.SharedConfig); ok {
			for p := &sc; p != nil; p = p.Source {
				chain = append(chain, *p)
			}
			break
		}
	}
	return chain
}

// setProfiles keeps the profiles of the loaded chain that assume a role,
// for the arguments the CLI would send for each.
func (rc *roleCache) setProfiles(cfg aws.Config) {
	var roles []awsconfig.SharedConfig
	for _, p := range profileChain(cfg) {
		if p.RoleARN != "" {
			roles = append(roles, p)
		}
	}
	rc.mu.Lock()
	rc.roles = roles
	rc.mu.Unlock()
}

// askMFAFirst retrieves the credentials of a profile that assumes a role
// with MFA (itself or a profile it takes its credentials from) while the
// client is being built: the code is asked (or the cached session read)
// under ctx, the command's, where on a first request the request's
// time-out would cut the user's typing short.
func askMFAFirst(ctx context.Context, cfg aws.Config) error {
	if cfg.Credentials == nil || !slices.ContainsFunc(profileChain(cfg), func(p awsconfig.SharedConfig) bool { return p.RoleARN != "" && p.MFASerial != "" }) {
		return nil
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return Explain(err, "sign in", "")
	}
	return nil
}

// profileOf finds the profile whose role an AssumeRole call assumes.
func (rc *roleCache) profileOf(in *sts.AssumeRoleInput) (awsconfig.SharedConfig, bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, p := range rc.roles {
		if p.RoleARN == aws.ToString(in.RoleArn) && p.MFASerial == aws.ToString(in.SerialNumber) && p.ExternalID == aws.ToString(in.ExternalId) {
			return p, true
		}
	}
	return awsconfig.SharedConfig{}, false
}

// cachedAssumeRole is the SDK's STS client behind the cache and the prompt.
type cachedAssumeRole struct {
	api stscreds.AssumeRoleAPIClient
	rc  *roleCache
}

func (c *cachedAssumeRole) AssumeRole(ctx context.Context, in *sts.AssumeRoleInput, optFns ...func(*sts.Options)) (*sts.AssumeRoleOutput, error) {
	p, known := c.rc.profileOf(in)
	if !known {
		return c.api.AssumeRole(ctx, in, optFns...)
	}
	key := roleCacheKey(p)
	if out, ok := c.rc.load(key); ok {
		return out, nil
	}
	sent := *in
	// As the CLI sends it: the profile's duration_seconds, else none (STS's
	// one hour, where the SDK would ask for 15 minutes), and a session
	// name that says who asked when the profile names none.
	sent.DurationSeconds = nil
	if p.RoleDurationSeconds != nil {
		sent.DurationSeconds = aws.Int32(int32(*p.RoleDurationSeconds / time.Second))
	}
	if p.RoleSessionName == "" {
		sent.RoleSessionName = aws.String(fmt.Sprintf("dynascope-session-%d", c.rc.now().Unix()))
	}
	mfa := MFARequest{Profile: p.Profile, RoleARN: p.RoleARN, Serial: p.MFASerial}
	if p.MFASerial != "" {
		if c.rc.prompt == nil {
			return nil, NoMFAPrompt(mfa, nil)
		}
		code, err := c.rc.prompt(ctx, mfa)
		if err != nil {
			return nil, err
		}
		sent.TokenCode = aws.String(code)
	}
	sendCtx, cancel := context.WithTimeout(ctx, c.rc.timeout)
	defer cancel()
	out, err := c.api.AssumeRole(sendCtx, &sent, optFns...)
	if err != nil {
		return nil, assumeRoleError(mfa, err)
	}
	c.rc.store(key, out)
	return out, nil
}

// NoMFAPrompt is the refusal of an MFA profile where no code can be asked
// (no terminal); err is why, when known.
func NoMFAPrompt(r MFARequest, err error) error {
	return &CredentialsError{Msg: fmt.Sprintf("profile %s assumes role %s with the MFA device %s, and there is no terminal to ask for its code; run dynascope in a terminal, or any aws command with --profile %s first (its cached session is used)", r.Profile, r.RoleARN, r.Serial, r.Profile), Err: err}
}

// assumeRoleError says why STS refused the role, naming the profile (and
// the device, when the code was what it refused).
func assumeRoleError(r MFARequest, err error) error {
	var api smithy.APIError
	if !errors.As(err, &api) {
		return err // not an answer from STS: Explain words the network's failures
	}
	msg := strings.TrimSuffix(strings.TrimSpace(firstLine(api.ErrorMessage())), ".")
	if r.Serial != "" && strings.Contains(strings.ToLower(msg), "multifactor") {
		return &CredentialsError{Msg: fmt.Sprintf("STS refused the MFA code of device %s for profile %s (%s); run again with the device's current code", r.Serial, r.Profile, msg), Err: err}
	}
	return &CredentialsError{Msg: fmt.Sprintf("profile %s could not assume role %s: %s: %s", r.Profile, r.RoleARN, api.ErrorCode(), msg), Err: err}
}

// roleCacheKey is the CLI's cache key of a profile's role: the SHA-1 of
// the AssumeRole arguments it sends (RoleArn, and RoleSessionName,
// ExternalId, SerialNumber, DurationSeconds where the profile sets them)
// as Python's json.dumps(args, sort_keys=True) writes them.
func roleCacheKey(p awsconfig.SharedConfig) string {
	args := map[string]any{"RoleArn": p.RoleARN}
	if p.RoleSessionName != "" {
		args["RoleSessionName"] = p.RoleSessionName
	}
	if p.ExternalID != "" {
		args["ExternalId"] = p.ExternalID
	}
	if p.MFASerial != "" {
		args["SerialNumber"] = p.MFASerial
	}
	if p.RoleDurationSeconds != nil {
		args["DurationSeconds"] = int64(*p.RoleDurationSeconds / time.Second)
	}
	sum := sha1.Sum([]byte(pythonJSON(args)))
	return hex.EncodeToString(sum[:])
}

// pythonJSON writes a flat object of strings and integers byte for byte as
// Python's json.dumps with sort_keys=True does: ", " and ": " between
// items, every character outside printable ASCII escaped as \uXXXX.
func pythonJSON(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pythonString(k))
		b.WriteString(": ")
		switch v := args[k].(type) {
		case string:
			b.WriteString(pythonString(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		}
	}
	b.WriteByte('}')
	return b.String()
}

// pythonString is s as Python's json.dumps writes it (ensure_ascii): the
// AWS CLI's cache file names and botocore's NextToken (pagetoken.go) both
// rest on its exact bytes.
func pythonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= 0x20 && r <= 0x7e:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// roleCacheEntry is a cache file: the AssumeRole response as the CLI keeps
// it. Other fields the CLI writes (ResponseMetadata) are ignored.
type roleCacheEntry struct {
	Credentials struct {
		AccessKeyID     string `json:"AccessKeyId"`
		SecretAccessKey string
		SessionToken    string
		Expiration      string
		AccountID       string `json:"AccountId,omitempty"`
	}
	AssumedRoleUser *struct {
		AssumedRoleID string `json:"AssumedRoleId"`
		Arn           string
	} `json:",omitempty"`
}

// load reads a valid cached session: complete, and not ending within the
// CLI's window.
func (rc *roleCache) load(key string) (*sts.AssumeRoleOutput, bool) {
	if rc.dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(rc.dir, key+".json"))
	if err != nil {
		return nil, false
	}
	var e roleCacheEntry
	if json.Unmarshal(data, &e) != nil {
		return nil, false
	}
	c := e.Credentials
	until, ok := parseCacheTime(c.Expiration)
	if !ok || c.AccessKeyID == "" || c.SecretAccessKey == "" || c.SessionToken == "" || until.Sub(rc.now()) < roleCacheWindow {
		return nil, false
	}
	out := &sts.AssumeRoleOutput{Credentials: &ststypes.Credentials{
		AccessKeyId: aws.String(c.AccessKeyID), SecretAccessKey: aws.String(c.SecretAccessKey),
		SessionToken: aws.String(c.SessionToken), Expiration: aws.Time(until),
	}}
	if u := e.AssumedRoleUser; u != nil {
		out.AssumedRoleUser = &ststypes.AssumedRoleUser{AssumedRoleId: aws.String(u.AssumedRoleID), Arn: aws.String(u.Arn)}
	}
	return out, true
}

// parseCacheTime reads an expiry as the CLI writes it (strftime's
// "%Y-%m-%dT%H:%M:%S%Z": 2025-01-02T03:04:05UTC) or in ISO 8601.
func parseCacheTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02T15:04:05MST", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// store writes a session into the cache as the CLI does: the response's
// fields, the expiry in its format, replacing the file in one step, for
// the user alone. A cache that cannot be written costs a prompt next time,
// nothing else.
func (rc *roleCache) store(key string, out *sts.AssumeRoleOutput) {
	if rc.dir == "" || out == nil || out.Credentials == nil {
		return
	}
	var e roleCacheEntry
	c := out.Credentials
	e.Credentials.AccessKeyID = aws.ToString(c.AccessKeyId)
	e.Credentials.SecretAccessKey = aws.ToString(c.SecretAccessKey)
	e.Credentials.SessionToken = aws.ToString(c.SessionToken)
	e.Credentials.Expiration = aws.ToTime(c.Expiration).UTC().Format("2006-01-02T15:04:05") + "UTC"
	if u := out.AssumedRoleUser; u != nil {
		e.AssumedRoleUser = &struct {
			AssumedRoleID string `json:"AssumedRoleId"`
			Arn           string
		}{aws.ToString(u.AssumedRoleId), aws.ToString(u.Arn)}
		// The CLI adds the account of the role's ARN.
		if parts := strings.SplitN(aws.ToString(u.Arn), ":", 6); len(parts) == 6 && parts[0] == "arn" {
			e.Credentials.AccountID = parts[4]
		}
	}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	if os.MkdirAll(rc.dir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(rc.dir, key+"-*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(rc.dir, key+".json")) != nil {
		_ = os.Remove(tmp.Name())
	}
}
