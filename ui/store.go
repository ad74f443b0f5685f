package ui

import (
	"context"

	"github.com/charmbracelet/colorprofile"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
	"dynascope/partiql"
	"dynascope/patterns"
)

// Store is what the UI needs from DynamoDB. *dynamo.Client satisfies it; UI
// tests use a fake. It has no write methods: the UI never writes to a table.
type Store interface {
	ListTables(ctx context.Context) ([]string, error)
	DescribeTable(ctx context.Context, table string) (dynamo.Table, error)
	// TableKeys is the key schema alone, from the client's cache when it has it.
	TableKeys(ctx context.Context, table string) (dynamo.Table, error)
	Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error)
	GetItem(ctx context.Context, g dynamo.GetInput) (dynamo.Page, error)
	// Discover finds a partition's entity types by skip-scan: one small
	// request per type, however large the partition.
	Discover(ctx context.Context, in dynamo.DiscoverInput) (dynamo.Discovery, error)
	// Sample reads a bounded, parallel, keys-only Scan for the table
	// overview; cancelled or failed, it returns what it read with the error.
	Sample(ctx context.Context, in dynamo.SampleInput) (dynamo.Sample, error)
	// Scan reads a whole table or index, bounded as its input says;
	// cancelled, it returns what it read.
	Scan(ctx context.Context, in dynamo.ScanInput) (dynamo.ScanResult, error)
	// PlanPartiQL refuses anything but a SELECT and says whether it runs
	// as a Query or a Scan; RunPartiQL runs a planned SELECT.
	PlanPartiQL(ctx context.Context, stmt string) (partiql.Plan, error)
	RunPartiQL(ctx context.Context, in dynamo.PartiQLInput) (dynamo.PartiQLResult, error)
}

var _ Store = (*dynamo.Client)(nil)

// Options configure the UI.
type Options struct {
	Store                     Store
	Table, Index, PK          string // from --table, --index, --pk; "" = ask
	Region, Endpoint, Profile string // shown in the header
	// Connection is the settings' named connection in use, "" for none:
	// the header names it (else the profile).
	Connection string
	// Connections are what ctrl+k offers to switch to, and Switch connects
	// to one (built by the command line: nothing in ui reads files or the
	// environment); with Switch nil the key says it is not offered.
	Connections []config.Choice
	Switch      func(ctx context.Context, to config.Choice) (Switched, error)
	ConfigDir   string // where history is kept (config.Dir()); "" = none kept
	NoColor     bool   // NO_COLOR or --color never: the terminal's own colours only
	// ColorProfile is the terminal's colours as --color always decides
	// them; Unknown lets Bubble Tea detect them (NO_COLOR included).
	ColorProfile colorprofile.Profile
	// ExportDir is the folder an export (x) is written in: the form's
	// default file is there, a relative file name is read from there, and
	// the form and the status line show the whole path. The command line
	// gives the working folder, the demo a folder of its own; "" leaves
	// names as typed (relative to the working folder).
	ExportDir string

	// Patterns are the access patterns the patterns view lists and runs;
	// nil without a patterns file. PatternsPath is the file S saves the
	// current request to, "" when none is known (saving is then refused).
	Patterns     *patterns.PatternSet
	PatternsPath string
	// PatternsErr is why the patterns file could not be read (then
	// Patterns is nil): shown at start and in the patterns view.
	PatternsErr error

	// MaxLoadedItems caps the items the items pane keeps in memory: beyond
	// it the pages farthest from the cursor are released and read again when
	// scrolled to. 0 means DefaultMaxLoadedItems; negative, no cap.
	MaxLoadedItems int

	// EntityNames names sort-key entity types: entity prefix ("ORDER#",
	// "PROFILE") -> facet name of a NoSQL Workbench model ("Order").
	EntityNames map[string]string // sort-key entity prefix ("ORDER#", "PROFILE") -> facet name

	// Streams reads the table's stream for the live pane (T); nil turns
	// the pane off.
	Streams LiveStream

	// Editor writes items; nil unless the user allowed writes
	// (--allow-writes, or writes: true on the connection). The UI never
	// writes through Store.
	Editor Editor

	// Rows is the terminal's height at start, 0 when not known: the first
	// page of the partition --pk opens is sized by it (paging.go) before
	// the window's size arrives.
	Rows int

	// Settings are the settings file's: theme, key overrides, the default
	// Limit, the overview's sampling caps, the read price. The zero value
	// means the defaults, with no price (no cost shown).
	Settings config.Settings
}

// Editor is what the UI writes through. *edit.Writer satisfies it, and
// exists only when writes were allowed; Options.Editor is nil otherwise,
// and then no key that edits is enabled.
type Editor interface {
	Apply(ctx context.Context, p *edit.Plan) (edit.Result, error)
	Undo(ctx context.Context, p *edit.Plan, e edit.Entry) (edit.Result, error)
	// ApplyBulk sends a bulk change's plans under one journal entry.
	ApplyBulk(ctx context.Context, plans []*edit.Plan, pace edit.Pace, each func(edit.BulkOutcome)) (edit.BulkResult, error)
	// UndoBulk takes a bulk change's entry back, each item conditional on
	// being as the change left it.
	UndoBulk(ctx context.Context, plans []*edit.Plan, items []edit.EntryItem, e edit.Entry, pace edit.Pace, each func(edit.BulkOutcome)) (edit.BulkResult, error)
	Target() edit.Target
}

// LiveStream is what the live pane needs from DynamoDB Streams;
// *dynamo.StreamClient satisfies it. Both only read.
type LiveStream interface {
	Stream(ctx context.Context, table string) (dynamo.StreamInfo, error)
	Tail(ctx context.Context, info dynamo.StreamInfo, o dynamo.TailOptions, emit func([]dynamo.StreamRecord) error) error
}

// Switched is a connection switched to (Options.Switch): what Options
// holds of a connection, for the UI to start over on it.
type Switched struct {
	Store   Store
	Streams LiveStream // nil: no live pane there
	Editor  Editor     // nil: read-only there
	// Region, Endpoint, Profile and Connection as in Options.
	Region, Endpoint, Profile, Connection string
}
