package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
	"dynascope/ui"
	"dynascope/workbench"
)

// newSeedCmd loads data into a new or empty table; unlike put, update and
// delete it needs no --allow-writes, since it refuses a table that holds items.
func newSeedCmd(conn *config.Connection) *cobra.Command {
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
	demo := fs.Bool("demo", false, "create the demo single-table design and load its data")
	file := fs.String("file", "", "load items from this `FILE` (- for standard input; pipes and <(...) are read once), format found from its content: DynamoDB JSON or plain JSON lines, a JSON array of items, an AWS CLI batch-write-item document (or --output ddbjson-batch lines), a DynamoDB export to S3 (.json, .json.gz, its directory or manifest-files.json); a missing table is created with the key names the data shows")
	format := fs.String("format", "", "with --file: read it as this `FORMAT` instead of detecting it: "+formatNames())
	workbenchFile := fs.String("workbench", "", "create the tables of this NoSQL Workbench `MODEL` (format 3.0, 2.0, 1.0 or the 2019 preview) with their indexes and load its data; --table picks one of them")
	prefix := fs.String("table-prefix", "", "put `PREFIX` before every table name the model or file gives (side-by-side copies, tests)")
	pkName := fs.String("pk-name", "", "with --file: the partition key `ATTRIBUTE` of a table to create (default: PK or pk, as the data has)")
	skName := fs.String("sk-name", "", "with --file: the sort key `ATTRIBUTE` of a table to create (default: SK or sk, as the data has)")
	skipInvalid := fs.Bool("skip-invalid", false, "load every valid item and name each invalid one, instead of refusing the load at the first")
	force := fs.Bool("force", false, "write into a table that already holds items")
	// --file also takes an export's directory, so no extension filter.
	cmd.MarkFlagFilename("file")
	cmd.MarkFlagFilename("workbench", "json")
	cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return strings.Split(formatNames(), ", "), cobra.ShellCompDirectiveNoFileComp
	})
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
		sources := 0
		for _, set := range []bool{*demo, *file != "", *workbenchFile != ""} {
			if set {
				sources++
			}
		}
		if sources != 1 {
			return usageError{"seed needs exactly one source: --demo, --file F.jsonl or --workbench MODEL.json."}
		}
		if *prefix != "" && *demo {
			return usageError{"--table-prefix goes with --workbench or --file; with --demo, name the table with --table."}
		}
		if (*format != "" || *pkName != "" || *skName != "") && *file == "" {
			return usageError{"--format, --pk-name and --sk-name go with --file."}
		}
		if *skName != "" && *pkName == "" {
			return usageError{"--sk-name needs --pk-name."}
		}
		if *file != "" {
			l := fileLoad{path: *file, table: conn.Table, prefix: *prefix, pkName: *pkName, skName: *skName, skipInvalid: *skipInvalid, force: *force, stdin: cmd.InOrStdin()}
			if *format != "" {
				f, err := itemcodec.ParseFormat(*format)
				if err != nil {
					return usageError{err.Error()}
				}
				l.format = f
			}
			w, err := connectWriter(ctx, conn)
			if err != nil {
				return err
			}
			return loadFile(ctx, w, l, stdout, stderr)
		}
		if *workbenchFile != "" {
			model, err := readWorkbench(*workbenchFile, *skipInvalid, stderr)
			if err != nil {
				return err
			}
			tables, err := pickTables(model, conn.Table, *prefix)
			if err != nil {
				return err
			}
			w, err := connectWriter(ctx, conn)
			if err != nil {
				return err
			}
			if err := seedWorkbench(ctx, w, tables, *force, stdout); err != nil {
				return err
			}
			if *skipInvalid || len(model.Skipped) > 0 {
				n := 0
				for _, t := range tables {
					n += len(t.Items)
				}
				fmt.Fprintf(stdout, "loaded %d of %d items; %d skipped\n", n, n+len(model.Skipped), len(model.Skipped))
			}
			return nil
		}
		if conn.Table == "" && *demo {
			conn.Table = dynamo.DemoTable
		}
		if err := conn.RequireTable("seed"); err != nil {
			return usageError{err.Error()}
		}
		w, err := connectWriter(ctx, conn)
		if err != nil {
			return err
		}
		return seedInto(ctx, w, dynamo.DemoTableSpec(conn.Table), dynamo.DemoItems(), *force, stdout)
	}
	return cmd
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

