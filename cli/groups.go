package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/textfmt"
)

// groupsOptions are the flag values of `dynascope groups`.
type groupsOptions struct {
	ConnectSettings func(context.Context) (*dynamo.Client, config.Settings, error)
	Out, Err        io.Writer
	In              dynamo.DiscoverInput // the table, index, partition and walk as given
	MaxRequests     int                  // --max-requests; 0 when not given: the settings' budget
	MaxRCU          float64              // --max-rcu: the cap of a whole read (--count, --by attribute); 0 for none
	ByAttribute     string               // --by attribute:NAME's NAME; "" for the sort key
	Patterns        string               // --patterns: the entities that name the types; "" for dynascope.yaml of the table
	Models          string               // --models: the entities from the application's models instead
	Output          string               // json | table
}

// newGroupsCmd prints the entity types of one partition, found by skip-scan.
func newGroupsCmd(f *factory, runF func(context.Context, *groupsOptions) error) *cobra.Command {
	conn := f.Conn
	opts := &groupsOptions{ConnectSettings: f.ConnectSettings}
	cmd := &cobra.Command{
		Use:     "groups --table NAME --pk VALUE",
		Short:   "the entity types of a partition (skip-scan)",
		GroupID: groupExplore,
		Long: `List the entity types of one partition (ORDER, PROFILE, ...) by their
sort-key prefix. The first request reads the partition's first items
(about one read unit of the table's average item); when they are the
whole partition, that is the only request. A bigger partition's other
types are found by skip-scan from where that page ended: about one
Limit 1 query per type within a budget of requests (--max-requests),
not a read of the whole partition. --count reads the whole partition
once, page by page, and groups and counts what it read.

--by attribute:NAME groups by an attribute's value instead (EntityType,
type, __typename, ...): it reads the whole partition once, its bound
said first. Without --by, a note names such an attribute when every item
of the first page has one with few values.

With entities declared (--patterns FILE, or dynascope.yaml here when its
table: is the table), a type whose keys all match one declaration takes
its name; any other keeps its inferred name, marked ~ (JSON: "declared":
false).`,
		Example: `  dynascope groups --table App --pk 'CUST#42'
  dynascope groups --table App --pk 'CUST#42' --count --output table
  dynascope groups --table App --index GSI1 --pk 'WH#1'
  dynascope groups --table Shop --pk 'o#12345' --by attribute:EntityType`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.In.PK, "pk", "", "partition key `VALUE` (required)")
	fs.StringVar(&opts.In.Index, "index", "", "look in this secondary `INDEX`")
	fs.StringVar(&opts.In.Delimiter, "delimiter", "", "sort-key `DELIMITER` (default: inferred from the sort keys, one of "+delimiterList()+")")
	fs.BoolVar(&opts.In.Count, "count", false, "count each type exactly (reads every item of the partition)")
	fs.BoolVar(&opts.In.Reverse, "reverse", false, "walk from the last type to the first")
	fs.BoolVar(&opts.In.Consistent, "consistent", false, "strongly consistent reads")
	documentOutputFlag(cmd, &opts.Output, "json", "", "json", "table")
	fs.Var(&byValue{&opts.ByAttribute}, "by", "group by `WHAT`: sk (the sort key's types) | attribute:NAME (an attribute's values; reads the whole partition)")
	readCapFlag(fs, &opts.MaxRCU)
	entitiesFlag(cmd, &opts.Patterns, &opts.Models)
	fs.IntVar(&opts.MaxRequests, "max-requests", 0, fmt.Sprintf("stop the skip-scan after `N` requests (default: the settings file's skipScanMaxRequests, else %d)", dynamo.DefaultSkipScanRequests))
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.RegisterFlagCompletionFunc("by", fixedChoices(byChoices()...))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := conn.RequireTable("groups"); err != nil {
			return usageError{err.Error()}
		}
		if !fs.Changed("pk") {
			return usageError{"groups needs a partition key value: pass --pk VALUE."}
		}
		if attr := opts.ByAttribute; attr != "" {
			// A grouping by attribute reads the whole partition and counts it;
			// these flags shape the sort-key grouping only.
			for _, f := range []string{"count", "delimiter", "max-requests"} {
				if fs.Changed(f) {
					return usageError{fmt.Sprintf("--%s is for the sort-key grouping; --by attribute:%s reads and counts the whole partition without it.", f, attr)}
				}
			}
		}
		if fs.Changed("max-rcu") && !opts.In.Count && opts.ByAttribute == "" {
			return usageError{"--max-rcu caps a whole read: give it with --count or --by attribute:NAME (the skip-scan's budget is --max-requests)."}
		}
		// Not given, MaxRequests stays 0: the settings' budget.
		if fs.Changed("max-requests") && opts.MaxRequests < 1 {
			return usageError{fmt.Sprintf("--max-requests must be 1 or more, not %d.", opts.MaxRequests)}
		}
		opts.In.Table, opts.Out, opts.Err = conn.Table, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runGroups(cmd.Context(), opts)
	}
	return cmd
}

