package codegen

// Generated code for filters, projections, Scan and PartiQL: the same
// expressions dynascope sends (placeholders from the SDK's builder), so the
// code reads, keeps and costs what dynascope's request did.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/partiql"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ScanCode renders code that sends the first page of a Scan: of segment 0
// when it is split into segments (each segment is one more such request
// with its own Segment).
func ScanCode(lang CodeLang, t dynamo.Table, in dynamo.ScanInput, to CodeTarget) (string, error) {
	_, shape, err := dynamo.BuildScan(t, in, 0)
	if err != nil {
		return "", err
	}
	r := cgRequest{table: in.Table, index: in.Index, scan: true, limit: in.Limit, consistent: in.Consistent, shape: shape}
	if in.Segments > 1 {
		r.segments = in.Segments
	}
	return r.render(lang, to)
}

// PartiQLCode renders code that sends the first page of a SELECT.
func PartiQLCode(lang CodeLang, stmt string, consistent bool, to CodeTarget) (string, error) {
	if _, err := partiql.Parse(stmt); err != nil {
		return "", err
	}
	r := cgRequest{statement: stmt, consistent: consistent}
	return r.render(lang, to)
}

// shapeExpr is the filter and projection as the builder writes them, with
// their own placeholders (#0, :0, ...), which never meet the key
// condition's #pk, #sk, :pk, :sk.
func (r cgRequest) shapeExpr() (expression.Expression, bool) {
	if r.shape.Empty() {
		return expression.Expression{}, false
	}
	x, err := r.shape.Add(expression.NewBuilder()).Build()
	if err != nil {
		return expression.Expression{}, false // BuildQuery or BuildScan built it before
	}
	return x, true
}

// placeholders lists a map's keys in the builder's order: #0, #1, …, #10.
func placeholders[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return keys
}

// cliShape adds the filter and projection arguments of the CLI command and
// returns the names and values they add to the key condition's.
func (r cgRequest) cliShape(add func(...string)) (names, values []string) {
	x, ok := r.shapeExpr()
	if !ok {
		return nil, nil
	}
	if f := x.Filter(); f != nil {
		add("--filter-expression", ShellWord(*f))
	}
	if p := x.Projection(); p != nil {
		add("--projection-expression", ShellWord(*p))
	}
	for _, k := range placeholders(x.Names()) {
		names = append(names, itemcodec.QuoteJSON(k)+":"+itemcodec.QuoteJSON(x.Names()[k]))
	}
	for _, k := range placeholders(x.Values()) {
		values = append(values, itemcodec.QuoteJSON(k)+":"+string(itemcodec.MarshalDynamoValue(x.Values()[k])))
	}
	return names, values
}

// cliRead renders `aws dynamodb scan` and `aws dynamodb execute-statement`;
// the tail (capacity, one page, connection) is cli's.
func (r cgRequest) cliRead(add func(...string)) {
	if r.statement != "" {
		add("aws", "dynamodb", "execute-statement")
		add("--statement", ShellWord(r.statement))
		return
	}
	add("aws", "dynamodb", "scan")
	add("--table-name", ShellWord(r.table))
	if r.index != "" {
		add("--index-name", ShellWord(r.index))
	}
	names, values := r.cliShape(add)
	if len(names) > 0 {
		add("--expression-attribute-names", ShellWord("{"+strings.Join(names, ",")+"}"))
	}
	if len(values) > 0 {
		add("--expression-attribute-values", ShellWord("{"+strings.Join(values, ",")+"}"))
	}
	if r.segments > 1 {
		add("--segment", "0", "--total-segments", strconv.Itoa(r.segments))
	}
	if r.limit > 0 {
		add("--limit", strconv.Itoa(int(r.limit)))
	}
}

// pyShape is the filter and projection as keyword arguments of boto3's
// resource API, which merges them with the names its Key() condition adds.
func (r cgRequest) pyShape(val func(types.AttributeValue) string) []string {
	x, ok := r.shapeExpr()
	if !ok {
		return nil
	}
	var args []string
	if f := x.Filter(); f != nil {
		args = append(args, "FilterExpression="+pyString(*f))
	}
	if p := x.Projection(); p != nil {
		args = append(args, "ProjectionExpression="+pyString(*p))
	}
	var names, values []string
	for _, k := range placeholders(x.Names()) {
		names = append(names, pyString(k)+": "+pyString(x.Names()[k]))
	}
	for _, k := range placeholders(x.Values()) {
		values = append(values, pyString(k)+": "+val(x.Values()[k]))
	}
	args = append(args, "ExpressionAttributeNames={"+strings.Join(names, ", ")+"}")
	if len(values) > 0 {
		args = append(args, "ExpressionAttributeValues={"+strings.Join(values, ", ")+"}")
	}
	return args
}

// pyStatement renders boto3's client API for ExecuteStatement, which the
// resource API lacks: it prints the items in DynamoDB JSON.
func (r cgRequest) pyStatement(session string, res []string) string {
	args := []string{"Statement=" + pyString(r.statement), `ReturnConsumedCapacity="INDEXES"`}
	if r.consistent {
		args = append(args, "ConsistentRead=True")
	}
	return fmt.Sprintf("import boto3\n\nclient = %s.client(%s)\nresp = client.execute_statement(%s)\nfor item in resp[\"Items\"]:\n    print(item)\n",
		session, strings.Join(slices.Insert(res, 0, `"dynamodb"`), ", "), strings.Join(args, ", "))
}

// goShape writes the Go that builds the filter and projection (filt, proj)
// and the builder calls that add them.
func (r cgRequest) goShape(b *strings.Builder) string {
	with := ""
	if !r.shape.Filter.Empty() {
		b.WriteString("filt := " + r.shape.Filter.GoCode(goValue) + "\n")
		with += ".WithFilter(filt)"
	}
	if len(r.shape.Projection) > 0 {
		var names []string
		for _, p := range r.shape.Projection {
			names = append(names, p.GoCode())
		}
		b.WriteString("proj := expression.NamesList(" + strings.Join(names, ", ") + ")\n")
		with += ".WithProjection(proj)"
	}
	return with
}

// goShapeFields are the input fields the built expression fills.
func (r cgRequest) goShapeFields() []goField {
	var f []goField
	if !r.shape.Filter.Empty() {
		f = append(f, goField{"FilterExpression", "expr.Filter()"})
	}
	if len(r.shape.Projection) > 0 {
		f = append(f, goField{"ProjectionExpression", "expr.Projection()"})
	}
	return f
}
