package cli

// The document layer: what the AWS CLI does to a response after the call,
// done to dynascope's own JSON document. A command prints its JSON
// document as it always does; with --query, or with --output text or yaml
// on a command that prints a document, that output is held back, decoded
// (numbers as their exact text, objects in their order), searched with
// the JMESPath expression, and printed as JSON, text or YAML
// (docformat.go). The expression is compiled as the line is read, so a bad
// one stops the command before any request.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/jmespath/go-jmespath"
	"github.com/spf13/cobra"
)

// documentCmd marks a command whose --output json is one JSON document
// that text and yaml are made from (documentOutputFlag).
const documentCmd = "document"

// documentFormats are the formats the document layer makes from the JSON
// document, beside json itself.
var documentFormats = []string{"text", "yaml"}

// documentOutputFlag is outputFlag for a command that prints a document:
// formats are its own ones, json among them, and the document layer adds
// text and yaml.
func documentOutputFlag(cmd *cobra.Command, p *string, def, note string, formats ...string) *enumValue {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[documentCmd] = "yes"
	return outputFlag(cmd, p, def, note, append(slices.Clone(formats), documentFormats...)...)
}

// queryValue is --query: a JMESPath expression, compiled when the flag is
// read.
type queryValue struct {
	text string
	expr *jmespath.JMESPath
}

func (q *queryValue) String() string { return q.text }

// Type is not one of pflag's names: flagSentence then says Set's sentence.
func (q *queryValue) Type() string { return "jmespath" }

func (q *queryValue) Set(s string) (err error) {
	defer func() {
		if r := recover(); r != nil { // the library's parser is fuzzed, but a panic must not be ours
			err = fmt.Errorf("--query %s is not a JMESPath expression the library can read", jsonString(s))
		}
	}()
	expr, err := jmespath.Compile(s)
	if err != nil {
		return querySyntaxSentence(s, err)
	}
	q.text, q.expr = s, expr
	return nil
}

// querySyntaxSentence is a bad expression's one sentence, with the
// position (counted from 1) where the parser stopped.
func querySyntaxSentence(s string, err error) error {
	var se jmespath.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("--query %s is not a JMESPath expression: %v", jsonString(s), err)
	}
	msg := strings.TrimSuffix(strings.TrimPrefix(se.Error(), "SyntaxError: "), ".")
	if strings.Contains(msg, "tEOF") {
		msg = "incomplete expression" // as jmespath.py says it
	}
	if msg != "" {
		msg = strings.ToLower(msg[:1]) + msg[1:]
	}
	msg = tokenName.ReplaceAllStringFunc(msg, func(t string) string {
		if w, ok := tokenWords[t]; ok {
			return w
		}
		return t
	})
	return fmt.Errorf("--query %s is not a JMESPath expression: %s at character %d", jsonString(s), msg, se.Offset+1)
}

// tokenName finds the library's token names in its messages (tRbracket);
// tokenWords says them as a user types them.
var tokenName = regexp.MustCompile(`\bt[A-Z][A-Za-z]+\b`)

var tokenWords = map[string]string{
	"tStar": "'*'", "tDot": "'.'", "tFilter": "'[?'", "tFlatten": "'[]'", "tLparen": "'('", "tRparen": "')'",
	"tLbracket": "'['", "tRbracket": "']'", "tLbrace": "'{'", "tRbrace": "'}'", "tOr": "'||'", "tPipe": "'|'",
	"tNumber": "a number", "tUnquotedIdentifier": "a name", "tQuotedIdentifier": "a quoted name",
	"tComma": "','", "tColon": "':'", "tLT": "'<'", "tLTE": "'<='", "tGT": "'>'", "tGTE": "'>='",
	"tEQ": "'=='", "tNE": "'!='", "tJSONLiteral": "a `literal`", "tStringLiteral": "a 'raw string'",
	"tCurrent": "'@'", "tExpref": "'&'", "tAnd": "'&&'", "tNot": "'!'", "tUnknown": "an unknown token",
}

