package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// 39.3: with entities declared, groups names each type by the declaration
// its keys match, and marks the others undeclared, in text and JSON.
func TestGroupsNamesTypesByDeclarations(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	out, _, err := runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "CUST#42", "--patterns", entityPatterns)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Groups []struct {
			Entity   string
			Declared *bool
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, g := range got.Groups {
		if g.Declared == nil || !*g.Declared {
			t.Errorf("%s: declared %v, want true", g.Entity, g.Declared)
		}
		names = append(names, g.Entity)
	}
	if strings.Join(names, ",") != "Order,Customer" {
		t.Errorf("CUST#42's types: %v", names)
	}
	out, _, err = runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--patterns", entityPatterns, "--output", "table")
	if err != nil || !strings.Contains(out, "\n~ITEM ") || !strings.Contains(out, "\n~SHIPMENT ") {
		t.Errorf("undeclared types in text: %v\n%s", err, out)
	}
	out, _, err = runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--patterns", entityPatterns)
	if err != nil || strings.Count(out, `"declared": false`) != 2 {
		t.Errorf("undeclared types in JSON: %v\n%s", err, out)
	}
	// Without declarations nothing changes: no mark, no field.
	out, _, err = runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--output", "table")
	if err != nil || strings.Contains(out, "~") || !strings.Contains(out, "\nITEM ") {
		t.Errorf("groups without declarations: %v\n%s", err, out)
	}
}

// runCommand runs any dynascope command in-process.
func runCommand(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}
