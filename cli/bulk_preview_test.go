package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
	"dynascope/textfmt"
)

// previewTimeJSON is the preview's predicted WCU, the time at the rate, and
// the first item's write in both forms.
type previewTimeJSON struct {
	Selected     int
	PredictedWCU struct{ Total *float64 }
	Time         *struct {
		PerSecond float64 `json:"wcuPerSecond"`
		Seconds   float64
	}
	Items   []struct{ Key map[string]string }
	Command string
	Boto3   string
}

// archiveOrders is the bulk update the preview tests show: the ORDER items
// of the demo's CUST#7 archived.
func archiveOrders(ep, table string, more ...string) []string {
	return slices.Concat([]string{"update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED"}, more)
}

// The preview of a bulk update on the demo's CUST#7 ORDER items says the
// time the writes take at the rate they would go out at: the same
// predicted WCU over --max-wcu-per-second, so 50 takes four times as long
// as 200; without the flag, over the settings' maxWCUPerSecond, else the
// default (edit.DefaultBulkWCU), each said as such; in text as in JSON,
// the text with the boto3 program under the aws command. Only the read is
// sent.
func TestBulkPreviewTimeAtTheRate(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	fast := filepath.Join(t.TempDir(), "settings.yaml")
	if err := os.WriteFile(fast, []byte("maxWCUPerSecond: 400\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	times := map[float64]float64{}
	var predicted float64
	for _, c := range []struct {
		settings string  // the settings file; config.NoConnection for none
		flag     float64 // --max-wcu-per-second; 0 for none
		want     float64
		from     string
	}{
		{config.NoConnection, 50, 50, "--max-wcu-per-second"},
		{config.NoConnection, 200, 200, "--max-wcu-per-second"},
		{config.NoConnection, 0, edit.DefaultBulkWCU, "the default; --max-wcu-per-second sets it"},
		{fast, 0, 400, "maxWCUPerSecond of the settings; --max-wcu-per-second sets it"},
		{fast, 50, 50, "--max-wcu-per-second"},
	} {
		t.Setenv(config.EnvSettings, c.settings)
		var flag []string
		if c.flag > 0 {
			flag = []string{"--max-wcu-per-second", jsonFloat(c.flag)}
		}
		out, _, err := cli(t, archiveOrders(proxy.URL, table, slices.Concat(flag, []string{"--output", "json"})...)...)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		var p previewTimeJSON
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		if p.PredictedWCU.Total == nil || *p.PredictedWCU.Total < float64(p.Selected) || p.Selected == 0 {
			t.Fatalf("%+v: predicted %v WCU for %d items; want at least 1 an item", c, p.PredictedWCU.Total, p.Selected)
		}
		if predicted == 0 {
			predicted = *p.PredictedWCU.Total
		} else if *p.PredictedWCU.Total != predicted {
			t.Errorf("%+v: predicted %v WCU, and %v at another rate", c, *p.PredictedWCU.Total, predicted)
		}
		if p.Time == nil || p.Time.PerSecond != c.want || math.Abs(p.Time.Seconds-predicted/c.want) > 0.001 {
			t.Fatalf("%+v: time %+v; want %v WCU/s, %v s (%v WCU over it)", c, p.Time, c.want, predicted/c.want, predicted)
		}
		times[c.want] = p.Time.Seconds

		text, _, err := cli(t, archiveOrders(proxy.URL, table, flag...)...)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Duration(predicted / c.want * float64(time.Second))
		if line := "time at " + jsonFloat(c.want) + " WCU per second (" + c.from + "): " + textfmt.AboutTime(d) + ", longer if DynamoDB throttles\n"; !strings.Contains(text, line) {
			t.Errorf("%+v: the text preview lacks %q:\n%s", c, line, text)
		}
		// The program under the aws command is the JSON's, which
		// TestBulkPreviewBoto3DoesWhatDynascopeDoes runs.
		if program := "the same write as a boto3 program (python3):\n" + p.Boto3 + "to send it:"; !strings.Contains(p.Boto3, "update_item(") || !strings.Contains(text, program) {
			t.Errorf("%+v: the text preview lacks the boto3 program %q:\n%s", c, p.Boto3, text)
		}
	}
	if r := times[50] / times[200]; math.Abs(r-4) > 1e-6 {
		t.Errorf("at 50 WCU/s %v s, at 200 %v s: %v times as long, want 4", times[50], times[200], r)
	}
	for _, c := range proxy.Calls() {
		if c.Op != "DescribeTable" && c.Op != "Query" {
			t.Errorf("the preview sent %s; it reads only (DescribeTable, Query)", c.Op)
		}
	}
}

// A bulk change sent without --max-wcu-per-second goes out at the
// settings' maxWCUPerSecond, the rate its preview's time is at.
func TestBulkSentAtTheSettingsRate(t *testing.T) {
	_, table := bulkTable(t, 5, 0)
	settings := filepath.Join(t.TempDir(), "settings.yaml")
	if err := os.WriteFile(settings, []byte("maxWCUPerSecond: 400\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(config.EnvSettings, settings)
	out, _, err := cli(t, "update", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED",
		"--allow-writes", "--yes", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Written struct{ Count int }
		Rate    struct{ MaxPerSecond float64 }
	}
	if err := json.Unmarshal([]byte(out), &sent); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if sent.Written.Count != 5 || sent.Rate.MaxPerSecond != 400 {
		t.Errorf("written %d at most %v WCU/s; want 5 at the settings' 400", sent.Written.Count, sent.Rate.MaxPerSecond)
	}
}

// ownDemo seeds the demo data into a table of the test's own, for a test
// that writes (seededDemo's is shared by tests that read it).
func ownDemo(t *testing.T) (table, endpoint string) {
	t.Helper()
	endpoint = dynamotest.Endpoint(t)
	table = dynamotest.UniqueName("cli-demo-w")
	t.Cleanup(func() { deleteTables(table) })
	if _, _, err := cli(t, "seed", "--demo", "--table", table, "--endpoint-url", endpoint); err != nil {
		t.Fatalf("seed --demo: %v", err)
	}
	return table, endpoint
}

// The boto3 program a bulk preview prints, run with python3 against
// DynamoDB Local, makes the first item's write exactly as dynascope sends
// it: the item after is byte for byte the one dynascope leaves (an update
// with sets of several types, one holding an escape sequence, a removal
// and a rename; a delete), and the program run again is refused by the
// condition on the item as read. The text preview holds the same program.
func TestBulkPreviewBoto3DoesWhatDynascopeDoes(t *testing.T) {
	if exec.Command("python3", "-c", "import boto3").Run() != nil {
		dynamotest.Need(t, "python3 with boto3", "python3-boto3")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	table, ep := ownDemo(t)
	sdk := dynamotest.SDK(t)
	for _, c := range []struct {
		name   string
		change []string
	}{
		{"update", []string{"update", "--set", "status=S:ARCHIVED", "--set", `tags=SS:["a","b"]`, "--set", "archivedAt=N:1733140800.5",
			"--set", "memo=S:it's \"done\" — Zürich\x1b[31m\u202e\t", "--remove", "poNumber", "--rename", "shipTo=address"}},
		{"delete", []string{"delete"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sel := []string{"--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--entity", "ORDER"}
			out, _, err := cli(t, slices.Concat(c.change[:1], sel, c.change[1:], []string{"--output", "json"})...)
			if err != nil {
				t.Fatal(err)
			}
			var p previewTimeJSON
			if err := json.Unmarshal([]byte(out), &p); err != nil {
				t.Fatalf("%v in %s", err, out)
			}
			if len(p.Items) == 0 || !strings.Contains(p.Boto3, "import boto3") {
				t.Fatalf("the preview's first item %v, its program %q", p.Items, p.Boto3)
			}
			// The item data in the program is escaped, so the text
			// preview shows it whole and sends the terminal nothing.
			text, _, err := cli(t, slices.Concat(c.change[:1], sel, c.change[1:])...)
			if err != nil || strings.ContainsAny(text, "\x1b\u202e") || !strings.Contains(text, p.Boto3) {
				t.Errorf("the text preview (%v) has an escape or lacks the program %q:\n%q", err, p.Boto3, text)
			}
			key := p.Items[0].Key
			before := getItem(t, sdk, table, key)
			if before == nil {
				t.Fatalf("the first item %v is not in the table", key)
			}
			if out, err := python(t, p.Boto3); err != nil {
				t.Fatalf("the boto3 program: %v\n%s\n%s", err, out, p.Boto3)
			}
			byBoto3 := getItem(t, sdk, table, key)
			if edit.SameItem(byBoto3, before) {
				t.Fatalf("the boto3 program left %v as it was", key)
			}

			// Put it back as it was read, and let dynascope make the same
			// change to that one item.
			if _, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: before}); err != nil {
				t.Fatal(err)
			}
			one := []string{"--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--sk-eq", key["SK"], "--allow-writes", "--yes"}
			if _, stderr, err := cli(t, slices.Concat(c.change[:1], one, c.change[1:])...); err != nil {
				t.Fatalf("dynascope %s: %v\n%s", c.name, err, stderr)
			}
			byDynascope := getItem(t, sdk, table, key)
			if !edit.SameItem(byBoto3, byDynascope) {
				t.Errorf("after the boto3 program %s\nafter dynascope    %s", edit.ItemText(byBoto3), edit.ItemText(byDynascope))
			}
			if out, err := python(t, p.Boto3); err == nil || !strings.Contains(out, "ConditionalCheckFailed") {
				t.Errorf("the boto3 program sent again, on the item changed since it was read: %v\n%s", err, out)
			}
			if after := getItem(t, sdk, table, key); !edit.SameItem(after, byDynascope) {
				t.Errorf("the refused program changed the item: %s", edit.ItemText(after))
			}
		})
	}
}

// getItem reads an item by its string key, strongly consistent; nil when
// there is none.
func getItem(t *testing.T, sdk *dynamodb.Client, table string, key map[string]string) dynamo.Item {
	t.Helper()
	k := map[string]types.AttributeValue{}
	for name, v := range key {
		k[name] = &types.AttributeValueMemberS{Value: v}
	}
	out, err := sdk.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: k, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Item == nil {
		return nil
	}
	return out.Item
}

// python runs a program with python3 as a user pasting it would: the fake
// credentials DynamoDB Local takes, none of the user's AWS configuration.
func python(t *testing.T, program string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "python3", "-c", program)
	none := filepath.Join(t.TempDir(), "none")
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "AWS_") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=x", "AWS_CONFIG_FILE="+none, "AWS_SHARED_CREDENTIALS_FILE="+none)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
