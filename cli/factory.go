package cli

// The factory: what a command needs from the outside world — a client, a
// writer, a file, the output streams — as funcs called only when needed, so
// that building a command and checking its flags takes no connection and a
// test can hand a command its options without DynamoDB.

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"dynascope/codegen"
	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
)

// factory is handed to every command constructor; its funcs are called by
// the command's run function, never by the constructor.
type factory struct {
	// Conn holds the connection flags' values (the table among them); the
	// root fills it in while parsing, so it is read only at run time.
	Conn *config.Connection
	// Connect builds the read-only client.
	Connect func(context.Context) (*dynamo.Client, error)
	// ConnectSettings is Connect that also returns the settings file's
	// values, for the commands they shape (budgets, price, confirmation).
	ConnectSettings func(context.Context) (*dynamo.Client, config.Settings, error)
	// Settings reads the settings file (and the connection it names)
	// without connecting: for flags whose defaults come from it.
	Settings func() (config.Settings, error)
	// ConnectStreams builds the read-only Streams client beside client,
	// for tail.
	ConnectStreams func(context.Context, *dynamo.Client) (*dynamo.StreamClient, error)
	// ConnectWriter builds the writer of guarded editing; call it only once
	// writes were allowed (--allow-writes or the settings file).
	ConnectWriter func(context.Context) (*edit.Writer, error)
	// ConnectSeeder builds the write-capable client of seed, which creates
	// tables and loads items (and refuses a table that holds items).
	ConnectSeeder func(context.Context) (dynamo.WriteAPI, error)
	// CodeTarget is where printed code sends its request (region,
	// endpoint, profile), from the flags, the settings file and the SDK's
	// configuration, without a request or credentials (dynamo.CodeTarget).
	CodeTarget func(context.Context) (codegen.CodeTarget, error)
	// OpenFile opens a file the user named for reading.
	OpenFile func(name string) (io.ReadCloser, error)
	// Stdin is what a command reads when told to read standard input.
	Stdin func() io.Reader
	// Stdout and Stderr are the command's output streams.
	Stdout, Stderr func() io.Writer
	// MFA asks for the codes of MFA profiles on the terminal; the UI tells
	// it when the terminal is the UI's.
	MFA *mfaPrompter
	// Global holds the persistent flags that are not the connection's;
	// like Conn, read only at run time.
	Global *globalFlags
}

// lazyWriter writes to the writer its func returns at the time of writing:
// root's stderr is set after the factory is built.
type lazyWriter func() io.Writer

func (w lazyWriter) Write(p []byte) (int, error) { return w().Write(p) }

// newFactory is the production factory: the connection as the flags and
// the settings file give it, and the streams root was given. --debug
// writes to root's stderr (the UI's log file instead: runUI), and an MFA
// code is asked on the terminal (mfa.go).
func newFactory(conn *config.Connection, root *cobra.Command) *factory {
	mfa := newMFAPrompter()
	conn.DebugTo = lazyWriter(root.ErrOrStderr)
	conn.MFAToken = mfa.ask
	global := &globalFlags{Color: "auto"}
	return &factory{
		Conn:    conn,
		MFA:     mfa,
		Global:  global,
		Connect: func(ctx context.Context) (*dynamo.Client, error) { return connect(ctx, conn) },
		ConnectSettings: func(ctx context.Context) (*dynamo.Client, config.Settings, error) {
			return connectWithSettings(ctx, conn)
		},
		Settings: func() (config.Settings, error) {
			_, s, err := conn.Resolve()
			return s, err
		},
		ConnectStreams: streamsOf(conn),
		ConnectWriter:  func(ctx context.Context) (*edit.Writer, error) { return openWriter(ctx, conn) },
		ConnectSeeder:  func(ctx context.Context) (dynamo.WriteAPI, error) { return connectWriter(ctx, conn) },
		CodeTarget: func(ctx context.Context) (codegen.CodeTarget, error) {
			o, _, err := conn.Resolve()
			if err != nil {
				return codegen.CodeTarget{}, err
			}
			region, endpoint, err := dynamo.CodeTarget(ctx, o)
			return codegen.CodeTarget{Region: region, Endpoint: endpoint, Profile: o.Profile}, err
		},
		OpenFile: func(name string) (io.ReadCloser, error) { return os.Open(name) },
		Stdin:    root.InOrStdin,
		// The document layer holds back what a command prints when --query
		// or --output text or yaml formats it (document.go).
		Stdout: func() io.Writer { return global.Doc.writer(root.OutOrStdout()) },
		Stderr: root.ErrOrStderr,
	}
}
