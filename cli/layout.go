package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/textfmt"
)

// layoutJSON is what `dynascope layout --output json` prints. Key values are
// plain JSON of their type (numbers bare with their exact digits, binary as
// base64); partitions and example keys are objects named by the key
// attributes, as `groups` prints its partition.
type layoutJSON struct {
	Table             string             `json:"table"`
	Index             *string            `json:"index"`
	KeySchema         layoutKeySchema    `json:"keySchema"`
	Sample            layoutSampleJSON   `json:"sample"`
	Families          []layoutFamilyJSON `json:"families"`
	LargestPartitions []layoutPartition  `json:"largestPartitions"`
	Findings          []layoutFinding    `json:"findings"`
	Requests          int                `json:"requests"`
	ConsumedCapacity  capacityObject     `json:"consumedCapacity"`
	IndexMap          *indexMapJSON      `json:"indexMap,omitempty"` // only with --index-map (layout_indexes.go)
}

type layoutKeySchema struct {
	PartitionKey keyAttrJSON  `json:"partitionKey"`
	SortKey      *keyAttrJSON `json:"sortKey"` // null without a sort key
}

type layoutSampleJSON struct {
	Segments   int     `json:"segments"`
	MaxItems   int     `json:"maxItems"`
	MaxRCU     float64 `json:"maxRCU"`
	Items      int     `json:"items"`
	Partitions int     `json:"partitions"`
	TableItems int64   `json:"tableItems"` // DynamoDB's estimate
	Stop       string  `json:"stop"`       // complete | max-items | max-rcu | cancelled | error
	ItemSizes  string  `json:"itemSizes"`  // measured | page-capacity | not-checked (index samples)
}

type layoutFamilyJSON struct {
	Family           string            `json:"family"`
	Entity           string            `json:"entity"`
	Prefix           string            `json:"prefix"`
	Exact            bool              `json:"exact"`
	Label            string            `json:"label"`
	Disagree         bool              `json:"disagree"`
	Partitions       int               `json:"partitions"`
	Items            int               `json:"items"`
	LargestPartition layoutPartition   `json:"largestPartition"`
	Delimiter        *string           `json:"delimiter"`
	EntityTypes      []layoutTypeJSON  `json:"entityTypes"`
	Libraries        []layoutLibraryJS `json:"libraries"`
}

type layoutTypeJSON struct {
	Entity     string            `json:"entity"`
	Declared   *bool             `json:"declared,omitempty"` // with declared entities: whether one named it
	Prefix     string            `json:"prefix"`
	Label      string            `json:"label"`
	Disagree   bool              `json:"disagree"`
	Items      int               `json:"items"`
	Partitions int               `json:"partitions"`
	First      json.RawMessage   `json:"first"`
	Last       json.RawMessage   `json:"last"`
	Libraries  []layoutLibraryJS `json:"libraries"`
}

type layoutLibraryJS struct {
	Library   string  `json:"library"`
	Attribute string  `json:"attribute"`
	Entity    string  `json:"entity"`
	Version   *string `json:"version"`
	Items     int     `json:"items"`
}

type layoutPartition struct {
	Partition keyObject `json:"partition"`
	Family    string    `json:"family"`
	Items     int       `json:"items"`
}

type layoutFinding struct {
	Rule    string    `json:"rule"`
	Family  *string   `json:"family"`
	Message string    `json:"message"`
	Example keyObject `json:"example"`
}

// layoutOptions are the flag values of `dynascope layout`, the sampling
// caps filled in from the settings file where not given.
type layoutOptions struct {
	Connect      func(context.Context) (*dynamo.Client, error)
	Out, Err     io.Writer
	Table, Index string
	MaxItems     int
	MaxRCU       float64
	Segments     int
	ItemSizes    bool
	Largest      int
	Output       string
	WorkbenchOut string // "" for none
	IndexMap     bool
	Patterns     string // --patterns: the entities naming the types; "" for dynascope.yaml of the table
	Models       string // --models: the entities from the application's models instead
}

