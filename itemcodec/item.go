// Package itemcodec is everything dynascope does with an item's bytes
// without a network: DynamoDB JSON and plain JSON in and out, the item files
// seed reads (lines, arrays, batch-write documents, exports to S3), the
// export writers (JSON lines, DynamoDB JSON, batch-write, CSV), and the item
// sizes and read units DynamoDB charges for them. The number grammar all of
// them share is its subpackage number.
//
// It imports only the AWS SDK's attribute types and the standard library:
// never dynamo (which imports it for sizes), ui, config or the command line.
package itemcodec

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is one DynamoDB item exactly as the SDK returns it; numbers stay
// strings. dynamo.Item is the same type.
type Item = map[string]types.AttributeValue
