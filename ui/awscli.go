package ui

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// awsQueryCommand renders a query as the `aws dynamodb query` command that
// sends the same request. The AWS CLI paginates on its own: with a Limit,
// --max-items and --page-size make it send exactly one request of that many;
// without one, --no-paginate makes it send one request with no Limit, whose
// page DynamoDB ends at 1 MB, as the UI's first page.
func awsQueryCommand(ks dynamo.KeySchema, q dynamo.QueryInput, region, endpoint, profile string) (string, error) {
	q.StartKey = nil
	b, err := dynamo.BuildQuery(ks, q)
	if err != nil {
		return "", err
	}
	in := b.Input
	args := []string{"aws", "dynamodb", "query", "--table-name", shellQuote(aws.ToString(in.TableName))}
	if in.IndexName != nil {
		args = append(args, "--index-name", shellQuote(*in.IndexName))
	}
	args = append(args, "--key-condition-expression", shellQuote(aws.ToString(in.KeyConditionExpression)))
	if len(in.ExpressionAttributeNames) > 0 {
		j, err := compactJSON(in.ExpressionAttributeNames)
		if err != nil {
			return "", err
		}
		args = append(args, "--expression-attribute-names", shellQuote(j))
	}
	if len(in.ExpressionAttributeValues) > 0 {
		vals := map[string]map[string]string{}
		keys := make([]string, 0, len(in.ExpressionAttributeValues))
		for k := range in.ExpressionAttributeValues {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch v := in.ExpressionAttributeValues[k].(type) {
			case *types.AttributeValueMemberS:
				vals[k] = map[string]string{"S": v.Value}
			case *types.AttributeValueMemberN:
				vals[k] = map[string]string{"N": v.Value}
			case *types.AttributeValueMemberB:
				vals[k] = map[string]string{"B": base64.StdEncoding.EncodeToString(v.Value)}
			default:
				return "", fmt.Errorf("key value %s has an unexpected type", k)
			}
		}
		j, err := compactJSON(vals)
		if err != nil {
			return "", err
		}
		args = append(args, "--expression-attribute-values", shellQuote(j))
	}
	if q.Reverse {
		args = append(args, "--no-scan-index-forward")
	}
	if q.Consistent {
		args = append(args, "--consistent-read")
	}
	if q.Limit > 0 {
		args = append(args, "--max-items", fmt.Sprint(q.Limit), "--page-size", fmt.Sprint(q.Limit))
	} else {
		args = append(args, "--no-paginate")
	}
	args = append(args, "--return-consumed-capacity", "INDEXES")
	if region != "" {
		args = append(args, "--region", shellQuote(region))
	}
	if endpoint != "" {
		args = append(args, "--endpoint-url", shellQuote(endpoint))
	}
	if profile != "" {
		args = append(args, "--profile", shellQuote(profile))
	}
	return strings.Join(args, " "), nil
}

func compactJSON(v any) (string, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// shellQuote quotes a word for a POSIX shell: bare when it is plainly safe,
// single-quoted otherwise.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/:@=+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
