package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// EditAPI is exactly the part of the SDK that guarded editing (package
// edit) uses: a consistent read of one item and the four conditional
// writes. Only ConnectEditor provides it, and only edit.Open calls that,
// after the user allowed writes.
type EditAPI interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

var _ EditAPI = (*dynamodb.Client)(nil)

// ConnectEditor builds the client that editing writes through, from the
// same configuration (retries, answer checks, time-out) as Connect. Like
// ConnectWriter it is kept apart from Client, so nothing holding the
// explorer's client can write. It also returns the options completed (the
// endpoint from the environment, the time-out) and the region.
func ConnectEditor(ctx context.Context, o Options) (EditAPI, Options, string, error) {
	sdk, cfg, err := connectSDK(ctx, &o)
	if err != nil {
		return nil, o, "", err
	}
	return sdk.api, o, cfg.Region, nil
}
