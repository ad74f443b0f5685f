package dynamo

// An answer's items decoded and checked in the same pass (answer.go says
// why every answer is checked). The reader builds the SDK's own types
// (types.AttributeValue, types.ConsumedCapacity) from the body while it
// refuses what DynamoDB never sends, so the SDK's decoder never reads the
// body at all (answerProtocol): one parse of each body, where there used
// to be two. The problems it names are those of the checks it replaced:
// the first one in the body's order, the outermost attribute value that
// holds it.

import (
	"encoding/base64"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

// answerReader reads one body.
type answerReader struct {
	answerJSON
	// problem is what is wrong with the body's shape, once found; a
	// failure with none is a syntax error.
	problem string
	// names holds each attribute name once per body: items repeat them.
	names map[string]string
	hint  int // attributes of the last item, to size the next one's map
	// Slabs of attribute values, handed out one at a time: one allocation
	// for many values of a page.
	ss []types.AttributeValueMemberS
	ns []types.AttributeValueMemberN
}

func newAnswerReader(body []byte) *answerReader {
	return &answerReader{answerJSON: answerJSON{b: body}, names: map[string]string{}}
}

// fail notes a problem of shape (the first one counts) and returns badJSON.
func (r *answerReader) fail(format string, a ...any) error {
	if r.problem == "" {
		r.problem = fmt.Sprintf(format, a...)
	}
	return badJSON
}

// typeErr is the problem of a field holding the wrong kind of JSON, in
// encoding/json's words: "a object where Items was expected".
func (r *answerReader) typeErr(field string) error {
	return r.fail("a %s where %s was expected", r.kind(), field)
}

// name is an attribute name from its raw string contents.
func (r *answerReader) name(raw []byte) string {
	if s, ok := r.names[string(raw)]; ok {
		return s
	}
	s := unquote(raw)
	if plain(raw) {
		r.names[s] = s
	}
	return s
}

// items reads the array of Items.
func (r *answerReader) items() ([]map[string]types.AttributeValue, error) {
	if r.ws() != '[' {
		return nil, r.typeErr("Items")
	}
	out := []map[string]types.AttributeValue{}
	err := r.array(func() error {
		it, err := r.item(3)
		out = append(out, it)
		return err
	})
	return out, err
}

// item reads one item (or key) at JSON depth depth: an object of
// attribute values. null is "an item that is null", as the check this
// replaced said.
func (r *answerReader) item(depth int) (map[string]types.AttributeValue, error) {
	switch r.ws() {
	case '{':
	case 'n':
		if r.null() {
			return nil, r.fail("an item that is null")
		}
		return nil, badJSON
	default:
		return nil, r.fail("an item that is %s, not an object", r.kind())
	}
	it := make(map[string]types.AttributeValue, r.hint)
	err := r.object(func(raw []byte) error {
		name := r.name(raw)
		av, err := r.topValue(depth + 1)
		it[name] = av
		return err
	})
	r.hint = len(it)
	return it, err
}

// valueFail says why an attribute value was not read.
type valueFail uint8

const (
	valueOK     valueFail = iota
	valueSyntax           // the JSON is broken
	valueShape            // not exactly one type tag and its value
	valueBad              // the tag's value is not one DynamoDB sends
)

// topValue reads an attribute value of an item, and names it whole when
// it, or any value inside it, is not one DynamoDB sends.
func (r *answerReader) topValue(depth int) (types.AttributeValue, error) {
	r.ws()
	start := r.i
	av, tag, fail := r.value(depth)
	if fail == valueOK {
		return av, nil
	}
	if fail == valueSyntax {
		return nil, badJSON
	}
	r.i = start
	if r.skip(depth) != nil {
		return nil, badJSON
	}
	raw := r.b[start:r.i]
	if fail == valueShape {
		return nil, r.fail("an attribute value %s that is not one type and its value", preview(raw))
	}
	return nil, r.fail("an attribute value %s that is not a valid %s", preview(raw), tag)
}

// value reads one attribute value ({"S": "x"}) at JSON depth depth, and
// its tag. It leaves r.i anywhere when it fails.
func (r *answerReader) value(depth int) (types.AttributeValue, string, valueFail) {
	switch r.ws() {
	case '{':
		if depth > maxAnswerDepth {
			return nil, "", valueSyntax
		}
	case '[', '"', 't', 'f', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if r.skip(depth) != nil {
			return nil, "", valueSyntax
		}
		return nil, "", valueShape
	default:
		return nil, "", valueSyntax
	}
	r.i++
	if r.ws() == '}' {
		r.i++
		return nil, "", valueShape
	}
	tag, ok := r.tag()
	if !ok {
		return nil, "", valueSyntax
	}
	r.ws()
	at := r.i
	av, ok := r.typed(tag, depth+1)
	if c := r.ws(); ok && c == '}' {
		r.i++
		return av, tag, valueOK
	}
	// More than one member, or a bad value: a value of several distinct
	// tags is not one type; one tag repeated counts as its last value, as
	// a JSON object read into a map keeps it.
	r.i = at
	if r.skip(depth+1) != nil {
		return nil, "", valueSyntax
	}
	for r.ws() == ',' {
		r.i++
		next, ok := r.tag()
		if !ok {
			return nil, "", valueSyntax
		}
		if next != tag {
			return nil, "", valueShape // topValue skips what is left
		}
		r.ws()
		at = r.i
		if r.skip(depth+1) != nil {
			return nil, "", valueSyntax
		}
	}
	if r.ws() != '}' {
		return nil, "", valueSyntax
	}
	end := r.i + 1
	r.i = at
	if av, ok = r.typed(tag, depth+1); !ok {
		return nil, tag, valueBad
	}
	r.i = end
	return av, tag, valueOK
}

// tag reads a member name and its colon: a type tag, unquoted as
// encoding/json unquotes a map key.
func (r *answerReader) tag() (string, bool) {
	if r.ws() != '"' {
		return "", false
	}
	raw, ok := r.str()
	if !ok || r.ws() != ':' {
		return "", false
	}
	r.i++
	return coerce(raw), true
}

// typed reads the value of a type tag: what DynamoDB sends for it, as the
// SDK decodes it.
func (r *answerReader) typed(tag string, depth int) (types.AttributeValue, bool) {
	switch tag {
	case "S":
		s, ok := r.text()
		v := fromSlab(&r.ss)
		v.Value = s
		return v, ok
	case "N":
		s, ok := r.numberText()
		v := fromSlab(&r.ns)
		v.Value = s
		return v, ok
	case "B":
		b, ok := r.blob()
		return &types.AttributeValueMemberB{Value: b}, ok
	case "BOOL":
		v, ok := r.boolean()
		return &types.AttributeValueMemberBOOL{Value: v}, ok
	case "NULL":
		v, ok := r.boolean()
		return &types.AttributeValueMemberNULL{Value: true}, ok && v
	case "SS":
		v, ok := set(r, depth, r.text)
		return &types.AttributeValueMemberSS{Value: v}, ok
	case "NS":
		v, ok := set(r, depth, r.numberText)
		return &types.AttributeValueMemberNS{Value: v}, ok
	case "BS":
		v, ok := set(r, depth, r.blob)
		return &types.AttributeValueMemberBS{Value: v}, ok
	case "M":
		if r.ws() != '{' || depth > maxAnswerDepth {
			return nil, false
		}
		m := map[string]types.AttributeValue{}
		err := r.object(func(raw []byte) error {
			name := r.name(raw)
			av, _, fail := r.value(depth + 1)
			if fail != valueOK {
				return badJSON
			}
			m[name] = av
			return nil
		})
		return &types.AttributeValueMemberM{Value: m}, err == nil
	case "L":
		if r.ws() != '[' || depth > maxAnswerDepth {
			return nil, false
		}
		l := []types.AttributeValue{}
		err := r.array(func() error {
			av, _, fail := r.value(depth + 1)
			if fail != valueOK {
				return badJSON
			}
			l = append(l, av)
			return nil
		})
		return &types.AttributeValueMemberL{Value: l}, err == nil
	}
	return nil, false
}

// fromSlab hands out the next value of a slab, a new slab when it is used
// up: the strings and numbers of a page cost one allocation per 64.
func fromSlab[T any](slab *[]T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, 64)
	}
	v := &(*slab)[0]
	*slab = (*slab)[1:]
	return v
}

