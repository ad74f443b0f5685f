package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dynascope/dynamo/dynamotest"
)

// Commands that need no request send none. Everything a run can ask for
// without naming data runs here with a connection that would work, to a
// proxy that records every request: --help of every command (read from the
// command tree, so a new command is covered), completion of every flag
// whose values are a fixed list and of pattern names, patterns list, and
// patterns show once the table's keys are cached. Completing --table and
// --index lists the connection's tables and indexes, one request each:
// those are the two left out.
func TestCommandsThatNeedNoRequestSendNone(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	useFakeCredentials(t)
	proxy := dynamotest.StartProxy(t, ep)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", proxy.URL)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())

	// show may describe the table once, to cache its keys; from then on
	// its code needs no request.
	show := []string{"patterns", "show", "latest order", "--lang", "cli", "--table", table}
	if _, _, err := cli(t, show...); err != nil {
		t.Fatal(err)
	}
	warm := len(proxy.Calls())

	runs := [][]string{show, {"patterns", "list"}, {"--help"}}
	dynamic := []string{"table", "index"}
	for c := range walk(commandTree()) {
		path := strings.Fields(cmdName(c))
		runs = append(runs, append(slices.Clone(path), "--help"))
		complete := func(f *pflag.Flag) {
			if _, ok := c.GetFlagCompletionFunc(f.Name); ok && !slices.Contains(dynamic, f.Name) {
				runs = append(runs, slices.Concat([]string{cobra.ShellCompRequestCmd}, path, []string{"--" + f.Name, ""}))
			}
		}
		c.LocalFlags().VisitAll(complete)
		c.InheritedFlags().VisitAll(complete)
		if c.ValidArgsFunction != nil {
			runs = append(runs, slices.Concat([]string{cobra.ShellCompRequestCmd}, path, []string{""}))
		}
	}
	completed := 0
	for _, args := range runs {
		before := len(proxy.Calls())
		out, errOut, err := cli(t, args...)
		if err != nil {
			t.Errorf("dynascope %q: %v\n%s", args, err, errOut)
			continue
		}
		if n := len(proxy.Calls()) - before; n != 0 {
			t.Errorf("dynascope %q sent %d requests: %v", args, n, proxy.Ops()[before:])
		}
		switch {
		case args[0] == cobra.ShellCompRequestCmd:
			// A completion that offers nothing would pass for the wrong
			// reason: each offers its values, then cobra's directive line.
			if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) < 2 {
				t.Errorf("dynascope %q offered nothing:\n%s", args, out)
			}
			completed++
		case args[len(args)-1] == "--help" && !strings.Contains(out, "Usage:"):
			t.Errorf("dynascope %q printed no usage:\n%s", args, out)
		}
	}
	if completed < 10 {
		t.Errorf("%d completions checked; the tree has more fixed lists than that", completed)
	}
	if n := len(proxy.Calls()); n > warm+0 {
		t.Errorf("%d requests after the keys were cached", n-warm)
	}
}
