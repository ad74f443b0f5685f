package codegen

// Go SDK v2 code for a request, and the GetItem input that both the client
// and the generated code send.

import (
	"fmt"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// goCode renders a program for the AWS SDK for Go v2 that sends the request
// and prints the items as JSON lines, the count and RCUs on stderr. Key
// conditions use the expression package, as the SDK's documentation does;
// begins_with on a binary sort key, which that package cannot express, is
// written out by hand.
func (r cgRequest) goCode(to CodeTarget) (string, error) {
	manual := r.skOp == dynamo.SKBeginsWith && len(r.sk) > 0 && itemcodec.AttributeTypeName(r.sk[0]) == "B"
	if manual && !r.shape.Empty() {
		return "", &dynamo.UserError{Msg: "no Go code for a filter or projection beside begins_with on a binary sort key; copy the AWS CLI or Python form."}
	}
	imports := []string{`"context"`, `"encoding/json"`, `"fmt"`, `"log"`, `"os"`, "",
		`"github.com/aws/aws-sdk-go-v2/aws"`, `"github.com/aws/aws-sdk-go-v2/config"`}
	if to.local() {
		imports = append(imports, `"github.com/aws/aws-sdk-go-v2/credentials"`)
	}
	imports = append(imports, `"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"`)
	if !r.get && !manual && r.statement == "" && (!r.scan || !r.shape.Empty()) {
		imports = append(imports, `"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"`)
	}
	imports = append(imports, `"github.com/aws/aws-sdk-go-v2/service/dynamodb"`, `"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"`)

	var b strings.Builder
	b.WriteString("package main\n\nimport (\n" + strings.Join(imports, "\n") + "\n)\n\n")
	b.WriteString("func main() {\nctx := context.Background()\n")
	opts := []string{"ctx"}
	if to.Region != "" {
		opts = append(opts, "config.WithRegion("+strconv.Quote(to.Region)+")")
	}
	if to.Profile != "" {
		opts = append(opts, "config.WithSharedConfigProfile("+strconv.Quote(to.Profile)+")")
	}
	if to.local() {
		// DynamoDB Local accepts any credentials.
		opts = append(opts, `config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", ""))`)
	}
	fmt.Fprintf(&b, "cfg, err := config.LoadDefaultConfig(%s)\nif err != nil {\nlog.Fatal(err)\n}\n", strings.Join(opts, ", "))
	if to.Endpoint != "" {
		fmt.Fprintf(&b, "client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {\no.BaseEndpoint = aws.String(%s)\n})\n\n", strconv.Quote(to.Endpoint))
	} else {
		b.WriteString("client := dynamodb.NewFromConfig(cfg)\n\n")
	}

	type field struct{ name, value string }
	fields := []field{{"TableName", "aws.String(" + strconv.Quote(r.table) + ")"}}
	if r.statement != "" {
		fields = []field{{"Statement", "aws.String(" + strconv.Quote(r.statement) + ")"}}
	} else if r.scan {
		if r.index != "" {
			fields = append(fields, field{"IndexName", "aws.String(" + strconv.Quote(r.index) + ")"})
		}
		if with := r.goShape(&b); with != "" {
			b.WriteString("expr, err := expression.NewBuilder()" + with + ".Build()\nif err != nil {\nlog.Fatal(err)\n}\n")
			for _, f := range r.goShapeFields() {
				fields = append(fields, field{f[0], f[1]})
			}
			fields = append(fields, field{"ExpressionAttributeNames", "expr.Names()"})
			if len(r.shape.FilterText) > 0 {
				fields = append(fields, field{"ExpressionAttributeValues", "expr.Values()"})
			}
		}
		if r.segments > 1 {
			fields = append(fields, field{"Segment", "aws.Int32(0)"}, field{"TotalSegments", "aws.Int32(" + strconv.Itoa(r.segments) + ")"})
		}
		if r.limit > 0 {
			fields = append(fields, field{"Limit", "aws.Int32(" + strconv.Itoa(int(r.limit)) + ")"})
		}
	} else if r.get {
		key := "map[string]types.AttributeValue{\n" + strconv.Quote(r.pk.name) + ": " + goAttr(r.pk.av) + ",\n"
		if r.skName != "" {
			key += strconv.Quote(r.skName) + ": " + goAttr(r.sk[0]) + ",\n"
		}
		fields = append(fields, field{"Key", key + "}"})
	} else {
		if r.index != "" {
			fields = append(fields, field{"IndexName", "aws.String(" + strconv.Quote(r.index) + ")"})
		}
		if manual {
			expr, placeholders := r.keyCondition()
			vals := "map[string]types.AttributeValue{\n"
			for i, ph := range placeholders {
				av := r.pk.av
				if i > 0 {
					av = r.sk[i-1]
				}
				vals += strconv.Quote(ph) + ": " + goAttr(av) + ",\n"
			}
			fields = append(fields,
				field{"KeyConditionExpression", "aws.String(" + strconv.Quote(expr) + ")"},
				field{"ExpressionAttributeNames", fmt.Sprintf("map[string]string{\"#pk\": %s, \"#sk\": %s}", strconv.Quote(r.pk.name), strconv.Quote(r.skName))},
				field{"ExpressionAttributeValues", vals + "}"})
		} else {
			b.WriteString("keyCond := expression.Key(" + strconv.Quote(r.pk.name) + ").Equal(expression.Value(" + goValue(r.pk.av) + "))")
			if r.skOp != dynamo.SKNone {
				sk := "expression.Key(" + strconv.Quote(r.skName) + ")"
				v0 := "expression.Value(" + goValue(r.sk[0]) + ")"
				switch r.skOp {
				case dynamo.SKEq:
					sk += ".Equal(" + v0 + ")"
				case dynamo.SKLt:
					sk += ".LessThan(" + v0 + ")"
				case dynamo.SKLe:
					sk += ".LessThanEqual(" + v0 + ")"
				case dynamo.SKGt:
					sk += ".GreaterThan(" + v0 + ")"
				case dynamo.SKGe:
					sk += ".GreaterThanEqual(" + v0 + ")"
				case dynamo.SKBetween:
					sk += ".Between(" + v0 + ", expression.Value(" + goValue(r.sk[1]) + "))"
				case dynamo.SKBeginsWith:
					sk += ".BeginsWith(" + goValue(r.sk[0]) + ")"
				}
				b.WriteString(".\nAnd(" + sk + ")")
			}
			b.WriteString("\n")
			with := r.goShape(&b)
			b.WriteString("expr, err := expression.NewBuilder().WithKeyCondition(keyCond)" + with + ".Build()\nif err != nil {\nlog.Fatal(err)\n}\n")
			fields = append(fields, field{"KeyConditionExpression", "expr.KeyCondition()"})
			for _, f := range r.goShapeFields() {
				fields = append(fields, field{f[0], f[1]})
			}
			fields = append(fields,
				field{"ExpressionAttributeNames", "expr.Names()"},
				field{"ExpressionAttributeValues", "expr.Values()"})
		}
		if r.reverse {
			fields = append(fields, field{"ScanIndexForward", "aws.Bool(false)"})
		}
		if r.limit > 0 {
			fields = append(fields, field{"Limit", "aws.Int32(" + strconv.Itoa(int(r.limit)) + ")"})
		}
		if r.countOnly {
			fields = append(fields, field{"Select", "types.SelectCount"})
		}
		if len(r.start) > 0 {
			start := "map[string]types.AttributeValue{\n"
			for _, k := range cgSortedNames(r.start) {
				start += strconv.Quote(k) + ": " + goAttr(r.start[k]) + ",\n"
			}
			fields = append(fields, field{"ExclusiveStartKey", start + "}"})
		}
	}
	if r.consistent {
		fields = append(fields, field{"ConsistentRead", "aws.Bool(true)"})
	}
	fields = append(fields, field{"ReturnConsumedCapacity", "types.ReturnConsumedCapacityIndexes"})

	call, input := "Query", "QueryInput"
	switch {
	case r.get:
		call, input = "GetItem", "GetItemInput"
	case r.scan:
		call, input = "Scan", "ScanInput"
	case r.statement != "":
		call, input = "ExecuteStatement", "ExecuteStatementInput"
	}
	fmt.Fprintf(&b, "out, err := client.%s(ctx, &dynamodb.%s{\n", call, input)
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s,\n", f.name, f.value)
	}
	b.WriteString("})\nif err != nil {\nlog.Fatal(err)\n}\n")
	if r.get {
		b.WriteString(`var item map[string]any
if err := attributevalue.UnmarshalMap(out.Item, &item); err != nil {
log.Fatal(err)
}
line, _ := json.Marshal(item)
fmt.Println(string(line))
if cc := out.ConsumedCapacity; cc != nil {
fmt.Fprintf(os.Stderr, "%v RCU\n", aws.ToFloat64(cc.CapacityUnits))
}
}
`)
	} else {
		count := "out.Count"
		if r.statement != "" {
			count = "len(out.Items)" // ExecuteStatement reports no Count
		}
		b.WriteString(`var items []map[string]any
if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
log.Fatal(err)
}
for _, item := range items {
line, _ := json.Marshal(item)
fmt.Println(string(line))
}
if cc := out.ConsumedCapacity; cc != nil {
fmt.Fprintf(os.Stderr, "%d items, %v RCU\n", ` + count + `, aws.ToFloat64(cc.CapacityUnits))
}
}
`)
	}
	return goFormat(b.String())
}
