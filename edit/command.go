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

	"dynascope/codegen"
	"dynascope/itemcodec"
)

// Target is where the command goes: the endpoint ("" for AWS), region and
// profile; the same as code generation's, whose command layout it shares.
type Target = codegen.CodeTarget

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
		add("--table-name", codegen.ShellWord(aws.ToString(in.TableName)))
		add("--item", codegen.ShellWord(string(itemcodec.DynamoJSON(in.Item))))
		addExpr(add, "--condition-expression", in.ConditionExpression)
		addNames(add, in.ExpressionAttributeNames)
		addValues(add, in.ExpressionAttributeValues)
	case OpUpdate:
		in := p.Update
		add("aws", "dynamodb", "update-item")
		add("--table-name", codegen.ShellWord(aws.ToString(in.TableName)))
		add("--key", codegen.ShellWord(string(itemcodec.DynamoJSON(in.Key))))
		addExpr(add, "--update-expression", in.UpdateExpression)
		addExpr(add, "--condition-expression", in.ConditionExpression)
		addNames(add, in.ExpressionAttributeNames)
		addValues(add, in.ExpressionAttributeValues)
		add("--return-values", string(in.ReturnValues))
	case OpDelete:
		in := p.Delete
		add("aws", "dynamodb", "delete-item")
		add("--table-name", codegen.ShellWord(aws.ToString(in.TableName)))
		add("--key", codegen.ShellWord(string(itemcodec.DynamoJSON(in.Key))))
		addExpr(add, "--condition-expression", in.ConditionExpression)
		addNames(add, in.ExpressionAttributeNames)
		addValues(add, in.ExpressionAttributeValues)
		add("--return-values", string(in.ReturnValues))
	case OpTransact:
		add("aws", "dynamodb", "transact-write-items")
		add("--transact-items", codegen.ShellWord(transactJSON(p.Transact.TransactItems)))
	}
	add("--return-consumed-capacity", "TOTAL")
	return codegen.AWSCommand(words, to)
}

func addExpr(add func(...string), flag string, e *string) {
	if e != nil {
		add(flag, codegen.ShellWord(*e))
	}
}

func addNames(add func(...string), names map[string]string) {
	if len(names) > 0 {
		add("--expression-attribute-names", codegen.ShellWord(namesJSON(names)))
	}
}

func addValues(add func(...string), values map[string]types.AttributeValue) {
	if len(values) > 0 {
		add("--expression-attribute-values", codegen.ShellWord(string(itemcodec.DynamoJSON(values))))
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
