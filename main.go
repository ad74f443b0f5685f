// Command dynascope is a terminal explorer for DynamoDB tables built with
// single-table design. This file is wiring only: the signal context, the
// version the linker stamps, and the exit. The command line is package cli;
// main is the only place that may exit the process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"dynascope/cli"
)

// version and commit are set at link time by `make build` / `make install`:
// -ldflags "-X main.version=$(git describe --always --dirty)". Empty means
// "ask the build info", which `go install` and `go build` fill from the
// module and the VCS checkout.
var (
	version = ""
	commit  = ""
)

func main() {
	// SIGINT, SIGTERM and SIGHUP cancel the command's context: it stops,
	// prints what it has, and exits 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := cli.Main(ctx, cli.Build{Version: version, Commit: commit}, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
