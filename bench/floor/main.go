// Command floor is the floor a read is measured against: the bare
// aws-sdk-go-v2 Query paginator reading one partition and writing the
// same bytes as `dynascope query --all-pages --output jsonl|json|table`
// (but for the request durations, which no two runs share), with nothing
// of dynascope's: no answer checks, no request log, no cost guard. It is
// what a careful program written straight on the SDK costs, so
// dynascope's CPU per item over the floor's is the price of everything
// dynascope adds (bench/read prints that ratio).
//
// Strings are escaped as encoding/json escapes them without its HTML
// escapes, numbers copied as DynamoDB sends them, attributes in name
// order; terminal escapes are left out (the bench's data holds none).
package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func main() {
	endpoint := flag.String("endpoint", "", "the endpoint to read from")
	table := flag.String("table", "bench", "table")
	pk := flag.String("pk", "BENCH#BIG", "partition key value (the key attribute is PK)")
	output := flag.String("output", "jsonl", "jsonl, json or table")
	flag.Parse()
	if err := run(*endpoint, *table, *pk, *output); err != nil {
		fmt.Fprintln(os.Stderr, "bench/floor: "+err.Error())
		os.Exit(1)
	}
}

// request is one page's record, for the json and table summaries.
type request struct {
	took           time.Duration
	count, scanned int32
	units          float64
	more           bool
}

func run(endpoint, table, pk, output string) error {
	ctx := context.Background()
	api := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
	p := dynamodb.NewQueryPaginator(api, &dynamodb.QueryInput{
		TableName: aws.String(table), KeyConditionExpression: aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": "PK"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
	})
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	keyCond := `PK = "` + pk + `"`
	var reqs []request
	var buf []byte
	var t tableLayout
	items := 0
	if output == "json" {
		w.WriteString("{\n  \"table\": " + string(quote(nil, table)) + ",\n  \"index\": null,\n  \"keyCondition\": " + string(quote(nil, keyCond)) +
			",\n  \"scanIndexForward\": true,\n  \"limit\": null,\n  \"consistentRead\": false,\n  \"items\": [")
	}
	for p.HasMorePages() {
		began := time.Now()
		out, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		r := request{took: time.Since(began), count: out.Count, scanned: out.ScannedCount, more: out.LastEvaluatedKey != nil}
		if out.ConsumedCapacity != nil {
			r.units = aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
		}
		reqs = append(reqs, r)
		switch output {
		case "jsonl":
			for _, it := range out.Items {
				buf = append(object(buf[:0], it, -1), '\n')
				w.Write(buf)
			}
		case "json":
			for _, it := range out.Items {
				buf = buf[:0]
				if items > 0 {
					buf = append(buf, ',')
				}
				buf = object(append(buf, "\n    "...), it, 2)
				w.Write(buf)
				items++
			}
		case "table":
			t.page(w, out.Items)
		default:
			return fmt.Errorf("-output takes jsonl, json or table, not %q", output)
		}
	}
	switch output {
	case "json":
		writeJSONTail(w, items, reqs)
	case "table":
		writeTableTail(w, keyCond, reqs)
	}
	return w.Flush()
}

func total(reqs []request) (float64, int) {
	u, n := 0.0, 0
	for _, r := range reqs {
		u += r.units
		n += int(r.count)
	}
	return u, n
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func capacity(indent string, u float64) string {
	return "{\n" + indent + "  \"total\": " + num(u) + ",\n" + indent + "  \"table\": " + num(u) + ",\n" + indent + "  \"indexes\": {}\n" + indent + "}"
}

func writeJSONTail(w *bufio.Writer, items int, reqs []request) {
	if items > 0 {
		w.WriteString("\n  ")
	}
	u, n := total(reqs)
	fmt.Fprintf(w, "],\n  \"count\": %d,\n  \"scannedCount\": %d,\n  \"pages\": %d,\n  \"lastEvaluatedKey\": null,\n  \"consumedCapacity\": %s,\n  \"requests\": [",
		n, n, len(reqs), capacity("  ", u))
	for i, r := range reqs {
		if i > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, "\n    {\n      \"operation\": \"Query\",\n      \"durationMs\": %.1f,\n      \"count\": %d,\n      \"scannedCount\": %d,\n      \"consumedCapacity\": %s\n    }",
			float64(r.took.Microseconds())/1000, r.count, r.scanned, capacity("      ", r.units))
	}
	if len(reqs) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("]\n}\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func writeTableTail(w *bufio.Writer, keyCond string, reqs []request) {
	u, n := total(reqs)
	fmt.Fprintf(w, "\n%s (%d scanned) · %s · %s RCU\n", plural(n, "item", "items"), n, plural(len(reqs), "request", "requests"), num(u))
	for _, r := range reqs {
		more := ""
		if r.more {
			more = " · more pages"
		}
		fmt.Fprintf(w, "  Query %s: %s, %s RCU, %.1f ms%s\n", keyCond, plural(int(r.count), "item", "items"), num(r.units), float64(r.took.Microseconds())/1000, more)
	}
}

// tableLayout aligns the table as the first page sets it: the key
// attributes first, then the others in name order, each column as wide as
// its widest cell there and two spaces.
type tableLayout struct {
	cols   []string
	widths []int
	line   []byte
}

func cellOf(av types.AttributeValue) string {
	var s string
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		s = v.Value
	case *types.AttributeValueMemberN:
		s = v.Value
	default:
		s = string(value(nil, av, -1))
	}
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:59]) + "…"
	}
	return s
}

