package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	"dynascope/itemcodec"
	"dynascope/textfmt"
	"dynascope/ui"
)

// hostileStrings are what a table may hold to attack a terminal: each kind of
// escape sequence and string control (7-bit and C1), control characters,
// bidi overrides, marks and isolates, line separators, zero-width and wide
// text. None holds '#': each is also an entity name, the first segment of a
// sort key.
var hostileStrings = map[string]string{
	"csi":      "\x1b[31mRED\x1b[0m\x1b[2J",
	"osc52":    "\x1b]52;c;cHduZWQ=\x07",
	"title":    "\x1b]0;pwned\x1b\\",
	"dcs":      "\x1bP1$qm\x1b\\",
	"apc":      "\x1b_apc payload\x1b\\",
	"pm":       "\x1b^pm payload\x1b\\",
	"sos":      "\x1bXsos payload\x1b\\",
	"c1str":    "\u009fapc\u009c\u009epm\u009c\u0098sos\u009c\u0090dcs\u009c\u009d0;t\u0007",
	"c0":       "bell\x07back\x08nul\x00del\x7f",
	"c1":       "csi\u009b31mnel\u0085",
	"bidi":     "abc\u202eevil\u202c\u2066x\u2069",
	"marks":    "left\u200eto\u200fright\u061c",
	"lsep":     "line\u2028para\u2029end",
	"wide":     "日本語のテキスト😀",
	"zw":       "zero\u200bwidth\u200d",
	"newlines": "line1\nline2\r\n\tend",
}

// hostilePK is the partition key of every hostile item: escape sequences
// and a bidi override in the key itself.
const hostilePK = "HOSTILE\x1b[31m\u202e\x1b]0;t\x07\u2028"

// hostileItems are the hostile data; with harmless, the same items (same
// attributes, shapes and count) with plain text in place of every hostile
// string.
func hostileItems(harmless bool) (pk string, items []dynamo.Item) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	plain := func(name, v string) string {
		if harmless {
			return "plain " + name
		}
		return v
	}
	pk = plain("pk", hostilePK)
	for name, v := range hostileStrings {
		v := plain(name, v)
		items = append(items, dynamo.Item{
			// The entity name (first segment) is hostile too.
			"PK": s(pk), "SK": s(v + "#" + name + "#" + v),
			"value": s(v),
			plain("attrname", "attr \x1b[1mname\x1b[0m"): s("name attack"),
			"attr " + v: s(v),
			"list":      &types.AttributeValueMemberL{Value: []types.AttributeValue{s(v), &types.AttributeValueMemberN{Value: "12345678901234567890123456789012345678"}}},
			"bin":       &types.AttributeValueMemberB{Value: []byte(plain("bin", "\x1b]52;c;AA==\x07\xff\xfe"))},
			"a.b c":     s(""),
			"ss":        &types.AttributeValueMemberSS{Value: []string{v, "plain"}},
			"map":       &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{v: s(v)}},
			"n":         &types.AttributeValueMemberN{Value: "-0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001"},
			"big":       &types.AttributeValueMemberN{Value: "9.9999999999999999999999999999999999999E+125"},
		})
	}
	// 30 levels of maps and lists.
	var deep types.AttributeValue = s(plain("bottom", "\x1b[5mbottom"))
	for i := range 30 {
		if i%2 == 0 {
			deep = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{plain("k", "k\x1b[0m"): deep}}
		} else {
			deep = &types.AttributeValueMemberL{Value: []types.AttributeValue{deep}}
		}
	}
	items = append(items, dynamo.Item{"PK": s(pk), "SK": s("U#deep"), "deep": deep})
	// An item of about 390 KB.
	items = append(items, dynamo.Item{"PK": s(pk), "SK": s("V#large"), "blob": s(strings.Repeat(map[bool]string{false: "\x1b[31mX", true: "plainX"}[harmless], 390*1024/6))})
	return pk, items
}

// escapeRE finds terminal escape sequences: CSI, string controls (OSC, DCS,
// APC, PM, SOS) up to their terminator, and any other ESC with the byte
// after it.
var escapeRE = regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]|\x1b[\\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\\\)?|\x1b[\\s\\S]?")

