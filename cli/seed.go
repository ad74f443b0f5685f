package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/workbench"
)

// seedOptions are the flag values of `dynascope seed`.
type seedOptions struct {
	ConnectSeeder func(context.Context) (dynamo.WriteAPI, error)
	Out, Err      io.Writer
	Stdin         io.Reader // what --file - reads
	Table         string    // --table; with --demo, demodata.Table when not given
	// The one source: --demo, --file or --workbench.
	Demo      bool
	File      string
	Workbench string
	// With --file: the format (detected when ""), the keys of a table to create.
	Format         itemcodec.InputFormat
	PKName, SKName string
	Prefix         string // --table-prefix
	SkipInvalid    bool
	Force          bool
	// With --workbench: Repair reads the values published models get
	// wrong, DryRun reads and checks the model, says what it would load
	// and every repair, and connects to nothing.
	Repair, DryRun bool
}

// newSeedCmd loads data into a new or empty table; unlike put, update and
// delete it needs no --allow-writes, since it refuses a table that holds items.
func newSeedCmd(f *factory, runF func(context.Context, *seedOptions) error) *cobra.Command {
	opts := &seedOptions{ConnectSeeder: f.ConnectSeeder}
	cmd := &cobra.Command{
		Use:     "seed --table NAME (--demo | --file FILE | --workbench MODEL)",
		Short:   "create a table and load data (refuses a table with items unless --force)",
		GroupID: groupWrite,
		Long: `Create the table when it is missing and load items into it: the demo
single-table design, a file of items, or a NoSQL Workbench model. It
refuses a table that already holds items unless --force.

--file finds the format from the content: JSON lines (plain or DynamoDB
JSON), a JSON array of items, AWS CLI batch-write-item documents (or the
lines --output ddbjson-batch writes), and DynamoDB exports to S3 (a .json
or .json.gz data file, the export's directory, or its manifest-files.json).
A missing table is created with the key names the data shows.`,
		Example: `  dynascope --endpoint-url http://127.0.0.1:8000 seed --demo
  dynascope seed --table App --file items.jsonl
  dynascope seed --table App --file items.json --format json --pk-name id --sk-name sort
  dynascope seed --table Orders --file AWSDynamoDB/01234-abcd/
  dynascope seed --file batch-write.json --table-prefix copy-
  dynascope seed --workbench model.json --table-prefix test- --skip-invalid`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.Demo, "demo", false, "create the demo single-table design and load its data")
	fs.StringVar(&opts.File, "file", "", "load items from this `FILE` (- for standard input; pipes and <(...) are read once), format found from its content: DynamoDB JSON or plain JSON lines, a JSON array of items, an AWS CLI batch-write-item document (or --output ddbjson-batch lines), a DynamoDB export to S3 (.json, .json.gz, its directory or manifest-files.json); a missing table is created with the key names the data shows")
	format := fs.String("format", "", "with --file: read it as this `FORMAT` instead of detecting it: "+formatNames())
	fs.StringVar(&opts.Workbench, "workbench", "", "create the tables of this NoSQL Workbench `MODEL` (format 3.0, 2.0, 1.0 or the 2019 preview) with their indexes and load its data; --table picks one of them")
	fs.StringVar(&opts.Prefix, "table-prefix", "", "put `PREFIX` before every table name the model or file gives (side-by-side copies, tests)")
	fs.StringVar(&opts.PKName, "pk-name", "", "with --file: the partition key `ATTRIBUTE` of a table to create (default: PK or pk, as the data has)")
	fs.StringVar(&opts.SKName, "sk-name", "", "with --file: the sort key `ATTRIBUTE` of a table to create (default: SK or sk, as the data has)")
	fs.BoolVar(&opts.SkipInvalid, "skip-invalid", false, "load every valid item and name each invalid one, instead of refusing the load at the first")
	fs.BoolVar(&opts.Force, "force", false, "write into a table that already holds items")
	repairFlag(fs, &opts.Repair)
	fs.BoolVar(&opts.DryRun, "dry-run", false, "with --workbench: read and check the model, list what it would create and load and every --repair, and write nothing (connects to nothing)")
	// --file also takes an export's directory, so no extension filter.
	cmd.MarkFlagFilename("file")
	cmd.MarkFlagFilename("workbench", "json")
	cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return strings.Split(formatNames(), ", "), cobra.ShellCompDirectiveNoFileComp
	})
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		sources := 0
		for _, set := range []bool{opts.Demo, opts.File != "", opts.Workbench != ""} {
			if set {
				sources++
			}
		}
		if sources != 1 {
			return usageError{"seed needs exactly one source: --demo, --file F.jsonl or --workbench MODEL.json."}
		}
		if opts.Prefix != "" && opts.Demo {
			return usageError{"--table-prefix goes with --workbench or --file; with --demo, name the table with --table."}
		}
		if (*format != "" || opts.PKName != "" || opts.SKName != "") && opts.File == "" {
			return usageError{"--format, --pk-name and --sk-name go with --file."}
		}
		if opts.SKName != "" && opts.PKName == "" {
			return usageError{"--sk-name needs --pk-name."}
		}
		if (opts.Repair || opts.DryRun) && opts.Workbench == "" {
			return usageError{"--repair and --dry-run go with --workbench."}
		}
		if *format != "" {
			f, err := itemcodec.ParseFormat(*format)
			if err != nil {
				return usageError{err.Error()}
			}
			opts.Format = f
		}
		opts.Table, opts.Out, opts.Err, opts.Stdin = f.Conn.Table, f.Stdout(), f.Stderr(), f.Stdin()
		if opts.Demo && opts.Table == "" {
			opts.Table = demodata.Table
		}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runSeed(cmd.Context(), opts)
	}
	return cmd
}

