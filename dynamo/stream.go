package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"dynascope/textfmt"
)

// StreamAPI is exactly the part of the DynamoDB Streams API that tailing
// uses. All three only read: the stream is DynamoDB's own log of the
// table's writes, and reading it changes nothing.
type StreamAPI interface {
	DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

var _ StreamAPI = (*dynamodbstreams.Client)(nil)

// StreamClient reads a table's stream. It records its requests through the
// Client it was made with (same sequence, same observer), so the request
// log shows GetRecords beside the table's reads. Like Client it holds
// nothing that can write.
type StreamClient struct {
	api StreamAPI
	c   *Client
}

// ConnectStreams builds the Streams client from the same configuration,
// retry policy and answer checks as Connect; c is the client the table's
// description is read through and requests are recorded by. It makes no
// request.
func ConnectStreams(ctx context.Context, o Options, c *Client) (*StreamClient, error) {
	given := o.Endpoint
	sdk, cfg, err := connectSDK(ctx, &o)
	if err != nil {
		return nil, err
	}
	// c's retry policy, so that its observers hear the stream's retries too.
	h := c.retries
	cfg.Retryer = func() aws.Retryer { return h.retryer() }
	endpoint := streamsEndpoint(given, o.Endpoint, cfg)
	readTimeout := o.ReadTimeout
	api := dynamodbstreams.NewFromConfig(cfg, func(so *dynamodbstreams.Options) {
		if endpoint != "" {
			so.BaseEndpoint = aws.String(endpoint)
		}
		so.HTTPClient = withReadTimeout(so.HTTPClient, readTimeout)
		// The retry, answer and debug middleware only touch the stack,
		// which has one shape for every service: install them through a
		// DynamoDB options value and take its stack functions over.
		var do dynamodb.Options
		h.install(&do)
		installAnswerCheck(&do)
		sdk.debug.install(&do)
		so.APIOptions = append(so.APIOptions, do.APIOptions...)
	})
	return NewStreamClient(api, c), nil
}

// streamsEndpoint is where Streams requests go: the endpoint given, else
// the one the SDK's rules give DynamoDB Streams
// (AWS_ENDPOINT_URL_DYNAMODB_STREAMS, the profile's dynamodb_streams
// service, the global ones), else DynamoDB's own (DynamoDB Local serves
// both APIs on one port; "" leaves it to the region).
func streamsEndpoint(given, dynamoDB string, cfg aws.Config) string {
	if given != "" {
		return given
	}
	if ep := aws.ToString(dynamodbstreams.NewFromConfig(cfg).Options().BaseEndpoint); ep != "" {
		return ep
	}
	return dynamoDB
}

// NewStreamClient builds a StreamClient over any implementation of the
// Streams calls; tests give it an SDK client pointed at a proxy.
func NewStreamClient(api StreamAPI, c *Client) *StreamClient {
	return &StreamClient{api: api, c: c}
}

// StreamInfo is what tailing needs to know about a table and its stream.
type StreamInfo struct {
	Table    string
	ARN      string
	ViewType string // NEW_AND_OLD_IMAGES, NEW_IMAGE, OLD_IMAGE or KEYS_ONLY
	PK       KeyAttr
	SK       *KeyAttr // nil when the table has no sort key
}

// Images tells which images the stream's records carry.
func (s StreamInfo) Images() (old, new bool) {
	switch s.ViewType {
	case string(st.StreamViewTypeNewAndOldImages):
		return true, true
	case string(st.StreamViewTypeNewImage):
		return false, true
	case string(st.StreamViewTypeOldImage):
		return true, false
	}
	return false, false
}

// NoStreamError is a table without an enabled stream: nothing to tail, and
// dynascope never turns one on.
type NoStreamError struct{ Table, Endpoint string }

func (e *NoStreamError) Error() string {
	cmd := "aws dynamodb update-table --table-name " + e.Table + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"
	if e.Endpoint != "" {
		cmd += " --endpoint-url " + PublicEndpoint(e.Endpoint)
	}
	return fmt.Sprintf("table %s has no stream, so there are no writes to tail; dynascope never enables one, but you can: %s", e.Table, cmd)
}

// Stream describes the table and its stream, with one DescribeTable that
// is always sent (the session's cached description holds no stream). A
// table without an enabled stream gives a *NoStreamError.
func (s *StreamClient) Stream(ctx context.Context, table string) (StreamInfo, error) {
	c := s.c
	cctx, cancel := c.withTimeout(ctx)
	defer cancel()
	began := time.Now()
	out, err := c.api.DescribeTable(cctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	req := Request{Operation: "DescribeTable", Table: table, Start: began, Duration: time.Since(began), Note: "for its stream"}
	if err != nil {
		req.Err = Explain(err, fmt.Sprintf("describe table %s", table), c.opts.Endpoint)
		c.record(&req)
		return StreamInfo{}, req.Err
	}
	c.record(&req)
	d := out.Table
	if d == nil {
		return StreamInfo{}, &UserError{Msg: fmt.Sprintf("describe table %s: the answer holds no table description; check --endpoint-url.", table)}
	}
	info := StreamInfo{Table: table, ARN: aws.ToString(d.LatestStreamArn)}
	if spec := d.StreamSpecification; spec != nil && aws.ToBool(spec.StreamEnabled) {
		info.ViewType = string(spec.StreamViewType)
	}
	if info.ARN == "" || info.ViewType == "" {
		return info, &NoStreamError{Table: table, Endpoint: c.opts.Endpoint}
	}
	if !arnNamesTable(info.ARN, table) {
		return info, Explain(&BadAnswerError{Op: "DescribeTable", Problem: fmt.Sprintf("a LatestStreamArn %s that is not a stream of table %s", textfmt.Sanitize(clip(info.ARN, 120)), table)}, fmt.Sprintf("describe table %s", table), c.opts.Endpoint)
	}
	types := map[string]string{}
	for _, a := range d.AttributeDefinitions {
		types[aws.ToString(a.AttributeName)] = string(a.AttributeType)
	}
	for _, k := range d.KeySchema {
		ka := KeyAttr{Name: aws.ToString(k.AttributeName), Type: types[aws.ToString(k.AttributeName)]}
		if k.KeyType == "HASH" {
			info.PK = ka
		} else {
			info.SK = &ka
		}
	}
	return info, nil
}

// shard is one shard as DescribeStream lists it.
type shard struct {
	id, parent string
	closed     bool // it has an ending sequence number: no new records
}

// maxShardPages bounds DescribeStream's paging: a stream has at most a few
// thousand shards within its 24 hours, 100 a page.
const maxShardPages = 1000

// shards lists every shard of the stream, following DescribeStream's pages.
func (s *StreamClient) shards(ctx context.Context, info StreamInfo) ([]shard, error) {
	var out []shard
	seen := map[string]bool{}
	var start *string
	for page := 0; ; page++ {
		if page == maxShardPages {
			return out, s.explain(&BadAnswerError{Op: "DescribeStream", Problem: fmt.Sprintf("more than %d pages of shards (paging would never end)", maxShardPages)}, info)
		}
		cctx, cancel := s.c.withTimeout(ctx)
		began := time.Now()
		ans, err := s.api.DescribeStream(cctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(info.ARN), ExclusiveStartShardId: start})
		cancel()
		req := Request{Operation: "DescribeStream", Table: info.Table, Start: began, Duration: time.Since(began)}
		if err != nil {
			req.Err = s.explain(err, info)
			s.record(ctx, &req)
			return out, req.Err
		}
		d := ans.StreamDescription
		if d == nil {
			req.Err = s.explain(&BadAnswerError{Op: "DescribeStream", Problem: "an answer without a StreamDescription"}, info)
			s.record(ctx, &req)
			return out, req.Err
		}
		if other := describeMismatch(info, d); other != "" {
			req.Err = s.explain(&BadAnswerError{Op: "DescribeStream", Problem: fmt.Sprintf("an answer about %s, not the stream of table %s asked for", textfmt.Sanitize(other), info.Table)}, info)
			s.record(ctx, &req)
			return out, req.Err
		}
		for _, sh := range d.Shards {
			id := aws.ToString(sh.ShardId)
			if id == "" || seen[id] {
				continue
			}
			seen[id] = true
			closed := sh.SequenceNumberRange != nil && sh.SequenceNumberRange.EndingSequenceNumber != nil
			out = append(out, shard{id: id, parent: aws.ToString(sh.ParentShardId), closed: closed})
		}
		req.Count = int32(len(d.Shards))
		req.More = d.LastEvaluatedShardId != nil
		next := aws.ToString(d.LastEvaluatedShardId)
		if next != "" && start != nil && next == *start {
			req.Err = s.explain(&BadAnswerError{Op: "DescribeStream", Problem: fmt.Sprintf("a LastEvaluatedShardId %q equal to the ExclusiveStartShardId it was sent (paging would never end)", next)}, info)
			s.record(ctx, &req)
			return out, req.Err
		}
		s.record(ctx, &req)
		if next == "" {
			return out, nil
		}
		start = aws.String(next)
	}
}

// iterator asks for a shard iterator: at kind, or after seq when seq is set.
func (s *StreamClient) iterator(ctx context.Context, info StreamInfo, shardID string, kind st.ShardIteratorType, seq string) (*string, error) {
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(info.ARN), ShardId: aws.String(shardID), ShardIteratorType: kind}
	if seq != "" {
		in.ShardIteratorType = st.ShardIteratorTypeAfterSequenceNumber
		in.SequenceNumber = aws.String(seq)
	}
	cctx, cancel := s.c.withTimeout(ctx)
	defer cancel()
	began := time.Now()
	out, err := s.api.GetShardIterator(cctx, in)
	req := Request{Operation: "GetShardIterator", Table: info.Table, Start: began, Duration: time.Since(began), Note: string(in.ShardIteratorType)}
	if err == nil && aws.ToString(out.ShardIterator) == "" {
		err = &BadAnswerError{Op: "GetShardIterator", Problem: "an answer without a ShardIterator"}
	}
	if err != nil {
		if isTrimmed(err) {
			s.record(ctx, &req)
			return nil, err // the caller starts over at the trim horizon
		}
		req.Err = s.explain(err, info)
		s.record(ctx, &req)
		return nil, req.Err
	}
	s.record(ctx, &req)
	return out.ShardIterator, nil
}

