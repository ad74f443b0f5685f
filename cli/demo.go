package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamolocal"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/ui"
	"dynascope/workbench"
)

// demoOptions are the flag values of `dynascope demo`.
type demoOptions struct {
	// Conn is a copy of the connection flags: the demo points it at the
	// engine it starts and connects through it, which no factory func
	// could do before the engine runs.
	Conn        config.Connection
	Err         io.Writer
	Workbench   string // --workbench: the model instead of the demo data
	SkipInvalid bool
	Repair      bool // --repair, with --workbench
	Traffic     bool
	AllowWrites bool
	Color       string // --color
}

// newDemoCmd starts DynamoDB Local, seeds the demo table (or a NoSQL
// Workbench model), opens the UI on an example partition, and stops the
// engine when the UI exits.
func newDemoCmd(f *factory, runF func(context.Context, *demoOptions) error) *cobra.Command {
	opts := &demoOptions{}
	cmd := &cobra.Command{
		Use:     "demo [--workbench MODEL [--skip-invalid] [--repair] | --traffic] [--allow-writes]",
		Short:   "DynamoDB Local with the demo data, and the UI on it",
		GroupID: groupWrite,
		Long: `Start DynamoDB Local, seed the demo table (or a NoSQL Workbench model)
into it, open the UI on a partition, and stop the engine on exit. It writes
only into its own in-memory engine.

It works from any folder: DynamoDB Local is taken from $DYNASCOPE_LOCAL_DIR,
else the user's cache folder ($XDG_CACHE_HOME/dynascope, else
~/.cache/dynascope), else a checkout's .local; when there is none it is
fetched once with npm pack (about 57 MB, sha256 checked) into the cache
folder. It needs a Java 17+ runtime.`,
		Example: `  dynascope demo
  dynascope demo --traffic
  dynascope demo --allow-writes
  dynascope demo --workbench model.json --table Orders
  dynascope demo --workbench model.json --skip-invalid`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Workbench, "workbench", "", "open this NoSQL Workbench `MODEL` (format 3.0, 2.0, 1.0 or the 2019 preview) instead of the demo data; --table picks which table the UI opens")
	fs.BoolVar(&opts.SkipInvalid, "skip-invalid", false, "with --workbench: load the model's valid items and name each invalid one, instead of refusing the model")
	repairFlag(fs, &opts.Repair)
	cmd.MarkFlagFilename("workbench", "json")
	fs.BoolVar(&opts.Traffic, "traffic", false, "play the demo application's writes (new orders for CUST#42, orders shipped, line items added) a few a second into the demo table, for tail and the live pane (T)")
	demoWritesFlag(cmd, &opts.AllowWrites)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		conn := f.Conn
		if conn.Endpoint != "" || conn.Profile != "" || conn.Region != "" {
			return usageError{"demo runs its own DynamoDB Local; it takes no --endpoint-url, --profile or --region."}
		}
		if conn.Name != "" {
			return usageError{"demo runs its own DynamoDB Local; it takes no --connection."}
		}
		if (opts.SkipInvalid || opts.Repair) && opts.Workbench == "" {
			return usageError{"--skip-invalid and --repair go with --workbench."}
		}
		if opts.Traffic && opts.Workbench != "" {
			return usageError{"--traffic plays the demo data's writes; it does not go with --workbench."}
		}
		opts.Conn, opts.Err, opts.Color = *conn, f.Stderr(), f.Global.Color
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runDemo(cmd.Context(), opts)
	}
	return cmd
}

// runDemo reads what it was given, starts the engine, seeds it and runs
// the UI on it.
func runDemo(ctx context.Context, opts *demoOptions) error {
	conn, stderr := &opts.Conn, opts.Err
	done, err := uiDebugLog(conn, stderr) // the demo's UI has the screen
	if err != nil {
		return err
	}
	defer done()
	// The demo's access patterns, from dynascope.yaml when it is here; read
	// before the engine starts, so that a mistake in it costs no start-up.
	var set *patterns.PatternSet
	var patternsPath string
	if opts.Workbench == "" {
		var err error
		if set, patternsPath, err = patterns.Open(patterns.PatternsFile, false); err != nil {
			return err
		}
	}
	// The settings file's default connection (a profile, a region) has no
	// business with the local engine.
	conn.Name = config.NoConnection
	var model workbench.WorkbenchModel
	if opts.Workbench != "" {
		// Read the model before starting the engine: a typo should not
		// cost a Java start-up.
		m, err := readWorkbench(opts.Workbench, workbench.WorkbenchReadOptions{SkipInvalid: opts.SkipInvalid, Repair: opts.Repair}, stderr)
		if err != nil {
			return err
		}
		if _, err := pickTables(m, conn.Table, ""); err != nil {
			return err
		}
		model = m
	}
	// Found where the checkout's script puts it too, else installed into
	// the user's cache folder (dynamolocal's places), from any folder.
	dir, err := dynamolocal.Ensure(ctx, dynamolocal.Env(), stderr)
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "starting DynamoDB Local ...")
	engine, err := dynamolocal.Start(ctx, dir)
	if err != nil {
		return err
	}
	defer engine.Stop()
	conn.Endpoint = engine.Endpoint
	w, err := connectWriter(ctx, conn)
	if err != nil {
		return err
	}
	editor, editorDone, err := demoEditor(ctx, conn, opts.AllowWrites)
	if err != nil {
		return err
	}
	defer editorDone()
	if opts.Workbench != "" {
		if err := seedWorkbench(ctx, w, model.Tables, false, stderr, stderr); err != nil {
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
			Editor: editor, ExportDir: demoExportDir(),
			Store: client, Table: t.Spec.Name, PK: workbenchPartition(t),
			Region: client.Region(), Endpoint: client.Endpoint(),
			EntityNames: t.EntityNames(), Settings: settings,
		}, opts.Color))
	}
	if conn.Table == "" {
		conn.Table = demodata.Table
	}
	if err := seedInto(ctx, w, demodata.TableSpec(conn.Table), demodata.Items(), false, stderr, stderr); err != nil {
		return err
	}
	if err := dynamo.EnableDemoStream(ctx, w, conn.Table); err != nil {
		return err
	}
	client, settings, err := connectWithSettings(ctx, conn) // the settings' price: costs in money, as elsewhere
	if err != nil {
		return err
	}
	if opts.Traffic {
		defer startTraffic(ctx, w, conn.Table, stderr)()
	}
	return ui.Run(ctx, uiEnvironment(ui.Options{
		Editor: editor, ExportDir: demoExportDir(),
		Store: client, Table: conn.Table, PK: demodata.Partition,
		Streams: liveStreams(ctx, streamsOf(conn), client),
		Region:  client.Region(), Endpoint: client.Endpoint(),
		Patterns: set, PatternsPath: patternsPath, Settings: settings,
	}, opts.Color))
}

// demoExportDir is where the demo's exports (x) go: demo-exports in the
// user's cache folder, beside DynamoDB Local, not the working folder, which
// for `make demo` is the checkout (an untracked file there). The demo's
// data is made again on every run, as a cache's is. Without a cache folder
// (no HOME), the system's temporary folder; "" (the working folder) when
// neither can be made.
func demoExportDir() string {
	base := dynamolocal.Env().Cache
	if base == "" {
		base = filepath.Join(os.TempDir(), "dynascope")
	}
	dir := filepath.Join(base, "demo-exports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	return dir
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