// runSeed loads the one source. A file or model is read (and a model's
// table picked) before the writer connects.
func runSeed(ctx context.Context, opts *seedOptions) error {
	if opts.File != "" {
		l := fileLoad{path: opts.File, format: opts.Format, table: opts.Table, prefix: opts.Prefix, pkName: opts.PKName, skName: opts.SKName,
			skipInvalid: opts.SkipInvalid, force: opts.Force, stdin: opts.Stdin}
		w, err := opts.ConnectSeeder(ctx)
		if err != nil {
			return err
		}
		return loadFile(ctx, w, l, opts.Out, opts.Err)
	}
	if opts.Workbench != "" {
		model, err := readWorkbench(opts.Workbench, workbench.WorkbenchReadOptions{SkipInvalid: opts.SkipInvalid, Repair: opts.Repair}, opts.Err)
		if err != nil {
			return err
		}
		tables, err := pickTables(model, opts.Table, opts.Prefix)
		if err != nil {
			return err
		}
		if opts.DryRun {
			dryRunWorkbench(opts.Out, model, tables)
			return nil
		}
		w, err := opts.ConnectSeeder(ctx)
		if err != nil {
			return err
		}
		if err := seedWorkbench(ctx, w, tables, opts.Force, opts.Out, opts.Err); err != nil {
			return err
		}
		if line := workbenchTally(model, tables, "loaded", opts.SkipInvalid); line != "" {
			fmt.Fprintln(opts.Out, line)
		}
		return nil
	}
	w, err := opts.ConnectSeeder(ctx)
	if err != nil {
		return err
	}
	return seedInto(ctx, w, demodata.TableSpec(opts.Table), demodata.Items(), opts.Force, opts.Out, opts.Err)
}

// connectWriter builds the write-capable client of seeding, from the same
// connection settings as connect; nothing else in dynascope asks for one.
func connectWriter(ctx context.Context, c *config.Connection) (dynamo.WriteAPI, error) {
	o, err := c.Options()
	if err != nil {
		return nil, err
	}
	return dynamo.ConnectWriter(ctx, o)
}

func seedInto(ctx context.Context, w dynamo.WriteAPI, spec dynamo.TableSpec, items []dynamo.Item, force bool, out, notes io.Writer) error {
	began := time.Now()
	created, err := dynamo.EnsureTableSaying(ctx, w, spec, noteTo(notes))
	if err != nil {
		return err
	}
	res, err := dynamo.Seed(ctx, w, spec.Name, items, dynamo.SeedOptions{Force: force || created})
	if err != nil {
		return seedStopped(ctx, err, res, len(items), spec.Name)
	}
	verb := "loaded into existing table"
	if created {
		verb = "created table and loaded"
	}
	fmt.Fprintf(out, "%s %s: %d items in %d batches (%d retries), %s WCU, %.1f s\n",
		verb, textfmt.Sanitize(spec.Name), res.Written, res.Batches, res.Retries, jsonFloat(res.WCU), time.Since(began).Seconds())
	return nil
}

