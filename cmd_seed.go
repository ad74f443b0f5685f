package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"dynascope/dynamo"
	"dynascope/ui"
)

// cmdSeed is the only command that writes to a table.
func cmdSeed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, conn := newFlags("seed", stderr)
	demo := fs.Bool("demo", false, "create the demo single-table design and load its data")
	file := fs.String("file", "", "load newline-delimited items in DynamoDB JSON from this file (a missing table is created with PK S / SK S)")
	force := fs.Bool("force", false, "write into a table that already holds items")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *demo == (*file != "") {
		return usageError{"seed needs exactly one source: --demo or --file F.jsonl."}
	}
	if conn.Table == "" && *demo {
		conn.Table = dynamo.DemoTable
	}
	if err := conn.RequireTable("seed"); err != nil {
		return usageError{err.Error()}
	}
	client, err := connect(ctx, conn)
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
		items, err = dynamo.ReadJSONL(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *file, err)
		}
		spec = dynamo.TableSpec{Name: conn.Table, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
		// A file goes into an existing table as it is keyed; only a missing
		// table is created, with the generic single-table keys.
		if t, err := client.DescribeTable(ctx, conn.Table); err == nil {
			spec = dynamo.TableSpec{Name: t.Name, PK: t.PK, SK: t.SK}
		}
	}
	return seedInto(ctx, client, spec, items, *force, stdout)
}

func seedInto(ctx context.Context, client *dynamo.Client, spec dynamo.TableSpec, items []dynamo.Item, force bool, out io.Writer) error {
	began := time.Now()
	created, err := dynamo.EnsureTable(ctx, client.SDK(), spec)
	if err != nil {
		return err
	}
	res, err := dynamo.Seed(ctx, client.SDK(), spec.Name, items, dynamo.SeedOptions{Force: force || created})
	if err != nil {
		return err
	}
	verb := "loaded into existing table"
	if created {
		verb = "created table and loaded"
	}
	fmt.Fprintf(out, "%s %s: %d items in %d batches (%d retries), %s WCU, %.1f s\n",
		verb, ui.Sanitize(spec.Name), res.Written, res.Batches, res.Retries, jsonFloat(res.WCU), time.Since(began).Seconds())
	return nil
}

// cmdDemo starts DynamoDB Local, seeds the demo table, opens the UI on the
// pattern's example partition, and stops the engine when the UI exits.
func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, conn := newFlags("demo", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if conn.Endpoint != "" || conn.Profile != "" || conn.Region != "" {
		return usageError{"demo runs its own DynamoDB Local; it takes no --endpoint-url, --profile or --region."}
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
	if conn.Table == "" {
		conn.Table = dynamo.DemoTable
	}
	client, err := connect(ctx, conn)
	if err != nil {
		return err
	}
	if err := seedInto(ctx, client, dynamo.DemoTableSpec(conn.Table), dynamo.DemoItems(), false, stderr); err != nil {
		return err
	}
	return ui.Run(ctx, ui.Options{
		Store: client, Table: conn.Table, PK: dynamo.DemoPartition,
		Region: client.Region(), Endpoint: client.Endpoint(),
	})
}
