package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/workbench"
)

// layout --workbench-out, through the helper layout.go calls: the file
// is a model that seed --workbench loads again.
func TestLayoutWorkbenchOut(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	table, _ := seedShop(t, ep)
	out := filepath.Join(t.TempDir(), "model.json")
	fs := pflag.NewFlagSet("layout", pflag.ContinueOnError)
	w := addWorkbenchOut(fs)
	if err := fs.Parse([]string{"--workbench-out", out}); err != nil {
		t.Fatal(err)
	}
	if err := w.check(""); err != nil {
		t.Fatal(err)
	}
	if err := w.check("GSI1"); err == nil {
		t.Error("an index sample must be refused before sampling")
	}
	ctx := context.Background()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	smp, err := client.Sample(ctx, dynamo.SampleInput{Table: table})
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if err := w.write(ctx, client, smp, smp.Layout(0), &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stderr.String(), "wrote "+out+": NoSQL Workbench model of "+table+", 3 facets, 4 example items, 3 requests, ") {
		t.Errorf("stderr: %s", stderr.String())
	}
	m, err := readWorkbench(out, workbench.WorkbenchReadOptions{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tables) != 1 || m.Tables[0].Spec.Name != table || len(m.Tables[0].Facets) != 3 {
		t.Errorf("model: %+v", m)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("file mode: %v %v", st.Mode(), err)
	}
	// The model loads into a new table under another name.
	prefix := dynamotest.UniqueName("wbout") + "-"
	t.Cleanup(func() { deleteTables(prefix + table) })
	if _, _, err := cli(t, "seed", "--endpoint-url", ep, "--workbench", out, "--table-prefix", prefix); err != nil {
		t.Fatal(err)
	}
	// Without the flag nothing is written and nothing read.
	none := addWorkbenchOut(pflag.NewFlagSet("x", pflag.ContinueOnError))
	if err := none.write(ctx, nil, smp, smp.Layout(0), &stderr); err != nil {
		t.Error(err)
	}
}