// set reads the array of a set's members, each by one (a null member, or
// a null set, is none DynamoDB sends).
func set[T any](r *answerReader, depth int, one func() (T, bool)) ([]T, bool) {
	if r.ws() != '[' || depth > maxAnswerDepth {
		return nil, false
	}
	out := []T{}
	err := r.array(func() error {
		v, ok := one()
		if !ok {
			return badJSON
		}
		out = append(out, v)
		return nil
	})
	return out, err == nil
}

// numberText reads a number's text: a string in DynamoDB's grammar and
// limits (the SDK would take any text).
func (r *answerReader) numberText() (string, bool) {
	s, ok := r.text()
	return s, ok && number.Valid(s)
}

// blob reads binary: a string of standard base64, as the SDK decodes it.
func (r *answerReader) blob() ([]byte, bool) {
	s, ok := r.text()
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return b, err == nil
}

// capacity reads ConsumedCapacity into the SDK's type, noting the first
// figure that is not a finite, non-negative number (as units, the text
// the endpoint sent).
type capacityRead struct {
	cc      *types.ConsumedCapacity
	problem string // the first figure refused, in checkCapacity's words
}

func (r *answerReader) capacity(into *capacityRead) error {
	if r.ws() != '{' {
		return r.typeErr("ConsumedCapacity")
	}
	cc := &types.ConsumedCapacity{}
	into.cc = cc
	return r.object(func(raw []byte) error {
		switch string(raw) {
		case "CapacityUnits":
			return r.units(&cc.CapacityUnits, into)
		case "ReadCapacityUnits":
			return r.units(&cc.ReadCapacityUnits, into)
		case "WriteCapacityUnits":
			return r.units(&cc.WriteCapacityUnits, into)
		case "TableName":
			if r.null() {
				return nil
			}
			s, ok := r.text()
			if !ok {
				return r.typeErr("ConsumedCapacity.TableName")
			}
			cc.TableName = aws.String(s)
			return nil
		case "Table":
			if r.null() {
				return nil
			}
			cc.Table = &types.Capacity{}
			return r.part(cc.Table, into, "ConsumedCapacity.Table")
		case "GlobalSecondaryIndexes":
			return r.parts(&cc.GlobalSecondaryIndexes, into, "ConsumedCapacity.GlobalSecondaryIndexes")
		case "LocalSecondaryIndexes":
			return r.parts(&cc.LocalSecondaryIndexes, into, "ConsumedCapacity.LocalSecondaryIndexes")
		}
		return r.skip(2)
	})
}

