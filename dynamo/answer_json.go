package dynamo

// The JSON of an answer, read by hand in one pass over the body
// (answer_decode.go builds the SDK's output from it and checks it on the
// way). Its grammar is encoding/json's: what json.Valid refuses is a
// syntax error here too. Its strings are the SDK decoder's: the bytes as
// they are without an escape, else unquoted as encoding/json unquotes.
// FuzzAnswerReader holds it to both.

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"dynascope/itemcodec"
)

// maxAnswerDepth is encoding/json's nesting limit: deeper JSON is not
// valid to it, so not here either. DynamoDB nests documents 32 deep.
const maxAnswerDepth = 10000

// answerJSON is a position in a body.
type answerJSON struct {
	b []byte
	i int
}

// errJSON is the reader's one error: the body is not the JSON (or not
// the shape) the caller wanted at this point. The caller says which.
type errJSON struct{}

func (errJSON) Error() string { return "not the JSON expected" }

var badJSON error = errJSON{}

// ws skips white space and returns the next byte, 0 at the end (or at a
// NUL, which no JSON value starts with).
func (r *answerJSON) ws() byte {
	for r.i < len(r.b) {
		switch c := r.b[r.i]; c {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return c
		}
	}
	return 0
}

// kind names the JSON value that starts at the next byte, as
// encoding/json's type errors name it.
func (r *answerJSON) kind() string {
	switch r.ws() {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// null reads a null if one is next.
func (r *answerJSON) null() bool {
	if r.ws() == 'n' && r.literal("null") {
		return true
	}
	return false
}

func (r *answerJSON) literal(lit string) bool {
	if len(r.b)-r.i < len(lit) || string(r.b[r.i:r.i+len(lit)]) != lit {
		return false
	}
	r.i += len(lit)
	return true
}

// boolean reads true or false.
func (r *answerJSON) boolean() (bool, bool) {
	switch r.ws() {
	case 't':
		return true, r.literal("true")
	case 'f':
		return false, r.literal("false")
	}
	return false, false
}

// object reads the '{' of an object; then each member through member,
// which reads the value after the name. It returns false on a syntax
// error; a member's own error is returned as it is.
func (r *answerJSON) object(member func(name []byte) error) error {
	if r.ws() != '{' {
		return badJSON
	}
	r.i++
	if r.ws() == '}' {
		r.i++
		return nil
	}
	for {
		if r.ws() != '"' {
			return badJSON
		}
		name, ok := r.str()
		if !ok || r.ws() != ':' {
			return badJSON
		}
		r.i++
		if err := member(name); err != nil {
			return err
		}
		switch r.ws() {
		case ',':
			r.i++
		case '}':
			r.i++
			return nil
		default:
			return badJSON
		}
	}
}

// array reads an array, each element through elem.
func (r *answerJSON) array(elem func() error) error {
	if r.ws() != '[' {
		return badJSON
	}
	r.i++
	if r.ws() == ']' {
		r.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch r.ws() {
		case ',':
			r.i++
		case ']':
			r.i++
			return nil
		default:
			return badJSON
		}
	}
}

// skip reads any one value, checking its syntax only; depth is how deep
// a container there would nest (the body's own object is 1).
func (r *answerJSON) skip(depth int) error {
	switch r.ws() {
	case '{':
		if depth > maxAnswerDepth {
			return badJSON
		}
		return r.object(func([]byte) error { return r.skip(depth + 1) })
	case '[':
		if depth > maxAnswerDepth {
			return badJSON
		}
		return r.array(func() error { return r.skip(depth + 1) })
	case '"':
		if _, ok := r.str(); !ok {
			return badJSON
		}
		return nil
	case 't':
		return r.lit("true")
	case 'f':
		return r.lit("false")
	case 'n':
		return r.lit("null")
	}
	if _, ok := r.number(); !ok {
		return badJSON
	}
	return nil
}

func (r *answerJSON) lit(s string) error {
	if !r.literal(s) {
		return badJSON
	}
	return nil
}

// number reads a JSON number and returns its text.
func (r *answerJSON) number() ([]byte, bool) {
	n := itemcodec.JSONNumberLen(r.b[r.i:])
	if n < 0 {
		return nil, false
	}
	r.i += n
	return r.b[r.i-n : r.i], true
}

// str reads a string at r.i (its opening quote) and returns its raw
// contents, escapes and all; unquote turns them into the value.
func (r *answerJSON) str() ([]byte, bool) {
	b := r.b
	start := r.i + 1
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			return b[start:i], true
		case c == '\\':
			i++
			if i >= len(b) {
				return nil, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || hex4(b[i+1:i+5]) < 0 {
					return nil, false
				}
				i += 4
			default:
				return nil, false
			}
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// text reads a string and returns its value.
func (r *answerJSON) text() (string, bool) {
	if r.ws() != '"' {
		return "", false
	}
	raw, ok := r.str()
	if !ok {
		return "", false
	}
	return unquote(raw), true
}

// plain tells whether raw string contents are their own value: they hold
// no escape. Their bytes are then the string as they are, valid UTF-8 or
// not, as the SDK's decoder takes them.
func plain(raw []byte) bool { return bytes.IndexByte(raw, '\\') < 0 }

// unquote is the value of raw string contents that str accepted: the
// bytes themselves without an escape, else as encoding/json unquotes them
// (bad UTF-8 and lone surrogates become U+FFFD), as the SDK's decoder does.
func unquote(raw []byte) string {
	if plain(raw) {
		return string(raw)
	}
	return coerce(raw)
}

// coerce unquotes raw string contents as encoding/json does, whatever
// they hold.
func coerce(raw []byte) string {
	if plain(raw) && utf8.Valid(raw) {
		return string(raw)
	}
	out := make([]byte, 0, len(raw)+8)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			i++
			switch raw[i] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				rr := hex4(raw[i+1 : i+5])
				i += 5
				if utf16.IsSurrogate(rr) {
					if len(raw)-i >= 6 && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(raw[i+2:i+6])); dec != unicode.ReplacementChar {
							out = utf8.AppendRune(out, dec)
							i += 6
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, rr)
				continue
			default: // " \ /
				out = append(out, raw[i])
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return string(out)
}

// hex4 is the value of four hex digits, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	return v
}
