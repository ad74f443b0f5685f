package cli

// The document layer's formats: the JSON document decoded with each
// number's exact text and each object's key order kept, searched by
// JMESPath, and written as JSON (indented as dynascope's), text (the AWS
// CLI's text rules) or YAML (keys in the document's order).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/jmespath/go-jmespath"
	"gopkg.in/yaml.v3"

	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// decodedDoc is a JSON document as JMESPath searches it: objects are
// map[string]any, arrays []any and numbers float64, because the library
// compares and sums only float64. Each number's text is kept beside its
// float64 (numbers), so a number the search passes through is printed
// with its exact digits, a 38-digit DynamoDB number too; two numbers that
// are one float64 (they differ past the 17th digit) are given neighbouring
// float64s so each keeps its own text. Objects keep their key order
// (order, by the map's identity), as the AWS CLI keeps the response's.
type decodedDoc struct {
	value   any
	numbers map[float64]string
	order   map[uintptr][]string
}

// decodeDocument reads one JSON document.
func decodeDocument(b []byte) (*decodedDoc, error) {
	d := &decodedDoc{numbers: map[float64]string{}, order: map[uintptr][]string{}}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := d.read(dec)
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	if err != nil {
		// The commands print one document: this is dynascope's mistake.
		return nil, fmt.Errorf("the command's output is not one JSON document (%v), so --query and --output text or yaml cannot take it", err)
	}
	d.value = v
	return d, nil
}

func (d *decodedDoc) read(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			var keys []string
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				if m[k], err = d.read(dec); err != nil {
					return nil, err
				}
				keys = append(keys, k)
			}
			d.order[reflect.ValueOf(m).Pointer()] = keys
			_, err := dec.Token() // }
			return m, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := d.read(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ]
			return a, err
		}
	case json.Number:
		return d.number(t.String())
	}
	return t, nil // string, bool, nil
}

// number is the float64 that stands for number text s in the search.
func (d *decodedDoc) number(s string) (any, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, err
	}
	for {
		text, taken := d.numbers[f]
		if !taken || text == s {
			break
		}
		f = math.Nextafter(f, math.Inf(1))
	}
	d.numbers[f] = s
	return f, nil
}

// search applies the expression to the document.
func (d *decodedDoc) search(expr *jmespath.JMESPath) (any, error) {
	return expr.Search(d.value)
}

// numberText is a number as printed: the document's text for a number it
// holds, Go's shortest form for one the search computed (length, sum).
func (d *decodedDoc) numberText(f float64) string {
	if s, ok := d.numbers[f]; ok {
		return s
	}
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// keys are an object's keys: the document's order, sorted for an object
// the search made (a multi-select hash).
func (d *decodedDoc) keys(m map[string]any) []string {
	if keys, ok := d.order[reflect.ValueOf(m).Pointer()]; ok && len(keys) == len(m) {
		return keys
	}
	return sortedKeys(m)
}

// writeJSON writes v as dynascope's JSON is written (two-space indent, no
// HTML escaping, terminal code points escaped). As the AWS CLI, an empty
// object prints nothing; null prints null.
func (d *decodedDoc) writeJSON(b *bytes.Buffer, v any) {
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return
	}
	d.json(b, v, "")
	b.WriteByte('\n')
}

func (d *decodedDoc) json(b *bytes.Buffer, v any, indent string) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range d.keys(v) {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(indent + "  " + jsonString(k) + ": ")
			d.json(b, v[k], indent+"  ")
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(indent + "  ")
			d.json(b, e, indent+"  ")
		}
		b.WriteString("\n" + indent + "]")
	default:
		b.WriteString(d.scalarJSON(v))
	}
}

func (d *decodedDoc) scalarJSON(v any) string {
	switch v := v.(type) {
	case string:
		return jsonString(v)
	case float64:
		return d.numberText(v)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	}
	return jsonString(fmt.Sprint(v))
}

// writeYAML writes v as YAML, keys in the document's order. A string a
// terminal would act on is double-quoted, so that the code points YAML
// leaves as they are (bidi controls) can be escaped after encoding as
// JSON's are.
func (d *decodedDoc) writeYAML(b *bytes.Buffer, v any) error {
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(d.yamlNode(v)); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	b.Write(itemcodec.EscapeTerminalJSON(out.Bytes()))
	return nil
}

func (d *decodedDoc) yamlNode(v any) *yaml.Node {
	switch v := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range d.keys(v) {
			n.Content = append(n.Content, yamlString(k), d.yamlNode(v[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range v {
			n.Content = append(n.Content, d.yamlNode(e))
		}
		return n
	case string:
		return yamlString(v)
	case float64:
		s := d.numberText(v)
		tag := "!!int"
		if strings.ContainsAny(s, ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	return yamlString(fmt.Sprint(v))
}

func yamlString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if textfmt.Sanitize(s) != s {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}
