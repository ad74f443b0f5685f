package main

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/ui"
)

// hostileStrings are what a table may hold to attack a terminal: each kind of
// escape sequence, control characters, bidi overrides, zero-width and wide text.
var hostileStrings = map[string]string{
	"csi":      "\x1b[31mRED\x1b[0m\x1b[2J",
	"osc52":    "\x1b]52;c;cHduZWQ=\x07",
	"title":    "\x1b]0;pwned\x1b\\",
	"dcs":      "\x1bP1$qm\x1b\\",
	"c0":       "bell\x07back\x08nul\x00del\x7f",
	"c1":       "csi\u009b31mnel\u0085",
	"bidi":     "abc\u202eevil\u202c\u2066x\u2069",
	"wide":     "日本語のテキスト😀",
	"zw":       "zero\u200bwidth\u200d",
	"newlines": "line1\nline2\r\n\tend",
}

func hostileItems() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for name, v := range hostileStrings {
		items = append(items, dynamo.Item{
			"PK": s("HOSTILE"), "SK": s("T#" + name + "#" + v),
			"value":                   s(v),
			"attr \x1b[1mname\x1b[0m": s("name attack"),
			"list":                    &types.AttributeValueMemberL{Value: []types.AttributeValue{s(v), &types.AttributeValueMemberN{Value: "12345678901234567890123456789012345678"}}},
			"bin":                     &types.AttributeValueMemberB{Value: []byte("\x1b]52;c;AA==\x07\xff\xfe")},
			"a.b c":                   s(""),
			"ss":                      &types.AttributeValueMemberSS{Value: []string{v, "plain"}},
			"n":                       &types.AttributeValueMemberN{Value: "-0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001"},
			"big":                     &types.AttributeValueMemberN{Value: "9.9999999999999999999999999999999999999E+125"},
		})
	}
	// 30 levels of maps and lists.
	var deep types.AttributeValue = s("\x1b[5mbottom")
	for i := range 30 {
		if i%2 == 0 {
			deep = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k\x1b[0m": deep}}
		} else {
			deep = &types.AttributeValueMemberL{Value: []types.AttributeValue{deep}}
		}
	}
	items = append(items, dynamo.Item{"PK": s("HOSTILE"), "SK": s("U#deep"), "deep": deep})
	// An item of about 390 KB.
	items = append(items, dynamo.Item{"PK": s("HOSTILE"), "SK": s("V#large"), "blob": s(strings.Repeat("\x1b[31mX", 390*1024/6))})
	return items
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// checkTerminalSafe fails when text holds anything a terminal would
// interpret, other than the colour codes of our own styles.
func checkTerminalSafe(t *testing.T, where, text string) {
	t.Helper()
	rest := sgr.ReplaceAllString(text, "")
	if !utf8.ValidString(rest) {
		t.Errorf("%s: invalid UTF-8 reached the terminal", where)
	}
	for i, r := range rest {
		bad := r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad {
			lo := max(0, i-30)
			t.Fatalf("%s: raw %U reached the terminal near %q", where, r, rest[lo:min(len(rest), i+30)])
		}
	}
}

func loadHostile(t *testing.T) (table, ep string, items []dynamo.Item) {
	t.Helper()
	ep = dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.PKSK())
	items = hostileItems()
	for _, it := range items {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put: %v", err)
		}
	}
	return table, ep, items
}

