package cli

import (
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// No request whose answer is known: tables --table names its one table,
// so it describes that table and lists none.
func TestTablesTableSendsNoListTables(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	out, _, err := cli(t, "tables", "--endpoint-url", proxy.URL, "--table", table)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, table) {
		t.Errorf("tables --table %s printed:\n%s", table, out)
	}
	if ops := proxy.Ops(); !slices.Equal(ops, []string{"DescribeTable"}) {
		t.Errorf("tables --table sent %v, want one DescribeTable", ops)
	}
	// A table that is not there is still said so, from its DescribeTable.
	_, _, err = cli(t, "tables", "--endpoint-url", proxy.URL, "--table", table+"-none")
	if err == nil || !strings.Contains(err.Error(), table+"-none") {
		t.Errorf("tables --table of a missing table: %v", err)
	}
	if n := proxy.Count("ListTables"); n != 0 {
		t.Errorf("%d ListTables sent", n)
	}
}

// query --all-pages sends one DescribeTable, the one its estimate is
// read from (item count and size, which the schema cache does not hold:
// they are the figures the announced bound rests on), and it also serves
// the key names: no second one, with the keys cached or not.
func TestQueryAllPagesDescribesOnce(t *testing.T) {
	table, ep := seededDemo(t)
	useFakeCredentials(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	proxy := dynamotest.StartProxy(t, ep)
	for _, run := range []string{"cold cache", "warm cache"} {
		before := len(proxy.Ops())
		if _, _, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--all-pages", "--output", "jsonl"); err != nil {
			t.Fatal(err)
		}
		ops := proxy.Ops()[before:]
		if n := slices.Index(ops, "Query"); n != 1 || ops[0] != "DescribeTable" || slices.Contains(ops[1:], "DescribeTable") {
			t.Errorf("%s: query --all-pages sent %v, want one DescribeTable, then Queries", run, ops)
		}
	}
}
