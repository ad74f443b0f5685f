package edit

// A plan as the `aws dynamodb` command that sends the same request, so the
// user sees exactly what goes out and can send it themselves.

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// Target is where the command goes: the endpoint ("" for AWS), region and
// profile.
type Target struct {
	Endpoint string
	Region   string
	Profile  string
}

// Command is the plan as an `aws dynamodb` command line, one option a
// line. Item data is in it, shell-quoted; sanitize it before it reaches a
// terminal.
func (p *Plan) Command(to Target) string {
	var words [][]string
	add := func(w ...string) { words = append(words, w) }
	switch p.Op {
	case OpPut:
		in := p.Put
		add("aws", "dynamodb", "put-item")
		add("--table-name", shellWord(aws.ToString(in.TableName)))
		add("--item", shellWord(string(itemcodec.DynamoJSON(in.Item))))
		addExpr(add, "--condition-expression", in.ConditionExpression)
		addNames(add, in.ExpressionAttributeNames)
		addValues(add, in.ExpressionAttributeValues)
	case OpUpdate:
		in := p.Update
		add("aws", "dynamodb", "update-item")
		add("--table-name", shellWord(aws.ToString(in.TableName)))
		add("--key", shellWord(string(itemcodec.DynamoJSON(in.Key))))
		addExpr(add, "--update-expression", in.UpdateExpression)
		addExpr(add, "--condition-expression", in.ConditionExpression)
		addNames(add, in.ExpressionAttributeNames)
		addValues(add, in.ExpressionAttributeValues)
		add("--return-values", string(in.ReturnValues))
	case OpDelete:
		in := p.Delete
		add("aws", "dynamodb", "delete-item")
		add("--table-name", shellWord(aws.ToString(in.TableName)))
		add("--key", shellWord(string(itemcodec.DynamoJSON(in.Key))))
		addExpr(add, "--condition-expression", in.ConditionExpression)
		addNames(add, in.ExpressionAttributeNames)
		addValues(add, in.ExpressionAttributeValues)
		add("--return-values", string(in.ReturnValues))
	case OpTransact:
		add("aws", "dynamodb", "transact-write-items")
		add("--transact-items", shellWord(transactJSON(p.Transact.TransactItems)))
	}
	add("--return-consumed-capacity", "TOTAL")
	if to.Region != "" {
		add("--region", shellWord(to.Region))
	}
	if to.Endpoint != "" {
		add("--endpoint-url", shellWord(to.Endpoint))
	}
	if to.Profile != "" {
		add("--profile", shellWord(to.Profile))
	}
	lines := make([]string, len(words))
	for i, w := range words {
		lines[i] = strings.Join(w, " ")
	}
	cmd := strings.Join(lines, " \\\n  ")
	if dynamo.IsLoopback(to.Endpoint) {
		// DynamoDB Local takes any credentials; the AWS CLI wants some.
		cmd = "AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local " + cmd
	}
	return cmd
}

func addExpr(add func(...string), flag string, e *string) {
	if e != nil {
		add(flag, shellWord(*e))
	}
}

func addNames(add func(...string), names map[string]string) {
	if len(names) > 0 {
		add("--expression-attribute-names", shellWord(namesJSON(names)))
	}
}

func addValues(add func(...string), values map[string]types.AttributeValue) {
	if len(values) > 0 {
		add("--expression-attribute-values", shellWord(string(itemcodec.DynamoJSON(values))))
	}
}

func namesJSON(names map[string]string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(names)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(k) + ":" + jsonString(names[k]))
	}
	b.WriteByte('}')
	return b.String()
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// transactJSON is the request's TransactItems as the AWS CLI takes them.
func transactJSON(items []types.TransactWriteItem) string {
	var parts []string
	for _, it := range items {
		var kind string
		var fields []string
		field := func(name, raw string) { fields = append(fields, jsonString(name)+":"+raw) }
		common := func(cond *string, names map[string]string, values map[string]types.AttributeValue) {
			if cond != nil {
				field("ConditionExpression", jsonString(*cond))
			}
			if len(names) > 0 {
				field("ExpressionAttributeNames", namesJSON(names))
			}
			if len(values) > 0 {
				field("ExpressionAttributeValues", string(itemcodec.DynamoJSON(values)))
			}
		}
		switch {
		case it.Put != nil:
			kind = "Put"
			field("TableName", jsonString(aws.ToString(it.Put.TableName)))
			field("Item", string(itemcodec.DynamoJSON(it.Put.Item)))
			common(it.Put.ConditionExpression, it.Put.ExpressionAttributeNames, it.Put.ExpressionAttributeValues)
		case it.Delete != nil:
			kind = "Delete"
			field("TableName", jsonString(aws.ToString(it.Delete.TableName)))
			field("Key", string(itemcodec.DynamoJSON(it.Delete.Key)))
			common(it.Delete.ConditionExpression, it.Delete.ExpressionAttributeNames, it.Delete.ExpressionAttributeValues)
		default:
			continue
		}
		parts = append(parts, `{"`+kind+`":{`+strings.Join(fields, ",")+"}}")
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// shellWord quotes a word for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
