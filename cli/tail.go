package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/ui"
)

// tailOptions is everything `dynascope tail` needs, read from its flags.
type tailOptions struct {
	Connect        func(context.Context) (*dynamo.Client, error)
	ConnectStreams func(context.Context, *dynamo.Client) (*dynamo.StreamClient, error)
	Table          string
	PK             string        // "" for every partition
	Entity         string        // "" for every entity type
	From           string        // dynamo.TailLatest or dynamo.TailTrimHorizon
	Output         string        // text or jsonl
	Delimiter      string        // "" infers it from the keys seen of each partition
	MaxRecords     int           // stop after this many shown; 0 for no limit
	For            time.Duration // stop after this long; 0 for until Ctrl-C
	Patterns       string        // --patterns: the entities naming the types; "" for dynascope.yaml of the table
	Models         string        // --models: the entities from the application's models instead
	Stdout         io.Writer
	Stderr         io.Writer
}

// newTailCmd is `dynascope tail`; runF runs the options (runTail, or a
// test's recorder).
func newTailCmd(f *factory, runF func(context.Context, *tailOptions) error) *cobra.Command {
	if runF == nil {
		runF = runTail
	}
	opts := &tailOptions{Connect: f.Connect, ConnectStreams: f.ConnectStreams}
	cmd := &cobra.Command{
		Use:     "tail --table NAME [--pk VALUE] [--entity TYPE]",
		Short:   "the table's writes as they arrive, from its stream",
		GroupID: groupExplore,
		Long: `Print every write to the table as it arrives, from its DynamoDB stream:
INSERT, MODIFY and REMOVE with the keys, the entity type, the old and new
images the stream carries, and what a MODIFY changed. Ctrl-C ends it with a
summary.

--pk and --entity are applied here: the stream carries the whole table, so
every GetRecords is read (and charged) whatever it holds. Each GetRecords is
one streams read request unit, billed apart from table reads (the first
2,500,000 a month are free in each region); an idle shard is polled once a
second. A table without a stream is never given one: tail prints the
command that enables it.

With entities declared (--patterns FILE, or dynascope.yaml here when its
table: is the table), a write is named by the declaration its keys match;
any other keeps its inferred name, marked ~ (JSON: "declared": false).`,
		Example: `  dynascope tail --table App
  dynascope tail --table App --pk 'CUST#42' --entity ORDER
  dynascope tail --table App --from trim-horizon --output jsonl --max-records 100`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.PK, "pk", "", "only writes to this partition key `VALUE` (filtered here)")
	fs.StringVar(&opts.Entity, "entity", "", "only writes to items of this entity `TYPE`, e.g. ORDER (filtered here)")
	fs.StringVar(&opts.From, "from", dynamo.TailLatest, "where to start: latest (writes from now on) | trim-horizon (all the stream holds, 24 hours)")
	outputFlag(cmd, &opts.Output, "text", "", "text", "jsonl")
	fs.StringVar(&opts.Delimiter, "delimiter", "", "sort-key `DELIMITER` naming entity types (default: inferred from the keys seen of each partition, as groups does)")
	fs.IntVar(&opts.MaxRecords, "max-records", 0, "stop after `N` records shown (default: until Ctrl-C)")
	fs.Func("for", "stop after this `DURATION`, e.g. 30s (default: until Ctrl-C)", func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("--for takes a positive duration such as 30s or 5m, not %q", v)
		}
		opts.For = d
		return nil
	})
	entitiesFlag(cmd, &opts.Patterns, &opts.Models)
	cmd.RegisterFlagCompletionFunc("from", fixedChoices(dynamo.TailLatest, dynamo.TailTrimHorizon))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := f.Conn.RequireTable("tail"); err != nil {
			return usageError{err.Error()}
		}
		switch {
		case opts.From != dynamo.TailLatest && opts.From != dynamo.TailTrimHorizon:
			return usageError{fmt.Sprintf("--from must be latest or trim-horizon, not %q.", opts.From)}
		case opts.MaxRecords < 0:
			return usageError{fmt.Sprintf("--max-records must be 1 or more, not %d.", opts.MaxRecords)}
		case fs.Changed("pk") && opts.PK == "":
			return usageError{"--pk needs a value: the partition key to follow."}
		}
		opts.Table, opts.Stdout, opts.Stderr = f.Conn.Table, f.Stdout(), f.Stderr()
		return runF(cmd.Context(), opts)
	}
	return cmd
}

// tailTally counts what a tail saw, for its closing summary.
type tailTally struct {
	shown, skipped int
	events         map[string]int
	entities       map[string]int
	requests       map[string]int
	checks         dynamo.TailCounts // what the stream's answers had that tail left out
}

