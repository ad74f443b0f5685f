package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

const entityPatterns = "cli/testdata/patterns-entities.yaml"

// 39.1: patterns that name an entity take its templates and its typed
// parameters in list, run, check and show.
func TestPatternsWithEntities(t *testing.T) {
	atTop(t)
	out, _, err := runPatterns(t, "list", "--patterns", entityPatterns)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	for i, want := range []string{
		`pk = "CUST#{customerId}", sk begins_with "ORDER#", entity Order|customerId (number)`,
		`pk = "CUST#{customerId}", sk eq "PROFILE", entity Customer|customerId (number)`,
		`pk = "CUST#{customerId}", sk eq "ORDER#{orderDate}#{orderId}", entity Order|customerId (number), orderDate (date), orderId (text)`,
		`pk = "WH#{warehouseId}", sk begins_with "OPEN#", on GSI1, entity Order|warehouseId (number)`,
	} {
		request, params, _ := strings.Cut(want, "|")
		if len(lines) < i+2 || !strings.Contains(lines[i+1], request+"  ") || !strings.Contains(lines[i+1], "  "+params) {
			t.Errorf("list line %d, want %s and %s:\n%s", i+1, request, params, out)
		}
	}
	out, _, err = runPatterns(t, "list", "--patterns", entityPatterns, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Patterns []struct {
			Name   string
			Entity *string
			Types  map[string]string
		}
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if p := list.Patterns[2]; p.Entity == nil || *p.Entity != "Order" || p.Types["orderDate"] != "date" || p.Types["orderId"] != "text" {
		t.Errorf("list JSON: %+v", list.Patterns)
	}

	table, ep := seededDemo(t)
	conn := []string{"--patterns", entityPatterns, "--table", table, "--endpoint-url", ep}
	out, _, err = runPatterns(t, append([]string{"run", "orders"}, conn...)...)
	if err != nil {
		t.Fatal(err)
	}
	q := decodeQuery(t, out)
	if got := sortKeys(t, q.Items); strings.Join(got, ",") != "ORDER#2025-01-09#A11,ORDER#2025-03-01#A17" || q.KeyCondition != `PK = "CUST#42" AND begins_with(SK, "ORDER#")` {
		t.Errorf("run orders: %v %s", got, q.KeyCondition)
	}
	out, _, err = runPatterns(t, append([]string{"run", "profile"}, conn...)...)
	if q := decodeQuery(t, out); err != nil || len(q.Requests) != 1 || q.Requests[0].Operation != "GetItem" || q.KeyCondition != `PK = "CUST#42" AND SK = "PROFILE"` {
		t.Errorf("run profile: %v %+v", err, q)
	}
	_, _, err = runPatterns(t, append([]string{"run", "one order", "--param", "orderDate=2025-3-1"}, conn...)...)
	if err == nil || err.Error() != `pattern "one order": orderDate is "2025-3-1", which is not a date (YYYY-MM-DD) (entity Order).` {
		t.Errorf("a parameter of the wrong type: %v", err)
	}
	out, _, err = runPatterns(t, append([]string{"check", "--output", "json"}, conn...)...)
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	c := decodeCheck(t, out)
	if len(c.Patterns) != 4 || !c.OneRequest || c.Patterns[2].Operation != "GetItem" || c.Patterns[2].Items != 1 || c.Patterns[3].Index == nil {
		t.Errorf("check: %+v", c)
	}
	out, _, err = runPatterns(t, append([]string{"show", "warehouse queue", "--lang", "cli"}, conn...)...)
	if err != nil || !strings.Contains(out, "--index-name GSI1") || !strings.Contains(out, `"WH#1"`) || !strings.Contains(out, `"OPEN#"`) {
		t.Errorf("show: %v\n%s", err, out)
	}
}
