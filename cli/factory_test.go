package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"dynascope/codegen"
	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/edit"
)

// testFactory is a factory whose connections fail the test when called:
// arguments become options without a request.
func testFactory(t *testing.T, conn *config.Connection, stdout, stderr io.Writer) *factory {
	return &factory{
		Conn: conn,
		Connect: func(context.Context) (*dynamo.Client, error) {
			t.Error("the command connected while its flags were read")
			return nil, errors.New("no connection in this test")
		},
		ConnectSettings: func(context.Context) (*dynamo.Client, config.Settings, error) {
			t.Error("the command connected while its flags were read")
			return nil, config.Settings{}, errors.New("no connection in this test")
		},
		Settings:   func() (config.Settings, error) { return config.Settings{}, nil }, // the defaults
		CodeTarget: func(context.Context) (codegen.CodeTarget, error) { return codegen.CodeTarget{}, nil },
		ConnectStreams: func(context.Context, *dynamo.Client) (*dynamo.StreamClient, error) {
			t.Error("the command connected while its flags were read")
			return nil, errors.New("no connection in this test")
		},
		ConnectWriter: func(context.Context) (*edit.Writer, error) {
			t.Error("the command opened a writer while its flags were read")
			return nil, errors.New("no writer in this test")
		},
		ConnectSeeder: func(context.Context) (dynamo.WriteAPI, error) {
			t.Error("the command opened a writer while its flags were read")
			return nil, errors.New("no writer in this test")
		},
		OpenFile: func(string) (io.ReadCloser, error) {
			t.Error("the command opened a file while its flags were read")
			return nil, errors.New("no file in this test")
		},
		Stdin:  func() io.Reader { return strings.NewReader("") },
		Stdout: func() io.Writer { return stdout },
		Stderr: func() io.Writer { return stderr },
		MFA:    newMFAPrompter(),
		Global: &globalFlags{Color: "auto"},
	}
}

// cmdOptions runs the command newX builds under a root that reads the
// connection flags and turns flag mistakes into usage errors, as
// newRootCmd and runBuild do, and returns what runF got (nil when runF was not
// reached), the connection and the error.
func cmdOptions[O any](t *testing.T, newX func(*factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, *config.Connection, error) {
	t.Helper()
	return cmdOptionsWith(t, newX, nil, args...)
}

// cmdOptionsWith is cmdOptions with the test factory changed by adjust
// (nil for none) before the command is built.
func cmdOptionsWith[O any](t *testing.T, newX func(*factory, func(context.Context, *O) error) *cobra.Command, adjust func(*factory), args ...string) (*O, *config.Connection, error) {
	t.Helper()
	var conn config.Connection
	var got *O
	root := &cobra.Command{Use: "dynascope", SilenceErrors: true, SilenceUsage: true}
	gofs := flag.NewFlagSet("dynascope", flag.ContinueOnError)
	conn.Register(gofs)
	root.PersistentFlags().AddGoFlagSet(gofs)
	root.AddGroup(&cobra.Group{ID: groupExplore, Title: "Explore"}, &cobra.Group{ID: groupWrite, Title: "Write"}, &cobra.Group{ID: groupSetup, Title: "Setup"})
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{flagSentence(c, err)} })
	var stdout, stderr strings.Builder
	f := testFactory(t, &conn, &stdout, &stderr)
	if adjust != nil {
		adjust(f)
	}
	cmd := newX(f, func(_ context.Context, o *O) error { got = o; return nil })
	root.AddCommand(cmd)
	line := append([]string{cmd.Name()}, args...)
	root.SetArgs(line)
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	if err := takePairs(root, line); err != nil { // as runBuild does: --sk-between LOW HIGH
		return got, &conn, err
	}
	err := root.ExecuteContext(context.Background())
	return got, &conn, err
}

// wantUsage checks that err is a usage error (exit code 2) saying want,
// and that the command did not run.
func wantUsage(t *testing.T, args []string, ran bool, err error, want string) {
	t.Helper()
	var ue usageError
	if ran || !errors.As(err, &ue) || exitCode(false, err) != 2 || !strings.Contains(err.Error(), want) {
		t.Errorf("%q: ran %v, err %v; want a usage error with %q", args, ran, err, want)
	}
}

// The production factory writes where the root was told to write: what
// Main and the tests give run.
func TestNewFactory(t *testing.T) {
	var conn config.Connection
	root := &cobra.Command{Use: "dynascope"}
	var out, errOut strings.Builder
	root.SetOut(&out)
	root.SetErr(&errOut)
	f := newFactory(&conn, root)
	io.WriteString(f.Stdout(), "out")
	io.WriteString(f.Stderr(), "err")
	if out.String() != "out" || errOut.String() != "err" || f.Conn != &conn {
		t.Errorf("stdout %q, stderr %q, conn %p (want %p)", out.String(), errOut.String(), f.Conn, &conn)
	}
	if _, err := f.OpenFile("/nonexistent/dynascope-file"); err == nil {
		t.Error("opening a missing file gave no error")
	}
}

// optionsCase is one row of a TestNewXCmd table: the arguments, and either
// the options runF should get or the usage error expected instead.
type optionsCase[O any] struct {
	args  []string
	want  O
	usage string // the usage error expected; "" for none
}

// checkOptions runs each case through cmdOptions; strip clears what is
// not compared (the factory's funcs and the streams), saying whether all
// of it was set.
func checkOptions[O any](t *testing.T, newX func(*factory, func(context.Context, *O) error) *cobra.Command, strip func(*O) bool, cases []optionsCase[O]) {
	t.Helper()
	for _, c := range cases {
		got, _, err := cmdOptions(t, newX, c.args...)
		if c.usage != "" {
			wantUsage(t, c.args, got != nil, err, c.usage)
			continue
		}
		if err != nil || got == nil {
			t.Errorf("%q: err %v, ran %v", c.args, err, got != nil)
			continue
		}
		if !strip(got) {
			t.Errorf("%q: a client or stream missing in %+v", c.args, got)
		}
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%q:\n%+v, want\n%+v", c.args, *got, c.want)
		}
	}
}