// runGroups finds the partition's entity types and prints them; with
// --by attribute:NAME, it groups by that attribute instead.
func runGroups(ctx context.Context, opts *groupsOptions) error {
	if opts.ByAttribute != "" {
		return runGroupsByAttribute(ctx, opts)
	}
	in := opts.In // the request, its bound and budget added below
	client, settings, err := opts.ConnectSettings(ctx)
	if err != nil {
		return err
	}
	if in.Count {
		// Counting clearly past the announced bound stops, as a query does.
		announceWholeRead(ctx, client, opts.Err, &in, opts.MaxRCU, "--count reads every item of the partition")
	}
	set, err := declaredEntities(ctx, opts.Patterns, opts.Models, in.Table, func() (dynamo.Table, error) { return client.TableKeys(ctx, in.Table) })
	if err != nil {
		return err
	}
	if set != nil {
		t, _ := client.TableKeys(ctx, in.Table) // read just now
		ks, err := t.Schema(in.Index)
		if err != nil {
			return err
		}
		in.Declared = declaredNamer(set, ks)
	}
	in.Budget = dynamo.Budget{MaxRequests: settings.SkipScanMaxRequests}
	if opts.MaxRequests != 0 {
		in.Budget.MaxRequests = opts.MaxRequests
	}
	stopShowing := showArrivals(&in, opts.Err)
	d, err := client.Discover(ctx, in)
	stopShowing()
	// A read stopped by its bound (the estimate, the cap) prints what it
	// read, even nothing: its sentence says so.
	if err != nil && len(d.Groups) == 0 && !stoppedByBound(err) {
		return err
	}
	// A walk or count that failed or was cancelled still prints the types
	// it found (a type whose count did not finish has none), marked
	// incomplete, then reports the failure: the exit code says so too.
	t, kerr := client.TableKeys(ctx, in.Table) // the keys Discover walked with
	if kerr != nil {
		return errors.Join(err, kerr)
	}
	ks, _ := t.Schema(in.Index)
	var b bytes.Buffer
	if opts.Output == "table" {
		writeGroupsText(&b, d, err != nil)
	} else {
		if jerr := writeGroupsJSON(&b, in.Table, in.Index, ks, in.PK, d, err != nil); jerr != nil {
			return jerr
		}
	}
	if _, werr := opts.Out.Write(b.Bytes()); werr != nil {
		return werr
	}
	io.WriteString(opts.Err, entityAttributeNote(d.EntityAttribute))
	return err
}

// showArrivals names on a terminal's stderr, on one line, each type the
// skip-scan finds as it finds it (its two halves find them from both ends),
// until the returned func clears the line for the result. Nothing is shown
// on a pipe or a file: the result is the output.
func showArrivals(in *dynamo.DiscoverInput, stderr io.Writer) func() {
	if !isTerminal(stderr) || in.Count {
		return func() {}
	}
	found := 0
	in.OnGroup = func(g keys.Group) { // calls never overlap
		found++
		name := []rune(textfmt.Sanitize(g.Entity))
		if len(name) > 40 {
			name = append(name[:39], '…')
		}
		fmt.Fprintf(stderr, "\r\x1b[Kskip-scan: %s found, the latest %s", textfmt.Plural(found, "type", "types"), string(name))
	}
	return func() {
		if found > 0 {
			io.WriteString(stderr, "\r\x1b[K")
		}
	}
}

// groupsObject is the object DESIGN.md specifies for groups, keys in its
// order.
type groupsObject struct {
	Table            string          `json:"table"`
	Index            *string         `json:"index"`
	Partition        keyObject       `json:"partition"`
	Delimiter        *string         `json:"delimiter"`
	Groups           []groupObject   `json:"groups"`
	Complete         bool            `json:"complete"`
	Continue         *continueObject `json:"continue"`       // null when complete
	Note             string          `json:"note,omitempty"` // where the skip-scan could not jump letter-led ids
	Requests         int             `json:"requests"`
	ConsumedCapacity capacityObject  `json:"consumedCapacity"`
}

type groupObject struct {
	Entity   string          `json:"entity"`
	Declared *bool           `json:"declared,omitempty"` // with declared entities: whether one named it
	Prefix   string          `json:"prefix"`
	Kind     string          `json:"kind"`
	Count    *int            `json:"count"` // null unless --count
	First    json.RawMessage `json:"first"`
	Last     json.RawMessage `json:"last"`
}

type continueObject struct {
	Condition string          `json:"condition"`
	Key       json.RawMessage `json:"key"`
	// Until: where the types found from the partition's other end begin
	// (the walk's halves did not meet); null when none were.
	Until *continueObject `json:"until,omitempty"`
}

