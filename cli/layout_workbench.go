package cli

// layout --workbench-out: the sampled layout written as a NoSQL Workbench
// model. layout.go registers the flag with addWorkbenchOut and calls
// write after sampling.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
	"dynascope/workbench"
)

// workbenchOut is the --workbench-out flag of `layout`.
type workbenchOut struct{ path *string }

func addWorkbenchOut(fs *pflag.FlagSet) workbenchOut {
	return workbenchOut{fs.String("workbench-out", "", fmt.Sprintf("also write the layout to this `FILE` as a NoSQL Workbench model (format 3.0): a facet per entity type with %d example items, read by one Query each", workbench.WorkbenchSampleItems))}
}

// check refuses, before any request, what cannot be exported.
func (w workbenchOut) check(index string) error {
	if *w.path != "" && index != "" {
		return usageError{"--workbench-out models the table; drop --index to sample the table itself."}
	}
	return nil
}

// write builds the model from the sample and writes it, replacing the file
// only once the model is complete; nothing happens without the flag.
func (w workbenchOut) write(ctx context.Context, client *dynamo.Client, smp dynamo.Sample, lay keys.Layout, stderr io.Writer) error {
	if *w.path == "" {
		return nil
	}
	exp, err := workbench.WorkbenchFromSample(ctx, client, smp, lay, workbench.WorkbenchSampleItems, time.Now())
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(*w.path), ".dynascope-workbench-*.json")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", *w.path, err)
	}
	defer os.Remove(tmp.Name())
	err = workbench.WriteWorkbench(tmp, exp.Model)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), *w.path)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", *w.path, err)
	}
	var rcu float64
	for _, r := range exp.Requests {
		rcu += r.Capacity.Total
	}
	t := exp.Model.Tables[0]
	fmt.Fprintf(stderr, "wrote %s: NoSQL Workbench model of %s, %s, %s, %s, %s RCU\n", *w.path, t.Spec.Name,
		textfmt.Plural(len(t.Facets), "facet", "facets"), textfmt.Plural(len(t.Items), "example item", "example items"),
		textfmt.Plural(len(exp.Requests), "request", "requests"), jsonFloat(rcu))
	if exp.Dropped > 0 {
		fmt.Fprintf(stderr, "  left out %s whose attribute types differ from earlier ones (Workbench takes one type per attribute)\n", textfmt.Plural(exp.Dropped, "item", "items"))
	}
	return nil
}
