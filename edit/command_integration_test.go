package edit_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

// The aws dynamodb command a plan shows sends the same request, and so
// does its boto3 program: run as a user would paste it, each makes the
// same change, and run a second time its condition refuses it, as the
// plan's own would.
func TestCommandDoesWhatThePlanDoes(t *testing.T) {
	for _, form := range []struct {
		name string
		code func(*edit.Plan, edit.Target) string
		run  func(*testing.T, string) (string, error)
	}{
		{"aws", (*edit.Plan).Command, func(t *testing.T, code string) (string, error) {
			if _, err := exec.LookPath("aws"); err != nil {
				dynamotest.Need(t, "the AWS CLI (aws)", "awscli")
			}
			return sh(t, code)
		}},
		{"boto3", (*edit.Plan).Boto3, func(t *testing.T, code string) (string, error) {
			if exec.Command("python3", "-c", "import boto3").Run() != nil {
				dynamotest.Need(t, "python3 with boto3", "python3-boto3")
			}
			return run(t, "python3", "-c", code)
		}},
	} {
		t.Run(form.name, func(t *testing.T) {
			f := newFixture(t, "")
			to := edit.Target{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1"}
			item := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#1"), "status": s("OPEN"), "total": n("35.50"), "it's": s("quoted 'name' \"too\""),
				"tags":  &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
				"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1e3"), &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberBOOL{Value: false}}},
				"ship":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"city": s("Zürich\n"), "ns": &types.AttributeValueMemberNS{Value: []string{"0.1", "2"}}}}}
			if form.name == "boto3" {
				// Binaries in boto3 only: the AWS CLI v1 on this machine
				// reads a blob in JSON input as its text, not base64 (its
				// cli_binary_format), and stores the base64 itself.
				item["raw"] = &types.AttributeValueMemberB{Value: []byte{0, 1, 'x', 0xff}}
				item["bins"] = &types.AttributeValueMemberBS{Value: [][]byte{{1}, {'"'}}}
			}
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
				code := form.code(p, to)
				if out, err := form.run(t, code); err != nil {
					t.Fatalf("step %d %s: %v\n%s\n%s", i, p.Op, err, code, out)
				}
				if got := f.get("CUST#42", "ORDER#1"); !edit.SameItem(got, st.atOld) {
					t.Errorf("step %d %s: ORDER#1 is %s, want %s", i, p.Op, edit.ItemText(got), edit.ItemText(st.atOld))
				}
				if got := f.get("CUST#42", "ORDER#2"); !edit.SameItem(got, st.atNew) {
					t.Errorf("step %d %s: ORDER#2 is %s, want %s", i, p.Op, edit.ItemText(got), edit.ItemText(st.atNew))
				}
				out, err := form.run(t, code)
				if err == nil || !strings.Contains(out, "ConditionalCheckFailed") && !strings.Contains(out, "TransactionCanceled") {
					t.Errorf("step %d %s sent again: %v\n%s", i, p.Op, err, out)
				}
			}
		})
	}
}

// sh runs a command as a user pasting it would, with no AWS configuration
// of the user's in the way.
func sh(t *testing.T, script string) (string, error) {
	return run(t, "sh", "-c", script)
}

// run runs a program so, its output and error.
func run(t *testing.T, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
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
