package cli

import (
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// The suspect-word warning costs no request: with a cold key-schema cache a
// query whose filter holds `OPEN` sends what the same query with "OPEN"
// sends (its DescribeTable is the one the read needs for its keys), and
// with a warm cache neither sends a DescribeTable.
func TestSuspectFilterSendsNoMoreRequests(t *testing.T) {
	table, ep := seededDemo(t)
	useFakeCredentials(t)
	proxy := dynamotest.StartProxy(t, ep)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", proxy.URL)
	ops := func(filter string) ([]string, string) {
		before := len(proxy.Calls())
		_, errOut, err := cli(t, "query", "--table", table, "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--filter", filter, "--output", "jsonl")
		if err != nil {
			t.Fatalf("query --filter %q: %v\n%s", filter, err, errOut)
		}
		return proxy.Ops()[before:], errOut
	}
	for _, warm := range []bool{false, true} {
		// Each query starts from the same cache: empty, or holding the
		// table's keys.
		fresh := func() {
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			if warm {
				if _, _, err := cli(t, "query", "--table", table, "--pk", "CUST#42", "--output", "jsonl"); err != nil {
					t.Fatal(err)
				}
			}
		}
		fresh()
		quoted, quietErr := ops(`status = "OPEN"`)
		fresh()
		bare, warnErr := ops(`status = OPEN`)
		if !slices.Equal(quoted, bare) {
			t.Errorf("warm cache %v: the suspect filter sent %v, the quoted one %v", warm, bare, quoted)
		}
		if warm == slices.Contains(bare, "DescribeTable") {
			t.Errorf("warm cache %v: the suspect filter sent %v", warm, bare)
		}
		if strings.Contains(quietErr, "warning") || !strings.Contains(warnErr, `warning: --filter: OPEN is read as an attribute name`) {
			t.Errorf("warm cache %v: stderr quoted %q, bare %q", warm, quietErr, warnErr)
		}
	}
}
