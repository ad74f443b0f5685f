package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Arguments become the options of config path and show, completion and
// version through runF, with no network and nothing read.
func TestNewSetupCmds(t *testing.T) {
	stripOut := func(o *configOptions) bool {
		set := o.Out != nil
		o.Out = nil
		return set
	}
	for _, newX := range []func(*factory, func(context.Context, *configOptions) error) *cobra.Command{newConfigPathCmd, newConfigShowCmd} {
		checkOptions(t, newX, stripOut, []optionsCase[configOptions]{
			{args: nil, want: configOptions{}},
			{args: []string{"all"}, usage: "takes no arguments, not \"all\"."},
			{args: []string{"--verbose"}, usage: "verbose"},
		})
	}
	checkOptions(t, newCompletionCmd, func(o *completionOptions) bool {
		set := o.Out != nil && o.Root != nil && o.Root.Name() == "dynascope"
		o.Out, o.Root = nil, nil
		return set
	}, []optionsCase[completionOptions]{
		{args: []string{"bash"}, want: completionOptions{Shell: "bash"}},
		{args: []string{"powershell"}, want: completionOptions{Shell: "powershell"}},
		{args: nil, usage: "completion needs a shell"},
		{args: []string{"tcsh"}, usage: "unknown shell \"tcsh\""},
		{args: []string{"bash", "zsh"}, usage: "unexpected argument \"zsh\""},
	})
	checkOptions(t, newVersionCmd, func(o *versionOptions) bool {
		set := o.Out != nil
		o.Out = nil
		return set
	}, []optionsCase[versionOptions]{
		{args: nil, want: versionOptions{}}, // the test's root has no version
		{args: []string{"now"}, usage: "version takes no arguments, not \"now\"."},
	})
}

// version prints the root's version line, and completion a script of the
// tree it was given.
func TestRunSetupCmds(t *testing.T) {
	var out strings.Builder
	if err := runVersion(context.Background(), &versionOptions{Out: &out, Version: "dynascope v1.2.3 (go)"}); err != nil || out.String() != "dynascope v1.2.3 (go)\n" {
		t.Errorf("version: %q, %v", out.String(), err)
	}
	root := &cobra.Command{Use: "dynascope"}
	root.AddCommand(&cobra.Command{Use: "tables", Run: func(*cobra.Command, []string) {}})
	for _, shell := range shells {
		out.Reset()
		if err := runCompletion(context.Background(), &completionOptions{Out: &out, Root: root, Shell: shell}); err != nil || !strings.Contains(out.String(), "dynascope") {
			t.Errorf("%s: %v\n%.200s", shell, err, out.String())
		}
	}
}
