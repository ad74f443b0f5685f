package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/ui"
)

// printResult writes a query result in the chosen format. JSON output is
// exact (JSON escaping, exact number digits); only the table format, meant
// for a terminal, is sanitised.
func printResult(w io.Writer, r queryResult, format string, ddbJSON bool) error {
	item := dynamo.PlainJSON
	if ddbJSON {
		item = dynamo.DynamoJSON
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
		writeJSON(&b, r, item)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(string(dynamo.EscapeTerminalJSON(b.Bytes())), "\n")
}

func jsonFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func capacityJSON(c dynamo.Capacity) string {
	names := make([]string, 0, len(c.Indexes))
	for n := range c.Indexes {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = jsonString(n) + ": " + jsonFloat(c.Indexes[n])
	}
	return fmt.Sprintf(`{"total": %s, "table": %s, "indexes": {%s}}`, jsonFloat(c.Total), jsonFloat(c.Table), strings.Join(parts, ", "))
}

// writeJSON prints the object DESIGN.md specifies, keys in its order.
func writeJSON(b *bytes.Buffer, r queryResult, item func(dynamo.Item) []byte) {
	nullable := func(s string) string {
		if s == "" {
			return "null"
		}
		return jsonString(s)
	}
	fmt.Fprintf(b, "{\n  \"table\": %s,\n  \"index\": %s,\n", jsonString(r.Table), nullable(r.Index))
	fmt.Fprintf(b, "  \"keyCondition\": %s,\n", jsonString(r.KeyCondition))
	limit := "null"
	if r.Limit > 0 {
		limit = strconv.Itoa(int(r.Limit))
	}
	fmt.Fprintf(b, "  \"scanIndexForward\": %t,\n  \"limit\": %s,\n  \"consistentRead\": %t,\n", r.Forward, limit, r.Consistent)
	b.WriteString("  \"items\": [")
	for i, it := range r.Items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(item(it))
	}
	if len(r.Items) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n")
	lek := "null"
	if r.LastKey != nil {
		lek = string(item(r.LastKey))
	}
	fmt.Fprintf(b, "  \"count\": %d,\n  \"scannedCount\": %d,\n  \"pages\": %d,\n  \"lastEvaluatedKey\": %s,\n", r.Count, r.Scanned, len(r.Requests), lek)
	fmt.Fprintf(b, "  \"consumedCapacity\": %s,\n  \"requests\": [", capacityJSON(r.capacity()))
	for i, q := range r.Requests {
		if i > 0 {
			b.WriteByte(',')
		}
		ms := float64(q.Duration.Microseconds()) / 1000
		fmt.Fprintf(b, "\n    {\"operation\": %s, \"durationMs\": %s, \"count\": %d, \"scannedCount\": %d, \"consumedCapacity\": %s}",
			jsonString(q.Operation), strconv.FormatFloat(ms, 'f', 1, 64), q.Count, q.ScannedCount, capacityJSON(q.Capacity))
	}
	if len(r.Requests) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
}

// writeTable prints items for a human: key attributes first, then the other
// attributes, values compact and sanitised, then one line per request.
func writeTable(b *bytes.Buffer, r queryResult) {
	if len(r.Items) > 0 {
		cols := columns(r.Items, r.KeyNames)
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(sanitizeAll(cols), "\t"))
		for _, it := range r.Items {
			cells := make([]string, len(cols))
			for i, c := range cols {
				if av, ok := it[c]; ok {
					cells[i] = cell(cellText(av), 60)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		_ = tw.Flush()
	}
	total := r.capacity()
	fmt.Fprintf(b, "\n%s (%d scanned) · %s · %s RCU\n", ui.Plural(r.Count, "item", "items"), r.Scanned, ui.Plural(len(r.Requests), "request", "requests"), jsonFloat(total.Total))
	for _, q := range r.Requests {
		more := ""
		if q.More {
			more = " · more pages"
		}
		fmt.Fprintf(b, "  %s %s: %s, %s RCU, %.1f ms%s\n", q.Operation, ui.Sanitize(q.KeyCondition), ui.Plural(int(q.Count), "item", "items"), jsonFloat(q.Capacity.Total), float64(q.Duration.Microseconds())/1000, more)
	}
}

// cellText shows strings bare and everything else as plain JSON.
func cellText(av types.AttributeValue) string {
	if sv, ok := av.(*types.AttributeValueMemberS); ok {
		return sv.Value
	}
	return string(dynamo.MarshalPlainValue(av))
}

// cell shortens a value to at most max runes and makes it safe to print.
func cell(s string, max int) string {
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return ui.Sanitize(s)
}

// columns lists attribute names: the key attributes first, then the rest
// alphabetically.
func columns(items []dynamo.Item, keyNames []string) []string {
	seen := map[string]bool{}
	for _, it := range items {
		for k := range it {
			seen[k] = true
		}
	}
	var cols []string
	for _, k := range keyNames {
		if seen[k] {
			cols = append(cols, k)
			delete(seen, k)
		}
	}
	rest := make([]string, 0, len(seen))
	for k := range seen {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	return append(cols, rest...)
}

func sanitizeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = ui.Sanitize(s)
	}
	return out
}
