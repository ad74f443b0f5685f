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
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n" + strings.Join(r.goImports(to, manual), "\n") + "\n)\n\n")
	b.WriteString("func main() {\nctx := context.Background()\n")
	goClient(&b, to)
	var fields []goField
	switch {
	case r.statement != "":
		fields = []goField{{"Statement", "aws.String(" + strconv.Quote(r.statement) + ")"}}
	case r.scan:
		fields = r.goScanFields(&b)
	case r.get:
		fields = r.goGetFields()
	default:
		fields = r.goQueryFields(&b, manual)
	}
	if r.consistent {
		fields = append(fields, goField{"ConsistentRead", "aws.Bool(true)"})
	}
	fields = append(fields, goField{"ReturnConsumedCapacity", "types.ReturnConsumedCapacityIndexes"})
	call, input := r.goOperation()
	fmt.Fprintf(&b, "out, err := client.%s(ctx, &dynamodb.%s{\n", call, input)
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s,\n", f.name, f.value)
	}
	b.WriteString("})\nif err != nil {\nlog.Fatal(err)\n}\n")
	r.goPrint(&b)
	return goFormat(b.String())
}

// goField is one field of the generated request's input struct.
type goField struct{ name, value string }

// goImports are the generated program's imports: the expression package
// only when it builds an expression (manual: the key condition written
// out by hand).
func (r cgRequest) goImports(to CodeTarget, manual bool) []string {
	imports := []string{`"context"`, `"encoding/json"`, `"fmt"`, `"log"`, `"os"`, "",
		`"github.com/aws/aws-sdk-go-v2/aws"`, `"github.com/aws/aws-sdk-go-v2/config"`}
	if to.local() {
		imports = append(imports, `"github.com/aws/aws-sdk-go-v2/credentials"`)
	}
	imports = append(imports, `"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"`)
	if !r.get && !manual && r.statement == "" && (!r.scan || !r.shape.Empty()) {
		imports = append(imports, `"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"`)
	}
	return append(imports, `"github.com/aws/aws-sdk-go-v2/service/dynamodb"`, `"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"`)
}

// goClient writes the configuration and the client of the connection to.
func goClient(b *strings.Builder, to CodeTarget) {
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
	fmt.Fprintf(b, "cfg, err := config.LoadDefaultConfig(%s)\nif err != nil {\nlog.Fatal(err)\n}\n", strings.Join(opts, ", "))
	if to.Endpoint != "" {
		fmt.Fprintf(b, "client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {\no.BaseEndpoint = aws.String(%s)\n})\n\n", strconv.Quote(to.Endpoint))
	} else {
		b.WriteString("client := dynamodb.NewFromConfig(cfg)\n\n")
	}
}

// goScanFields are a Scan's input fields; its filter and projection's
// expression is written to b first.
func (r cgRequest) goScanFields(b *strings.Builder) []goField {
	fields := []goField{{"TableName", "aws.String(" + strconv.Quote(r.table) + ")"}}
	if r.index != "" {
		fields = append(fields, goField{"IndexName", "aws.String(" + strconv.Quote(r.index) + ")"})
	}
	if with := r.goShape(b); with != "" {
		b.WriteString("expr, err := expression.NewBuilder()" + with + ".Build()\nif err != nil {\nlog.Fatal(err)\n}\n")
		fields = append(fields, r.goShapeFields()...)
		fields = append(fields, goField{"ExpressionAttributeNames", "expr.Names()"})
		if len(r.shape.FilterText) > 0 {
			fields = append(fields, goField{"ExpressionAttributeValues", "expr.Values()"})
		}
	}
	if r.segments > 1 {
		fields = append(fields, goField{"Segment", "aws.Int32(0)"}, goField{"TotalSegments", "aws.Int32(" + strconv.Itoa(r.segments) + ")"})
	}
	if r.limit > 0 {
		fields = append(fields, goField{"Limit", "aws.Int32(" + strconv.Itoa(int(r.limit)) + ")"})
	}
	return fields
}

