package dynamo

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// The checks of a Streams answer. A stream answer is untrusted like any
// other: a proxy or emulator can repeat an iterator, reorder a batch, mix
// in another table's records or records that are not writes at all. A
// record the table's stream could not have sent is dropped and counted,
// and the first of each kind is said (TailOptions.OnNotice), so that no
// record is shown that its request could not have produced.

// TailCounts are the records and answers a tail did not take as they came.
type TailCounts struct {
	Repeated int // records at or below the last sequence number read of their shard: repeated or reordered
	Keyless  int // records without this table's key (its names and types)
	Unknown  int // records of an event type other than INSERT, MODIFY, REMOVE, or without a sequence number
	Trimmed  int // answers saying the records asked for are past the stream's 24 hours
	Renewed  int // iterators renewed after they expired
}

// Dropped is the records left out.
func (c TailCounts) Dropped() int { return c.Repeated + c.Keyless + c.Unknown }

// String says the counts in words, "" when there is nothing to say:
// "3 repeated or reordered records dropped, 1 trimmed answer".
func (c TailCounts) String() string {
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, textfmt.Plural(n, one, many))
		}
	}
	add(c.Repeated, "repeated or reordered record dropped", "repeated or reordered records dropped")
	add(c.Keyless, "record without the table's key dropped", "records without the table's key dropped")
	add(c.Unknown, "record of an unknown event type dropped", "records of an unknown event type dropped")
	add(c.Trimmed, "trimmed answer (records past 24 hours skipped)", "trimmed answers (records past 24 hours skipped)")
	add(c.Renewed, "expired iterator renewed", "expired iterators renewed")
	return strings.Join(parts, ", ")
}

// TailNotice is one thing a tail says while it goes on: the first dropped
// record of a kind, a trimmed answer. Text is one sanitised sentence;
// Counts are the tail's counts so far.
type TailNotice struct {
	Text   string
	Counts TailCounts
}

// The kinds of record a tail drops.
const (
	dropRepeated = "repeated"
	dropKeyless  = "keyless"
	dropUnknown  = "unknown"
)

// checkRecord tells why a record of shard sh is dropped, "" when it is
// kept: its sequence number must be one and above the last read of the
// shard (last; "" for none), its event a write, and its keys the table's.
func checkRecord(info StreamInfo, r st.Record, rec StreamRecord, last string) string {
	switch r.EventName {
	case st.OperationTypeInsert, st.OperationTypeModify, st.OperationTypeRemove:
	default:
		return dropUnknown
	}
	if src := aws.ToString(r.EventSource); src != "" && src != "aws:dynamodb" {
		return dropUnknown
	}
	if !isSequence(rec.Sequence) {
		return dropUnknown
	}
	if last != "" && !seqAfter(rec.Sequence, last) {
		return dropRepeated
	}
	if !hasKey(rec.Keys, info.PK, info.SK) {
		return dropKeyless
	}
	return ""
}

// hasKey tells keys that are exactly the table's key: its attributes, of
// their types, and nothing else.
func hasKey(k Item, pk KeyAttr, sk *KeyAttr) bool {
	want := 1
	if sk != nil {
		want = 2
		if !keyOfType(k, *sk) {
			return false
		}
	}
	return len(k) == want && keyOfType(k, pk)
}

func keyOfType(k Item, a KeyAttr) bool {
	v, ok := k[a.Name]
	if !ok {
		return false
	}
	return a.Type == "" || itemcodec.AttributeTypeName(v) == a.Type
}

// isSequence tells a sequence number as DynamoDB writes them: decimal
// digits (21 to 40 of them today).
func isSequence(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// seqAfter tells a sequence number above b: they are decimal numbers of
// varying length, compared as numbers.
func seqAfter(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// describeMismatch tells a DescribeStream answer about another stream or
// table than the one asked for; "" when it is the one.
func describeMismatch(info StreamInfo, d *st.StreamDescription) string {
	if arn := aws.ToString(d.StreamArn); arn != "" && arn != info.ARN {
		return fmt.Sprintf("the stream %s", arn)
	}
	if t := aws.ToString(d.TableName); t != "" && t != info.Table {
		return fmt.Sprintf("table %s", t)
	}
	return ""
}

// arnNamesTable tells a stream ARN of table t (arn:…:table/T/stream/LABEL).
func arnNamesTable(arn, t string) bool {
	return strings.Contains(arn, ":table/"+t+"/stream/")
}