// records sends one GetRecords.
func (s *StreamClient) records(ctx context.Context, info StreamInfo, iter *string) (*dynamodbstreams.GetRecordsOutput, error) {
	cctx, cancel := s.c.withTimeout(ctx)
	defer cancel()
	began := time.Now()
	out, err := s.api.GetRecords(cctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
	req := Request{Operation: "GetRecords", Table: info.Table, Start: began, Duration: time.Since(began)}
	if err != nil {
		if isExpired(err) || isTrimmed(err) {
			req.Note = "iterator to renew"
			s.record(ctx, &req)
			return nil, err
		}
		req.Err = s.explain(err, info)
		s.record(ctx, &req)
		return nil, req.Err
	}
	req.Count = int32(len(out.Records))
	req.More = out.NextShardIterator != nil
	s.record(ctx, &req)
	return out, nil
}

type streamObserverKey struct{}

// record records a request through the client, and tells the tail's own
// observer (TailOptions.OnRequest) too.
func (s *StreamClient) record(ctx context.Context, r *Request) {
	s.c.record(r)
	if f, ok := ctx.Value(streamObserverKey{}).(func(Request)); ok {
		f(*r)
	}
}

func (s *StreamClient) explain(err error, info StreamInfo) error {
	return Explain(err, fmt.Sprintf("read the stream of table %s", info.Table), s.c.opts.Endpoint)
}

// isExpired tells an iterator older than its 15 minutes.
func isExpired(err error) bool {
	var e *st.ExpiredIteratorException
	var api smithy.APIError
	return errors.As(err, &e) || errors.As(err, &api) && api.ErrorCode() == "ExpiredIteratorException"
}

// isTrimmed tells a position older than the stream's 24 hours.
func isTrimmed(err error) bool {
	var e *st.TrimmedDataAccessException
	var api smithy.APIError
	return errors.As(err, &e) || errors.As(err, &api) && api.ErrorCode() == "TrimmedDataAccessException"
}
