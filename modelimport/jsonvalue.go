package modelimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// value is one JSON value with its object members in the order the file
// wrote them: the order of a library's models and attributes is the order
// of the entities and keys written.
type value struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str     string
	boolean bool
	members []member
	items   []*value
}

type member struct {
	name string
	val  *value
}

// get returns the member named name of an object, nil when it has none or
// is not an object.
func (v *value) get(name string) *value {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for _, m := range v.members {
		if m.name == name {
			return m.val
		}
	}
	return nil
}

// text is a string member's value, "" when it is missing or not a string.
func (v *value) text(name string) string {
	if s := v.get(name); s != nil && s.kind == 's' {
		return s.str
	}
	return ""
}

// has tells whether an object has the member, whatever its value.
func (v *value) has(name string) bool { return v.get(name) != nil }

// fn is the source of a function value as the node loader wrote it
// ({"$function": name, "source": text}); ok is false for any other value.
func (v *value) fn() (name, source string, ok bool) {
	if v == nil || v.kind != 'o' || len(v.members) != 2 || v.members[0].name != "$function" {
		return "", "", false
	}
	return v.text("$function"), v.text("source"), true
}

// parseJSON reads one JSON document into an ordered tree. A syntax error
// names its line and column.
func parseJSON(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err == nil {
		if _, err = dec.Token(); err != io.EOF {
			err = errors.New("more than one JSON value")
		} else {
			err = nil
		}
	}
	if err != nil {
		return nil, jsonError(data, dec.InputOffset(), err)
	}
	return v, nil
}

func readValue(dec *json.Decoder) (*value, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &value{kind: 'o'}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				name, _ := k.(string)
				val, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				v.members = append(v.members, member{name, val})
			}
			_, err := dec.Token()
			return v, err
		case '[':
			v := &value{kind: 'a'}
			for dec.More() {
				val, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, val)
			}
			_, err := dec.Token()
			return v, err
		}
		return nil, fmt.Errorf("unexpected %q", t.String())
	case string:
		return &value{kind: 's', str: t}, nil
	case json.Number:
		return &value{kind: 'n', str: t.String()}, nil
	case bool:
		return &value{kind: 'b', boolean: t}, nil
	case nil:
		return &value{kind: 'z'}, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}

// jsonError words a decoding error with the line and column it stopped at.
func jsonError(data []byte, off int64, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	msg := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		msg = "the file ends before its JSON does"
	}
	return fmt.Errorf("line %d, column %d: %s", line, col, strings.TrimPrefix(msg, "json: "))
}