// newLayoutCmd samples a table with a bounded parallel Scan and prints its
// single-table layout: partition-key families, their sort-key entity types,
// the largest partitions, and the key-layout lint.
func newLayoutCmd(f *factory, runF func(context.Context, *layoutOptions) error) *cobra.Command {
	conn := f.Conn
	opts := &layoutOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:     "layout --table NAME",
		Short:   "the key layout of a table from a bounded sample, with a lint",
		GroupID: groupExplore,
		Long: `Sample the table with a bounded parallel Scan (it says its caps before it
starts) and print its single-table layout: the partition-key families, the
entity types of their sort keys, the largest partitions, and findings of the
key-layout lint. Ctrl-C stops and prints what was read.`,
		Example: `  dynascope layout --table App
  dynascope layout --table App --max-items 5000 --max-rcu 50 --output table
  dynascope layout --table App --workbench-out app-model.json`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Index, "index", "", "sample this secondary `INDEX` instead of the table")
	fs.IntVar(&opts.MaxItems, "max-items", dynamo.DefaultSampleItems, "read at most `N` items (the settings' sampling: maxItems replaces the default)")
	sampleRCUFlag(fs, &opts.MaxRCU)
	fs.IntVar(&opts.Segments, "segments", dynamo.DefaultSampleSegments, "`N` parallel Scan segments (the settings' sampling: segments replaces the default)")
	fs.BoolVar(&opts.ItemSizes, "item-sizes", false, "read whole items to measure each one's size (same RCU, more data transferred)")
	fs.IntVar(&opts.Largest, "largest", keys.DefaultLargest, "list the `N` largest partitions")
	entitiesFlag(cmd, &opts.Patterns, &opts.Models)
	documentOutputFlag(cmd, &opts.Output, "json", "", "json", "table")
	wbOut := addWorkbenchOut(fs)
	fs.BoolVar(&opts.IndexMap, "index-map", false, "also map every secondary index from a bounded Scan of whole items (its own caps: --max-items, --max-rcu): members, skew, entity types, violations")
	cmd.RegisterFlagCompletionFunc("index", completeIndexes(conn))
	cmd.MarkFlagFilename("workbench-out", "json")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := conn.RequireTable("layout"); err != nil {
			return usageError{err.Error()}
		}
		if err := wbOut.check(opts.Index); err != nil {
			return err
		}
		settings, err := f.Settings()
		if err != nil {
			return err
		}
		// A cap not given on the command line comes from the settings file.
		if err := sampleCaps(fs, settings.Sampling, &opts.MaxItems, &opts.MaxRCU); err != nil {
			return err
		}
		if _, _, segs := settings.Sampling.Caps(); !fs.Changed("segments") {
			opts.Segments = segs
		}
		switch {
		case opts.Segments < 1 || opts.Segments > dynamo.MaxSampleSegments:
			return usageError{fmt.Sprintf("--segments must be between 1 and %d, not %d.", dynamo.MaxSampleSegments, opts.Segments)}
		case opts.IndexMap && opts.Index != "":
			return usageError{"--index-map maps every index of the table: drop --index."}
		case opts.Largest < 1:
			return usageError{fmt.Sprintf("--largest must be a positive number, not %d.", opts.Largest)}
		}
		opts.Table, opts.WorkbenchOut, opts.Out, opts.Err = conn.Table, *wbOut.path, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runLayout(cmd.Context(), opts)
	}
	return cmd
}

// runLayout samples, prints the layout (and the index map), then writes
// the Workbench model when asked.
func runLayout(ctx context.Context, opts *layoutOptions) error {
	wbOut := workbenchOut{&opts.WorkbenchOut}
	client, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	what := "keys only"
	if opts.ItemSizes {
		what = "whole items"
	}
	// A Scan reads the table itself: say what it may cost before it
	// starts, and how it will read, once DescribeTable has said.
	smp, err := client.Sample(ctx, dynamo.SampleInput{
		Table: opts.Table, Index: opts.Index, Segments: opts.Segments,
		MaxItems: opts.MaxItems, MaxRCU: opts.MaxRCU, ItemSizes: opts.ItemSizes,
		Planned: func(p dynamo.SamplePlan) {
			fmt.Fprintf(opts.Err, "sampling %s: up to %d items / %s RCU, %s, %s\n",
				layoutTarget(opts.Table, opts.Index), opts.MaxItems, jsonFloat(opts.MaxRCU), samplePlanText(p), what)
		},
	})
	if err != nil && len(smp.Items) == 0 {
		return err
	}
	// A cancelled or failed sample still prints what it read (its stop says
	// which), then reports why it stopped.
	set, derr := declaredEntities(ctx, opts.Patterns, opts.Models, opts.Table, func() (dynamo.Table, error) { return client.TableKeys(ctx, opts.Table) })
	if derr != nil {
		return derr
	}
	lay := smp.LayoutDeclared(opts.Largest, declaredNamer(set, smp.Keys))
	var imap *indexMapJSON
	if opts.IndexMap && err == nil {
		var t dynamo.Table
		if t, err = client.DescribeTable(ctx, opts.Table); err == nil {
			imap, err = sampleIndexMap(ctx, client, t, opts.MaxItems, opts.MaxRCU, declaredNamer(set, tableSchema(t)), opts.Err)
		}
	}
	var b bytes.Buffer
	if opts.Output == "table" {
		writeLayoutText(&b, smp, lay)
		writeIndexMapText(&b, imap)
	} else {
		writeLayoutJSON(&b, smp, lay, imap)
	}
	if _, werr := opts.Out.Write(b.Bytes()); werr != nil {
		return werr
	}
	if over := smp.OverCapText("--max-rcu cap", jsonFloat); over != "" {
		fmt.Fprintln(opts.Err, over)
	}
	if err == nil {
		err = wbOut.write(ctx, client, smp, lay, opts.Err)
	}
	return err
}