// Hostile items round-trip exactly through JSON and DynamoDB JSON, and the
// table output lets no control byte through.
func TestHostileDataCLI(t *testing.T) {
	table, ep, items := loadHostile(t)
	// What DynamoDB holds, read with the bare SDK: DynamoDB normalises number
	// text (1E+125 comes back written out), and dynascope must print exactly
	// what it holds.
	want := map[string]dynamo.Item{}
	var start dynamo.Item
	for {
		out, err := dynamotest.SDK(t).Query(context.Background(), &dynamodb.QueryInput{
			TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "HOSTILE"}},
			ExclusiveStartKey:         start,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			want[dynamo.KeyString(it["SK"])] = it
		}
		if start = out.LastEvaluatedKey; len(start) == 0 {
			break
		}
	}
	if len(want) != len(items) {
		t.Fatalf("%d items stored, %d put", len(want), len(items))
	}

	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "HOSTILE", "--output", "jsonl", "--dynamodb-json", "--all-pages")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(items) {
		t.Fatalf("%d items back, %d put", len(lines), len(items))
	}
	for _, line := range lines {
		got, err := dynamo.ParseDynamoJSON([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		sk := dynamo.KeyString(got["SK"])
		w := want[sk]
		if !reflect.DeepEqual(got, w) || !bytes.Equal(dynamo.PlainJSON(got), dynamo.PlainJSON(w)) {
			t.Errorf("%q did not round-trip:\n got  %.300s\n want %.300s", sk, dynamo.PlainJSON(got), dynamo.PlainJSON(w))
		}
	}

	out, _, err = cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "HOSTILE", "--output", "json", "--all-pages")
	if err != nil {
		t.Fatal(err)
	}
	var plain queryJSON
	if err := json.Unmarshal([]byte(out), &plain); err != nil {
		t.Fatalf("json output: %v", err)
	}
	for _, raw := range plain.Items {
		var sk struct{ SK string }
		if err := json.Unmarshal(raw, &sk); err != nil {
			t.Fatal(err)
		}
		// Exact but for the layout's white space: escapes and digits as
		// PlainJSON wrote them.
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			t.Fatal(err)
		}
		if w, ok := want[sk.SK]; !ok || compact.String() != string(dynamo.PlainJSON(w)) {
			t.Errorf("plain JSON of %q is not exact", sk.SK)
		}
	}

	out, _, err = cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "HOSTILE", "--output", "table", "--all-pages")
	if err != nil {
		t.Fatal(err)
	}
	checkTerminalSafe(t, "query --output table", out)
	if !strings.Contains(out, `\x1b[31mRED`) {
		t.Errorf("escape sequences must be shown visibly, as \\x1b:\n%.500s", out)
	}
	out, _, err = cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "HOSTILE", "--output", "table")
	if err != nil {
		t.Fatal(err)
	}
	checkTerminalSafe(t, "groups --output table", out)
}

// The UI renders every hostile item, in the list and in its detail, without a
// raw control byte reaching the terminal.
func TestHostileDataUI(t *testing.T) {
	table, ep, items := loadHostile(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := make(chan tea.Msg, 64)
	exec := func(cmd tea.Cmd) {
		if cmd != nil {
			go func() {
				select {
				case msgs <- cmd():
				case <-ctx.Done():
				}
			}()
		}
	}
	var m tea.Model = ui.New(ui.Options{Store: client, Table: table, PK: "HOSTILE", ConfigDir: t.TempDir()})
	update := func(msg tea.Msg) {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		exec(cmd)
	}
	// settle feeds messages back until nothing arrives for a moment.
	settle := func() {
		for {
			select {
			case msg := <-msgs:
				if b, ok := msg.(tea.BatchMsg); ok {
					for _, c := range b {
						exec(c)
					}
					continue
				}
				update(msg)
			case <-time.After(300 * time.Millisecond):
				return
			case <-ctx.Done():
				t.Fatal("the UI did not settle")
			}
		}
	}
	view := func() string { return m.View().Content }
	update(tea.WindowSizeMsg{Width: 120, Height: 35})
	exec(m.Init())
	settle()
	checkTerminalSafe(t, "partition view", view())
	if !strings.Contains(view(), "HOSTILE") {
		t.Fatalf("the partition did not open:\n%s", view())
	}
	update(tea.KeyPressMsg{Code: tea.KeyTab})
	for i := range items {
		update(tea.KeyPressMsg{Code: tea.KeyEnter})
		settle()
		checkTerminalSafe(t, "detail", view())
		// Every hostile item carries an escape in a name or value: the
		// detail shows it as text.
		if !strings.Contains(view(), `\x1b`) {
			t.Errorf("item %d: the detail does not show the escape visibly:\n%s", i, view())
		}
		for range 2 { // plain JSON, then DynamoDB JSON
			update(tea.KeyPressMsg{Code: 't', Text: "t"})
			checkTerminalSafe(t, "detail as JSON", view())
		}
		update(tea.KeyPressMsg{Code: tea.KeyEscape})
		settle()
		checkTerminalSafe(t, "list", view())
		if i < len(items)-1 {
			update(tea.KeyPressMsg{Code: 'j', Text: "j"})
		}
	}
	for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 50}} {
		update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		checkTerminalSafe(t, "resized", view())
	}
}
