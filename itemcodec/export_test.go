package itemcodec

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func exportAll(t *testing.T, f ExportFormat, o ExportOptions, pages ...[]Item) string {
	t.Helper()
	var b bytes.Buffer
	w, err := NewExportWriter(&b, f, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A page's new attribute still gets its column: the header is written
// last, from the spool, and the spool file is removed.
func TestExportCSV(t *testing.T) {
	dir := t.TempDir()
	p1 := []Item{{"PK": demoS("P"), "SK": demoS("1"), "b": demoS("x,y")}}
	p2 := []Item{{"PK": demoS("P"), "SK": demoS("2"), "a": &types.AttributeValueMemberL{Value: []types.AttributeValue{demoN("1.0"), demoS("é")}}, "GSI": demoS("g")}}
	got := exportAll(t, ExportCSV, ExportOptions{KeyNames: []string{"GSI", "PK", "SK", "PK"}, TempDir: dir}, p1, p2)
	want := "GSI,PK,SK,a,b\n,P,1,,\"x,y\"\ng,P,2,\"[1.0,\"\"é\"\"]\",\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("spool left behind: %v", left)
	}
	if got := exportAll(t, ExportCSV, ExportOptions{TempDir: dir}); got != "" {
		t.Errorf("no items: %q", got)
	}
}

func TestExportBatchChunks(t *testing.T) {
	var items []Item
	for i := range 26 {
		items = append(items, Item{"PK": demoInt(i)})
	}
	got := exportAll(t, ExportBatch, ExportOptions{Table: `T"1`}, items[:3], items[3:])
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 2 || strings.Count(lines[0], "PutRequest") != 25 || lines[1] != `{"T\"1":[{"PutRequest":{"Item":{"PK":{"N":"25"}}}}]}` {
		t.Errorf("batches:\n%s", got)
	}
	back, err := ReadItemLines(strings.NewReader(got))
	if err != nil || len(back) != 26 || KeyString(back[25]["PK"]) != "25" {
		t.Errorf("read back: %v, %d items", err, len(back))
	}
	if _, err := NewExportWriter(&bytes.Buffer{}, ExportBatch, ExportOptions{}); err == nil {
		t.Error("a batch export needs a table name")
	}
	if _, err := NewExportWriter(&bytes.Buffer{}, "xml", ExportOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestCSVValue(t *testing.T) {
	cases := []struct {
		av   types.AttributeValue
		want string
	}{
		{demoS(""), ""},
		{demoS("a\"b"), "a\"b"},
		{demoN("-0.000000000000000000000000000000000000012345678901234567890123456789012345678"), "-0.000000000000000000000000000000000000012345678901234567890123456789012345678"},
		{&types.AttributeValueMemberB{Value: []byte{0, 255}}, "AP8="},
		{&types.AttributeValueMemberBOOL{Value: true}, "true"},
		{&types.AttributeValueMemberNULL{Value: true}, "null"},
		{&types.AttributeValueMemberNS{Value: []string{"1", "12345678901234567890123456789012345678"}}, "[1,12345678901234567890123456789012345678]"},
		{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"z": demoS("<&>"), "a": &types.AttributeValueMemberBS{Value: [][]byte{{1}}}}}, `{"a":["AQ=="],"z":"<&>"}`},
	}
	for _, c := range cases {
		if got := CSVValue(c.av); got != c.want {
			t.Errorf("%s: got %q, want %q", MarshalDynamoValue(c.av), got, c.want)
		}
	}
}

func TestReadItemLines(t *testing.T) {
	src := "\ufeff" + `{"PK":{"S":"a"}}` + "\n\n" +
		`{"Item":{"PK":{"S":"b"}}}` + "\n" +
		`{"T1":[{"PutRequest":{"Item":{"PK":{"S":"c"}}}}],"T2":[{"PutRequest":{"Item":{"PK":{"S":"d"}}}}]}` + "\n"
	items, err := ReadItemLines(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var pks []string
	for _, it := range items {
		pks = append(pks, KeyString(it["PK"]))
	}
	if strings.Join(pks, ",") != "a,b,c,d" {
		t.Errorf("items: %v", pks)
	}
	bad := []struct{ src, want string }{
		{`{"PK":{"S":"a"}}` + "\n" + `{"T":[{"DeleteRequest":{"Key":{"PK":{"S":"a"}}}}]}`, `line 2: T request 1: want {"PutRequest": {"Item": {...}}}; only puts can be loaded.`},
		{`{"T":[{"PutRequest":{"Item":{"PK":{"N":"x"}}}}]}`, `line 1: T request 1: attribute "PK": N "x": `},
		{`{"T":[{"PutRequest":{"Key":{}}}]}`, `line 1: T request 1: PutRequest wants exactly {"Item": {...}}.`},
		{`{"PK":{"X":"a"}}`, `line 1: attribute "PK": unknown type "X"`},
		{`{"PK":`, `line 1: invalid JSON: `},
	}
	for _, c := range bad {
		_, err := ReadItemLines(strings.NewReader(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got  %v\n want %s", c.src, err, c.want)
		}
	}
	long := strings.Repeat(" ", maxJSONLLine+1)
	if _, err := ReadItemLines(strings.NewReader(long)); err == nil || !strings.HasPrefix(err.Error(), "line 1: longer than 16 MB") {
		t.Errorf("long line: %v", err)
	}
}

func TestExportJSONLFlushesEachPage(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, _ := NewExportWriter(f, ExportJSONL, ExportOptions{})
	if err := w.Write([]Item{{"PK": demoS("a")}}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.Name())
	if string(b) != `{"PK":"a"}`+"\n" {
		t.Errorf("after one page the file holds %q", b)
	}
	_ = w.Close()
}

func demoS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func demoN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func demoInt(v int) types.AttributeValue  { return demoN(strconv.Itoa(v)) }