func (t *tableLayout) page(w *bufio.Writer, items []map[string]types.AttributeValue) {
	if len(items) == 0 {
		return
	}
	if t.cols == nil {
		seen := map[string]bool{"PK": true, "SK": true}
		var rest []string
		for _, it := range items {
			for k := range it {
				if !seen[k] {
					seen[k] = true
					rest = append(rest, k)
				}
			}
		}
		slices.Sort(rest)
		t.cols = append([]string{"PK", "SK"}, rest...)
		for _, c := range t.cols {
			width := len(c)
			for _, it := range items {
				if av, ok := it[c]; ok {
					width = max(width, utf8.RuneCountInString(cellOf(av)))
				}
			}
			t.widths = append(t.widths, width)
		}
		t.write(w, t.cols)
	}
	cells := make([]string, len(t.cols))
	for _, it := range items {
		for j, c := range t.cols {
			cells[j] = ""
			if av, ok := it[c]; ok {
				cells[j] = cellOf(av)
			}
		}
		t.write(w, cells)
	}
}

func (t *tableLayout) write(w *bufio.Writer, cells []string) {
	t.line = t.line[:0]
	for j, c := range cells {
		t.line = append(t.line, c...)
		if j < len(cells)-1 {
			t.line = append(t.line, strings.Repeat(" ", max(t.widths[j]-utf8.RuneCountInString(c), 0)+2)...)
		}
	}
	w.Write(append(t.line, '\n'))
}

// newline starts a line at depth levels of two spaces; depth < 0 writes
// compact JSON.
func newline(b []byte, depth int) []byte {
	if depth < 0 {
		return b
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

func object(b []byte, m map[string]types.AttributeValue, depth int) []byte {
	if len(m) == 0 {
		return append(b, "{}"...)
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	inner := depth + 1
	if depth < 0 {
		inner = -1
	}
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = quote(newline(b, inner), k)
		b = append(b, ':')
		if depth >= 0 {
			b = append(b, ' ')
		}
		b = value(b, m[k], inner)
	}
	return append(newline(b, depth), '}')
}

func value(b []byte, av types.AttributeValue, depth int) []byte {
	inner := depth + 1
	if depth < 0 {
		inner = -1
	}
	list := func(n int, each func(b []byte, i int) []byte) []byte {
		if n == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = each(newline(b, inner), i)
		}
		return append(newline(b, depth), ']')
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return quote(b, v.Value)
	case *types.AttributeValueMemberN:
		return append(b, v.Value...)
	case *types.AttributeValueMemberB:
		return append(base64.StdEncoding.AppendEncode(append(b, '"'), v.Value), '"')
	case *types.AttributeValueMemberBOOL:
		return strconv.AppendBool(b, v.Value)
	case *types.AttributeValueMemberNULL:
		return append(b, "null"...)
	case *types.AttributeValueMemberM:
		return object(b, v.Value, depth)
	case *types.AttributeValueMemberL:
		return list(len(v.Value), func(b []byte, i int) []byte { return value(b, v.Value[i], inner) })
	case *types.AttributeValueMemberSS:
		return list(len(v.Value), func(b []byte, i int) []byte { return quote(b, v.Value[i]) })
	case *types.AttributeValueMemberNS:
		return list(len(v.Value), func(b []byte, i int) []byte { return append(b, v.Value[i]...) })
	case *types.AttributeValueMemberBS:
		return list(len(v.Value), func(b []byte, i int) []byte {
			return append(base64.StdEncoding.AppendEncode(append(b, '"'), v.Value[i]), '"')
		})
	}
	return append(b, "null"...)
}

// quote writes s as encoding/json writes a string without HTML escapes.
func quote(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}
