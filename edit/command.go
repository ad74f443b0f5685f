package edit

// A plan as the `aws dynamodb` command that sends the same request, and as
// the boto3 program that does, so the user sees exactly what goes out and
// can send it themselves.

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

// Boto3 is the plan as a Python program that sends the same request
// through boto3's client API (its values typed as in DynamoDB JSON), one
// argument a line. Item data is in it, as Python literals; sanitize it
// before it reaches a terminal.
func (p *Plan) Boto3(to Target) string {
	var args pyArgs
	var method string
	switch p.Op {
	case OpPut:
		in := p.Put
		method = "put_item"
		args.str("TableName", in.TableName)
		args.add("Item", codegen.PyItem(in.Item))
		args.common(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	case OpUpdate:
		in := p.Update
		method = "update_item"
		args.str("TableName", in.TableName)
		args.add("Key", codegen.PyItem(in.Key))
		args.str("UpdateExpression", in.UpdateExpression)
		args.common(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		args.add("ReturnValues", codegen.PyString(string(in.ReturnValues)))
	case OpDelete:
		in := p.Delete
		method = "delete_item"
		args.str("TableName", in.TableName)
		args.add("Key", codegen.PyItem(in.Key))
		args.common(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		args.add("ReturnValues", codegen.PyString(string(in.ReturnValues)))
	case OpTransact:
		method = "transact_write_items"
		var items []string
		for _, it := range p.Transact.TransactItems {
			var f pyArgs
			switch {
			case it.Put != nil:
				f.str("TableName", it.Put.TableName)
				f.add("Item", codegen.PyItem(it.Put.Item))
				f.common(it.Put.ConditionExpression, it.Put.ExpressionAttributeNames, it.Put.ExpressionAttributeValues)
				items = append(items, f.dict("Put"))
			case it.Delete != nil:
				f.str("TableName", it.Delete.TableName)
				f.add("Key", codegen.PyItem(it.Delete.Key))
				f.common(it.Delete.ConditionExpression, it.Delete.ExpressionAttributeNames, it.Delete.ExpressionAttributeValues)
				items = append(items, f.dict("Delete"))
			}
		}
		args.add("TransactItems", "["+strings.Join(items, ", ")+"]")
	}
	args.add("ReturnConsumedCapacity", codegen.PyString("TOTAL"))
	return codegen.PyClientCall(method, args, to)
}

// pyArgs are a boto3 call's keyword arguments, or a transaction item's
// fields, in the order given.
type pyArgs []codegen.PyArg

func (a *pyArgs) add(name, v string) { *a = append(*a, codegen.PyArg{Name: name, Value: v}) }

func (a *pyArgs) str(name string, v *string) {
	if v != nil {
		a.add(name, codegen.PyString(*v))
	}
}

// common adds what every write may carry: its condition and placeholders.
func (a *pyArgs) common(cond *string, names map[string]string, values map[string]types.AttributeValue) {
	a.str("ConditionExpression", cond)
	if len(names) > 0 {
		a.add("ExpressionAttributeNames", codegen.PyStrings(names))
	}
	if len(values) > 0 {
		a.add("ExpressionAttributeValues", codegen.PyItem(values))
	}
}

// dict is {kind: {field: value, ...}}, a transaction's item as boto3
// takes it.
func (a pyArgs) dict(kind string) string {
	parts := make([]string, len(a))
	for i, f := range a {
		parts[i] = codegen.PyString(f.Name) + ": " + f.Value
	}
	return "{" + codegen.PyString(kind) + ": {" + strings.Join(parts, ", ") + "}}"
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
