package cli

// `dynascope --version`: the release from `git describe` (set by the
// Makefile), else the module version Go stamped, and the commit the binary
// was built from.

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// buildVersion describes the binary in one line: version, commit, build
// time when known, and the Go toolchain and platform.
func buildVersion(b Build, info *debug.BuildInfo, ok bool) string {
	v, c, when, dirty := b.Version, b.Commit, "", false
	if ok {
		if v == "" && info.Main.Version != "" {
			v = info.Main.Version // "(devel)" for a plain build outside a module version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if c == "" {
					c = s.Value
				}
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	var parts []string
	if c != "" {
		if dirty && !strings.HasSuffix(v, "dirty") && !strings.HasSuffix(c, "dirty") {
			c += "-dirty"
		}
		parts = append(parts, "commit "+c)
	}
	if when != "" {
		parts = append(parts, "committed "+when)
	}
	parts = append(parts, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("dynascope %s (%s)", v, strings.Join(parts, ", "))
}

// versionOptions are the options of `dynascope version`: no flags.
type versionOptions struct {
	Out     io.Writer
	Version string // the root command's version line (buildVersion)
}

func newVersionCmd(f *factory, runF func(context.Context, *versionOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Short:       "print the version and commit (as --version does)",
		GroupID:     groupSetup,
		Annotations: map[string]string{offline: "yes"},
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Sprintf("version takes no arguments, not %q.", args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := &versionOptions{Out: f.Stdout(), Version: cmd.Root().Version}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runVersion(cmd.Context(), opts)
		},
	}
}

// runVersion prints the version line.
func runVersion(_ context.Context, opts *versionOptions) error {
	_, err := fmt.Fprintln(opts.Out, opts.Version)
	return err
}
