// Package cli is dynascope's command line: the command tree on cobra (one
// file per command), its flags, its output formats, and Main, which runs one
// command line and returns the exit code. It may import every library
// package of dynascope; nothing imports it but main.go, which only wires the
// signal context and the exit.
//
// Each command has an xOptions struct (its flag values, and funcs and
// writers for what it needs from outside), newXCmd(f, runF), which reads
// the flags straight into the options, checks them and fills the rest from
// the factory (factory.go), and runX(ctx, opts), which does the work,
// reading opts.X, and connects only through the options. A flag value of
// our own (flagvalues.go: the one --output, --limit, --max-rcu's two
// kinds) refuses a bad value as the line is read, in its one sentence. A
// flag mistake is a usageError (exit code 2) before any request; each
// command's TestNewXCmd checks arguments → options through runF with a
// factory that fails the test if anything connects. ARCHITECTURE.md
// describes the pattern.
package cli
