package cli

// A Workbench model's load said before it happens: --repair, which reads the
// values published models get wrong, --dry-run, which says what a load
// would create and load and writes nothing, and the line that tallies what
// was loaded, skipped and repaired.

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"dynascope/textfmt"
	"dynascope/workbench"
)

// repairFlag declares --repair, the same on seed and demo.
func repairFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVar(p, "repair", false, `with --workbench: read the values published models get wrong (a doubled {"M": {"M": …}}, plain JSON inside an M or an L as document values) and name each repair, per item, before anything is written`)
}

// workbenchTally is the line after a load of a model (verb: "loaded", or
// "would load"): how many of its items, how many skipped and repaired,
// and how many of the skipped --repair reads; "" when nothing was skipped
// or repaired and --skip-invalid was not asked.
func workbenchTally(m workbench.WorkbenchModel, tables []workbench.WorkbenchTable, verb string, skipInvalid bool) string {
	if !skipInvalid && len(m.Skipped) == 0 && len(m.Repaired) == 0 {
		return ""
	}
	n := 0
	for _, t := range tables {
		n += len(t.Items)
	}
	line := fmt.Sprintf("%s %d of %d items; %d skipped", verb, n, n+len(m.Skipped), len(m.Skipped))
	if m.Repairable > 0 {
		line += fmt.Sprintf(" (--repair reads %d of them)", m.Repairable)
	}
	if len(m.Repaired) > 0 {
		line += fmt.Sprintf("; %s repaired", textfmt.Plural(len(m.Repaired), "item", "items"))
	}
	return line
}

// dryRunWorkbench says what a load of the model would create and load; the
// notes, skips and repairs were said as the model was read.
func dryRunWorkbench(out io.Writer, m workbench.WorkbenchModel, tables []workbench.WorkbenchTable) {
	for _, t := range tables {
		var ix []string
		for _, i := range t.Spec.GSIs {
			ix = append(ix, i.Name)
		}
		indexes := "no secondary indexes"
		if len(ix) > 0 {
			indexes = "indexes " + strings.Join(ix, ", ")
		}
		fmt.Fprintf(out, "would create table %s (%s, %s) and load %s\n", textfmt.Sanitize(t.Spec.Name), keyText(t.Spec), textfmt.Sanitize(indexes), textfmt.Plural(len(t.Items), "item", "items"))
	}
	if line := workbenchTally(m, tables, "would load", false); line != "" {
		fmt.Fprintln(out, line)
	}
	fmt.Fprintln(out, "nothing was written (--dry-run)")
}