// checkTerminalSafe fails when text holds an escape sequence that is not in
// allowed (nil: none at all), or any other byte or code point a terminal
// would interpret or that would reorder or break the line.
func checkTerminalSafe(t *testing.T, where, text string, allowed map[string]bool) {
	t.Helper()
	for _, seq := range escapeRE.FindAllString(text, -1) {
		if !allowed[seq] {
			i := strings.Index(text, seq)
			t.Fatalf("%s: escape sequence %q, which the program's own styles do not produce, reached the terminal near %q", where, seq, text[max(0, i-30):min(len(text), i+30)])
		}
	}
	rest := escapeRE.ReplaceAllString(text, "")
	if !utf8.ValidString(rest) {
		t.Errorf("%s: invalid UTF-8 reached the terminal", where)
	}
	for i, r := range rest {
		bad := r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x061c ||
			r == 0x200b || r == 0x200e || r == 0x200f || r >= 0x2028 && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad {
			lo := max(0, i-30)
			t.Fatalf("%s: raw %U reached the terminal near %q", where, r, rest[lo:min(len(rest), i+30)])
		}
	}
}

// checkNoEscape fails on any ESC byte, C1 control or bidi control: the CLI
// has no colour, so no format may hold one (JSON writes them as \u escapes).
func checkNoEscape(t *testing.T, where, text string) {
	t.Helper()
	if i := strings.IndexByte(text, 0x1b); i >= 0 {
		t.Fatalf("%s: an ESC byte reached the output near %q", where, text[max(0, i-30):min(len(text), i+30)])
	}
	for i, r := range text {
		if r >= 0x80 && r <= 0x9f || r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("%s: raw %U reached the output near %q", where, r, text[max(0, i-30):min(len(text), i+30)])
		}
	}
}

func loadHostile(t *testing.T, harmless bool) (table, ep, pk string, items []dynamo.Item) {
	t.Helper()
	ep = dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.PKSK())
	pk, items = hostileItems(harmless)
	for _, it := range items {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put: %v", err)
		}
	}
	return table, ep, pk, items
}