func seedInto(ctx context.Context, w dynamo.WriteAPI, spec dynamo.TableSpec, items []dynamo.Item, force bool, out io.Writer) error {
	began := time.Now()
	created, err := dynamo.EnsureTable(ctx, w, spec)
	if err != nil {
		return err
	}
	res, err := dynamo.Seed(ctx, w, spec.Name, items, dynamo.SeedOptions{Force: force || created})
	if err != nil {
		return err
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
// The fields it ignored make one note line, each skipped item a sentence.
func readWorkbench(path string, skipInvalid bool, notes io.Writer) (workbench.WorkbenchModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return workbench.WorkbenchModel{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	m, err := workbench.ReadWorkbench(f, workbench.WorkbenchReadOptions{SkipInvalid: skipInvalid})
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	if len(m.Ignored) > 0 {
		fmt.Fprintf(notes, "note: %s: ignored fields dynascope does not use: %s.\n", textfmt.Sanitize(path), textfmt.Sanitize(strings.Join(m.Ignored, ", ")))
	}
	if len(m.Repeated) > 0 {
		fmt.Fprintf(notes, "note: %s: attributes declared more than once with one type, read as one: %s.\n", textfmt.Sanitize(path), textfmt.Sanitize(strings.Join(m.Repeated, "; ")))
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
func seedWorkbench(ctx context.Context, w dynamo.WriteAPI, tables []workbench.WorkbenchTable, force bool, out io.Writer) error {
	for _, t := range tables {
		if err := seedInto(ctx, w, t.Spec, t.Items, force, out); err != nil {
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

// cmdDemo starts DynamoDB Local, seeds the demo table (or a NoSQL Workbench
// model), opens the UI on an example partition, and stops the engine when
// the UI exits.
func newDemoCmd(conn *config.Connection) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "demo [--workbench MODEL [--skip-invalid]] [--allow-writes]",
		Short:   "DynamoDB Local with the demo data, and the UI on it",
		GroupID: groupWrite,
		Long: `Start DynamoDB Local, seed the demo table (or a NoSQL Workbench model)
into it, open the UI on a partition, and stop the engine on exit. It writes
only into its own in-memory engine.`,
		Example: `  dynascope demo
  dynascope demo --allow-writes
  dynascope demo --workbench model.json --table Orders
  dynascope demo --workbench model.json --skip-invalid`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	workbenchFile := fs.String("workbench", "", "open this NoSQL Workbench `MODEL` (format 3.0, 2.0, 1.0 or the 2019 preview) instead of the demo data; --table picks which table the UI opens")
	skipInvalid := fs.Bool("skip-invalid", false, "with --workbench: load the model's valid items and name each invalid one, instead of refusing the model")
	cmd.MarkFlagFilename("workbench", "json")
	traffic := fs.Bool("traffic", false, "play the demo application's writes (new orders for CUST#42, orders shipped, line items added) a few a second into the demo table, for tail and the live pane (T)")
	allowWrites := demoWritesFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
		if conn.Endpoint != "" || conn.Profile != "" || conn.Region != "" {
			return usageError{"demo runs its own DynamoDB Local; it takes no --endpoint-url, --profile or --region."}
		}
		if conn.Name != "" {
			return usageError{"demo runs its own DynamoDB Local; it takes no --connection."}
		}
		if *traffic && *workbenchFile != "" {
			return usageError{"--traffic plays the demo data's writes; it does not go with --workbench."}
		}
		// The demo's access patterns, from dynascope.yaml when it is here; read
		// before the engine starts, so that a mistake in it costs no start-up.
		var set *patterns.PatternSet
		var patternsPath string
		if *workbenchFile == "" {
			var err error
			if set, patternsPath, err = patterns.Open(patterns.PatternsFile, false); err != nil {
				return err
			}
		}
		// The settings file's default connection (a profile, a region) has no
		// business with the local engine.
		conn.Name = config.NoConnection
		var model workbench.WorkbenchModel
		if *workbenchFile != "" {
			// Read the model before starting the engine: a typo should not
			// cost a Java start-up.
			m, err := readWorkbench(*workbenchFile, *skipInvalid, stderr)
			if err != nil {
				return err
			}
			if _, err := pickTables(m, conn.Table, ""); err != nil {
				return err
			}
			model = m
		}
		dir, err := dynamo.FindLocalEngine()
		if err != nil {
			return err
		}
		fmt.Fprintln(stderr, "starting DynamoDB Local ...")
		engine, err := dynamo.StartLocalEngine(ctx, dir)
		if err != nil {
			return err
		}
		defer engine.Stop()
		conn.Endpoint = engine.Endpoint
		w, err := connectWriter(ctx, conn)
		if err != nil {
			return err
		}
		editor, editorDone, err := demoEditor(ctx, conn, *allowWrites)
		if err != nil {
			return err
		}
		defer editorDone()
		if *workbenchFile != "" {
			if err := seedWorkbench(ctx, w, model.Tables, false, stderr); err != nil {
				return err
			}
			client, settings, err := connectWithSettings(ctx, conn) // the settings' price: costs in money, as elsewhere
			if err != nil {
				return err
			}
			t := model.Tables[0]
			if conn.Table != "" {
				t, _ = model.Table(conn.Table)
			}
			return ui.Run(ctx, uiEnvironment(ui.Options{
				Editor: editor,
				Store:  client, Table: t.Spec.Name, PK: workbenchPartition(t),
				Region: client.Region(), Endpoint: client.Endpoint(),
				EntityNames: t.EntityNames(), Settings: settings,
			}))
		}
		if conn.Table == "" {
			conn.Table = dynamo.DemoTable
		}
		if err := seedInto(ctx, w, dynamo.DemoTableSpec(conn.Table), dynamo.DemoItems(), false, stderr); err != nil {
			return err
		}
		if err := dynamo.EnableDemoStream(ctx, w, conn.Table); err != nil {
			return err
		}
		client, settings, err := connectWithSettings(ctx, conn) // the settings' price: costs in money, as elsewhere
		if err != nil {
			return err
		}
		if *traffic {
			defer startTraffic(ctx, w, conn.Table, stderr)()
		}
		return ui.Run(ctx, uiEnvironment(ui.Options{
			Editor: editor,
			Store:  client, Table: conn.Table, PK: dynamo.DemoPartition,
			Streams: liveStreams(ctx, conn, client),
			Region:  client.Region(), Endpoint: client.Endpoint(),
			Patterns: set, PatternsPath: patternsPath, Settings: settings,
		}))
	}
	return cmd
}

// workbenchPartition picks the partition the UI opens on: that of the first
// facet's first item, where the model's author put the example to start
// from; "" (the UI asks) for a table without items.
func workbenchPartition(t workbench.WorkbenchTable) string {
	items := t.Items
	for _, f := range t.Facets {
		if len(f.Items) > 0 {
			items = f.Items
			break
		}
	}
	if len(items) == 0 {
		return ""
	}
	return itemcodec.KeyString(items[0][t.Spec.PK.Name])
}
