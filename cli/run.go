package cli

// Running one command line and its exit code: what main does, without
// exiting.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/textfmt"
)

// Build is what the linker stamped into the binary: the version from git
// describe and the commit (-ldflags "-X main.version=… -X main.commit=…").
// Empty fields mean "ask the build info".
type Build struct {
	Version, Commit string
}

// Main runs one command line and returns the process's exit code: 0 done,
// 1 a failure at run time, 2 a mistake in the command line, 130 stopped by
// a signal. ctx is cancelled by the signals that stop a command (main's
// signal context); an error is printed to stderr as one sentence.
func Main(ctx context.Context, b Build, args []string, stdout, stderr io.Writer) int {
	boundStreams = true // this process is this run's alone
	err := runBuild(ctx, b, args, stdout, stderr)
	if err == nil {
		return 0
	}
	signalled := ctx.Err() != nil
	msg := err.Error()
	if signalled {
		msg = namingTheSignal(msg, stoppedBy(ctx)())
	}
	fmt.Fprintln(stderr, "dynascope: "+textfmt.Sanitize(msg))
	if goOn := goOnOf(err); goOn != "" {
		fmt.Fprintln(stderr, goOn) // the last line: a read or a change stopped short
	}
	return exitCode(signalled, err)
}

// namingTheSignal says which signal stopped a command whose sentence only
// says it was cancelled (the requests in flight were, by the signal's
// context): "query CUST#7 on App: stopped by SIGTERM.", never "cancelled."
// or Go's "context canceled" alone.
func namingTheSignal(msg, by string) string {
	if rest, ok := strings.CutSuffix(msg, ": cancelled."); ok {
		return rest + ": stopped by " + by + "."
	}
	return strings.ReplaceAll(msg, context.Canceled.Error(), "stopped by "+by)
}

// Exit codes: 0 done, 1 a failure at run time, 2 a mistake in the command
// line, 130 stopped by a signal (SIGINT, SIGTERM or SIGHUP; 128 + SIGINT's
// number, as shells report Ctrl-C), whatever was written then incomplete.
const exitInterrupted = 130

func exitCode(signalled bool, err error) int {
	var ue usageError
	switch {
	case errors.As(err, &ue):
		return 2
	case signalled:
		return exitInterrupted
	}
	return 1
}

// run runs one command line: what main does, without exiting; the tests'
// way in.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runBuild(ctx, Build{}, args, stdout, stderr)
}

// runBuild is run for a binary stamped with b.
func runBuild(ctx context.Context, b Build, args []string, stdout, stderr io.Writer) error {
	if args == nil {
		args = []string{} // cobra would read os.Args instead
	}
	root, doc := newRootTree(b)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := takePairs(root, args); err != nil {
		return err
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{goStyleFlag(args, err, flagSentence(c, err))}
	})
	err := root.ExecuteContext(ctx)
	// A read stopped short has printed its document before its error: it
	// is formatted all the same, as the AWS CLI prints what it read.
	if ferr := doc.finish(); ferr != nil && err == nil {
		err = ferr
	}
	return err
}
