package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/patterns"
)

// Arguments become the options of patterns list, run, show and check
// through runF, with no network and without reading the file.
func TestNewPatternsCmds(t *testing.T) {
	file := patterns.PatternsFile
	checkOptions(t, newPatternsListCmd, func(o *patternsListOptions) bool {
		set := o.Out != nil
		o.Out = nil
		return set
	}, []optionsCase[patternsListOptions]{
		{args: nil, want: patternsListOptions{File: file, Output: "table"}},
		{args: []string{"--patterns", "other.yaml", "--output", "json"}, want: patternsListOptions{File: "other.yaml", Output: "json"}},
		{args: []string{"--output", "jsonl"}, usage: "--output takes table, json, text or yaml"},
		{args: []string{"latest order"}, usage: "unexpected argument"},
	})

	ref := func(table, file, name string, params map[string]string) patternRef {
		return patternRef{Table: table, File: file, Name: name, Params: params}
	}
	checkOptions(t, newPatternsRunCmd, func(o *patternsRunOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil && slices.Contains(o.Line, o.Name)
		o.Connect, o.Out, o.Err, o.Line = nil, nil, nil, nil
		return set
	}, []optionsCase[patternsRunOptions]{
		{args: []string{"latest order"}, want: patternsRunOptions{patternRef: ref("", file, "latest order", nil), Output: "json"}},
		{args: []string{"--param", "customerId=42", "latest order", "--param", "day=", "--table", "App", "--patterns", "p.yaml"},
			want: patternsRunOptions{patternRef: ref("App", "p.yaml", "latest order", map[string]string{"customerId": "42", "day": ""}), Output: "json"}},
		{args: []string{"x", "--output", "table", "--dynamodb-json"}, want: patternsRunOptions{patternRef: ref("", file, "x", nil), Output: "table", DDBJSON: true}},
		{args: nil, usage: "patterns run needs a pattern name"},
		{args: []string{"latest", "order"}, usage: "quote a pattern name that has spaces: dynascope patterns run 'latest order'"},
		{args: []string{"x", "--param", "customerId"}, usage: "--param takes KEY=VALUE"},
		{args: []string{"x", "--param", "=1"}, usage: "--param takes KEY=VALUE"},
		{args: []string{"x", "--param", "a=1", "--param", "a=2"}, usage: "--param a is given twice"},
		{args: []string{"x", "--output", "csv"}, usage: "--output takes json, jsonl, table, text or yaml"},
		{args: []string{"x", "--start-key", `{"PK":"CUST#7","SK":"ORDER#1"}`, "--limit", "5"}, want: patternsRunOptions{patternRef: ref("", file, "x", nil), Output: "json", StartKey: `{"PK":"CUST#7","SK":"ORDER#1"}`, Limit: 5}},
		{args: []string{"x", "--start-key", "CUST#7"}, usage: "--start-key"},
		{args: []string{"x", "--limit", "-1"}, usage: "--limit takes a whole number from 1 to 2147483647 (or 0 for the pattern's), not -1."},
	})

	checkOptions(t, newPatternsShowCmd, func(o *patternsShowOptions) bool {
		set := o.Connect != nil && o.CodeTarget != nil && o.Out != nil
		o.Connect, o.CodeTarget, o.Out = nil, nil, nil
		return set
	}, []optionsCase[patternsShowOptions]{
		{args: []string{"latest order"}, want: patternsShowOptions{patternRef: ref("", file, "latest order", nil), Langs: codegen.CodeLangs}},
		{args: []string{"latest order", "--lang", "cli", "--param", "customerId=7"},
			want: patternsShowOptions{patternRef: ref("", file, "latest order", map[string]string{"customerId": "7"}), Langs: []codegen.CodeLang{codegen.LangCLI}}},
		{args: []string{"x", "--lang", "go", "--table", "App"}, want: patternsShowOptions{patternRef: ref("App", file, "x", nil), Langs: []codegen.CodeLang{codegen.LangGo}}},
		{args: []string{"x", "--lang", "java"}, usage: "--lang must be cli, python or go, not \"java\"."},
		{args: nil, usage: "patterns show needs a pattern name"},
	})

	checkOptions(t, newPatternsCheckCmd, func(o *patternsCheckOptions) bool {
		set := o.Connect != nil && o.Out != nil
		o.Connect, o.Out = nil, nil
		return set
	}, []optionsCase[patternsCheckOptions]{
		{args: nil, want: patternsCheckOptions{File: file, Output: "table"}},
		{args: []string{"--table", "App", "--patterns", "ci.yaml", "--output", "json"}, want: patternsCheckOptions{Table: "App", File: "ci.yaml", Output: "json"}},
		{args: []string{"--output", "jsonl"}, usage: "--output takes table, json, text or yaml"},
		{args: []string{"latest order"}, usage: "unexpected argument"},
	})
}

// run and show say a pattern name the file does not hold, with the
// nearest name, and a file without a table, before they connect.
func TestPatternsValidateBeforeConnecting(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "dynascope.yaml")
	yaml := "table: App\npatterns:\n  - name: latest order\n    pk: \"CUST#{customerId}\"\n    example: {customerId: \"42\"}\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	noTable := filepath.Join(dir, "notable.yaml")
	if err := os.WriteFile(noTable, []byte(strings.Replace(yaml, "table: App\n", "", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	connect := func(context.Context) (*dynamo.Client, error) {
		t.Error("connected before the pattern was checked")
		return nil, errors.New("no connection in this test")
	}
	ctx := context.Background()
	for _, c := range []struct {
		ref  patternRef
		want string
	}{
		{patternRef{File: file, Name: "lastest order"}, `no pattern "lastest order" (did you mean "latest order"?)`},
		{patternRef{File: noTable, Name: "latest order"}, "has no table: line; add one or pass --table NAME."},
		{patternRef{File: filepath.Join(dir, "missing.yaml"), Name: "latest order"}, "missing.yaml"},
	} {
		var out, errOut strings.Builder
		errRun := runPatternsRun(ctx, &patternsRunOptions{Connect: connect, Out: &out, Err: &errOut, patternRef: c.ref, Output: "json"})
		errShow := runPatternsShow(ctx, &patternsShowOptions{Connect: connect, Out: &out, patternRef: c.ref, Langs: []codegen.CodeLang{codegen.LangCLI}})
		for _, err := range []error{errRun, errShow} {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: %v, want %q", c.ref, err, c.want)
			}
		}
		if out.Len() > 0 || errOut.Len() > 0 {
			t.Errorf("%+v printed %q %q", c.ref, out.String(), errOut.String())
		}
	}
}