// queryFlag declares --query on root (persistent, so it goes before or
// after the command, as the AWS CLI's does).
func queryFlag(root *cobra.Command, q *queryValue) {
	root.PersistentFlags().Var(q, "query", "a JMESPath `EXPRESSION` applied to the command's JSON document before it is printed, as the AWS CLI's --query (with --output json, text or yaml)")
}

// document is the held-back output of one command line.
type document struct {
	query *queryValue
	// defaultOutput is the AWS CLI's default format, AWS_DEFAULT_OUTPUT
	// else the profile's output setting ("" when neither is set).
	defaultOutput func() string
	format        string // json, text or yaml; "" when the output goes straight out
	out           io.Writer
	buf           bytes.Buffer
}

// prepare decides, once the flags of cmd are read, whether its output goes
// through the document layer; a --query the command's output cannot take
// is a usageError.
func (d *document) prepare(cmd *cobra.Command) error {
	ev := outputEnum(cmd)
	queried := d.query.expr != nil
	if ev == nil || !ev.allows("json") {
		if queried {
			return usageError{fmt.Sprintf("--query applies to a JSON document; %s prints none.", cmd.CommandPath())}
		}
		return nil
	}
	isDoc := cmd.Annotations[documentCmd] != ""
	if isDoc && !cmd.Flags().Changed("output") && d.defaultOutput != nil {
		// The AWS CLI's default where the command has that format; where it
		// has not (tail has no yaml), the command's own, silently: the AWS
		// CLI refuses a bad default, but a profile set up for aws must not
		// break every dynascope command whose formats differ.
		if def := d.defaultOutput(); ev.allows(def) {
			*ev.p = def
		}
	}
	format := *ev.p
	switch {
	case isDoc && slices.Contains(documentFormats, format):
		*ev.p, ev.made = "json", format // the command prints its document; this layer formats it
		d.format = format
	case format == "json" && queried:
		d.format = "json"
	case queried:
		return usageError{fmt.Sprintf("--query applies to --output %s, not %s, which is not one JSON document: add --output json.", orList(queryFormats(ev)), format)}
	}
	return nil
}

// outputEnum is cmd's --output, nil when it has none.
func outputEnum(cmd *cobra.Command) *enumValue {
	fl := cmd.Flags().Lookup("output")
	if fl == nil {
		return nil
	}
	ev, _ := unwrap(fl.Value).(*enumValue)
	return ev
}

// queryFormats are the formats of ev that --query applies to.
func queryFormats(ev *enumValue) []string {
	var out []string
	for _, v := range ev.values {
		if v == "json" || slices.Contains(documentFormats, v) {
			out = append(out, v)
		}
	}
	return out
}

// writer is where the command writes its output: w itself, or the
// document's buffer when the document layer formats it.
func (d *document) writer(w io.Writer) io.Writer {
	if d.format == "" {
		return w
	}
	d.out = w
	return &d.buf
}

// finish prints the held-back document: decoded, searched, formatted.
// Nothing was held back when the command printed nothing (it failed
// before its output).
func (d *document) finish() error {
	if d.format == "" || d.out == nil || len(bytes.TrimSpace(d.buf.Bytes())) == 0 {
		return nil
	}
	doc, err := decodeDocument(d.buf.Bytes())
	if err != nil {
		return err
	}
	v := doc.value
	if d.query.expr != nil {
		if v, err = doc.search(d.query.expr); err != nil {
			return fmt.Errorf("--query %s: %v", jsonString(d.query.text), err)
		}
	}
	var b bytes.Buffer
	switch d.format {
	case "text":
		doc.writeText(&b, v)
	case "yaml":
		if err := doc.writeYAML(&b, v); err != nil {
			return err
		}
	default:
		doc.writeJSON(&b, v)
	}
	_, err = d.out.Write(b.Bytes())
	return err
}