// writeGroupsJSON prints d; stopped says the walk or a count ended early
// (an error, Ctrl-C): then "complete" is false, with a "continue" only
// where the budget ran out.
func writeGroupsJSON(b *bytes.Buffer, table, index string, ks dynamo.KeySchema, pk string, d dynamo.Discovery, stopped bool) error {
	pkv, _ := dynamo.KeyValue(ks.PK, "partition key", pk)
	o := groupsObject{
		Table: table, Index: nullable(index), Delimiter: nullable(d.Delimiter),
		Partition: keyObject{{ks.PK.Name, itemcodec.MarshalPlainValue(pkv)}},
		Groups:    []groupObject{}, Complete: !d.Partial && !stopped,
		Requests: len(d.Requests), ConsumedCapacity: capacityOfRequests(d.Requests),
	}
	for _, g := range d.Groups {
		gj := groupObject{
			Entity: g.Entity, Declared: declaredFlag(g), Prefix: g.Prefix, Kind: string(g.Kind),
			First: endKey(d.KeyType, g.First), Last: endKey(d.KeyType, g.Last),
		}
		if ks.SK == nil { // the partition's one item: no sort key to name
			gj.First, gj.Last = json.RawMessage("null"), json.RawMessage("null")
		}
		o.Groups = append(o.Groups, gj)
		if g.Count >= 0 {
			o.Groups[len(o.Groups)-1].Count = &g.Count
		}
	}
	o.Note = d.SteppedNote()
	if d.Partial {
		o.Continue = &continueObject{Condition: continueOp(d.Continue), Key: jsonKey(d.KeyType, continueKey(d.Continue))}
		if d.Until.Op != dynamo.SKNone {
			o.Continue.Until = &continueObject{Condition: continueOp(d.Until), Key: jsonKey(d.KeyType, continueKey(d.Until))}
		}
	}
	return writeIndentedJSON(b, o)
}

// jsonKey prints a sort-key value as plain JSON: numbers bare with their
// exact digits (quoted when the text is no number, as item JSON does),
// strings and base64 binary quoted.
func jsonKey(keyType, v string) json.RawMessage {
	if keyType == "N" {
		return itemcodec.MarshalPlainValue(&types.AttributeValueMemberN{Value: v})
	}
	return json.RawMessage(jsonString(v))
}

func writeGroupsText(b *bytes.Buffer, d dynamo.Discovery, stopped bool) {
	if len(d.Groups) == 0 {
		b.WriteString("no items in this partition\n")
	} else {
		tw := newColumns(b)
		fmt.Fprintln(tw, "ENTITY\tPREFIX\tCOUNT\tFIRST\tLAST")
		for _, g := range d.Groups {
			count := "-"
			if g.Count >= 0 {
				count = strconv.Itoa(g.Count)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", textfmt.Sanitize(g.Marked()), textfmt.Sanitize(g.Prefix), count, endCell(g.First), endCell(g.Last))
		}
		_ = tw.Flush()
	}
	if d.Partial {
		until := ""
		if d.Until.Op != dynamo.SKNone {
			until = fmt.Sprintf(" to SK %s %s", continueOp(d.Until), textfmt.Sanitize(strconv.Quote(continueKey(d.Until))))
		}
		fmt.Fprintf(b, "\nthe skip-scan budget ran out: more types may follow from SK %s %s%s (--max-requests raises it)\n",
			continueOp(d.Continue), textfmt.Sanitize(strconv.Quote(continueKey(d.Continue))), until)
	}
	if n := d.SteppedNote(); n != "" {
		b.WriteString("\nnote: " + n + "\n")
	}
	if stopped {
		b.WriteString("\nincomplete: stopped before the end (why follows); a type with no count was not counted to its end\n")
	}
	fmt.Fprintf(b, "\n%s · %s\n", textfmt.Plural(len(d.Requests), "request", "requests"), rcuText(d.Requests))
}

// endKey is a type's first or last key in groups' JSON: null for one the
// skip-scan did not read (no key is empty).
func endKey(keyType, v string) json.RawMessage {
	if v == "" {
		return json.RawMessage("null")
	}
	return jsonKey(keyType, v)
}

// endCell is a type's first or last key in groups' text: "-" for one the
// skip-scan did not read (it jumps past a prefix type's other keys; no
// key is empty), as COUNT says "-" for a type not counted.
func endCell(k string) string {
	if k == "" {
		return "-"
	}
	return cell(k, 40)
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

// stoppedByBound tells a whole read stopped by the bound it announced (an
// estimate overrun, its --max-rcu cap) from one that failed: the first
// prints what it read, even nothing, marked incomplete.
func stoppedByBound(err error) bool {
	var overrun *dynamo.EstimateError
	var capped *dynamo.CapError
	return errors.As(err, &overrun) || errors.As(err, &capped)
}
