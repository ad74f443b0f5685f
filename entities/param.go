package entities

// Parameters: the typed values a key template's {placeholders} stand for,
// and the one check of a value against its type.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"dynascope/itemcodec/number"
)

// Type is a parameter's type.
type Type string

// The parameter types of the entities: section.
const (
	Text     Type = "text"     // any non-empty text without the template's next literal
	Number   Type = "number"   // a DynamoDB number as text
	Padded   Type = "padded"   // a zero-padded non-negative integer of Width digits
	Date     Type = "date"     // ISO 8601 date, YYYY-MM-DD
	DateTime Type = "datetime" // ISO 8601 / RFC 3339 date-time
	ID       Type = "id"       // an id of Shape
)

// Types lists the parameter types, for errors and help.
var Types = []Type{Text, Number, Padded, Date, DateTime, ID}

// The id shapes of {type: id, shape: ...}.
const (
	UUID  = "uuid"
	ULID  = "ulid"
	KSUID = "ksuid"
	Hex   = "hex"
	Any   = "any"
)

// Shapes lists the id shapes, for errors and help.
var Shapes = []string{UUID, ULID, KSUID, Hex, Any}

// Param is one declared parameter of an entity.
type Param struct {
	Name  string
	Type  Type
	Width int    // Padded only: the number of digits
	Shape string // ID only: one of Shapes
	Line  int    // where it is declared; 0 when not from a file
	Col   int
}

var (
	uuidRE  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	ulidRE  = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$`)
	ksuidRE = regexp.MustCompile(`^[0-9A-Za-z]{27}$`)
	hexRE   = regexp.MustCompile(`^[0-9a-fA-F]+$`)
	digits  = regexp.MustCompile(`^[0-9]+$`)
)

// dateTimeLayouts are the ISO 8601 date-times accepted: RFC 3339 with or
// without fractions, and a local time without an offset.
var dateTimeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04"}

// Describe names the type as the file writes it: "number", "padded to 5 digits", "a ulid id".
func (p Param) Describe() string {
	switch p.Type {
	case Padded:
		return fmt.Sprintf("a number zero-padded to %d digits", p.Width)
	case ID:
		if p.Shape == Any {
			return "an id"
		}
		return "a " + p.Shape + " id"
	case Date:
		return "a date (YYYY-MM-DD)"
	case DateTime:
		return "an ISO 8601 date-time"
	case Number:
		return "a number"
	}
	return "text"
}

// width is the fixed length of the type's values, 0 when it varies.
func (p Param) width() int {
	switch p.Type {
	case Padded:
		return p.Width
	case Date:
		return len("2006-01-02")
	case ID:
		switch p.Shape {
		case UUID:
			return 36
		case ULID:
			return 26
		case KSUID:
			return 27
		}
	}
	return 0
}

// Check tells whether value is of the parameter's type; its error is one
// sentence naming the parameter, the value and the type.
func (p Param) Check(value string) error {
	if value == "" {
		return fmt.Errorf("%s is empty; a key parameter needs a value", p.Name)
	}
	ok := true
	switch p.Type {
	case Number:
		ok = number.Valid(value)
	case Padded:
		ok = len(value) == p.Width && digits.MatchString(value)
	case Date:
		_, err := time.Parse("2006-01-02", value)
		ok = err == nil
	case DateTime:
		ok = false
		for _, l := range dateTimeLayouts {
			if _, err := time.Parse(l, value); err == nil {
				ok = true
				break
			}
		}
	case ID:
		switch p.Shape {
		case UUID:
			ok = uuidRE.MatchString(value)
		case ULID:
			ok = ulidRE.MatchString(value)
		case KSUID:
			ok = ksuidRE.MatchString(value)
		case Hex:
			ok = hexRE.MatchString(value)
		}
	}
	if !ok {
		return fmt.Errorf("%s is %s, which is not %s", p.Name, strconv.Quote(value), p.Describe())
	}
	return nil
}

// Normalize is the value the application would put in the key for value:
// a padded number shorter than its width is zero-padded; every other value
// is checked and kept as given.
func (p Param) Normalize(value string) (string, error) {
	if p.Type == Padded && value != "" && len(value) < p.Width && digits.MatchString(value) {
		value = strings.Repeat("0", p.Width-len(value)) + value
	}
	return value, p.Check(value)
}