func layoutTarget(table, index string) string {
	if index == "" {
		return "table " + table
	}
	return "index " + index + " of table " + table
}

// layoutKey prints a key value as plain JSON of its type.
func layoutKey(attr dynamo.KeyAttr, v string) json.RawMessage {
	if av, err := dynamo.KeyValue(attr, "key", v); err == nil {
		return itemcodec.MarshalPlainValue(av)
	}
	return json.RawMessage(jsonString(v))
}

// layoutSortKey is a type's first or last sort key; null on a table
// without a sort key, whose types hold whole partitions.
func layoutSortKey(ks dynamo.KeySchema, v string) json.RawMessage {
	if ks.SK == nil {
		return json.RawMessage("null")
	}
	return layoutKey(*ks.SK, v)
}

// layoutKeyObject is {"PK": value, "SK": value}, as groups prints a partition.
func layoutKeyObject(ks dynamo.KeySchema, r keys.KeyRef) keyObject {
	o := keyObject{{ks.PK.Name, layoutKey(ks.PK, r.PK)}}
	if r.HasSK && ks.SK != nil {
		o = append(o, keyField{ks.SK.Name, layoutKey(*ks.SK, r.SK)})
	}
	return o
}

func layoutLibs(ls []keys.LibraryCount) []layoutLibraryJS {
	out := []layoutLibraryJS{}
	for _, l := range ls {
		var v *string
		if l.Version != "" {
			v = &l.Version
		}
		out = append(out, layoutLibraryJS{Library: l.Library, Attribute: l.Attribute, Entity: l.Entity, Version: v, Items: l.Items})
	}
	return out
}

func layoutSizes(smp dynamo.Sample) string {
	switch {
	case smp.ItemSizes:
		return "measured"
	case smp.Index != "":
		return "not-checked"
	}
	return "page-capacity"
}

func writeLayoutJSON(b *bytes.Buffer, smp dynamo.Sample, lay keys.Layout, imap *indexMapJSON) {
	ks := smp.Keys
	out := layoutJSON{
		Table:     smp.Table,
		KeySchema: layoutKeySchema{PartitionKey: *newKeyAttrJSON(&ks.PK)},
		Sample: layoutSampleJSON{
			Segments: smp.Segments, MaxItems: smp.MaxItems, MaxRCU: smp.MaxRCU,
			Items: lay.Items, Partitions: lay.Partitions, TableItems: smp.TableItems,
			Stop: string(smp.Stop), ItemSizes: layoutSizes(smp),
		},
		Families:          []layoutFamilyJSON{},
		LargestPartitions: []layoutPartition{},
		Findings:          []layoutFinding{},
		Requests:          len(smp.Requests),
		ConsumedCapacity:  capacityOfRequests(smp.Requests),
		IndexMap:          imap,
	}
	if smp.Index != "" {
		out.Index = &smp.Index
	}
	if ks.SK != nil {
		out.KeySchema.SortKey = newKeyAttrJSON(ks.SK)
	}
	part := func(p keys.Partition) layoutPartition {
		return layoutPartition{Partition: layoutKeyObject(ks, keys.KeyRef{PK: p.PK}), Family: p.Family, Items: p.Items}
	}
	for _, f := range lay.Families {
		fj := layoutFamilyJSON{
			Family: f.Pattern, Entity: f.Entity, Prefix: f.Prefix, Exact: f.Exact, Label: f.Label, Disagree: f.Disagree,
			Partitions: f.Partitions, Items: f.Items, LargestPartition: part(f.Largest),
			EntityTypes: []layoutTypeJSON{}, Libraries: layoutLibs(f.Libraries),
		}
		if f.Delimiter != "" {
			fj.Delimiter = &f.Delimiter
		}
		for _, t := range f.Types {
			fj.EntityTypes = append(fj.EntityTypes, layoutTypeJSON{
				Entity: t.Entity, Declared: declaredFlag(keys.Group{Declared: t.Declared, Undeclared: t.Undeclared}), Prefix: t.Prefix, Label: t.Label, Disagree: t.Disagree,
				Items: t.Items, Partitions: t.Partitions,
				First: layoutSortKey(ks, t.First), Last: layoutSortKey(ks, t.Last), Libraries: layoutLibs(t.Libraries),
			})
		}
		out.Families = append(out.Families, fj)
	}
	for _, p := range lay.Largest {
		out.LargestPartitions = append(out.LargestPartitions, part(p))
	}
	for _, f := range lay.Findings {
		lf := layoutFinding{Rule: f.Rule, Message: f.Message, Example: layoutKeyObject(ks, f.Example)}
		if f.Family != "" {
			lf.Family = &f.Family
		}
		out.Findings = append(out.Findings, lf)
	}
	_ = writeIndentedJSON(b, out)
}

