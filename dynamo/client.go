package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"
)

// API is exactly the part of the SDK that exploring uses. Nothing here writes.
type API interface {
	ListTables(ctx context.Context, in *dynamodb.ListTablesInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error)
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	// ExecuteStatement can write (INSERT, UPDATE, DELETE): RunPartiQL, the
	// one caller, sends nothing but a SELECT (partiql.IsSelect), and the no-writes
	// tests count any other statement as a write.
	ExecuteStatement(ctx context.Context, in *dynamodb.ExecuteStatementInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ExecuteStatementOutput, error)
}

// WriteAPI adds the two writes that seeding needs. Only seeding takes it,
// and only ConnectWriter (or a test's raw SDK client) provides it.
type WriteAPI interface {
	API
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

var (
	_ API      = (*dynamodb.Client)(nil)
	_ WriteAPI = (*dynamodb.Client)(nil)
)

// DefaultTimeout bounds every call when the user sets none.
const DefaultTimeout = 15 * time.Second

// Options say where and how to connect.
type Options struct {
	Profile     string
	Region      string
	Endpoint    string        // e.g. http://127.0.0.1:8000; "" for AWS
	Timeout     time.Duration // per call; DefaultTimeout when zero
	MaxAttempts int           // tries per request; AWS_MAX_ATTEMPTS, else DefaultMaxAttempts, when zero

	// SchemaCacheDir is where key schemas are kept between runs, so that a
	// query needs no DescribeTable first; "" means DefaultSchemaCacheDir()
	// for Connect and no cache for NewWithAPI.
	SchemaCacheDir string
	// NoSchemaCache turns the schema cache off: every run asks DynamoDB.
	NoSchemaCache bool

	// ConnectTimeout bounds setting up a connection (TCP and TLS), and
	// ReadTimeout the wait for each part of an answer, as the AWS CLI's
	// --cli-connect-timeout and --cli-read-timeout do; 0 leaves each to the
	// SDK's defaults. Timeout bounds the whole request either way.
	ConnectTimeout, ReadTimeout time.Duration

	// Debug says what is written to DebugTo about every request and
	// answer (debug.go); DebugOff writes nothing.
	Debug   DebugLevel
	DebugTo io.Writer

	// MFAToken asks the user for the code of an MFA device when a profile
	// that assumes a role names one (mfa_serial) and no cached session is
	// valid (rolecache.go); nil refuses such a profile with a sentence.
	MFAToken func(context.Context, MFARequest) (string, error)
	// RoleCacheDir is where assumed-role sessions are cached, shared with
	// the AWS CLI; "" means ~/.aws/cli/cache, as the CLI has it.
	RoleCacheDir string
}

// Client is the read-only DynamoDB client of dynascope. It records every
// request it sends and caches table descriptions. It holds nothing that can
// write: the writes of seeding go through a separate client (ConnectWriter),
// and TestReadOnlyClientType checks every field.
type Client struct {
	api     API
	opts    Options
	region  string
	seq     atomic.Int64
	mu      sync.Mutex
	tables  map[string]Table // DescribeTable's answers in this session
	keys    map[string]Table // key schemas read from the schema cache, not yet confirmed by DynamoDB
	schemas *schemaCache     // schemacache.go; nil when off
	observe func(Request)
	retries *retryHook // retry.go
}

// Connect loads the AWS configuration the way the AWS CLI does (flags over
// environment over shared config) and builds a client. It makes no request
// to DynamoDB; a profile that assumes a role with MFA asks for its code now
// (unless its session is cached) and assumes the role, so that the user's
// typing is bounded by ctx alone, never by a request's time-out.
func Connect(ctx context.Context, o Options) (*Client, error) {
	sdk, cfg, err := connectSDK(ctx, &o)
	if err != nil {
		return nil, err
	}
	c := NewWithAPI(sdk.api, o)
	c.retries = sdk.retries
	c.region = cfg.Region
	c.schemas = newSchemaCache(o, cfg.Region)
	return c, nil
}

// ConnectWriter builds the client that seeding writes through, from the same
// configuration as Connect. It is kept apart from Client so that nothing
// holding the explorer's client can write; only seed and demo call it.
func ConnectWriter(ctx context.Context, o Options) (WriteAPI, error) {
	sdk, _, err := connectSDK(ctx, &o)
	if err != nil {
		return nil, err
	}
	return sdk.api, nil
}

// sdkClient is an SDK client with the retry policy installed in it.
type sdkClient struct {
	api     *dynamodb.Client
	retries *retryHook
	debug   *debugLog
}

// connectSDK is the configuration loading shared by Connect and
// ConnectWriter. It completes o: the time-out, and the endpoint when the
// SDK's own variables set one.
func connectSDK(ctx context.Context, o *Options) (sdkClient, aws.Config, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	cfg, local, err := resolveConfig(ctx, o)
	if err != nil {
		return sdkClient{}, cfg, err
	}
	// credentials.go words the failures; errors.go's Redact learns the secrets.
	cfg.Credentials = rememberSecrets(explainCredentials(cfg.Credentials, cfg))
	// An MFA profile was chosen on purpose: a refused code is said, even
	// where a local engine would take the fallback's fake keys.
	if err := askMFAFirst(ctx, cfg); err != nil { // rolecache.go
		return sdkClient{}, cfg, err
	}
	if local {
		cfg.Credentials = fallbackCredentials{primary: cfg.Credentials}
	}
	if cfg.Region == "" && o.Endpoint == "" {
		return sdkClient{}, cfg, &UserError{Msg: "no AWS region is set; pass --region or set AWS_REGION (or a region in your profile)."}
	}
	retries := newRetryHook(&cfg, *o)             // retry.go: the retryer and its observers
	debug := newDebugLog(*o, retries.maxAttempts) // debug.go
	endpoint, readTimeout := o.Endpoint, o.ReadTimeout
	api := dynamodb.NewFromConfig(cfg, func(do *dynamodb.Options) {
		if endpoint != "" {
			do.BaseEndpoint = aws.String(endpoint)
		}
		do.HTTPClient = withReadTimeout(do.HTTPClient, readTimeout) // transport.go
		retries.install(do)
		installAnswerCheck(do) // answer.go
		debug.install(do)      // innermost: it sees the request as sent
	})
	return sdkClient{api: api, retries: retries, debug: debug}, cfg, nil
}

// CodeTarget is the region and endpoint a client of these options would
// use, from the options and the SDK's own configuration (environment,
// shared files), with no request and no credentials: for printed code,
// which needs neither. A local endpoint's region defaults as Connect's
// does; region is "" when nothing configures one, and the code then leaves
// it to the caller's configuration. The endpoint's password is masked.
func CodeTarget(ctx context.Context, o Options) (region, endpoint string, err error) {
	cfg, _, err := resolveConfig(ctx, &o)
	if err != nil {
		return "", "", err
	}
	return cfg.Region, PublicEndpoint(o.Endpoint), nil
}

// resolveConfig loads the SDK's configuration for o and says whether the
// endpoint is a local engine, whose region defaults to us-east-1. An
// endpoint not given in o is the one the SDK's own rules give DynamoDB
// (configuredEndpoint), written into o so that the client can tell a local
// engine. It sends nothing and retrieves no credentials.
func resolveConfig(ctx context.Context, o *Options) (aws.Config, bool, error) {
	roles := newRoleCache(*o) // rolecache.go
	loads := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithLogger(logging.Nop{}),
		awsconfig.WithClientLogMode(0),
		awsconfig.WithLogConfigurationWarnings(false),
		awsconfig.WithAssumeRoleCredentialOptions(roles.assumeRoleOptions),
	}
	if hc := wireHTTPClient(*o); hc != nil { // transport.go
		loads = append(loads, awsconfig.WithHTTPClient(hc))
	}
	if o.Profile != "" {
		loads = append(loads, awsconfig.WithSharedConfigProfile(o.Profile))
	}
	if o.Region != "" {
		loads = append(loads, awsconfig.WithRegion(o.Region))
	}
	// A local engine needs neither instance metadata nor real credentials;
	// asking IMDS would only add seconds of time-outs.
	noIMDS := append(loads[:len(loads):len(loads)], awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	local := IsLoopback(o.Endpoint)
	use := loads
	if local {
		use = noIMDS
	}
	cfg, err := loadConfig(ctx, o.Endpoint, use) // cabundle.go
	if err != nil {
		return cfg, local, explainConfig(err, o.Profile)
	}
	if o.Endpoint == "" {
		o.Endpoint = configuredEndpoint(cfg)
		if IsLoopback(o.Endpoint) {
			local = true
			if cfg, err = loadConfig(ctx, o.Endpoint, noIMDS); err != nil {
				return cfg, local, explainConfig(err, o.Profile)
			}
		}
	}
	roles.setProfiles(cfg)
	if local && cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	return cfg, local, nil
}

// configuredEndpoint is DynamoDB's endpoint by the SDK's own rules, as the
// AWS CLI has them: AWS_ENDPOINT_URL_DYNAMODB, else AWS_ENDPOINT_URL, else
// the profile's services section (dynamodb = endpoint_url = ...), else the
// profile's endpoint_url; none of these when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS
// or the profile's ignore_configured_endpoint_urls is true. "" leaves the
// endpoint to the region. It is read from a client built as ours are, so
// that it is the SDK's answer, not a copy of its rules.
func configuredEndpoint(cfg aws.Config) string {
	return aws.ToString(dynamodb.NewFromConfig(cfg).Options().BaseEndpoint)
}

// NewWithAPI builds a client over any implementation of the SDK calls. It
// keeps no schema cache unless o.SchemaCacheDir names one: a fake API's
// tables are no business of the user's cache.
func NewWithAPI(api API, o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	c := &Client{api: api, opts: o, region: o.Region, tables: map[string]Table{}, keys: map[string]Table{}, retries: &retryHook{maxAttempts: max(o.MaxAttempts, 1)}}
	if o.SchemaCacheDir != "" {
		c.schemas = newSchemaCache(o, o.Region)
	}
	return c
}

// Region is the region requests go to.
func (c *Client) Region() string { return c.region }

// Endpoint is the endpoint given, or "" for AWS, with any password in it
// masked: it is for showing and for generated code.
func (c *Client) Endpoint() string { return PublicEndpoint(c.opts.Endpoint) }

// Profile is the shared-config profile given, or "".
func (c *Client) Profile() string { return c.opts.Profile }

// Timeout is the bound on every call.
func (c *Client) Timeout() time.Duration { return c.opts.Timeout }

// OnRequest installs a function called after every request with its record.
// It is called from the goroutine that made the request.
func (c *Client) OnRequest(f func(Request)) { c.observe = f }

func (c *Client) record(r *Request) {
	r.Seq = c.seq.Add(1)
	if c.observe != nil {
		c.observe(*r)
	}
}

// withTimeout bounds a call: a server that accepts and never answers would
// otherwise hang it forever.
func (c *Client) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.opts.Timeout)
}

// IsLoopback tells whether an endpoint URL names this machine.
func IsLoopback(endpoint string) bool {
	if endpoint == "" {
		return false
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fallbackCredentials uses the real chain when it yields credentials and
// fixed fake ones otherwise. Only used for loopback endpoints, where DynamoDB
// Local accepts any signature.
type fallbackCredentials struct{ primary aws.CredentialsProvider }

func (f fallbackCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	if f.primary != nil {
		if cr, err := f.primary.Retrieve(ctx); err == nil && cr.HasKeys() {
			return cr, nil
		}
	}
	return credentials.NewStaticCredentialsProvider("local", "local", "").Retrieve(ctx)
}

func explainConfig(err error, profile string) error {
	var pe awsconfig.SharedConfigProfileNotExistError
	if errors.As(err, &pe) {
		return &UserError{Msg: fmt.Sprintf("the AWS profile %q does not exist in your shared config; check --profile or AWS_PROFILE.", profile), Err: err}
	}
	return &UserError{Msg: Redact("could not load the AWS configuration: " + err.Error()), Err: err}
}
