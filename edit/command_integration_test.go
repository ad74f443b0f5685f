package edit_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// The aws dynamodb command a plan shows sends the same request: run through
// sh as a user would paste it, it makes the same change, and run a second
// time its condition refuses it, as the plan's own would.
func TestCommandDoesWhatThePlanDoes(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		dynamotest.Need(t, "the AWS CLI (aws)", "awscli")
	}
	f := newFixture(t, "")
	to := edit.Target{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1"}
	item := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#1"), "status": s("OPEN"), "total": n("35.50"), "it's": s("quoted 'name'")}
	moved := clone(item)
	moved["SK"] = s("ORDER#2")
	updated := clone(moved)
	updated["status"] = s("SHIPPED")
	delete(updated, "it's")
	steps := []struct {
		old, new     dynamo.Item
		atOld, atNew dynamo.Item // the items at ORDER#1 and ORDER#2 after
	}{
		{nil, item, item, nil},
		{item, moved, nil, moved},
		{moved, updated, nil, updated},
		{updated, nil, nil, nil},
	}
	for i, st := range steps {
		p := f.plan(st.old, st.new)
		cmd := p.Command(to)
		if out, err := sh(t, cmd); err != nil {
			t.Fatalf("step %d %s: %v\n%s\n%s", i, p.Op, err, cmd, out)
		}
		if got := f.get("CUST#42", "ORDER#1"); !edit.SameItem(got, st.atOld) {
			t.Errorf("step %d %s: ORDER#1 is %s, want %s", i, p.Op, edit.ItemText(got), edit.ItemText(st.atOld))
		}
		if got := f.get("CUST#42", "ORDER#2"); !edit.SameItem(got, st.atNew) {
			t.Errorf("step %d %s: ORDER#2 is %s, want %s", i, p.Op, edit.ItemText(got), edit.ItemText(st.atNew))
		}
		out, err := sh(t, cmd)
		if err == nil || !strings.Contains(out, "ConditionalCheckFailed") {
			t.Errorf("step %d %s sent again: %v\n%s", i, p.Op, err, out)
		}
	}
}

// sh runs a command as a user pasting it would, with no AWS configuration
// of the user's in the way.
func sh(t *testing.T, script string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", script)
	none := filepath.Join(t.TempDir(), "none")
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "AWS_") {
			env = append(env, e)
		}
	}
	c.Env = append(env, "AWS_CONFIG_FILE="+none, "AWS_SHARED_CREDENTIALS_FILE="+none, "AWS_PAGER=")
	out, err := c.CombinedOutput()
	return string(out), err
}
