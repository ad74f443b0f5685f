package cli

// dynascope index try: a proposed global secondary index over a bounded
// sample of the table, without creating anything — who would be in it,
// how its partitions would spread, the items it would skip, what it would
// add to every write, and which access patterns it would serve.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// indexTryOptions are the flag values of `dynascope index try`.
type indexTryOptions struct {
	Connect        func(context.Context) (*dynamo.Client, error)
	Table          string
	Out, Err       io.Writer
	PKAttr, SKAttr string
	Projection     string   // ALL, KEYS_ONLY or INCLUDE
	Include        []string // INCLUDE's attributes
	MaxItems       int
	MaxRCU         float64
	Patterns       string // the patterns file
	PatternsGiven  bool   // named on the command line, else the default (none when absent)
	Output         string
}

func newIndexCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "index COMMAND",
		Short:   "secondary indexes: try one before it is built",
		GroupID: groupExplore,
		Args:    noArgs,
	}
	cmd.AddCommand(newIndexTryCmd(f, nil))
	return cmd
}

func newIndexTryCmd(f *factory, runF func(context.Context, *indexTryOptions) error) *cobra.Command {
	opts := &indexTryOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:   "try --table NAME --pk-attr A [--sk-attr B]",
		Short: "a proposed GSI over a bounded sample: members, skew, violations, write cost, patterns served",
		Long: `Read a bounded sample of the table (a Scan of whole items; it says its caps
before it starts) and compute the global secondary index that --pk-attr and
--sk-attr would make, without creating it: the share of items in it, its
partitions and the largest one's share, the entity types it would hold, the
items that carry a key attribute but would be skipped (another type, an
empty string, too long), what each write of a member would add, and the
patterns of the patterns file whose key condition it could serve. The key
types are the ones most sampled items carry. Nothing is created or changed.`,
		Example: `  dynascope index try --table App --pk-attr status --sk-attr SK
  dynascope index try --table App --pk-attr GSI1PK --sk-attr GSI1SK --projection INCLUDE:total,status --max-items 2000`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.PKAttr, "pk-attr", "", "the proposed partition key `ATTRIBUTE` (required)")
	fs.StringVar(&opts.SKAttr, "sk-attr", "", "the proposed sort key `ATTRIBUTE` (none when not given)")
	projection := fs.String("projection", "ALL", "`PROJECTION`: ALL | KEYS_ONLY | INCLUDE:a,b")
	fs.IntVar(&opts.MaxItems, "max-items", dynamo.DefaultSampleItems, "sample at most `N` items (the settings' sampling: maxItems replaces the default)")
	sampleRCUFlag(fs, &opts.MaxRCU)
	fs.StringVar(&opts.Patterns, "patterns", patterns.PatternsFile, "the access patterns `FILE` whose patterns the proposal may serve (none when it is absent)")
	documentOutputFlag(cmd, &opts.Output, "json", "", "json", "table")
	cmd.RegisterFlagCompletionFunc("projection", fixedChoices("ALL", "KEYS_ONLY", "INCLUDE:"))
	cmd.MarkFlagFilename("patterns", "yaml", "yml")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := f.Conn.RequireTable("index try"); err != nil {
			return usageError{err.Error()}
		}
		settings, err := f.Settings()
		if err != nil {
			return err
		}
		p, rest, _ := strings.Cut(*projection, ":")
		opts.Projection = strings.ToUpper(p)
		opts.Include = nil
		for a := range strings.SplitSeq(rest, ",") {
			if a = strings.TrimSpace(a); a != "" {
				opts.Include = append(opts.Include, a)
			}
		}
		switch {
		case opts.PKAttr == "":
			return usageError{"index try needs --pk-attr ATTRIBUTE: the proposed partition key."}
		case opts.Projection != "ALL" && opts.Projection != "KEYS_ONLY" && opts.Projection != "INCLUDE",
			opts.Projection == "INCLUDE" && len(opts.Include) == 0, opts.Projection != "INCLUDE" && rest != "":
			return usageError{fmt.Sprintf("--projection must be ALL, KEYS_ONLY or INCLUDE:a,b, not %q.", *projection)}
		}
		if err := sampleCaps(fs, settings.Sampling, &opts.MaxItems, &opts.MaxRCU); err != nil {
			return err
		}
		opts.PatternsGiven = fs.Changed("patterns")
		opts.Table, opts.Out, opts.Err = f.Conn.Table, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runIndexTry(cmd.Context(), opts)
	}
	return cmd
}

// runIndexTry samples the table and prints what the proposed index holds.
func runIndexTry(ctx context.Context, opts *indexTryOptions) error {
	set, _, err := patterns.Open(opts.Patterns, opts.PatternsGiven)
	if err != nil {
		return err
	}
	client, t, err := connectAndDescribe(ctx, opts.Connect, opts.Table)
	if err != nil {
		return err
	}
	// Declared entities name the members' types; their keys are checked
	// against the table's before anything is read.
	ents, err := entitiesFor(set, opts.PatternsGiven, opts.Table, func() (dynamo.Table, error) { return t, nil })
	if err != nil {
		return err
	}
	// A Scan reads the table itself: say what it may cost before it starts.
	fmt.Fprintf(opts.Err, "sampling table %s for the proposed index: up to %d items / %s RCU, whole items (one Scan)\n",
		textfmt.Sanitize(opts.Table), opts.MaxItems, jsonFloat(opts.MaxRCU))
	items, res, err := dynamo.SampleItems(ctx, client.Scan, opts.Table, opts.MaxItems, opts.MaxRCU)
	if err != nil && len(items) == 0 {
		return err
	}
	ix := proposal(opts, items)
	out := tryObject(t, ix, items, res, opts, set, declaredNamer(ents, tableSchema(t)))
	var b bytes.Buffer
	if opts.Output == "table" {
		writeTryTable(&b, out)
	} else if werr := writeIndentedJSON(&b, out); werr != nil {
		return werr
	}
	if _, werr := opts.Out.Write(b.Bytes()); werr != nil {
		return werr
	}
	return err // a cancelled or failed sample prints what it read, then says why it stopped
}

// proposal is the index the options describe, its key types those most of
// the sampled items carry (a string when none carries the attribute).
func proposal(opts *indexTryOptions, items []dynamo.Item) dynamo.Index {
	ix := dynamo.Index{Name: "proposal", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: opts.PKAttr, Type: commonType(opts.PKAttr, items)},
		Projection: opts.Projection, NonKeyAttr: opts.Include}
	if opts.SKAttr != "" {
		ix.SK = &dynamo.KeyAttr{Name: opts.SKAttr, Type: commonType(opts.SKAttr, items)}
	}
	return ix
}

func commonType(attr string, items []dynamo.Item) string {
	n := map[string]int{}
	for _, it := range items {
		if typ := itemcodec.AttributeTypeName(it[attr]); typ == "S" || typ == "N" || typ == "B" {
			n[typ]++
		}
	}
	best := "S"
	for _, typ := range []string{"N", "B"} {
		if n[typ] > n[best] {
			best = typ
		}
	}
	return best
}