func writeLayoutText(b *bytes.Buffer, smp dynamo.Sample, lay keys.Layout) {
	of := ""
	if smp.TableItems > 0 {
		of = fmt.Sprintf(" (of about %d)", smp.TableItems)
	}
	fmt.Fprintf(b, "%s: %s%s in %s · stopped: %s\n\n", textfmt.Sanitize(layoutTarget(smp.Table, smp.Index)),
		textfmt.Plural(lay.Items, "item", "items"), of, textfmt.Plural(lay.Partitions, "partition", "partitions"), smp.Stop)
	tw := newColumns(b)
	fmt.Fprintln(tw, "FAMILY\tPARTITIONS\tITEMS\tLARGEST\tENTITY TYPES")
	for _, f := range lay.Families {
		var types []string
		for _, t := range f.Types {
			mark := ""
			if t.Disagree {
				mark = " ≠"
			}
			label := t.Label
			if t.Undeclared {
				label = keys.UndeclaredMark + label
			}
			types = append(types, fmt.Sprintf("%s %d%s", cell(label, 48), t.Items, mark))
		}
		if len(f.Types) == 0 && f.Label != f.Entity {
			types = append(types, cell(f.Label, 48))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s (%d)\t%s\n", cell(f.Pattern, 32), f.Partitions, f.Items, cell(f.Largest.PK, 32), f.Largest.Items, strings.Join(types, " · "))
	}
	_ = tw.Flush()
	b.WriteString("\nLARGEST PARTITIONS\n")
	tw = newColumns(b)
	for _, p := range lay.Largest {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", cell(p.PK, 48), cell(p.Family, 32), textfmt.Plural(p.Items, "item", "items"))
	}
	_ = tw.Flush()
	if len(lay.Findings) == 0 {
		b.WriteString("\nno findings\n")
	} else {
		b.WriteString("\nFINDINGS\n")
		for _, f := range lay.Findings {
			fmt.Fprintf(b, "  %s: %s\n", f.Rule, textfmt.Sanitize(f.Message))
		}
	}
	if layoutSizes(smp) == "page-capacity" {
		b.WriteString("\nitem sizes were inferred from each page's capacity; --item-sizes measures each item (same RCU, more data transferred)\n")
	}
	fmt.Fprintf(b, "\n%s · %s\n", textfmt.Plural(len(smp.Requests), "request", "requests"), rcuText(smp.Requests))
}

// samplePlanText says how a sample reads: its segments, and when
// DynamoDB's figures say the table fits the caps, that it is read whole.
func samplePlanText(p dynamo.SamplePlan) string {
	segs := fmt.Sprintf("%d parallel Scan segments", p.Segments)
	if p.Segments == 1 {
		segs = "one Scan"
	}
	if !p.Whole {
		return segs
	}
	return fmt.Sprintf("read whole in %s (DynamoDB's figures: %d items, %s)", segs, p.TableItems, textfmt.HumanBytes(p.TableBytes))
}
