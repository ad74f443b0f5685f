package dynamotest

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The errors DynamoDB Streams answers with, as it spells them. Give them to
// Rules on GetRecords or GetShardIterator: the proxy plays the stream that
// expires or refuses, in front of DynamoDB Local's real one.
var (
	// ExpiredIterator is a shard iterator older than its 15 minutes (400).
	ExpiredIterator = APIError(400, "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException",
		"Iterator expired. The iterator was created at time Tue Dec 01 09:00:00 UTC 2026 while right now it is Tue Dec 01 09:15:01 UTC 2026 which is further in the future than the tolerated delay of 900000 milliseconds.")
	// StreamLimitExceeded is GetRecords called too often on one shard (400):
	// Streams' throttling, which the SDK retries as such.
	StreamLimitExceeded = APIError(400, "com.amazonaws.dynamodb.v20120810#LimitExceededException",
		"Rate exceeded for shard shardId-00000001 in stream.")
	// TrimmedData is a position older than the stream's 24 hours (400).
	TrimmedData = APIError(400, "com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException",
		"The operation attempted to read past the oldest stream record in a shard.")
)

// WithStream is a table definition with a stream of the given view type
// (NEW_AND_OLD_IMAGES, NEW_IMAGE, OLD_IMAGE or KEYS_ONLY): DynamoDB Local
// streams the writes of tables created so.
func WithStream(in dynamodb.CreateTableInput, view types.StreamViewType) dynamodb.CreateTableInput {
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	return in
}
