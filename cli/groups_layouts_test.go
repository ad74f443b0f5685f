package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// `dynascope groups` over one partition of each layout of the list:
// skip-scan finds the same types, with exact counts, whatever the keys look like.
func TestGroupsCommandLayouts(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	type want struct {
		delimiter any // nil when the output says null
		groups    []string
		first     any // first key of the first group, as JSON decodes it
	}
	wants := map[string]want{
		"delimiter hash":       {"#", []string{"ORDER[ORDER#]=2", "PROFILE[PROFILE]=1"}, "ORDER#2025-01-09#A11"},
		"delimiter pipe":       {"|", []string{"ORDER[ORDER|]=2", "PROFILE[PROFILE]=1"}, "ORDER|2025-01-09|A11"},
		"delimiter colon":      {":", []string{"ORDER[ORDER:]=2", "PROFILE[PROFILE]=1"}, "ORDER:2025-01-09:A11"},
		"delimiter slash":      {"/", []string{"ORDER[ORDER/]=2", "PROFILE[PROFILE]=1"}, "ORDER/2025-01-09/A11"},
		"no delimiters":        {"#", []string{"PROFILE[PROFILE]=1", "SETTINGS[SETTINGS]=1", "version[]=2"}, "PROFILE"}, // v0, v1: one version group (36.7)
		"lower-case key names": {"#", []string{"post[post#]=2", "profile[profile]=1"}, "post#2025-01-01#p1"},
		"numeric sort key":     {nil, []string{"NUMBER[]=3"}, -5.25},
		// The partition's one item, found with one Limit 1 query.
		"no sort key": {nil, []string{"USER[]=1"}, nil},
		// groups knows no ElectroDB: the collection prefix is the type.
		"ElectroDB": {"#", []string{"$organization[$organization#]=3"}, "$organization#team_1"},
		// A leading delimiter names the type after it.
		"dynamodb-toolbox": {"#", []string{"META[#META]=1", "ORDER[ORDER#]=1"}, "#META"},
	}
	for _, c := range layoutCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w, ok := wants[c.name]
			if !ok {
				t.Fatalf("no expectation for %s", c.name)
			}
			table := makeCase(t, c)
			var out, errb bytes.Buffer
			if err := run(context.Background(), []string{"groups", "--endpoint-url", ep, "--table", table, "--pk", c.pk, "--count"}, &out, &errb); err != nil {
				t.Fatalf("%v\n%s", err, errb.String())
			}
			var got struct {
				Table     string         `json:"table"`
				Index     *string        `json:"index"`
				Partition map[string]any `json:"partition"`
				Delimiter any            `json:"delimiter"`
				Groups    []struct {
					Entity, Prefix, Kind string
					Count                *int
					First, Last          any
				} `json:"groups"`
				Complete         bool            `json:"complete"`
				Continue         any             `json:"continue"`
				Requests         int             `json:"requests"`
				ConsumedCapacity capacityJSONOut `json:"consumedCapacity"`
			}
			dec := json.NewDecoder(&out)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			groups := []string{}
			for _, g := range got.Groups {
				groups = append(groups, fmt.Sprintf("%s[%s]=%d", g.Entity, g.Prefix, *g.Count))
			}
			if !reflect.DeepEqual(groups, w.groups) || got.Delimiter != w.delimiter {
				t.Errorf("groups %q delimiter %v, want %q %v", groups, got.Delimiter, w.groups, w.delimiter)
			}
			if !got.Complete || got.Continue != nil {
				t.Errorf("complete %v continue %v: a small partition is found within the budget", got.Complete, got.Continue)
			}
			if len(got.Groups) > 0 && got.Groups[0].First != w.first {
				t.Errorf("first key %#v, want %#v", got.Groups[0].First, w.first)
			}
			pkName := *c.def.KeySchema[0].AttributeName
			// Without a sort key a partition is one item: one request finds it.
			if got.Partition[pkName] != c.pk || got.Table != table || got.Requests == 0 || c.name == "no sort key" && got.Requests != 1 {
				t.Errorf("partition %v table %s requests %d", got.Partition, got.Table, got.Requests)
			}
		})
	}
}
