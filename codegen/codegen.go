// Package codegen writes the request dynascope sent as code ready to copy:
// the AWS CLI command, Python boto3 and Go SDK v2, each sending the same one
// request, so that what a user pastes behaves, costs and pages as what they
// saw.
//
// It imports dynamo for the request and table types and itemcodec for the
// JSON of key values; never ui, config or the command line, and it sends
// nothing itself.
package codegen

// Code for a request, ready to copy: the AWS CLI command, Python boto3 and Go
// SDK v2. Each sends the one request dynascope sent, so what a user pastes
// behaves, costs and pages exactly as what they saw.

import (
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// CodeLang is a language that request code is generated in.
type CodeLang string

// The languages of generated code.
const (
	LangCLI    CodeLang = "cli"    // the AWS CLI (aws dynamodb query / get-item)
	LangPython CodeLang = "python" // boto3's resource API with boto3.dynamodb.conditions.Key
	LangGo     CodeLang = "go"     // the AWS SDK for Go v2 with its expression package
)

// CodeLangs lists the languages in the order they are shown.
var CodeLangs = []CodeLang{LangCLI, LangPython, LangGo}

// Comment is text as a comment line of lang's code, newline included: #
// in the shell and Python, // in Go. text must be one line.
func Comment(lang CodeLang, text string) string {
	if lang == LangGo {
		return "// " + text + "\n"
	}
	return "# " + text + "\n"
}

// CodeTarget is where generated code sends its request; empty fields are
// left to the environment, as the AWS tools do.
type CodeTarget struct {
	Region   string
	Endpoint string
	Profile  string
}

// local tells whether the target is DynamoDB Local on this machine, which
// accepts any credentials: the code then carries fake ones, so that it runs
// on a machine that has no AWS credentials at all, as `dynascope demo` does.
func (t CodeTarget) local() bool { return dynamo.IsLoopback(t.Endpoint) }

// cgKey is one key attribute and its typed value.
type cgKey struct {
	name string
	av   types.AttributeValue
}

// cgRequest is a validated request in the terms every language needs.
type cgRequest struct {
	table, index string
	pk           cgKey
	skName       string
	skOp         dynamo.SKOp
	sk           []types.AttributeValue
	get          bool // GetItem: sk (if any) is the sort key value
	reverse      bool
	limit        int32
	consistent   bool
	countOnly    bool
	start        dynamo.Item
	// Filters, projections, Scan and PartiQL (codegen_read.go).
	shape     dynamo.ReadShape
	scan      bool
	segments  int    // 0 or 1: one segment
	statement string // a PartiQL SELECT: nothing above applies
	// goOn: the AWS CLI pages the request itself from a NextToken
	// (codegen_goon.go), instead of sending one page.
	goOn *AWSGoOn
}

// QueryCode renders code that sends the one Query request that
// dynamo.BuildQuery(ks, q) builds: the first page, or the page q.StartKey starts.
func QueryCode(lang CodeLang, ks dynamo.KeySchema, q dynamo.QueryInput, to CodeTarget) (string, error) {
	r, err := queryRequest(ks, q)
	if err != nil {
		return "", err
	}
	return r.render(lang, to)
}

// queryRequest is the request of query q.
func queryRequest(ks dynamo.KeySchema, q dynamo.QueryInput) (cgRequest, error) {
	if _, err := dynamo.BuildQuery(ks, q); err != nil {
		return cgRequest{}, err
	}
	r := cgRequest{table: q.Table, index: q.Index, skOp: q.SK.Op, reverse: q.Reverse, limit: q.Limit,
		consistent: q.Consistent, countOnly: q.CountOnly, start: q.StartKey}
	project := q.Project
	if q.CountOnly {
		project = "" // as BuildQuery does
	}
	r.shape, _ = dynamo.ParseShape(q.Filter, project, dynamo.KeepKeys(ks)) // BuildQuery accepted it
	r.pk.name = ks.PK.Name
	r.pk.av, _ = dynamo.KeyValue(ks.PK, "partition key", q.PK) // dynamo.BuildQuery accepted it
	if q.SK.Op != dynamo.SKNone {
		r.skName = ks.SK.Name
		for _, v := range q.SK.Values {
			av, _ := dynamo.KeyValue(*ks.SK, "sort key", v)
			r.sk = append(r.sk, av)
		}
	}
	return r, nil
}

// GetItemCode renders code that sends the GetItem request for g on table t.
func GetItemCode(lang CodeLang, t dynamo.Table, g dynamo.GetInput, to CodeTarget) (string, error) {
	b, err := dynamo.BuildGetItem(t, g)
	if err != nil {
		return "", err
	}
	r := cgRequest{table: g.Table, get: true, consistent: g.Consistent}
	r.pk = cgKey{t.PK.Name, b.Input.Key[t.PK.Name]}
	if t.SK != nil {
		r.skName, r.skOp = t.SK.Name, dynamo.SKEq
		r.sk = []types.AttributeValue{b.Input.Key[t.SK.Name]}
	}
	return r.render(lang, to)
}

func (r cgRequest) render(lang CodeLang, to CodeTarget) (string, error) {
	switch lang {
	case LangCLI:
		return r.cli(to), nil
	case LangPython:
		return r.python(to), nil
	case LangGo:
		return r.goCode(to)
	}
	return "", &dynamo.UserError{Msg: fmt.Sprintf("no code in %q; choose cli, python or go.", lang)}
}

// keyCondition is the key condition expression the CLI and the manual Go
// form send: attribute names always go through #pk/#sk, since a key may be
// named with one of DynamoDB's reserved words (name, status, date, ...).
func (r cgRequest) keyCondition() (string, []string) {
	expr, vals := "#pk = :pk", []string{":pk"}
	switch r.skOp {
	case dynamo.SKNone:
	case dynamo.SKBetween:
		expr += " AND #sk BETWEEN :lo AND :hi"
		vals = append(vals, ":lo", ":hi")
	case dynamo.SKBeginsWith:
		expr += " AND begins_with(#sk, :sk)"
		vals = append(vals, ":sk")
	default:
		expr += " AND #sk " + string(r.skOp) + " :sk"
		vals = append(vals, ":sk")
	}
	return expr, vals
}

// cli renders the AWS CLI command. --no-paginate makes the CLI send exactly
// one request: without it the CLI follows LastEvaluatedKey on its own, and
// --max-items/--page-size print a NextToken of the CLI's own instead of
// DynamoDB's LastEvaluatedKey. --limit is DynamoDB's Limit as it is.
func (r cgRequest) cli(to CodeTarget) string {
	var words [][]string
	add := func(w ...string) { words = append(words, w) }
	op := "query"
	if r.get {
		op = "get-item"
	}
	if r.scan || r.statement != "" {
		r.cliRead(add)
	} else {
		add("aws", "dynamodb", op)
		add("--table-name", ShellWord(r.table))
	}
	if r.scan || r.statement != "" {
		// cliRead has written the request.
	} else if r.get {
		key := `{` + itemcodec.QuoteJSON(r.pk.name) + `:` + string(itemcodec.MarshalDynamoValue(r.pk.av))
		if r.skName != "" {
			key += `,` + itemcodec.QuoteJSON(r.skName) + `:` + string(itemcodec.MarshalDynamoValue(r.sk[0]))
		}
		add("--key", ShellWord(key+`}`))
	} else {
		if r.index != "" {
			add("--index-name", ShellWord(r.index))
		}
		expr, placeholders := r.keyCondition()
		add("--key-condition-expression", ShellWord(expr))
		moreNames, moreValues := r.cliShape(add)
		names := []string{`"#pk":` + itemcodec.QuoteJSON(r.pk.name)}
		if r.skName != "" {
			names = append(names, `"#sk":`+itemcodec.QuoteJSON(r.skName))
		}
		add("--expression-attribute-names", ShellWord(`{`+strings.Join(append(names, moreNames...), ",")+`}`))
		values := make([]string, len(placeholders))
		for i, ph := range placeholders {
			av := r.pk.av
			if i > 0 {
				av = r.sk[i-1]
			}
			values[i] = `"` + ph + `":` + string(itemcodec.MarshalDynamoValue(av))
		}
		add("--expression-attribute-values", ShellWord(`{`+strings.Join(append(values, moreValues...), ",")+`}`))
		if r.reverse {
			add("--no-scan-index-forward")
		}
		if r.limit > 0 {
			add("--limit", strconv.Itoa(int(r.limit)))
		}
		if r.countOnly {
			add("--select", "COUNT")
		}
		if len(r.start) > 0 {
			add("--exclusive-start-key", ShellWord(string(itemcodec.DynamoJSON(r.start))))
		}
	}
	if r.consistent {
		add("--consistent-read")
	}
	add("--return-consumed-capacity", "INDEXES")
	switch {
	case r.goOn != nil:
		if r.goOn.PageSize > 0 {
			add("--page-size", strconv.Itoa(int(r.goOn.PageSize)))
		}
		if r.goOn.MaxItems > 0 {
			add("--max-items", strconv.Itoa(r.goOn.MaxItems))
		}
		add("--starting-token", ShellWord(r.goOn.Token))
	case !r.get:
		add("--no-paginate")
	}
	return AWSCommand(words, to) + "\n"
}

// AWSCommand finishes an aws CLI command from its words, one option a
// line: the target's region, endpoint and profile are added, and for
// DynamoDB Local the fake credentials it accepts. Every word must be
// quoted already (ShellWord). The write plans of package edit use it too.
func AWSCommand(words [][]string, to CodeTarget) string {
	add := func(w ...string) { words = append(words, w) }
	if to.Region != "" {
		add("--region", ShellWord(to.Region))
	}
	if to.Endpoint != "" {
		add("--endpoint-url", ShellWord(to.Endpoint))
	}
	if to.Profile != "" {
		add("--profile", ShellWord(to.Profile))
	}
	lines := make([]string, len(words))
	for i, w := range words {
		lines[i] = strings.Join(w, " ")
	}
	cmd := strings.Join(lines, " \\\n  ")
	if to.local() {
		cmd = "AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local " + cmd
	}
	return cmd
}

// ShellWord quotes a word for a POSIX shell: bare when plainly safe,
// single-quoted otherwise (nothing inside single quotes is special but the
// quote itself).
func ShellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/:@=+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// python renders boto3 in the shape of the single-table design write-up:
// table.query(KeyConditionExpression=Key("PK").eq(...) & Key("SK").begins_with(...), ScanIndexForward=False, Limit=1).
func (r cgRequest) python(to CodeTarget) string {
	imports := map[string]bool{}
	val := func(av types.AttributeValue) string {
		switch v := av.(type) {
		case *types.AttributeValueMemberN:
			imports["from decimal import Decimal"] = true
			return "Decimal(" + pyString(v.Value) + ")"
		case *types.AttributeValueMemberB:
			imports["from boto3.dynamodb.types import Binary"] = true
			return "Binary(" + pyBytes(v.Value) + ")"
		case *types.AttributeValueMemberS:
			return pyString(v.Value)
		case *types.AttributeValueMemberBOOL:
			return map[bool]string{true: "True", false: "False"}[v.Value]
		}
		return "None"
	}
	var args []string
	if r.scan {
		if r.index != "" {
			args = append(args, "IndexName="+pyString(r.index))
		}
		args = append(args, r.pyShape(val)...)
		if r.segments > 1 {
			args = append(args, "Segment=0", "TotalSegments="+strconv.Itoa(r.segments))
		}
		if r.limit > 0 {
			args = append(args, "Limit="+strconv.Itoa(int(r.limit)))
		}
	} else if r.get {
		key := pyString(r.pk.name) + ": " + val(r.pk.av)
		if r.skName != "" {
			key += ", " + pyString(r.skName) + ": " + val(r.sk[0])
		}
		args = append(args, "Key={"+key+"}")
	} else {
		imports["from boto3.dynamodb.conditions import Key"] = true
		cond := "Key(" + pyString(r.pk.name) + ").eq(" + val(r.pk.av) + ")"
		if r.skOp != dynamo.SKNone {
			sk := "Key(" + pyString(r.skName) + ")"
			switch r.skOp {
			case dynamo.SKBetween:
				cond += " & " + sk + ".between(" + val(r.sk[0]) + ", " + val(r.sk[1]) + ")"
			default:
				method := map[dynamo.SKOp]string{dynamo.SKEq: "eq", dynamo.SKLt: "lt", dynamo.SKLe: "lte", dynamo.SKGt: "gt", dynamo.SKGe: "gte", dynamo.SKBeginsWith: "begins_with"}[r.skOp]
				cond += " & " + sk + "." + method + "(" + val(r.sk[0]) + ")"
			}
		}
		args = append(args, "KeyConditionExpression="+cond)
		if r.index != "" {
			args = append(args, "IndexName="+pyString(r.index))
		}
		if r.reverse {
			args = append(args, "ScanIndexForward=False")
		}
		if r.limit > 0 {
			args = append(args, "Limit="+strconv.Itoa(int(r.limit)))
		}
		if r.countOnly {
			args = append(args, `Select="COUNT"`)
		}
		args = append(args, r.pyShape(val)...)
		if len(r.start) > 0 {
			var parts []string
			for _, k := range cgSortedNames(r.start) {
				parts = append(parts, pyString(k)+": "+val(r.start[k]))
			}
			args = append(args, "ExclusiveStartKey={"+strings.Join(parts, ", ")+"}")
		}
	}
	if r.consistent {
		args = append(args, "ConsistentRead=True")
	}
	session, res := pySession(to)
	if r.statement != "" {
		return r.pyStatement(session, res)
	}
	var b strings.Builder
	b.WriteString("import boto3\n")
	lines := make([]string, 0, len(imports))
	for imp := range imports {
		lines = append(lines, imp)
	}
	slices.Sort(lines)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "\ntable = %s.resource(%s).Table(%s)\n", session, strings.Join(slices.Insert(res, 0, `"dynamodb"`), ", "), pyString(r.table))
	if r.get {
		fmt.Fprintf(&b, "item = table.get_item(%s).get(\"Item\")\nprint(item)\n", strings.Join(args, ", "))
	} else {
		call := "query"
		if r.scan {
			call = "scan"
		}
		fmt.Fprintf(&b, "resp = table.%s(%s)\n", call, strings.Join(args, ", "))
		if r.countOnly {
			b.WriteString("print(resp[\"Count\"])\n")
		} else {
			b.WriteString("for item in resp[\"Items\"]:\n    print(item)\n")
		}
	}
	return b.String()
}

