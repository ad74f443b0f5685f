package itemcodec

import (
	"encoding/base64"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ItemJSON writes items as JSON onto a byte slice: plain JSON, or DynamoDB
// JSON with Dynamo. With Indent it writes them as encoding/json's
// SetIndent("", "  ") would re-indent them inside a document, the item's
// braces at Depth levels of two spaces: a streamed document is then byte
// for byte the one built whole. An ItemJSON keeps its scratch space from
// one item to the next; it is not for use by two goroutines at once.
type ItemJSON struct {
	Dynamo bool
	Indent bool
	Depth  int
	names  [][]string // sorted attribute names, one slice per nesting level
}

// Append writes it onto dst.
func (e *ItemJSON) Append(dst []byte, it Item) []byte {
	depth := -1
	if e.Indent {
		depth = e.Depth
	}
	return e.object(dst, it, depth, 0)
}

// newline starts a line at depth, when indenting (depth >= 0).
func newline(dst []byte, depth int) []byte {
	if depth < 0 {
		return dst
	}
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// deeper is the depth of what a container at depth holds.
func deeper(depth int) int {
	if depth < 0 {
		return -1
	}
	return depth + 1
}

// object writes a map's attributes in name order; level numbers the
// scratch slice of names, one per nesting.
func (e *ItemJSON) object(dst []byte, m map[string]types.AttributeValue, depth, level int) []byte {
	if len(m) == 0 {
		return append(dst, '{', '}')
	}
	for len(e.names) <= level {
		e.names = append(e.names, nil)
	}
	names := slices.AppendSeq(e.names[level][:0], maps.Keys(m))
	slices.Sort(names)
	e.names[level] = names
	dst = append(dst, '{')
	inner := deeper(depth)
	for i, k := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = newline(dst, inner)
		dst = AppendQuoted(dst, k)
		dst = append(dst, ':')
		if depth >= 0 {
			dst = append(dst, ' ')
		}
		dst = e.attr(dst, m[k], inner, level+1)
	}
	dst = newline(dst, depth)
	return append(dst, '}')
}

// attr writes one attribute value, plain or typed.
func (e *ItemJSON) attr(dst []byte, av types.AttributeValue, depth, level int) []byte {
	if !e.Dynamo {
		return e.plain(dst, av, depth, level)
	}
	typ := AttributeTypeName(av)
	if typ == "" {
		// Nothing truthful to say; ParseDynamoJSON refuses it, as DynamoDB would.
		return append(dst, "null"...)
	}
	inner := deeper(depth)
	dst = append(dst, '{')
	dst = newline(dst, inner)
	dst = append(dst, '"')
	dst = append(dst, typ...)
	dst = append(dst, '"', ':')
	if depth >= 0 {
		dst = append(dst, ' ')
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		dst = AppendQuoted(dst, v.Value) // DynamoDB JSON keeps numbers as strings
	case *types.AttributeValueMemberNULL:
		dst = appendBool(dst, v.Value)
	case *types.AttributeValueMemberNS:
		dst = array(dst, v.Value, inner, AppendQuoted)
	case *types.AttributeValueMemberL:
		dst = array(dst, v.Value, inner, func(dst []byte, x types.AttributeValue) []byte { return e.attr(dst, x, deeper(inner), level+1) })
	case *types.AttributeValueMemberM:
		dst = e.object(dst, v.Value, inner, level)
	default:
		dst = e.plain(dst, av, inner, level) // S, B, BOOL, SS, BS are written alike
	}
	dst = newline(dst, depth)
	return append(dst, '}')
}

// plain writes a value as plain JSON.
func (e *ItemJSON) plain(dst []byte, av types.AttributeValue, depth, level int) []byte {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return AppendQuoted(dst, v.Value)
	case *types.AttributeValueMemberN:
		return appendNumber(dst, v.Value)
	case *types.AttributeValueMemberB:
		return appendBase64(dst, v.Value)
	case *types.AttributeValueMemberBOOL:
		return appendBool(dst, v.Value)
	case *types.AttributeValueMemberNULL:
		return append(dst, "null"...)
	case *types.AttributeValueMemberSS:
		return array(dst, v.Value, depth, AppendQuoted)
	case *types.AttributeValueMemberNS:
		return array(dst, v.Value, depth, appendNumber)
	case *types.AttributeValueMemberBS:
		return array(dst, v.Value, depth, appendBase64)
	case *types.AttributeValueMemberL:
		return array(dst, v.Value, depth, func(dst []byte, x types.AttributeValue) []byte { return e.plain(dst, x, deeper(depth), level+1) })
	case *types.AttributeValueMemberM:
		return e.object(dst, v.Value, depth, level)
	}
	return append(dst, "null"...)
}

// value writes one value as the item encoders write an attribute's.
func (e *ItemJSON) value(dst []byte, av types.AttributeValue, depth int) []byte {
	return e.attr(dst, av, depth, 0)
}

func array[T any](dst []byte, xs []T, depth int, each func([]byte, T) []byte) []byte {
	if len(xs) == 0 {
		return append(dst, '[', ']')
	}
	dst = append(dst, '[')
	inner := deeper(depth)
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = newline(dst, inner)
		dst = each(dst, x)
	}
	dst = newline(dst, depth)
	return append(dst, ']')
}

func appendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

func appendBase64(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

// appendNumber writes number text as a JSON number with the same value:
// as it is when it is already JSON (DynamoDB's own text is), else as
// jsonNumber rewrites it. Text that is no number at all (only a
// hand-built item can hold it) is written as a JSON string, so the output
// stays valid JSON and loses nothing.
func appendNumber(dst []byte, s string) []byte {
	if isJSONNumber(s) {
		return append(dst, s...)
	}
	if j, ok := jsonNumber(s); ok {
		return append(dst, j...)
	}
	return AppendQuoted(dst, s)
}

// isJSONNumber tells number text that JSON's grammar takes as it is.
func isJSONNumber(s string) bool { return JSONNumberLen(s) == len(s) }

// JSONNumberLen is the length of the JSON number s starts with (JSON's
// grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or -1 when it
// starts with none.
func JSONNumberLen[T string | []byte](s T) int {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		if j := digits(i + 1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

const hexDigits = "0123456789abcdef"

// AppendQuoted writes s as a JSON string: escaped as encoding/json escapes
// it without its HTML escapes (<, > and & stay raw, as the AWS CLI leaves
// them; bad UTF-8 becomes \ufffd; U+2028 and U+2029 are escaped), and the
// code points a terminal would act on (terminalRune) as \uXXXX, the same
// string to any JSON reader.
func AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != 0x7f {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // the other C0 controls, and DEL
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029' || terminalRune(r):
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
