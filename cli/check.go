package cli

// `dynascope check`: the table against its design, for CI. Every pattern
// run as `patterns check` runs it, held to its ceilings (maxRCU:,
// maxItemBytes:), and the drift of a bounded, announced sample from the
// declared entities. Exit 0 when all holds, 1 when a pattern or a ceiling
// fails, 3 when only drift was found.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"dynascope/dynamo"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// exitDrift is check's exit code when every pattern holds and the sample
// drifted from the declarations: CI can tell it from a failure (1).
const exitDrift = 3

// driftError is check's end when drift alone was found: its sentence, and
// exit code 3.
type driftError struct{ msg string }

func (e driftError) Error() string { return e.msg }

// checkRunOptions are the flag values of `dynascope check`.
type checkRunOptions struct {
	Connect  func(context.Context) (*dynamo.Client, error)
	Out, Err io.Writer
	Table    string  // --table; "" for the file's table:
	File     string  // --patterns
	Models   string  // --models: the application's models in place of the file's entities
	MaxItems int     // the drift sample's item cap
	MaxRCU   float64 // the drift sample's budget
	Output   string  // text | json | junit | github
}

func newCheckCmd(f *factory, runF func(context.Context, *checkRunOptions) error) *cobra.Command {
	opts := &checkRunOptions{Connect: f.Connect}
	cmd := &cobra.Command{
		Use:     "check",
		Short:   "for CI: every pattern held to its ceilings, and the table's drift from its declared entities",
		GroupID: groupExplore,
		Long: `Check the table against the patterns file, as CI would: every pattern runs
with its example as 'patterns check' runs it (one request, what a filter
keeps), held to its ceilings — maxRCU: (the most the run may consume) and
maxItemBytes: (the largest item it may return). When the file declares
entities:, a bounded sample of whole items (a Scan; its caps are said before
it starts, and it stops at them) is checked against them: keys no declared
template matches (counted by shape, with a guess at why), declared entities
never seen, items of an entity missing one of its declared index keys (they
are silently not in that index), and parameters that break their declared
type.

Exit status: 0 when all holds, 1 when a pattern or a ceiling fails, 3 when
the patterns hold and only drift was found (so CI can choose). --output
junit prints JUnit XML (one test case per pattern and per drift finding),
--output github GitHub Actions annotations on the patterns file's lines.`,
		Example: `  dynascope check --table App
  dynascope check --patterns ci/dynascope.yaml --max-rcu 500 --output junit > check.xml
  dynascope check --output github`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	patternsFileFlag(cmd, &opts.File)
	modelsFlag(cmd, &opts.Models)
	fs.IntVar(&opts.MaxItems, "max-items", dynamo.DefaultSampleItems, "the drift sample reads at most `N` items (the settings' sampling: maxItems replaces the default)")
	sampleRCUFlag(fs, &opts.MaxRCU)
	outputFlag(cmd, &opts.Output, "text", "", "text", "json", "junit", "github")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		settings, err := f.Settings()
		if err != nil {
			return err
		}
		if err := sampleCaps(fs, settings.Sampling, &opts.MaxItems, &opts.MaxRCU); err != nil {
			return err
		}
		opts.Table, opts.Out, opts.Err = f.Conn.Table, f.Stdout(), f.Stderr()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return runCheck(cmd.Context(), opts)
	}
	return cmd
}

// checkReport is what a check found: the runs of the patterns with their
// ceilings, and the drift of the sample.
type checkReport struct {
	Table, File string
	Runs        []patternRun
	Drift       []patterns.Drift
	// Sample is the drift sample; nil when the file declares no entities.
	Sample *checkSample
}

// checkSample is what the drift sample read, against what it announced.
type checkSample struct {
	Items    int
	Requests []dynamo.Request
	MaxItems int
	MaxRCU   float64
	Stop     dynamo.StopReason
	Complete bool
}