// pySession is what boto3 is asked for the target's client or resource:
// the session (the profile's, or boto3's default) and the arguments after
// the service name (region, endpoint, and DynamoDB Local's fake
// credentials).
func pySession(to CodeTarget) (session string, res []string) {
	if to.Region != "" {
		res = append(res, "region_name="+pyString(to.Region))
	}
	if to.Endpoint != "" {
		res = append(res, "endpoint_url="+pyString(to.Endpoint))
	}
	if to.local() {
		res = append(res, `aws_access_key_id="local"`, `aws_secret_access_key="local"`)
	}
	session = "boto3"
	if to.Profile != "" {
		session = "boto3.Session(profile_name=" + pyString(to.Profile) + ")"
	}
	return session, res
}

// pyString writes a Python str literal: the text as is where printable,
// escapes otherwise.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// pyBytes writes a Python bytes literal: printable ASCII as is, \xNN otherwise.
func pyBytes(v []byte) string {
	var b strings.Builder
	b.WriteString(`b"`)
	for _, c := range v {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func cgSortedNames(it dynamo.Item) []string {
	names := make([]string, 0, len(it))
	for k := range it {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// goValue writes a key value as a Go expression the expression package
// marshals to the same attribute value: attributevalue.Number keeps a
// number's exact digits, where a float64 could not.
func goValue(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		return "attributevalue.Number(" + strconv.Quote(v.Value) + ")"
	case *types.AttributeValueMemberB:
		return "[]byte(" + strconv.Quote(string(v.Value)) + ")"
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "&types.AttributeValueMemberNULL{Value: true}"
	}
	return "nil"
}

// goAttr writes a key value as a types.AttributeValue literal.
func goAttr(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		return "&types.AttributeValueMemberN{Value: " + strconv.Quote(v.Value) + "}"
	case *types.AttributeValueMemberB:
		return "&types.AttributeValueMemberB{Value: []byte(" + strconv.Quote(string(v.Value)) + ")}"
	case *types.AttributeValueMemberS:
		return "&types.AttributeValueMemberS{Value: " + strconv.Quote(v.Value) + "}"
	}
	return "nil"
}

// goFormat runs gofmt on generated Go, so that the code is exactly as a Go
// programmer would write it, and any slip in generating it shows at once.
func goFormat(src string) (string, error) {
	out, err := format.Source([]byte(src))
	if err != nil {
		return "", fmt.Errorf("generated Go does not parse: %w", err)
	}
	return string(out), nil
}
