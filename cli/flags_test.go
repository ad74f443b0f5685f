package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command's --output is the one enum flag: its help lists the
// formats it takes, and any other word is refused before anything runs, in
// the one sentence that lists them.
func TestOutputFlagEverywhere(t *testing.T) {
	t.Parallel()
	seen := 0
	eachFlag(newRootCmd(Build{}), "output", func(c *cobra.Command, f *pflag.Flag) {
		seen++
		e, ok := unwrap(f.Value).(*enumValue)
		if !ok {
			t.Errorf("%s: --output is a %T, not the enum flag", c.CommandPath(), unwrap(f.Value))
			return
		}
		if !strings.Contains(f.Usage, "FORMAT: "+strings.Join(e.values, " | ")) || !e.allows(f.DefValue) {
			t.Errorf("%s: --output's help %q (default %q) does not list %v", c.CommandPath(), f.Usage, f.DefValue, e.values)
		}
		args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "dynascope")), "--output", "x\x1bml")
		err := run(context.Background(), args, &strings.Builder{}, &strings.Builder{})
		want := "--output takes " + orList(e.values) + `, not "x\x1bml".`
		if err == nil || err.Error() != want || exitCode(false, err) != 2 {
			t.Errorf("%q: err %v (exit code %d); want the usage error %q", args, err, exitCode(false, err), want)
		}
	})
	if seen < 18 {
		t.Errorf("found --output on %d commands; want the 18 that print more than one format", seen)
	}
}

// eachFlag calls do with every command under root that has the flag name.
func eachFlag(root *cobra.Command, name string, do func(*cobra.Command, *pflag.Flag)) {
	for _, sub := range root.Commands() {
		eachFlag(sub, name, do)
	}
	if f := root.Flags().Lookup(name); f != nil {
		do(root, f)
	}
}

func TestOrList(t *testing.T) {
	t.Parallel()
	for words, want := range map[string]string{"json": "json", "text json": "text or json", "json jsonl table": "json, jsonl or table"} {
		if got := orList(strings.Fields(words)); got != want {
			t.Errorf("orList(%q) = %q, want %q", words, got, want)
		}
	}
}

// --max-rcu means one thing per kind of command, and its help says which:
// a read's cap, or a sample's budget. A command that adds it picks one.
func TestMaxRCUOneMeaningPerKind(t *testing.T) {
	t.Parallel()
	kinds := map[string]string{
		"dynascope query": "the read's cap: ", "dynascope scan": "the read's cap: ", "dynascope partiql": "the read's cap: ",
		"dynascope groups": "the read's cap: ",
		"dynascope layout": "the sample's budget: ", "dynascope index try": "the sample's budget: ", "dynascope check": "the sample's budget: ",
	}
	seen := map[string]bool{}
	eachFlag(newRootCmd(Build{}), "max-rcu", func(c *cobra.Command, f *pflag.Flag) {
		seen[c.CommandPath()] = true
		want, ok := kinds[c.CommandPath()]
		_, isCap := unwrap(f.Value).(*readCapValue)
		switch {
		case !ok:
			t.Errorf("%s has --max-rcu of no kind: declare it by readCapFlag or sampleRCUFlag, and list it here", c.CommandPath())
		case !strings.HasPrefix(f.Usage, want) || isCap != (want == "the read's cap: "):
			t.Errorf("%s: --max-rcu is a %T with help %q; want %q", c.CommandPath(), unwrap(f.Value), f.Usage, want)
		}
	})
	for path := range kinds {
		if !seen[path] {
			t.Errorf("%s has no --max-rcu", path)
		}
	}
}