// runCheck runs the patterns, samples the table, and ends with the exit
// the findings ask for.
func runCheck(ctx context.Context, opts *checkRunOptions) error {
	set, client, t, err := patternTable(ctx, opts.Connect, opts.Table, opts.File, opts.Models)
	if err != nil {
		return err
	}
	if err := set.Validate(t); err != nil {
		return err
	}
	if err := set.CheckEntities(t); err != nil {
		return err
	}
	rep := &checkReport{Table: t.Name, File: opts.File}
	// What it reads, said before it reads: each pattern once, with its
	// example, and the sample within its caps.
	fmt.Fprintf(opts.Err, "check of table %s: %s with their examples", textfmt.Sanitize(t.Name), textfmt.Plural(len(set.Patterns), "pattern", "patterns"))
	if set.HasEntities() {
		fmt.Fprintf(opts.Err, ", then a drift sample of up to %d items / %s RCU (whole items, one Scan)\n", opts.MaxItems, jsonFloat(opts.MaxRCU))
	} else {
		fmt.Fprintf(opts.Err, "; the file declares no entities:, so no drift sample\n")
	}
	if rep.Runs, err = runEveryPattern(ctx, client, t, set); err != nil {
		return err
	}
	if set.HasEntities() {
		items, res, err := dynamo.SampleItems(ctx, client.Scan, t.Name, opts.MaxItems, opts.MaxRCU)
		if err != nil {
			return err
		}
		rep.Sample = &checkSample{Items: len(items), Requests: res.Requests, MaxItems: opts.MaxItems, MaxRCU: opts.MaxRCU,
			Stop: res.Stop, Complete: res.Stop == dynamo.StopComplete}
		rep.Drift = set.Drift(t, items, rep.Sample.Complete)
	}
	var b bytes.Buffer
	switch opts.Output {
	case "json":
		writeCheckReportJSON(&b, rep)
	case "junit":
		if err := writeCheckJUnit(&b, rep); err != nil {
			return err
		}
	case "github":
		writeCheckGitHub(&b, rep)
	default:
		writeCheckReportText(&b, rep)
	}
	if _, err := opts.Out.Write(b.Bytes()); err != nil {
		return err
	}
	return rep.end()
}

// checkVerdict is one pattern's verdict under check: patterns check's
// (one request, what a filter keeps), then its ceilings.
type checkVerdict struct {
	OK      bool
	Verdict string
	// RCU is what the run consumed; nil when DynamoDB did not say.
	RCU *float64
	// Field is the ceiling field that failed ("maxRCU", "maxItemBytes"),
	// "" when none did: the line a CI annotation points at.
	Field string
}

// checkVerdictOf holds a run to its pattern's ceilings.
func checkVerdictOf(r patternRun) checkVerdict {
	v, ok := r.verdict()
	cv := checkVerdict{OK: ok, Verdict: v}
	c := capacityOfRequests(r.res.Requests)
	if !c.unknown && !c.atLeast && len(r.res.Requests) > 0 {
		rcu := c.Total
		cv.RCU = &rcu
	}
	ceil := r.pattern.Ceilings
	var fails []string
	if ceil.RCU != nil && r.err == nil && len(r.res.Requests) > 0 {
		switch {
		case cv.RCU == nil:
			fails = append(fails, fmt.Sprintf("DynamoDB did not say what it cost, so its ceiling of %s RCU (maxRCU) is not proven", jsonFloat(*ceil.RCU)))
			cv.Field = "maxRCU"
		case *cv.RCU > *ceil.RCU:
			fails = append(fails, fmt.Sprintf("it cost %s RCU, over its ceiling of %s (maxRCU)", jsonFloat(*cv.RCU), jsonFloat(*ceil.RCU)))
			cv.Field = "maxRCU"
		}
	}
	if ceil.ItemBytes != nil && r.largest > *ceil.ItemBytes {
		fails = append(fails, fmt.Sprintf("it returned an item of %s, over its ceiling of %s (maxItemBytes)", byteCount(r.largest), byteCount(*ceil.ItemBytes)))
		if cv.Field == "" {
			cv.Field = "maxItemBytes"
		}
	}
	if len(fails) > 0 {
		sep := "; "
		if ok {
			sep = ", but "
		}
		cv.Verdict += sep + strings.Join(fails, "; ")
		cv.OK = false
	}
	return cv
}

// byteCount writes a size in bytes as a sentence does: "1,234 bytes".
func byteCount(n int) string {
	return textfmt.Plural(n, "byte", "bytes")
}

// line is the patterns file's line a run's finding points at: the
// ceiling that failed, else the pattern.
func (v checkVerdict) line(p patterns.Pattern) int {
	if v.Field != "" {
		return p.CeilingLine(v.Field)
	}
	return p.Line
}

// end is the check's exit: nil when all holds, an error (exit 1) naming
// the patterns that fail, else a driftError (exit 3) when the sample
// drifted.
func (rep *checkReport) end() error {
	var bad []string
	for _, r := range rep.Runs {
		if v := checkVerdictOf(r); !v.OK {
			bad = append(bad, fmt.Sprintf("%q", r.pattern.Name))
		}
	}
	drift := ""
	if n := len(rep.Drift); n > 0 {
		drift = fmt.Sprintf("the sample drifted from the declared entities (%s)", textfmt.Plural(n, "finding", "findings"))
	}
	switch {
	case len(bad) > 0 && drift != "":
		return fmt.Errorf("%d of %d patterns fail the check (%s), and %s.", len(bad), len(rep.Runs), strings.Join(bad, ", "), drift)
	case len(bad) > 0:
		return fmt.Errorf("%d of %d patterns fail the check: %s.", len(bad), len(rep.Runs), strings.Join(bad, ", "))
	case drift != "":
		return driftError{fmt.Sprintf("every pattern holds, but %s.", drift)}
	}
	return nil
}
