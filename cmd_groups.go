package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"dynascope/dynamo"
	"dynascope/ui"
)

// cmdGroups prints the entity types of one partition, found by skip-scan.
func cmdGroups(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, conn := newFlags("groups", stderr)
	pk := fs.String("pk", "", "partition key value (required)")
	index := fs.String("index", "", "look in this secondary index")
	delim := fs.String("delimiter", "", "sort-key delimiter (default: inferred: # | : /)")
	count := fs.Bool("count", false, "count each type exactly (reads every item of the partition)")
	reverse := fs.Bool("reverse", false, "walk from the last type to the first")
	consistent := fs.Bool("consistent", false, "strongly consistent reads")
	output := fs.String("output", "json", "json | table")
	maxReqs := fs.Int("max-requests", 0, fmt.Sprintf("stop the skip-scan after this many requests (default: the settings file's skipScanMaxRequests, else %d)", dynamo.DefaultSkipScanRequests))
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := conn.RequireTable("groups"); err != nil {
		return usageError{err.Error()}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["pk"] {
		return usageError{"groups needs a partition key value: pass --pk VALUE."}
	}
	if *output != "json" && *output != "table" {
		return usageError{fmt.Sprintf("--output must be json or table, not %q.", *output)}
	}
	client, settings, err := connectWithSettings(ctx, conn)
	if err != nil {
		return err
	}
	if *count {
		announceWholeRead(ctx, client, stderr, conn.Table, *index, *consistent, "--count reads every item of the partition")
	}
	if set["max-requests"] && *maxReqs < 1 {
		return usageError{fmt.Sprintf("--max-requests must be 1 or more, not %d.", *maxReqs)}
	}
	budget := dynamo.Budget{MaxRequests: settings.SkipScanMaxRequests}
	if set["max-requests"] {
		budget.MaxRequests = *maxReqs
	}
	d, err := client.Discover(ctx, dynamo.DiscoverInput{
		Table: conn.Table, Index: *index, PK: *pk, Delimiter: *delim,
		Reverse: *reverse, Consistent: *consistent, Count: *count, Budget: budget,
	})
	if err != nil && len(d.Groups) == 0 {
		return err
	}
	// A walk or count that failed or was cancelled still prints the types
	// it found (a type whose count did not finish has none), then reports
	// the failure: the exit code says the result is incomplete.
	t, kerr := client.TableKeys(ctx, conn.Table) // the keys Discover walked with
	if kerr != nil {
		return errors.Join(err, kerr)
	}
	ks, _ := t.Schema(*index)
	var b bytes.Buffer
	if *output == "table" {
		writeGroupsText(&b, d)
	} else {
		writeGroupsJSON(&b, conn.Table, *index, ks, *pk, d)
	}
	if _, werr := stdout.Write(b.Bytes()); werr != nil {
		return werr
	}
	return err
}

func writeGroupsJSON(b *bytes.Buffer, table, index string, ks dynamo.KeySchema, pk string, d dynamo.Discovery) {
	idx := "null"
	if index != "" {
		idx = jsonString(index)
	}
	pkv, _ := dynamo.KeyValue(ks.PK, "partition key", pk)
	delim := "null"
	if d.Delimiter != "" {
		delim = jsonString(d.Delimiter)
	}
	fmt.Fprintf(b, "{\n  \"table\": %s, \"index\": %s, \"partition\": {%s: %s}, \"delimiter\": %s,\n  \"groups\": [",
		jsonString(table), idx, jsonString(ks.PK.Name), dynamo.MarshalPlainValue(pkv), delim)
	for i, g := range d.Groups {
		if i > 0 {
			b.WriteByte(',')
		}
		count := "null"
		if g.Count >= 0 {
			count = strconv.Itoa(g.Count)
		}
		fmt.Fprintf(b, "\n    {\"entity\": %s, \"prefix\": %s, \"kind\": %s, \"count\": %s, \"first\": %s, \"last\": %s}",
			jsonString(g.Entity), jsonString(g.Prefix), jsonString(string(g.Kind)), count, jsonKey(d.KeyType, g.First), jsonKey(d.KeyType, g.Last))
	}
	if len(d.Groups) > 0 {
		b.WriteString("\n  ")
	}
	cont := "null"
	if d.Partial {
		cont = fmt.Sprintf("{\"condition\": %s, \"key\": %s}", jsonString(continueOp(d.Continue)), jsonKey(d.KeyType, continueKey(d.Continue)))
	}
	fmt.Fprintf(b, "],\n  \"complete\": %t, \"continue\": %s,\n  \"requests\": %d, \"consumedCapacity\": %s\n}\n",
		!d.Partial, cont, len(d.Requests), capacityJSON(d.Capacity()))
}

// jsonKey prints a sort-key value as plain JSON: numbers bare with their
// exact digits, strings and base64 binary quoted.
func jsonKey(keyType, v string) string {
	if keyType == "N" {
		return v
	}
	return jsonString(v)
}

func writeGroupsText(b *bytes.Buffer, d dynamo.Discovery) {
	if len(d.Groups) == 0 {
		b.WriteString("no items in this partition\n")
	} else {
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ENTITY\tPREFIX\tCOUNT\tFIRST\tLAST")
		for _, g := range d.Groups {
			count := "-"
			if g.Count >= 0 {
				count = strconv.Itoa(g.Count)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", ui.Sanitize(g.Entity), ui.Sanitize(g.Prefix), count, cell(g.First, 40), cell(g.Last, 40))
		}
		_ = tw.Flush()
	}
	if d.Partial {
		fmt.Fprintf(b, "\nthe skip-scan budget ran out: more types may follow from SK %s %s (--max-requests raises it)\n",
			continueOp(d.Continue), ui.Sanitize(strconv.Quote(continueKey(d.Continue))))
	}
	fmt.Fprintf(b, "\n%s · %s RCU\n", ui.Plural(len(d.Requests), "request", "requests"), jsonFloat(d.Capacity().Total))
}

// continueOp and continueKey spell where an unfinished skip-scan would go
// on: the operator and key of its next condition ("" for the start).
func continueOp(c dynamo.SKCond) string {
	switch c.Op {
	case dynamo.SKGe:
		return ">="
	case dynamo.SKGt:
		return ">"
	case dynamo.SKLt:
		return "<"
	}
	return ""
}

func continueKey(c dynamo.SKCond) string {
	if len(c.Values) == 0 {
		return ""
	}
	return c.Values[0]
}
