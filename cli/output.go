package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(string(itemcodec.EscapeTerminalJSON(b.Bytes())), "\n")
}

func jsonFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// capacityObject is consumed capacity as the JSON outputs print it.
type capacityObject struct {
	Total   float64            `json:"total"`
	Table   float64            `json:"table"`
	Indexes map[string]float64 `json:"indexes"` // {} rather than null when none
	// unknown: no request reported its capacity, so total and table are
	// null; atLeast: some did not, so the sums are a lower bound
	// ("atLeast": true beside them). Never a 0 the endpoint did not say.
	unknown, atLeast bool
}

// MarshalJSON writes the capacity, null where the endpoint did not report it.
func (o capacityObject) MarshalJSON() ([]byte, error) {
	type plain struct {
		Total   *float64           `json:"total"`
		Table   *float64           `json:"table"`
		Indexes map[string]float64 `json:"indexes"`
		AtLeast bool               `json:"atLeast,omitempty"`
	}
	p := plain{Indexes: o.Indexes, AtLeast: o.atLeast}
	if !o.unknown {
		p.Total, p.Table = &o.Total, &o.Table
	}
	return json.Marshal(p)
}

// rcuText is what requests consumed for text output: "1.5 RCU", "at least
// 1.5 RCU" when some did not report it, "unknown RCU" when none did.
func rcuText(reqs []dynamo.Request) string {
	o := capacityOfRequests(reqs)
	switch {
	case o.unknown:
		return "unknown RCU"
	case o.atLeast:
		return "at least " + jsonFloat(o.Total) + " RCU"
	}
	return jsonFloat(o.Total) + " RCU"
}

// capacityOfRequests sums what the requests consumed, as DynamoDB reported
// it: unknown when none reported it, at least the sum when some did not.
func capacityOfRequests(reqs []dynamo.Request) capacityObject {
	o := newCapacityObject(dynamo.TotalCapacity(reqs))
	if n := unreported(reqs); n > 0 {
		o.unknown, o.atLeast = n == len(reqs), n < len(reqs)
	}
	return o
}

func newCapacityObject(c dynamo.Capacity) capacityObject {
	o := capacityObject{Total: c.Total, Table: c.Table, Indexes: c.Indexes}
	if o.Indexes == nil {
		o.Indexes = map[string]float64{}
	}
	return o
}

// keyObject is a key as a JSON object named by its attributes, partition
// key first: {"PK": "CUST#42", "SK": "ORDER#1"}. encoding/json writes a map's
// keys sorted, which would put a sort key named "A" first.
type keyObject []keyField

type keyField struct {
	name  string
	value json.RawMessage // plain JSON of the key's type
}

func (o keyObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, jsonString(f.name)...)
		b = append(b, ':')
		b = append(b, f.value...)
	}
	return append(b, '}'), nil
}

// queryResult is what `query`, `get` and `patterns run` print of their
// read besides the items: its readDoc. A command fills it as the read
// goes (the key condition from the first page, the counts at the end).
type queryResult struct {
	Table, Index string
	KeyNames     []string // key attributes, shown first in a table
	KeyCondition string
	Forward      bool
	Limit        int32
	Consistent   bool
	Count        int
	Scanned      int // -1: not reported (PartiQL)
	LastKey      dynamo.Item
	Requests     []dynamo.Request
	// Filter and Projection as DynamoDB read them ("" for none).
	Filter, Projection string
	DDBJSON            bool // items and keys as DynamoDB JSON
	// OneMB is what DynamoDB's 1 MB page rule says of the pages.
	OneMB dynamo.OneMB
	// Stop is "max-items" for a read stopped by the AWS CLI's --max-items,
	// NextToken where a read given the AWS CLI's paging flags goes on;
	// "" otherwise, and then the document has neither field.
	Stop, NextToken string
}

// queryHead and queryTail are the object DESIGN.md specifies for query,
// get and patterns run, keys in its order: the fields before "items" and
// those after it.
type queryHead struct {
	Table            string  `json:"table"`
	Index            *string `json:"index"`
	KeyCondition     string  `json:"keyCondition"`
	ScanIndexForward bool    `json:"scanIndexForward"`
	Limit            *int32  `json:"limit"`
	ConsistentRead   bool    `json:"consistentRead"`
}

