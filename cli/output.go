package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
)

// printResult writes a query result in the chosen format. JSON output is
// exact (JSON escaping, exact number digits); only the table format, meant
// for a terminal, is sanitised.
func printResult(w io.Writer, r queryResult, format string, ddbJSON bool) error {
	item := itemcodec.PlainJSON
	if ddbJSON {
		item = itemcodec.DynamoJSON
	}
	var b bytes.Buffer
	switch format {
	case "jsonl":
		for _, it := range r.Items {
			b.Write(item(it))
			b.WriteByte('\n')
		}
	case "table":
		writeTable(&b, r)
	default:
		if err := writeJSON(&b, r, item); err != nil {
			return err
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

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

// queryObject is the object DESIGN.md specifies for query, get and
// patterns run, keys in its order. Items are already JSON (plain or
// DynamoDB JSON, numbers with their exact digits).
type queryObject struct {
	Table            string            `json:"table"`
	Index            *string           `json:"index"`
	KeyCondition     string            `json:"keyCondition"`
	ScanIndexForward bool              `json:"scanIndexForward"`
	Limit            *int32            `json:"limit"`
	ConsistentRead   bool              `json:"consistentRead"`
	Items            []json.RawMessage `json:"items"`
	Count            int               `json:"count"`
	ScannedCount     int               `json:"scannedCount"`
	Pages            int               `json:"pages"`
	LastEvaluatedKey json.RawMessage   `json:"lastEvaluatedKey"`
	ConsumedCapacity capacityObject    `json:"consumedCapacity"`
	Requests         []requestObject   `json:"requests"`
	// Filter, Projection and Notes appear only when a filter or a
	// projection was given, so DESIGN.md's object is unchanged otherwise.
	Filter     *string  `json:"filter,omitempty"`
	Projection *string  `json:"projection,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	// DynamoDBPaging appears only when a page read more than one
	// DynamoDB page may (pagingObject).
	DynamoDBPaging *pagingObject `json:"dynamoDBPaging,omitempty"`
}

type requestObject struct {
	Operation        string         `json:"operation"`
	DurationMs       json.Number    `json:"durationMs"` // to 0.1 ms
	Count            int32          `json:"count"`
	ScannedCount     int32          `json:"scannedCount"`
	ConsumedCapacity capacityObject `json:"consumedCapacity"`
}

// writeJSON prints the query object as indented JSON.
func writeJSON(b *bytes.Buffer, r queryResult, item func(dynamo.Item) []byte) error {
	o := queryObject{
		Table: r.Table, Index: nullable(r.Index), KeyCondition: r.KeyCondition, ScanIndexForward: r.Forward,
		ConsistentRead: r.Consistent, Items: []json.RawMessage{}, Count: r.Count, ScannedCount: r.Scanned,
		Pages: len(r.Requests), LastEvaluatedKey: json.RawMessage("null"),
		ConsumedCapacity: capacityOfRequests(r.Requests), Requests: []requestObject{},
	}
	if r.Limit > 0 {
		o.Limit = &r.Limit
	}
	o.Filter, o.Projection = nullable(r.Filter), nullable(r.Projection)
	o.Notes = readNotes(r.Count, r.Scanned, o.ConsumedCapacity.Total, r.Filter, r.Projection)
	for _, it := range r.Items {
		o.Items = append(o.Items, item(it))
	}
	if r.LastKey != nil {
		o.LastEvaluatedKey = item(r.LastKey)
	}
	o.Requests = requestObjects(r.Requests)
	o.DynamoDBPaging = newPagingObject(r.OneMB)
	return writeIndentedJSON(b, o)
}

// requestObjects are the requests as the JSON outputs list them.
func requestObjects(reqs []dynamo.Request) []requestObject {
	out := []requestObject{}
	for _, q := range reqs {
		ms := float64(q.Duration.Microseconds()) / 1000
		out = append(out, requestObject{
			Operation: q.Operation, DurationMs: json.Number(strconv.FormatFloat(ms, 'f', 1, 64)),
			Count: q.Count, ScannedCount: q.ScannedCount, ConsumedCapacity: capacityOfRequests([]dynamo.Request{q}),
		})
	}
	return out
}

// writeTable prints items for a human: key attributes first, then the other
// attributes, values compact and sanitised, then one line per request.
func writeTable(b *bytes.Buffer, r queryResult) {
	if len(r.Items) > 0 {
		names := map[string]bool{}
		for _, it := range r.Items {
			for k := range it {
				names[k] = true
			}
		}
		cols := itemcodec.CSVColumns(names, r.KeyNames)
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(sanitizeAll(cols), "\t"))
		for _, it := range r.Items {
			cells := make([]string, len(cols))
			for i, c := range cols {
				if av, ok := it[c]; ok {
					cells[i] = cell(itemcodec.CellText(av), 60)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		_ = tw.Flush()
	}
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
}

// cell shortens a value to at most max runes and makes it safe to print.
func cell(s string, max int) string {
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return textfmt.Sanitize(s)
}

func sanitizeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = textfmt.Sanitize(s)
	}
	return out
}
