// Package cli is dynascope's command line: the command tree on cobra (one
// file per command), its flags, its output formats, and Main, which runs one
// command line and returns the exit code. It may import every library
// package of dynascope; nothing imports it but main.go, which only wires the
// signal context and the exit.
package cli
