package cli

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// The README's tutorial runs as written outside the demo too (issue
// 37.13: its step 2 said `dynascope --table App --pk 'CUST#42'`, which
// outside the demo answers "no AWS region is set"). Every dynascope command
// in its backticks is read by the command tree as it stands, and each one
// that reads a table names the endpoint the tutorial starts ($EP).
func TestReadmeTutorialCommands(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Tutorial")
	end := strings.Index(text[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no ## Tutorial section")
	}
	tutorial := strings.ReplaceAll(text[start:start+1+end], "\n", " ")
	if !strings.Contains(tutorial, "EP=$(scripts/dynamodb-local.sh start)") {
		t.Error("the tutorial does not say where $EP comes from")
	}
	// Commands that need no table: they read only local files.
	offline := map[string]bool{"patterns list": true}
	n := 0
	for _, m := range regexp.MustCompile("`(dynascope [^`]+)`").FindAllStringSubmatch(tutorial, -1) {
		line := m[1]
		const ep = "http://127.0.0.1:8000" // what $EP holds
		args := shellWords(t, strings.ReplaceAll(strings.TrimPrefix(line, "dynascope "), "$EP", ep))
		root := commandTree()
		c, rest, err := root.Find(args)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if err := c.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		n++
		if offline[cmdName(c)] {
			continue
		}
		if f := c.Flags().Lookup("endpoint-url"); f == nil || f.Value.String() != ep {
			t.Errorf("%s: reads a table but names no --endpoint-url $EP; outside the demo it says no AWS region is set", line)
		}
	}
	if n < 4 {
		t.Errorf("%d commands found in the tutorial; it has more", n)
	}
}

// shellWords splits a command as a shell would, for the README's simple
// quoting: 'single quotes' and bare words.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	for _, m := range regexp.MustCompile(`'([^']*)'|(\S+)`).FindAllStringSubmatch(s, -1) {
		if m[2] != "" {
			words = append(words, m[2])
		} else {
			words = append(words, m[1])
		}
	}
	return words
}

// The README's rule for a table without a sort key (issue 37.12) holds
// as written: each `NAME` for `KEY` example of its sentence is what
// `groups` and `layout` name that partition key's item (before, groups
// said "item" where the README said "user").
func TestReadmeNamesPartitionKeyOnlyItems(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	const rule = "On a table without a sort key, an item is named by its partition key's family"
	at := strings.Index(text, rule)
	if at < 0 {
		t.Fatalf("README.md lost the sentence %q", rule)
	}
	sentence := text[at : at+strings.Index(text[at:], ").")]
	examples := regexp.MustCompile("`([^`]+)` for `([^`]+)`").FindAllStringSubmatch(sentence, -1)
	if len(examples) < 2 {
		t.Fatalf("the sentence %q gives %d examples; want the README's two", sentence, len(examples))
	}
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	for _, e := range examples {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table),
			Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: e[2]}}}); err != nil {
			t.Fatal(err)
		}
	}
	lay, layErr, err := cli(t, "layout", "--endpoint-url", ep, "--table", table, "--output", "json")
	if err != nil {
		t.Fatalf("%v: %s", err, layErr)
	}
	for _, e := range examples {
		name, pk := e[1], e[2]
		if got, _, _ := groupsOf(t, ep, table, pk); len(got) != 1 || got[0] != name+"[]=1" {
			t.Errorf("groups --pk %s names %q; the README says %s", pk, got, name)
		}
		if !strings.Contains(lay, `"entity": "`+name+`"`) {
			t.Errorf("layout does not name %s's family %s as the README does: %s", pk, name, lay)
		}
	}
}