// goGetFields are a GetItem's input fields: the table and the key.
func (r cgRequest) goGetFields() []goField {
	key := "map[string]types.AttributeValue{\n" + strconv.Quote(r.pk.name) + ": " + goAttr(r.pk.av) + ",\n"
	if r.skName != "" {
		key += strconv.Quote(r.skName) + ": " + goAttr(r.sk[0]) + ",\n"
	}
	return []goField{{"TableName", "aws.String(" + strconv.Quote(r.table) + ")"}, {"Key", key + "}"}}
}

// goQueryFields are a Query's input fields; its expression (unless the key
// condition is written out by hand, manual) is written to b first.
func (r cgRequest) goQueryFields(b *strings.Builder, manual bool) []goField {
	fields := []goField{{"TableName", "aws.String(" + strconv.Quote(r.table) + ")"}}
	if r.index != "" {
		fields = append(fields, goField{"IndexName", "aws.String(" + strconv.Quote(r.index) + ")"})
	}
	if manual {
		fields = append(fields, r.goManualKeyCondition()...)
	} else {
		b.WriteString("keyCond := expression.Key(" + strconv.Quote(r.pk.name) + ").Equal(expression.Value(" + goValue(r.pk.av) + "))")
		if r.skOp != dynamo.SKNone {
			b.WriteString(".\nAnd(" + r.goSortKeyCondition() + ")")
		}
		b.WriteString("\n")
		with := r.goShape(b)
		b.WriteString("expr, err := expression.NewBuilder().WithKeyCondition(keyCond)" + with + ".Build()\nif err != nil {\nlog.Fatal(err)\n}\n")
		fields = append(fields, goField{"KeyConditionExpression", "expr.KeyCondition()"})
		fields = append(fields, r.goShapeFields()...)
		fields = append(fields,
			goField{"ExpressionAttributeNames", "expr.Names()"},
			goField{"ExpressionAttributeValues", "expr.Values()"})
	}
	if r.reverse {
		fields = append(fields, goField{"ScanIndexForward", "aws.Bool(false)"})
	}
	if r.limit > 0 {
		fields = append(fields, goField{"Limit", "aws.Int32(" + strconv.Itoa(int(r.limit)) + ")"})
	}
	if r.countOnly {
		fields = append(fields, goField{"Select", "types.SelectCount"})
	}
	if len(r.start) > 0 {
		start := "map[string]types.AttributeValue{\n"
		for _, k := range cgSortedNames(r.start) {
			start += strconv.Quote(k) + ": " + goAttr(r.start[k]) + ",\n"
		}
		fields = append(fields, goField{"ExclusiveStartKey", start + "}"})
	}
	return fields
}

// goManualKeyCondition is the key condition written out by hand, with its
// names and values: begins_with on a binary sort key, which the
// expression package cannot say.
func (r cgRequest) goManualKeyCondition() []goField {
	expr, placeholders := r.keyCondition()
	vals := "map[string]types.AttributeValue{\n"
	for i, ph := range placeholders {
		av := r.pk.av
		if i > 0 {
			av = r.sk[i-1]
		}
		vals += strconv.Quote(ph) + ": " + goAttr(av) + ",\n"
	}
	return []goField{
		{"KeyConditionExpression", "aws.String(" + strconv.Quote(expr) + ")"},
		{"ExpressionAttributeNames", fmt.Sprintf("map[string]string{\"#pk\": %s, \"#sk\": %s}", strconv.Quote(r.pk.name), strconv.Quote(r.skName))},
		{"ExpressionAttributeValues", vals + "}"},
	}
}

// goSortKeyCondition is the sort-key condition in the expression package.
func (r cgRequest) goSortKeyCondition() string {
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
	return sk
}

// goOperation is the client method the request calls and its input type.
func (r cgRequest) goOperation() (call, input string) {
	switch {
	case r.get:
		return "GetItem", "GetItemInput"
	case r.scan:
		return "Scan", "ScanInput"
	case r.statement != "":
		return "ExecuteStatement", "ExecuteStatementInput"
	}
	return "Query", "QueryInput"
}

// goPrint writes the end of the program: the items as JSON lines, the
// count and the RCUs on stderr.
func (r cgRequest) goPrint(b *strings.Builder) {
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
		return
	}
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