// readWorkbench reads a NoSQL Workbench model file; errors name the file.
// The fields it ignored make one note line, each skipped and each repaired
// item a sentence, all before anything is written.
func readWorkbench(path string, o workbench.WorkbenchReadOptions, notes io.Writer) (workbench.WorkbenchModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return workbench.WorkbenchModel{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	m, err := workbench.ReadWorkbench(f, o)
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	if len(m.Ignored) > 0 {
		fmt.Fprintf(notes, "note: %s: ignored fields dynascope does not use: %s.\n", textfmt.Sanitize(path), textfmt.Sanitize(strings.Join(m.Ignored, ", ")))
	}
	if len(m.Repeated) > 0 {
		fmt.Fprintf(notes, "note: %s: attributes declared more than once with one type, read as one: %s.\n", textfmt.Sanitize(path), textfmt.Sanitize(strings.Join(m.Repeated, "; ")))
	}
	for _, r := range m.Repaired {
		fmt.Fprintln(notes, textfmt.Sanitize(r.Sentence()))
	}
	for _, s := range m.Skipped {
		fmt.Fprintln(notes, textfmt.Sanitize(s.Sentence()))
	}
	return m, nil
}

// formatNames lists --format's values for its help.
func formatNames() string {
	names := make([]string, len(itemcodec.InputFormats))
	for i, f := range itemcodec.InputFormats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// pickTables returns the model's tables to load: all of them, or the one
// --table names, renamed with the prefix.
func pickTables(m workbench.WorkbenchModel, only, prefix string) ([]workbench.WorkbenchTable, error) {
	tables := m.Tables
	if only != "" {
		t, ok := m.Table(only)
		if !ok {
			return nil, usageError{fmt.Sprintf("model %s has no table %s; it has %s.", m.Name, only, strings.Join(m.TableNames(), ", "))}
		}
		tables = []workbench.WorkbenchTable{t}
	}
	out := make([]workbench.WorkbenchTable, len(tables))
	for i, t := range tables {
		t.Spec.Name = prefix + t.Spec.Name
		out[i] = t
	}
	return out, nil
}

// seedWorkbench creates each table with its indexes, loads its items, and
// says which entity types the facets name.
func seedWorkbench(ctx context.Context, w dynamo.WriteAPI, tables []workbench.WorkbenchTable, force bool, out, notes io.Writer) error {
	for _, t := range tables {
		if err := seedInto(ctx, w, t.Spec, t.Items, force, out, notes); err != nil {
			return err
		}
		var facets []string
		for _, f := range t.Facets {
			if len(f.Prefixes) == 0 {
				facets = append(facets, f.Name) // its items were all skipped
				continue
			}
			facets = append(facets, fmt.Sprintf("%s (%s)", f.Name, strings.Join(f.Prefixes, ", ")))
		}
		if len(facets) > 0 {
			fmt.Fprintf(out, "  facets: %s\n", textfmt.Sanitize(strings.Join(facets, ", ")))
		}
	}
	return nil
}

// seedStopped is the one sentence of a load that ended short: how many
// items reached the table (acknowledged), which batches are in doubt, and
// the signal that stopped it by name (SIGTERM is no time-out).
func seedStopped(ctx context.Context, err error, res dynamo.SeedResult, total int, table string) error {
	var stop *dynamo.SeedStopError
	if !errors.As(err, &stop) {
		if res.Batches == 0 {
			return err // before any write: the table is refused, or missing
		}
		// Not from the writes (the file changed between its reads).
		stop = &dynamo.SeedStopError{Table: table, Result: res, Err: err}
	}
	s := *stop
	s.Table, s.Total = textfmt.Sanitize(table), total
	by := ""
	if s.Stopped {
		by = stoppedBy(ctx)()
	}
	return &dynamo.UserError{Msg: s.Sentence(by), Err: err}
}

// noteTo writes the notes of a wait (a table not ACTIVE yet) as lines.
func noteTo(w io.Writer) func(string) {
	return func(s string) { fmt.Fprintln(w, s) }
}