// runTail follows the table's stream and prints each record that passes
// the filters, until ctx ends, --for passes or --max-records are shown.
func runTail(ctx context.Context, o *tailOptions) error {
	client, err := o.Connect(ctx)
	if err != nil {
		return err
	}
	tally := &tailTally{events: map[string]int{}, entities: map[string]int{}, requests: map[string]int{}}
	client.OnRequest(func(r dynamo.Request) { tally.requests[r.Operation]++ }) // one goroutine: Tail's
	sc, err := o.ConnectStreams(ctx, client)
	if err != nil {
		return err
	}
	info, err := sc.Stream(ctx, o.Table)
	if err != nil {
		return err
	}
	fmt.Fprintln(o.Stderr, tailIntro(info, o))
	if o.For > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.For)
		defer cancel()
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	out := bufio.NewWriter(o.Stdout)
	set, err := declaredEntities(ctx, o.Patterns, o.Models, o.Table, func() (dynamo.Table, error) { return client.TableKeys(ctx, o.Table) })
	if err != nil {
		return err
	}
	names := info.Names(o.Delimiter)
	if set != nil {
		t, _ := client.TableKeys(ctx, o.Table) // read just now
		names.WithDeclared(declaredNamer(set, dynamo.KeySchema{PK: t.PK, SK: t.SK}))
	}
	to := dynamo.TailOptions{From: o.From, Counts: &tally.checks, OnNotice: func(n dynamo.TailNotice) {
		out.Flush() // the records before it first
		fmt.Fprintln(o.Stderr, "tail: "+n.Text)
	}}
	err = sc.Tail(ctx, info, to, func(recs []dynamo.StreamRecord) error {
		for _, r := range recs {
			entity := names.Entity(r)
			if (o.PK != "" && info.PartitionKey(r) != o.PK) || (o.Entity != "" && !strings.EqualFold(entity, o.Entity)) {
				tally.skipped++
				continue
			}
			tally.shown++
			tally.events[r.Event]++
			tally.entities[entity]++
			var declared *bool
			if names.Declaring() {
				d := !names.Undeclared(r)
				declared = &d
			}
			if o.Output == "jsonl" {
				out.Write(tailJSON(info, r, entity, declared))
			} else if declared != nil && !*declared {
				out.WriteString(info.StreamLine(r, keys.UndeclaredMark+entity))
			} else {
				out.WriteString(info.StreamLine(r, entity))
			}
			out.WriteByte('\n')
			if o.MaxRecords > 0 && tally.shown >= o.MaxRecords {
				stop()
				break
			}
		}
		return out.Flush() // each page as it arrives: a pipe reader sees it now
	})
	out.Flush()
	fmt.Fprintln(o.Stderr, tally.summary())
	if dynamo.IsTailEnd(err) && (ctx.Err() != nil) {
		return nil // Ctrl-C, --for or --max-records: the way a tail ends
	}
	return err
}

// tailIntro is the line tail starts with: what it reads, what the reading
// costs, and that the filters are applied here.
func tailIntro(info dynamo.StreamInfo, o *tailOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tail: the stream of %s (%s) from %s; each GetRecords is one streams read request unit, billed apart from table reads, an idle shard polled once a second.", info.Table, info.ViewType, o.From)
	if o.PK != "" || o.Entity != "" {
		b.WriteString(" --pk and --entity are applied here: the stream carries every write of the table.")
	}
	if info.ViewType == "KEYS_ONLY" {
		b.WriteString(" The stream carries keys only (KEYS_ONLY): no old or new images.")
	}
	b.WriteString(" Ctrl-C ends it.")
	return b.String()
}

// tailJSON is one record as the JSON object DESIGN.md's tail shows.
func tailJSON(info dynamo.StreamInfo, r dynamo.StreamRecord, entity string, declared *bool) []byte {
	img := func(it dynamo.Item) string {
		if it == nil {
			return "null"
		}
		return string(itemcodec.PlainJSON(it))
	}
	changed := "null"
	if c := r.Changed(); c != nil {
		q := make([]string, len(c))
		for i, n := range c {
			q[i] = itemcodec.QuoteJSON(n)
		}
		changed = "[" + strings.Join(q, ",") + "]"
	}
	decl := "" // with declared entities only: whether one named it
	if declared != nil {
		decl = fmt.Sprintf(`,"declared":%t`, *declared)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"event":%s,"time":%s,"sequence":%s,"keys":%s,"entity":%s%s,"old":%s,"new":%s,"changed":%s}`,
		itemcodec.QuoteJSON(r.Event), itemcodec.QuoteJSON(r.Time.Format(time.RFC3339)), itemcodec.QuoteJSON(r.Sequence),
		img(r.Keys), itemcodec.QuoteJSON(entity), decl, img(r.Old), img(r.New), changed)
	return []byte(b.String())
}

// summary is the closing line: records by event and entity type, and the
// requests sent.
func (t *tailTally) summary() string {
	counts := func(m map[string]int) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
		return strings.Join(parts, ", ")
	}
	total := 0
	for _, n := range t.requests {
		total += n
	}
	s := fmt.Sprintf("tail: %d records", t.shown)
	if t.shown > 0 {
		s += fmt.Sprintf(" (%s; %s)", counts(t.events), counts(t.entities))
	}
	if t.skipped > 0 {
		s += fmt.Sprintf(", %d more filtered out", t.skipped)
	}
	if c := t.checks.String(); c != "" {
		s += "; " + c
	}
	return s + fmt.Sprintf("; %d requests (%s).", total, counts(t.requests))
}

// liveStreams is the stream reader of the UI's live pane, from the same
// connection as client; nil, which the pane reports, when it cannot be
// built.
func liveStreams(ctx context.Context, connect func(context.Context, *dynamo.Client) (*dynamo.StreamClient, error), client *dynamo.Client) ui.LiveStream {
	sc, err := connect(ctx, client)
	if err != nil {
		return nil
	}
	return sc
}

// streamsOf connects the Streams client of the connection conn, beside
// the table client.
func streamsOf(conn *config.Connection) func(context.Context, *dynamo.Client) (*dynamo.StreamClient, error) {
	return func(ctx context.Context, c *dynamo.Client) (*dynamo.StreamClient, error) {
		o, err := conn.Options()
		if err != nil {
			return nil, err
		}
		return dynamo.ConnectStreams(ctx, o, c)
	}
}
