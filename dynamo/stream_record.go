package dynamo

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/textfmt"
)

// StreamRecord is one write as the table's stream reports it.
type StreamRecord struct {
	Event    string    // INSERT, MODIFY or REMOVE
	Time     time.Time // when DynamoDB wrote it (to the second)
	Sequence string
	Shard    string
	Keys     Item
	Old, New Item   // nil when the stream's view type does not carry them
	Size     int64  // the record's size in bytes, as DynamoDB counts it
	Service  string // "dynamodb.amazonaws.com" for a delete by Time to Live; "" for a user's write
}

// recordOf converts the Streams SDK's record; its attribute values are the
// same union as DynamoDB's, in another package.
func recordOf(r st.Record, shardID string) StreamRecord {
	out := StreamRecord{Event: string(r.EventName), Shard: shardID}
	if id := r.UserIdentity; id != nil && aws.ToString(id.Type) == "Service" {
		out.Service = aws.ToString(id.PrincipalId)
	}
	d := r.Dynamodb
	if d == nil {
		return out
	}
	out.Time = aws.ToTime(d.ApproximateCreationDateTime).UTC()
	out.Sequence = aws.ToString(d.SequenceNumber)
	out.Size = aws.ToInt64(d.SizeBytes)
	out.Keys = itemOf(d.Keys)
	out.Old = itemOf(d.OldImage)
	out.New = itemOf(d.NewImage)
	return out
}

func itemOf(m map[string]st.AttributeValue) Item {
	if m == nil {
		return nil
	}
	it := make(Item, len(m))
	for k, v := range m {
		it[k] = valueOf(v)
	}
	return it
}

func valueOf(v st.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *st.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: v.Value}
	case *st.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: v.Value}
	case *st.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: v.Value}
	case *st.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *st.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *st.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: v.Value}
	case *st.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: v.Value}
	case *st.AttributeValueMemberBS:
		return &types.AttributeValueMemberBS{Value: v.Value}
	case *st.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = valueOf(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case *st.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: itemOf(v.Value)}
	}
	return &types.AttributeValueMemberNULL{Value: true} // a type this SDK does not know
}

// PartitionKey is the record's partition key as a user types it.
func (s StreamInfo) PartitionKey(r StreamRecord) string {
	return itemcodec.KeyString(r.Keys[s.PK.Name])
}

// SortKey is the record's sort key as a user types it; "" without one.
func (s StreamInfo) SortKey(r StreamRecord) string {
	if s.SK == nil {
		return ""
	}
	return itemcodec.KeyString(r.Keys[s.SK.Name])
}

// StreamNames names the entity types of stream records as the groups of
// their partitions do (keys.SeenNames): a record is one item, so it
// remembers the sort keys it has seen of each partition and names a key as
// the groups of a partition holding those keys name its type. A table
// without a sort key names an item by its partition key's family, as the
// layout does (keys.FamilyEntity).
type StreamNames struct {
	info StreamInfo
	seen *keys.SeenNames
}

// Names starts naming the stream's records; delim "" infers each
// partition's delimiter from its keys seen.
func (s StreamInfo) Names(delim string) *StreamNames {
	kt := ""
	if s.SK != nil {
		kt = s.SK.Type
	}
	return &StreamNames{info: s, seen: keys.NewSeenNames(kt, delim)}
}

// Entity names the record's entity type, and remembers its key.
func (n *StreamNames) Entity(r StreamRecord) string {
	pk := n.info.PartitionKey(r)
	if n.info.SK == nil {
		return keys.FamilyEntity(pk, n.info.PK.Type)
	}
	return n.seen.Name(pk, n.info.SortKey(r))
}

// WithDeclared names the records by the application's declared entities
// first (keys.Declared; nil: by the partitions' keys alone).
func (n *StreamNames) WithDeclared(d keys.Declared) *StreamNames {
	n.seen.WithDeclared(d)
	return n
}

// Undeclared tells whether declarations are in use and the record's key
// matches none: its name is inferred.
func (n *StreamNames) Undeclared(r StreamRecord) bool {
	if n.info.SK == nil {
		return n.seen.Undeclared(n.info.PartitionKey(r), "")
	}
	return n.seen.Undeclared(n.info.PartitionKey(r), n.info.SortKey(r))
}

// Declaring tells whether declarations are in use.
func (n *StreamNames) Declaring() bool { return n.seen.Declaring() }

// Changed lists, in name order, the attributes a MODIFY changed, added or
// removed; nil when the record does not carry both images.
func (r StreamRecord) Changed() []string {
	if r.Old == nil || r.New == nil {
		return nil
	}
	names := []string{}
	for _, n := range slices.Sorted(maps.Keys(union(r.Old, r.New))) {
		o, okO := r.Old[n]
		nw, okN := r.New[n]
		if okO != okN || string(itemcodec.MarshalDynamoValue(o)) != string(itemcodec.MarshalDynamoValue(nw)) {
			names = append(names, n)
		}
	}
	return names
}

func union(a, b Item) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// StreamLine is a record as one line of text, as tail's text output and
// the UI's live pane show it: time, event, entity, key, and what changed
// with the values' DynamoDB types (status: S "OPEN" → S "SHIPPED"). It is
// sanitised: nothing from the table reaches a terminal as a control.
func (s StreamInfo) StreamLine(r StreamRecord, entity string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-6s %-10s %s", r.Time.Format("15:04:05"), r.Event, entity, s.PartitionKey(r))
	if s.SK != nil {
		b.WriteString(" / " + s.SortKey(r))
	}
	if d := s.StreamDiff(r); d != "" {
		b.WriteString("  " + d)
	}
	if r.Service != "" {
		b.WriteString("  (Time to Live)")
	}
	return textfmt.Sanitize(b.String())
}

// StreamDiff is what the record changed, in words: the changed attributes
// of a MODIFY with their types, the attributes of an INSERT or REMOVE, or
// "" when the stream carries keys only.
func (s StreamInfo) StreamDiff(r StreamRecord) string {
	typed := func(av types.AttributeValue) string {
		if av == nil {
			return "(none)"
		}
		return itemcodec.AttributeTypeName(av) + " " + clip(string(itemcodec.MarshalPlainValue(av)), 40)
	}
	var parts []string
	switch {
	case r.Old != nil && r.New != nil:
		for _, n := range r.Changed() {
			parts = append(parts, fmt.Sprintf("%s: %s → %s", n, typed(r.Old[n]), typed(r.New[n])))
		}
	case r.New != nil || r.Old != nil:
		img := r.New
		if img == nil {
			img = r.Old
		}
		for _, n := range slices.Sorted(maps.Keys(img)) {
			if _, key := r.Keys[n]; key {
				continue
			}
			parts = append(parts, n+"="+typed(img[n]))
		}
	}
	return strings.Join(parts, ", ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