// parts reads a map of index name to its capacity.
func (r *answerReader) parts(into *map[string]types.Capacity, c *capacityRead, field string) error {
	if r.null() {
		return nil
	}
	if r.ws() != '{' {
		return r.typeErr(field)
	}
	m := map[string]types.Capacity{}
	*into = m
	return r.object(func(raw []byte) error {
		var p types.Capacity
		if err := r.part(&p, c, field); err != nil {
			return err
		}
		m[unquote(raw)] = p
		return nil
	})
}

// part reads one Capacity object.
func (r *answerReader) part(p *types.Capacity, c *capacityRead, field string) error {
	if r.ws() != '{' {
		return r.typeErr(field)
	}
	return r.object(func(raw []byte) error {
		switch string(raw) {
		case "CapacityUnits":
			return r.units(&p.CapacityUnits, c)
		case "ReadCapacityUnits":
			return r.units(&p.ReadCapacityUnits, c)
		case "WriteCapacityUnits":
			return r.units(&p.WriteCapacityUnits, c)
		}
		return r.skip(4)
	})
}

// units reads one figure of capacity. A figure that is not a finite,
// non-negative number is noted (the first one), not a failure of the
// read: the answer is refused after it is read whole, as before.
func (r *answerReader) units(into **float64, c *capacityRead) error {
	if r.null() {
		return nil
	}
	r.ws()
	start := r.i
	if err := r.skip(4); err != nil {
		return err
	}
	raw := r.b[start:r.i]
	f, ok := finiteUnits(raw)
	if !ok && c.problem == "" {
		if f < 0 {
			c.problem = fmt.Sprintf("a negative consumed capacity (%s units)", raw)
		} else {
			c.problem = fmt.Sprintf("a consumed capacity of %s units, which is not a finite number", raw)
		}
	}
	*into = aws.Float64(f)
	return nil
}
