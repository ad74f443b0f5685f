package dynamo

// The answer check as it was before it decoded the answers itself: it
// parsed each body with encoding/json to check it, and the SDK parsed it
// again to decode it. Kept here, unchanged but for its names, as the
// oracle the one-pass reader is held to (answer_oracle_test.go): the same
// answers accepted, the same problems named.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec/number"
)

type oldPageAnswer struct {
	Count            *json.Number
	ScannedCount     *json.Number
	Items            *[]oldItemValue
	LastEvaluatedKey *oldItemValue
	ConsumedCapacity *oldCapacityAnswer
}

func oldCheckPage(body []byte, countOnly, filtered bool, rcc types.ReturnConsumedCapacity) string {
	var a oldPageAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return oldErrText(err)
	}
	if a.Count == nil || a.ScannedCount == nil {
		return "no Count or no ScannedCount"
	}
	count, err1 := strconv.ParseInt(a.Count.String(), 10, 32)
	scanned, err2 := strconv.ParseInt(a.ScannedCount.String(), 10, 32)
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Sprintf("a Count %s or ScannedCount %s that is not a whole number", a.Count, a.ScannedCount)
	case count < 0 || scanned < 0:
		return fmt.Sprintf("a negative count (Count %d, ScannedCount %d)", count, scanned)
	case count > scanned:
		return fmt.Sprintf("Count %d larger than ScannedCount %d", count, scanned)
	case !filtered && count != scanned:
		// Only a filter keeps fewer than were read: pages that keep
		// nothing would otherwise page on unbounded.
		return fmt.Sprintf("Count %d smaller than ScannedCount %d although no filter was asked for", count, scanned)
	}
	if !countOnly {
		if a.Items == nil {
			return fmt.Sprintf("no Items although Count %d", count)
		}
		if int64(len(*a.Items)) != count {
			return fmt.Sprintf("%d items but Count %d", len(*a.Items), count)
		}
	}
	if a.LastEvaluatedKey != nil && len(a.LastEvaluatedKey.attrs) == 0 {
		return "an empty LastEvaluatedKey"
	}
	return oldCheckCapacity(a.ConsumedCapacity, rcc)
}

func oldCheckGetItem(body []byte, rcc types.ReturnConsumedCapacity) string {
	var a struct {
		Item             *oldItemValue
		ConsumedCapacity *oldCapacityAnswer
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return oldErrText(err)
	}
	return oldCheckCapacity(a.ConsumedCapacity, rcc)
}

// checkStatement checks an ExecuteStatement answer: its items, a NextToken
// that is text, and the capacity asked for.
func oldCheckStatement(body []byte, rcc types.ReturnConsumedCapacity) string {
	var a struct {
		Items            *[]oldItemValue
		NextToken        *json.RawMessage
		ConsumedCapacity *oldCapacityAnswer
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return oldErrText(err)
	}
	if a.Items == nil {
		return "no Items"
	}
	if a.NextToken != nil {
		var s string
		if json.Unmarshal(*a.NextToken, &s) != nil || s == "" {
			return "a NextToken that is not a non-empty string"
		}
	}
	if a.ConsumedCapacity == nil {
		// DynamoDB Local answers ExecuteStatement without it even when
		// asked; the request is then marked NoCapacity, never shown as 0.
		return ""
	}
	return oldCheckCapacity(a.ConsumedCapacity, rcc)
}

// the strings "Infinity", "-Infinity" and "NaN", which the SDK reads as such.
type oldCapacityAnswer struct {
	CapacityUnits          *json.RawMessage
	Table                  *struct{ CapacityUnits *json.RawMessage }
	GlobalSecondaryIndexes map[string]struct{ CapacityUnits *json.RawMessage }
	LocalSecondaryIndexes  map[string]struct{ CapacityUnits *json.RawMessage }
}

func oldCheckCapacity(c *oldCapacityAnswer, asked types.ReturnConsumedCapacity) string {
	if c == nil {
		if asked != "" && asked != types.ReturnConsumedCapacityNone {
			return "no ConsumedCapacity although it was asked for"
		}
		return ""
	}
	units := []*json.RawMessage{c.CapacityUnits}
	if c.Table != nil {
		units = append(units, c.Table.CapacityUnits)
	}
	for _, ix := range c.GlobalSecondaryIndexes {
		units = append(units, ix.CapacityUnits)
	}
	for _, ix := range c.LocalSecondaryIndexes {
		units = append(units, ix.CapacityUnits)
	}
	for _, u := range units {
		if u == nil {
			continue
		}
		f, err := strconv.ParseFloat(string(*u), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f < 0 {
			if err == nil && f < 0 {
				return fmt.Sprintf("a negative consumed capacity (%s units)", *u)
			}
			return fmt.Sprintf("a consumed capacity of %s units, which is not a finite number", *u)
		}
	}
	return ""
}

func oldErrText(err error) string {
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		return fmt.Sprintf("a %s where %s was expected", ue.Value, ue.Field)
	}
	if strings.HasPrefix(err.Error(), "a") {
		return err.Error() // ours: an attribute value ...
	}
	return "JSON of a shape it cannot have (" + strings.TrimPrefix(err.Error(), "json: ") + ")"
}

// oldItemValue is an item or key map: attribute name to attribute value.
type oldItemValue struct{ attrs map[string]oldAttrValue }

func (v *oldItemValue) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return fmt.Errorf("an item that is null")
	}
	return json.Unmarshal(b, &v.attrs)
}

// oldAttrValue is one attribute value. The SDK would read {}, {"S": null} or
// an unknown type tag as the previous attribute's value; here they fail.
type oldAttrValue struct{}

func (oldAttrValue) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || len(m) != 1 {
		return fmt.Errorf("an attribute value %s that is not one type and its value", preview(b))
	}
	for tag, raw := range m {
		if !oldValidAttr(tag, raw) {
			return fmt.Errorf("an attribute value %s that is not a valid %s", preview(b), tag)
		}
	}
	return nil
}

func oldValidAttr(tag string, raw json.RawMessage) bool {
	switch tag {
	case "S", "B":
		var s *string
		return json.Unmarshal(raw, &s) == nil && s != nil
	case "N":
		// The SDK takes any text as a number; DynamoDB never sends one
		// outside its grammar and its 38 digits.
		var s *string
		if json.Unmarshal(raw, &s) != nil || s == nil {
			return false
		}
		_, err := number.Parse(*s)
		return err == nil
	case "BOOL":
		var v *bool
		return json.Unmarshal(raw, &v) == nil && v != nil
	case "NULL":
		var v *bool
		return json.Unmarshal(raw, &v) == nil && v != nil && *v
	case "SS", "NS", "BS":
		var v []*string
		if json.Unmarshal(raw, &v) != nil || v == nil {
			return false
		}
		for _, s := range v {
			if s == nil {
				return false
			}
			if _, err := number.Parse(*s); tag == "NS" && err != nil {
				return false
			}
		}
		return true
	case "M":
		var v oldItemValue
		return json.Unmarshal(raw, &v) == nil && v.attrs != nil
	case "L":
		var v []oldAttrValue
		return json.Unmarshal(raw, &v) == nil && v != nil
	}
	return false
}

// sentence says what the endpoint sent, for Explain: "http://127.0.0.1:8000