// Hostile items round-trip exactly through JSON and DynamoDB JSON, and no
// output format of any command lets an ESC byte or another control through.
func TestHostileDataCLI(t *testing.T) {
	table, ep, pk, items := loadHostile(t, false)
	// What DynamoDB holds, read with the bare SDK: DynamoDB normalises number
	// text (1E+125 comes back written out), and dynascope must print exactly
	// what it holds.
	want := map[string]dynamo.Item{}
	var start dynamo.Item
	for {
		out, err := dynamotest.SDK(t).Query(context.Background(), &dynamodb.QueryInput{
			TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: pk}},
			ExclusiveStartKey:         start,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			want[itemcodec.KeyString(it["SK"])] = it
		}
		if start = out.LastEvaluatedKey; len(start) == 0 {
			break
		}
	}
	if len(want) != len(items) {
		t.Fatalf("%d items stored, %d put", len(want), len(items))
	}
	conn := []string{"--endpoint-url", ep, "--table", table}
	run := func(args ...string) string {
		t.Helper()
		out, errOut, err := cli(t, append(args, conn...)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		where := strings.Join(args, " ")
		checkNoEscape(t, where, out)
		checkNoEscape(t, where+" (stderr)", errOut)
		return out
	}

	out := run("query", "--pk", pk, "--output", "jsonl", "--dynamodb-json", "--all-pages")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(items) {
		t.Fatalf("%d items back, %d put", len(lines), len(items))
	}
	for _, line := range lines {
		got, err := itemcodec.ParseDynamoJSON([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		sk := itemcodec.KeyString(got["SK"])
		w := want[sk]
		if !reflect.DeepEqual(got, w) || !bytes.Equal(itemcodec.PlainJSON(got), itemcodec.PlainJSON(w)) {
			t.Errorf("%q did not round-trip:\n got  %.300s\n want %.300s", sk, itemcodec.PlainJSON(got), itemcodec.PlainJSON(w))
		}
	}

	out = run("query", "--pk", pk, "--output", "json", "--all-pages")
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
		if w, ok := want[sk.SK]; !ok || compact.String() != string(itemcodec.PlainJSON(w)) {
			t.Errorf("plain JSON of %q is not exact", sk.SK)
		}
	}
	for _, f := range []string{"jsonl", "csv", "ddbjson-batch"} {
		run("query", "--pk", pk, "--output", f, "--all-pages")
	}
	out = run("query", "--pk", pk, "--output", "table", "--all-pages")
	checkTerminalSafe(t, "query --output table", out, nil)
	if !strings.Contains(out, `\x1b[31mRED`) {
		t.Errorf("escape sequences must be shown visibly, as \\x1b:\n%.500s", out)
	}
	// One item by its hostile key, in every format.
	sk := hostileStrings["osc52"] + "#osc52#" + hostileStrings["osc52"]
	for _, f := range []string{"json", "jsonl", "table", "csv", "ddbjson-batch"} {
		out = run("get", "--pk", pk, "--sk", sk, "--output", f)
		if f == "table" {
			checkTerminalSafe(t, "get --output table", out, nil)
		}
	}
	run("get", "--pk", pk, "--sk", sk, "--dynamodb-json")
	run("groups", "--pk", pk, "--output", "json")
	run("layout", "--output", "json")
	checkTerminalSafe(t, "groups --output table", run("groups", "--pk", pk, "--output", "table"), nil)
	checkTerminalSafe(t, "layout --output table", run("layout", "--output", "table"), nil)
	// A hostile key in an error sentence.
	_, errOut, err := cli(t, append([]string{"get", "--pk", pk, "--sk", sk + "\x1b[0m", "--output", "table"}, conn...)...)
	checkNoEscape(t, "get of a missing item (stderr)", errOut)
	if err != nil {
		checkNoEscape(t, "get of a missing item (error)", textfmt.Sanitize(err.Error()))
	}
}

// walkHostile opens the partition of items in the UI and visits every item
// in the list, its detail as a table, plain JSON and DynamoDB JSON, and
// three window sizes, returning each screen.
func walkHostile(t *testing.T, harmless bool) (screens []string) {
	t.Helper()
	table, ep, pk, items := loadHostile(t, harmless)
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
	var m tea.Model = ui.New(ui.Options{Store: client, Table: table, PK: pk, ConfigDir: t.TempDir()})
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
	view := func() string {
		v := m.View().Content
		screens = append(screens, v)
		return v
	}
	update(tea.WindowSizeMsg{Width: 120, Height: 35})
	exec(m.Init())
	settle()
	if !strings.Contains(view(), "HOSTILE") && !harmless {
		t.Fatalf("the partition did not open:\n%s", view())
	}
	update(tea.KeyPressMsg{Code: tea.KeyTab})
	for i := range items {
		update(tea.KeyPressMsg{Code: tea.KeyEnter})
		settle()
		// Every hostile item carries an escape in a name or value: the
		// detail shows it as text.
		if v := view(); !harmless && !strings.Contains(v, `\x1b`) {
			t.Errorf("item %d: the detail does not show the escape visibly:\n%s", i, v)
		}
		for range 2 { // plain JSON, then DynamoDB JSON
			update(tea.KeyPressMsg{Code: 't', Text: "t"})
			view()
		}
		update(tea.KeyPressMsg{Code: tea.KeyEscape})
		settle()
		view()
		if i < len(items)-1 {
			update(tea.KeyPressMsg{Code: 'j', Text: "j"})
		}
	}
	for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 50}} {
		update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		view()
	}
	return screens
}

// The UI renders every hostile item, in the list and in its detail, with no
// escape sequence on screen but those the program's own styles produce for
// the same items holding harmless text, and no other control.
func TestHostileDataUI(t *testing.T) {
	allowed := map[string]bool{}
	for _, sc := range walkHostile(t, true) {
		for _, seq := range escapeRE.FindAllString(sc, -1) {
			allowed[seq] = true
		}
	}
	if len(allowed) == 0 {
		t.Fatal("the harmless screens hold no style at all: nothing to compare with")
	}
	for i, sc := range walkHostile(t, false) {
		checkTerminalSafe(t, fmt.Sprintf("screen %d", i+1), sc, allowed)
	}
}
