package main

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
	"dynascope/textfmt"
	"dynascope/ui"
)

// newSeedCmd is the only command that writes to a table.
func newSeedCmd(conn *config.Connection) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "seed --table NAME (--demo | --file FILE | --workbench MODEL)",
		Short:   "create a table and load data (the only command that writes)",
		GroupID: groupWrite,
		Long: `Create the table when it is missing and load items into it: the demo
single-table design, a file of DynamoDB JSON lines, or a NoSQL Workbench
model. It refuses a table that already holds items unless --force.`,
		Example: `  dynascope --endpoint-url http://127.0.0.1:8000 seed --demo
  dynascope seed --table App --file items.jsonl
  dynascope seed --workbench model.json --table-prefix test-`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	demo := fs.Bool("demo", false, "create the demo single-table design and load its data")
	file := fs.String("file", "", "load items from this `FILE`: one DynamoDB JSON item per line, or one batch-write-item document per line as --output ddbjson-batch writes (a missing table is created with PK S / SK S)")
	workbench := fs.String("workbench", "", "create the tables of this NoSQL Workbench `MODEL` (format 3.0) with their indexes and load its data; --table picks one of them")
	prefix := fs.String("table-prefix", "", "with --workbench: put `PREFIX` before every table name of the model (side-by-side copies, tests)")
	force := fs.Bool("force", false, "write into a table that already holds items")
	cmd.MarkFlagFilename("file", "jsonl", "json")
	cmd.MarkFlagFilename("workbench", "json")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx, stdout := cmd.Context(), cmd.OutOrStdout()
		sources := 0
		for _, set := range []bool{*demo, *file != "", *workbench != ""} {
			if set {
				sources++
			}
		}
		if sources != 1 {
			return usageError{"seed needs exactly one source: --demo, --file F.jsonl or --workbench MODEL.json."}
		}
		if *prefix != "" && *workbench == "" {
			return usageError{"--table-prefix goes with --workbench; with --demo or --file, name the table with --table."}
		}
		if *workbench != "" {
			model, err := readWorkbench(*workbench)
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
			return seedWorkbench(ctx, w, tables, *force, stdout)
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
		var items []dynamo.Item
		spec := dynamo.DemoTableSpec(conn.Table)
		if *demo {
			items = dynamo.DemoItems()
		} else {
			f, err := os.Open(*file)
			if err != nil {
				return fmt.Errorf("cannot read %s: %w", *file, err)
			}
			items, err = dynamo.ReadItemLines(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", *file, err)
			}
			spec = dynamo.TableSpec{Name: conn.Table, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
			// A file goes into an existing table as it is keyed; only a missing
			// table is created, with the generic single-table keys.
			if t, err := dynamo.Describe(ctx, w, conn.Table); err == nil {
				spec = dynamo.TableSpec{Name: t.Name, PK: t.PK, SK: t.SK}
			}
		}
		return seedInto(ctx, w, spec, items, *force, stdout)

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
func readWorkbench(path string) (dynamo.WorkbenchModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return dynamo.WorkbenchModel{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	m, err := dynamo.ParseWorkbench(f)
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// pickTables returns the model's tables to load: all of them, or the one
// --table names, renamed with the prefix.
func pickTables(m dynamo.WorkbenchModel, only, prefix string) ([]dynamo.WorkbenchTable, error) {
	tables := m.Tables
	if only != "" {
		t, ok := m.Table(only)
		if !ok {
			return nil, usageError{fmt.Sprintf("model %s has no table %s; it has %s.", m.Name, only, strings.Join(m.TableNames(), ", "))}
		}
		tables = []dynamo.WorkbenchTable{t}
	}
	out := make([]dynamo.WorkbenchTable, len(tables))
	for i, t := range tables {
		t.Spec.Name = prefix + t.Spec.Name
		out[i] = t
	}
	return out, nil
}

// seedWorkbench creates each table with its indexes, loads its items, and
// says which entity types the facets name.
func seedWorkbench(ctx context.Context, w dynamo.WriteAPI, tables []dynamo.WorkbenchTable, force bool, out io.Writer) error {
	for _, t := range tables {
		if err := seedInto(ctx, w, t.Spec, t.Items, force, out); err != nil {
			return err
		}
		var facets []string
		for _, f := range t.Facets {
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
		Use:     "demo [--workbench MODEL]",
		Short:   "DynamoDB Local with the demo data, and the UI on it",
		GroupID: groupWrite,
		Long: `Start DynamoDB Local, seed the demo table (or a NoSQL Workbench model)
into it, open the UI on a partition, and stop the engine on exit. It writes
only into its own in-memory engine.`,
		Example: `  dynascope demo
  dynascope demo --workbench model.json --table Orders`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	workbench := fs.String("workbench", "", "open this NoSQL Workbench `MODEL` (format 3.0) instead of the demo data; --table picks which table the UI opens")
	cmd.MarkFlagFilename("workbench", "json")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
		if conn.Endpoint != "" || conn.Profile != "" || conn.Region != "" {
			return usageError{"demo runs its own DynamoDB Local; it takes no --endpoint-url, --profile or --region."}
		}
		if conn.Name != "" {
			return usageError{"demo runs its own DynamoDB Local; it takes no --connection."}
		}
		// The demo's access patterns, from dynascope.yaml when it is here; read
		// before the engine starts, so that a mistake in it costs no start-up.
		var patterns *config.PatternSet
		var patternsPath string
		if *workbench == "" {
			var err error
			if patterns, patternsPath, err = ui.LoadPatterns(config.PatternsFile, false); err != nil {
				return err
			}
		}
		// The settings file's default connection (a profile, a region) has no
		// business with the local engine.
		conn.Name = config.NoConnection
		var model dynamo.WorkbenchModel
		if *workbench != "" {
			// Read the model before starting the engine: a typo should not
			// cost a Java start-up.
			m, err := readWorkbench(*workbench)
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
		if *workbench != "" {
			if err := seedWorkbench(ctx, w, model.Tables, false, stderr); err != nil {
				return err
			}
			client, err := connect(ctx, conn)
			if err != nil {
				return err
			}
			t := model.Tables[0]
			if conn.Table != "" {
				t, _ = model.Table(conn.Table)
			}
			return ui.Run(ctx, ui.Options{
				Store: client, Table: t.Spec.Name, PK: workbenchPartition(t),
				Region: client.Region(), Endpoint: client.Endpoint(),
				EntityNames: t.EntityNames(),
			})
		}
		if conn.Table == "" {
			conn.Table = dynamo.DemoTable
		}
		if err := seedInto(ctx, w, dynamo.DemoTableSpec(conn.Table), dynamo.DemoItems(), false, stderr); err != nil {
			return err
		}
		client, err := connect(ctx, conn)
		if err != nil {
			return err
		}
		return ui.Run(ctx, ui.Options{
			Store: client, Table: conn.Table, PK: dynamo.DemoPartition,
			Region: client.Region(), Endpoint: client.Endpoint(),
			Patterns: patterns, PatternsPath: patternsPath,
		})

	}
	return cmd
}

// workbenchPartition picks the partition the UI opens on: that of the first
// facet's first item, where the model's author put the example to start
// from; "" (the UI asks) for a table without items.
func workbenchPartition(t dynamo.WorkbenchTable) string {
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
	return dynamo.KeyString(items[0][t.Spec.PK.Name])
}
