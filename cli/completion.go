package cli

// `dynascope completion bash|zsh|fish|powershell` prints cobra's completion
// script for the shell. The scripts ask the binary itself what to offer
// (its hidden __complete command), so they follow the command tree: the
// commands, their flags, the fixed choices of a flag, and the values found
// at the moment of completing — tables, indexes, patterns, connections.

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/patterns"
)

// completionTimeout bounds the one request a completion may send: a Tab
// press must not hang on an unreachable endpoint.
const completionTimeout = 2 * time.Second

var shells = []string{"bash", "zsh", "fish", "powershell"}

// completionOptions are the options of `dynascope completion`: the shell.
type completionOptions struct {
	Out   io.Writer
	Root  *cobra.Command // the tree the script completes
	Shell string         // bash | zsh | fish | powershell
}

func newCompletionCmd(f *factory, runF func(context.Context, *completionOptions) error) *cobra.Command {
	const usage = "completion needs a shell: 'dynascope completion bash', 'zsh', 'fish' or 'powershell'."
	return &cobra.Command{
		Use:         "completion bash|zsh|fish|powershell",
		Short:       "print a shell completion script",
		GroupID:     groupSetup,
		Annotations: map[string]string{offline: "yes"},
		Long: `Print the completion script for a shell. It completes commands, flags and
their choices, and asks DynamoDB for table names (--table: one ListTables
request) and index names (--index: the table's cached key schema, else one
DescribeTable), with a time-out of ` + completionTimeout.String() + ` and nothing shown on failure.`,
		Example: `  bash:        source <(dynascope completion bash)
               (or save it as ~/.local/share/bash-completion/completions/dynascope;
               the bash-completion package is used when loaded, not needed)
  zsh:         dynascope completion zsh > "${fpath[1]}/_dynascope"
  fish:        dynascope completion fish > ~/.config/fish/completions/dynascope.fish
  powershell:  dynascope completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: shells,
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usageError{usage}
			case len(args) > 1:
				return usageError{fmt.Sprintf("unexpected argument %q; %s", args[1], usage)}
			case !slices.Contains(shells, args[0]):
				return usageError{fmt.Sprintf("unknown shell %q; %s", args[0], usage)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := &completionOptions{Out: f.Stdout(), Root: cmd.Root(), Shell: args[0]}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runCompletion(cmd.Context(), opts)
		},
	}
}

// runCompletion prints the shell's completion script.
func runCompletion(_ context.Context, opts *completionOptions) error {
	switch opts.Shell {
	case "bash":
		return genBashCompletion(opts.Root, opts.Out)
	case "zsh":
		return opts.Root.GenZshCompletion(opts.Out)
	case "fish":
		return opts.Root.GenFishCompletion(opts.Out, true)
	default:
		return opts.Root.GenPowerShellCompletionWithDesc(opts.Out)
	}
}

// fixedChoices completes a flag from its list of values.
func fixedChoices(choices ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(choices, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeTables offers the tables of the connection given so far on the
// command line: one ListTables request, silent when it fails.
func completeTables(conn *config.Connection) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
		defer cancel()
		client, err := connect(ctx, completionConn(conn))
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names, err := client.ListTables(ctx)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completionConn is the connection of a completion's one request: no
// retries behind a Tab press, no --debug lines among the shell's
// completions, and no MFA prompt (a cached session or nothing).
func completionConn(conn *config.Connection) *config.Connection {
	c := *conn
	c.MaxAttempts, c.Debug, c.MFAToken = 1, dynamo.DebugOff, nil
	return &c
}

// completeIndexes offers the secondary indexes of --table: from the schema
// cache, else one DescribeTable; nothing without --table or on failure.
func completeIndexes(conn *config.Connection) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if conn.Table == "" {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
		defer cancel()
		client, err := connect(ctx, completionConn(conn))
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		t, err := client.TableKeys(ctx, conn.Table)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		for _, ix := range t.Indexes {
			names = append(names, ix.Name)
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completePatternNames offers the names of the patterns file, read from
// *file when completion runs (after --patterns was parsed); no request.
func completePatternNames(file *string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp // one name only
		}
		set, err := patterns.LoadPatterns(*file)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		for _, p := range set.Patterns {
			if strings.HasPrefix(p.Name, toComplete) {
				names = append(names, cobra.CompletionWithDesc(p.Name, p.Description))
			}
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeConnections offers the named connections of the settings file.
func completeConnections(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	names := []string{config.NoConnection}
	if s, err := config.LoadSettings(); err == nil {
		for name := range s.Connections {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
}

func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}