type queryTail struct {
	Count            int             `json:"count"`
	ScannedCount     int             `json:"scannedCount"`
	Pages            int             `json:"pages"`
	LastEvaluatedKey json.RawMessage `json:"lastEvaluatedKey"`
	ConsumedCapacity capacityObject  `json:"consumedCapacity"`
	Requests         []requestObject `json:"requests"`
	// Filter, Projection and Notes appear only when a filter or a
	// projection was given, so DESIGN.md's object is unchanged otherwise.
	Filter     *string  `json:"filter,omitempty"`
	Projection *string  `json:"projection,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	// DynamoDBPaging appears only when a page read more than one
	// DynamoDB page may (pagingObject).
	DynamoDBPaging *pagingObject `json:"dynamoDBPaging,omitempty"`
	// Stop and NextToken appear only with the AWS CLI's paging flags.
	Stop      string `json:"stop,omitempty"`
	NextToken string `json:"nextToken,omitempty"`
}

type requestObject struct {
	Operation string `json:"operation"`
	// Statement is an ExecuteStatement's PartiQL, so that each request of
	// the log says what it asked.
	Statement  string      `json:"statement,omitempty"`
	DurationMs json.Number `json:"durationMs"` // to 0.1 ms
	Count      int32       `json:"count"`
	// ScannedCount is null for ExecuteStatement, which reports none: never
	// a 0 DynamoDB did not send.
	ScannedCount     *int32         `json:"scannedCount"`
	ConsumedCapacity capacityObject `json:"consumedCapacity"`
}

func (r *queryResult) jsonHead() any {
	h := queryHead{Table: r.Table, Index: nullable(r.Index), KeyCondition: r.KeyCondition, ScanIndexForward: r.Forward, ConsistentRead: r.Consistent}
	if r.Limit > 0 {
		h.Limit = &r.Limit
	}
	return h
}

func (r *queryResult) jsonTail() any {
	t := queryTail{Count: r.Count, ScannedCount: r.Scanned, Pages: len(r.Requests), LastEvaluatedKey: json.RawMessage("null"),
		ConsumedCapacity: capacityOfRequests(r.Requests), Requests: requestObjects(r.Requests)}
	if r.LastKey != nil {
		e := itemcodec.ItemJSON{Dynamo: r.DDBJSON}
		t.LastEvaluatedKey = e.Append(nil, r.LastKey)
	}
	t.Filter, t.Projection = nullable(r.Filter), nullable(r.Projection)
	t.Notes = readNotes(r.Count, r.Scanned, t.ConsumedCapacity.Total, r.Filter, r.Projection)
	t.DynamoDBPaging = newPagingObject(r.OneMB)
	t.Stop, t.NextToken = r.Stop, r.NextToken
	return t
}

// tableTail is the table's lines after its rows: the counts, one line
// per request, the filter and the notes.
func (r *queryResult) tableTail(b *bytes.Buffer) {
	total := dynamo.TotalCapacity(r.Requests)
	scanned := fmt.Sprintf(" (%d scanned)", r.Scanned)
	if r.Scanned < 0 {
		scanned = "" // PartiQL: ExecuteStatement reports no scanned count
	}
	fmt.Fprintf(b, "\n%s%s · %s · %s\n", textfmt.Plural(r.Count, "item", "items"), scanned, textfmt.Plural(len(r.Requests), "request", "requests"), rcuText(r.Requests))
	for _, q := range r.Requests {
		more := ""
		if q.More {
			more = " · more pages"
		}
		fmt.Fprintf(b, "  %s %s: %s, %s, %.1f ms%s\n", q.Operation, textfmt.Sanitize(q.KeyCondition), textfmt.Plural(int(q.Count), "item", "items"), rcuText([]dynamo.Request{q}), float64(q.Duration.Microseconds())/1000, more)
	}
	if r.Filter != "" {
		fmt.Fprintf(b, "filter %s\n", textfmt.Sanitize(r.Filter))
	}
	for _, n := range readNotes(r.Count, r.Scanned, total.Total, r.Filter, r.Projection) {
		fmt.Fprintln(b, textfmt.Sanitize(n))
	}
	if unreported(r.Requests) > 0 {
		fmt.Fprintln(b, noCapacityNote(r.Requests))
	}
	if r.Stop == string(dynamo.StopMaxItems) {
		fmt.Fprintln(b, "stopped at --max-items")
	}
	if r.NextToken != "" {
		fmt.Fprintln(b, "NextToken "+r.NextToken)
	}
}

// printItems prints the items of a read that is over, one page, through
// the format's writer (get, and a GetItem pattern).
func printItems(out readOutput, p dynamo.Page) error {
	w, err := out.open()
	if err != nil {
		return err
	}
	if err := w.page(p); err != nil {
		return err
	}
	return w.end(nil)
}

// requestObjects are the requests as the JSON outputs list them.
func requestObjects(reqs []dynamo.Request) []requestObject {
	out := []requestObject{}
	for _, q := range reqs {
		ms := float64(q.Duration.Microseconds()) / 1000
		o := requestObject{
			Operation: q.Operation, Statement: q.Statement, DurationMs: json.Number(strconv.FormatFloat(ms, 'f', 1, 64)),
			Count: q.Count, ConsumedCapacity: capacityOfRequests([]dynamo.Request{q}),
		}
		if q.Operation != "ExecuteStatement" {
			o.ScannedCount = &q.ScannedCount
		}
		out = append(out, o)
	}
	return out
}
