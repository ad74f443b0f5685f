package dynamo

import (
	"hash/crc32"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The answer check on literal bodies, one damage each, so a check that is
// dropped or loosened fails here, in dynamo, and not only in a CLI script.
// (The fault proxy tests send such bodies through the SDK; these pin each
// condition's edge.)
func TestAnswerCheckEdges(t *testing.T) {
	query := &dynamodb.QueryInput{TableName: aws.String("T"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	count := &dynamodb.ScanInput{TableName: aws.String("T"), Select: types.SelectCount}
	item := `{"PK":{"S":"P"}}`
	page := func(rest string) string { return `{"Count":1,"ScannedCount":1,"Items":[` + item + `]` + rest + `}` }
	for _, tc := range []struct {
		name   string
		params any
		status int
		body   string
		want   string // the start of the problem; "" for an answer that passes
	}{
		{"a page", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":0.5}`), ""},
		{"more items than Count", query, 200, `{"Count":1,"ScannedCount":1,"Items":[` + item + `,` + item + `],"ConsumedCapacity":{"CapacityUnits":1}}`, "2 items but Count 1"},
		{"fewer items than Count", query, 200, `{"Count":2,"ScannedCount":2,"Items":[` + item + `],"ConsumedCapacity":{"CapacityUnits":1}}`, "1 items but Count 2"},
		{"no Items", query, 200, `{"Count":0,"ScannedCount":0,"ConsumedCapacity":{"CapacityUnits":1}}`, "no Items although Count 0"},
		{"an empty LastEvaluatedKey", query, 200, page(`,"LastEvaluatedKey":{},"ConsumedCapacity":{"CapacityUnits":1}`), "an empty LastEvaluatedKey"},
		{"a LastEvaluatedKey", query, 200, page(`,"LastEvaluatedKey":` + item + `,"ConsumedCapacity":{"CapacityUnits":1}`), ""},
		{"a negative capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":-0.5}`), "a negative consumed capacity (-0.5 units)"},
		{"a negative table capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":1,"Table":{"CapacityUnits":-1}}`), "a negative consumed capacity (-1 units)"},
		{"a negative GSI capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":1,"GlobalSecondaryIndexes":{"G":{"CapacityUnits":-1}}}`), "a negative consumed capacity (-1 units)"},
		{"a negative LSI capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":1,"LocalSecondaryIndexes":{"L":{"CapacityUnits":-1}}}`), "a negative consumed capacity (-1 units)"},
		{"NaN capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":"NaN"}`), "a consumed capacity of"},
		{"infinite capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":"Infinity"}`), "a consumed capacity of"},
		{"zero capacity", query, 200, page(`,"ConsumedCapacity":{"CapacityUnits":0}`), ""},
		{"no capacity though asked", query, 200, page(``), "no ConsumedCapacity although it was asked for"},
		{"no capacity, none asked", count, 200, `{"Count":0,"ScannedCount":0}`, ""},
		{"Count equal to ScannedCount", count, 200, `{"Count":3,"ScannedCount":3}`, ""},
		{"Count over ScannedCount", count, 200, `{"Count":4,"ScannedCount":3}`, "Count 4 larger than ScannedCount 3"},
		{"Count under ScannedCount without a filter", count, 200, `{"Count":1,"ScannedCount":3}`, "Count 1 smaller than ScannedCount 3 although no filter was asked for"},
		{"Count under ScannedCount with a filter", &dynamodb.ScanInput{Select: types.SelectCount, FilterExpression: aws.String("a = :a")}, 200, `{"Count":1,"ScannedCount":3}`, ""},
		{"a Query's Count under ScannedCount", &dynamodb.QueryInput{Select: types.SelectCount}, 200, `{"Count":1,"ScannedCount":3}`, "Count 1 smaller than ScannedCount 3"},
		{"a filtered Query's", &dynamodb.QueryInput{Select: types.SelectCount, FilterExpression: aws.String("a = :a")}, 200, `{"Count":1,"ScannedCount":3}`, ""},
		{"a negative Count", count, 200, `{"Count":-1,"ScannedCount":3}`, "a negative count"},
		{"a negative ScannedCount", count, 200, `{"Count":0,"ScannedCount":-1}`, "a negative count"},
		{"a fractional Count", count, 200, `{"Count":1.5,"ScannedCount":3}`, "a Count 1.5 or ScannedCount 3 that is not a whole number"},
		{"a fractional ScannedCount", count, 200, `{"Count":1,"ScannedCount":3.5}`, "a Count 1 or ScannedCount 3.5"},
		{"no Count", count, 200, `{"ScannedCount":3}`, "no Count or no ScannedCount"},
		{"no ScannedCount", count, 200, `{"Count":3}`, "no Count or no ScannedCount"},
		{"an empty 200", query, 200, "  ", "HTTP 200 with an empty body"},
		{"a web page", query, 200, "<html>x</html>", "HTTP 200 with a web page"},
		{"broken JSON", query, 200, `{"Count":`, "HTTP 200 with broken JSON"},
		{"a server error", query, 500, "", ""},
		{"DynamoDB's error", query, 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"}`, ""},
		{"an empty 403", query, 403, "", "HTTP 403 (Forbidden) with an empty body"},
		{"a 404 page", query, 404, "<html/>", "HTTP 404 (Not Found) with a body that is not DynamoDB's error JSON"},
		{"a 499 error", query, 499, "{}", "HTTP 499 () with a body"},
		{"GetItem", &dynamodb.GetItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, 200, `{"Item":` + item + `,"ConsumedCapacity":{"CapacityUnits":-1}}`, "a negative consumed capacity (-1 units)"},
		{"GetItem without an item", &dynamodb.GetItemInput{}, 200, `{}`, ""},
		{"GetItem null item", &dynamodb.GetItemInput{}, 200, `{"Item":null}`, ""},
		{"a statement", &dynamodb.ExecuteStatementInput{}, 200, `{"Items":[]}`, ""},
		{"a statement without Items", &dynamodb.ExecuteStatementInput{}, 200, `{}`, "no Items"},
		{"a statement's empty NextToken", &dynamodb.ExecuteStatementInput{}, 200, `{"Items":[],"NextToken":""}`, "a NextToken that is not a non-empty string"},
		{"a statement's number NextToken", &dynamodb.ExecuteStatementInput{}, 200, `{"Items":[],"NextToken":5}`, "a NextToken that is not"},
		{"a statement's NextToken", &dynamodb.ExecuteStatementInput{}, 200, `{"Items":[],"NextToken":"abc"}`, ""},
		{"a statement's negative capacity", &dynamodb.ExecuteStatementInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, 200, `{"Items":[],"ConsumedCapacity":{"CapacityUnits":-2}}`, "a negative consumed capacity (-2 units)"},
		{"a statement without the capacity asked", &dynamodb.ExecuteStatementInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, 200, `{"Items":[]}`, ""},
		{"a description", &dynamodb.DescribeTableInput{}, 200, `{"Table":{"TableName":"T","KeySchema":[{"AttributeName":"SK","KeyType":"RANGE"},{"AttributeName":"PK","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"N"}]}}`, ""},
		{"no Table", &dynamodb.DescribeTableInput{}, 200, `{}`, "no Table"},
		{"no TableName", &dynamodb.DescribeTableInput{}, 200, `{"Table":{"TableName":"","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}]}}`, "a Table without TableName"},
		{"no partition key", &dynamodb.DescribeTableInput{}, 200, `{"Table":{"TableName":"T","KeySchema":[{"AttributeName":"SK","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"SK","AttributeType":"S"}]}}`, "a key schema of the table with 0 HASH and 1 RANGE keys"},
		{"an unnamed partition key", &dynamodb.DescribeTableInput{}, 200, `{"Table":{"TableName":"T","KeySchema":[{"AttributeName":"","KeyType":"HASH"}]}}`, "a key schema of the table with an unnamed key"},
		{"a list", &dynamodb.ListTablesInput{}, 200, `{"TableNames":[]}`, ""},
		{"no list", &dynamodb.ListTablesInput{}, 200, `{}`, "no list of TableNames"},
	} {
		st := &answerCheck{op: "Op", params: tc.params}
		bad := st.check(tc.status, http.Header{}, []byte(tc.body))
		switch {
		case tc.want == "" && bad != nil:
			t.Errorf("%s: refused: %v", tc.name, bad)
		case tc.want != "" && bad == nil:
			t.Errorf("%s: passed, want %q", tc.name, tc.want)
		case tc.want != "" && !strings.HasPrefix(bad.Problem, tc.want):
			t.Errorf("%s: %q, want %q", tc.name, bad.Problem, tc.want)
		}
	}
}

// A body whose CRC32 header does not match is damage in transit, tried
// again; a matching one passes on to the other checks.
func TestAnswerCheckChecksum(t *testing.T) {
	body := []byte(`{"TableNames":[]}`)
	st := &answerCheck{op: "ListTables", params: &dynamodb.ListTablesInput{}}
	good := http.Header{"X-Amz-Crc32": {strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)}}
	if bad := st.check(200, good, body); bad != nil {
		t.Errorf("a matching checksum: %v", bad)
	}
	for _, sum := range []string{"1", "x", "99999999999"} {
		bad := st.check(200, http.Header{"X-Amz-Crc32": {sum}}, body)
		if bad == nil || !bad.Transient || !bad.RetryableError() || !strings.Contains(bad.Error(), "CRC32") {
			t.Errorf("checksum %s: %v", sum, bad)
		}
	}
	// An empty 200 may be a proxy's hiccup (tried again); a 403 is not.
	if bad := st.check(200, http.Header{}, nil); bad == nil || !bad.Transient {
		t.Errorf("an empty 200: %v", bad)
	}
	if bad := st.check(403, http.Header{}, nil); bad == nil || bad.Transient {
		t.Errorf("an empty 403: %v", bad)
	}
}

// A redirect names where it points, the password masked; the SDK's own
// placeholder Location and a Location outside 3xx say nothing of it.
func TestAnswerCheckRedirect(t *testing.T) {
	st := &answerCheck{op: "Query", params: &dynamodb.QueryInput{}}
	for _, tc := range []struct {
		status   int
		location string
		want     string
	}{
		{301, "https://u:pw@example.com/", "HTTP 301 (Moved Permanently): the endpoint redirects to https://u:xxxxx@example.com/"},
		{300, "http://x/", "HTTP 300 (Multiple Choices): the endpoint redirects to http://x/"},
		{399, "http://x/", "HTTP 399 (): the endpoint redirects to http://x/"},
		{302, sdkNoLocation, "HTTP 302 (Found) with an empty body"},
		{400, "http://x/", "HTTP 400 (Bad Request) with an empty body"},
		{299, "http://x/", "HTTP 299 () with an empty body"},
	} {
		bad := st.check(tc.status, http.Header{"Location": {tc.location}}, nil)
		if bad == nil || bad.Problem != tc.want {
			t.Errorf("%d %s: %v, want %q", tc.status, tc.location, bad, tc.want)
		}
	}
}

// A sort key of equal value is no progress on the table, whose keys are
// unique, even when its text differs (5 then 5.0); on an index, whose sort
// keys repeat, it is.
func TestKeyAdvanceEqualNumberOtherText(t *testing.T) {
	num := func(v string) Item {
		return Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberN{Value: v}}
	}
	table := KeySchema{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "N"}}
	index := table
	index.Index = "byN"
	for _, tc := range []struct {
		ks          KeySchema
		forward     bool
		start, next string
		want        string
	}{
		{table, true, "5", "5.0", "that is not after"},
		{table, false, "5", "5.0", "that is not before"},
		{index, true, "5", "5.0", ""},
		{table, true, "5", "6", ""},
		{table, true, "6", "5", "that is not after"},
		{table, false, "6", "5", ""},
		{table, false, "5", "6", "that is not before"},
		{index, true, "6", "5", "that is not after"},
		{table, true, "5", "5", "equal to the ExclusiveStartKey"},
		{table, true, "x", "5", ""}, // not a number: no order to check
	} {
		got := keyAdvance(tc.ks, tc.forward, num(tc.start), num(tc.next))
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s forward=%v %s → %s: %q, want %q", tc.ks.Index, tc.forward, tc.start, tc.next, got, tc.want)
		}
	}
}

// A Scan's announced bound reads eventually consistent at half a unit per
// 4 KB, strongly consistent at a whole one; each page after the first
// may add a unit of its own rounding; an index's own size counts when it
// is the one read.
func TestEstimateReadUnits(t *testing.T) {
	tb := Table{ItemCount: 100, SizeBytes: 10 * 4096, Indexes: []Index{{Name: "G", ItemCount: 7, SizeBytes: 4096*2 + 1}}}
	for _, tc := range []struct {
		index      string
		consistent bool
		segments   int
		items      int64
		rcu        float64
	}{
		{"", false, 1, 100, 10 * 0.5}, // one page of exactly 10 units
		{"", true, 1, 100, 10},
		{"", false, 4, 100, (10 + 3) * 0.5}, // three more pages, one more unit each at most
		{"", false, 0, 100, 10 * 0.5},
		{"G", false, 1, 7, 3 * 0.5},
	} {
		e := EstimateRead(tb, tc.index, tc.consistent, tc.segments, 0)
		if e.Items != tc.items || e.RCU != tc.rcu || !e.Known {
			t.Errorf("EstimateRead(%q, consistent %v, %d segments) = %+v; want %d items, %v RCU", tc.index, tc.consistent, tc.segments, e, tc.items, tc.rcu)
		}
	}
	// A Limit makes a page of every limit items, rounded up, when that is
	// more pages than the size makes.
	for _, tc := range []struct {
		items    int64
		limit    int32
		segments int
		rcu      float64
	}{
		{100, 10, 1, (10 + 9) * 0.5},
		{101, 10, 2, (10 + 11) * 0.5},
		{100, 10, 3, (10 + 11) * 0.5},
		{100, 1000, 1, 10 * 0.5},
		{0, 10, 1, 10 * 0.5}, // no item count: the size's pages
	} {
		e := EstimateRead(Table{ItemCount: tc.items, SizeBytes: 10 * 4096}, "", false, tc.segments, tc.limit)
		if e.RCU != tc.rcu {
			t.Errorf("EstimateRead(%d items, limit %d, %d segments) = %v RCU, want %v", tc.items, tc.limit, tc.segments, e.RCU, tc.rcu)
		}
	}
	// Each full MB is a page of its own, and the table's figure covers a
	// read in as many segments as it has pages: 256 units, and 2 more.
	if e := EstimateRead(Table{SizeBytes: 1 << 20}, "", true, 1, 0); e.RCU != 256+2 {
		t.Errorf("1 MB: %v RCU, want 258", e.RCU)
	}
}

// One table has one figure: the demo table (3,666,313 bytes, 21,073 items)
// announced 450 RCU read in one segment and 451.5 in four. Now every read
// in up to as many segments as it has 1 MB pages (four) announces the
// table's figure; one in more says what its pages add, and why.
func TestEstimateOneFigurePerTable(t *testing.T) {
	demo := Table{ItemCount: 21073, SizeBytes: 3666313}
	want := float64(896+6) * 0.5 // 896 units, and 6 pages' rounding of a read in up to 4 segments
	for segs := range 5 {
		e := EstimateRead(demo, "", false, segs, 0)
		if e.RCU != want || e.TableRCU != want || strings.Contains(e.Text(), "(") {
			t.Errorf("%d segments: %v RCU (table %v), %q; want %v", segs, e.RCU, e.TableRCU, e.Text(), want)
		}
	}
	e := EstimateRead(demo, "", false, 8, 0)
	if e.TableRCU != want || e.RCU != want+4*0.5 ||
		!strings.HasSuffix(e.Text(), "→ predicted ≤ 453 RCU (the table's 451, and 2 for 8 segments, each ending on a page of its own)") {
		t.Errorf("8 segments: %v RCU, %q", e.RCU, e.Text())
	}
	e = EstimateRead(Table{ItemCount: 100, SizeBytes: 10 * 4096, Indexes: []Index{{Name: "G", ItemCount: 100, SizeBytes: 4096}}}, "G", false, 1, 10)
	if !strings.HasSuffix(e.Text(), "→ predicted ≤ 5 RCU (the index's 0.5, and 4.5 for pages of Limit 10, each charged on its own)") {
		t.Errorf("Limit 10: %q", e.Text())
	}
}

// A Location of exactly 100 characters and a body of exactly 40 are shown
// whole; one more is cut.
func TestAnswerTextCutEdges(t *testing.T) {
	loc := "http://h/" + strings.Repeat("a", 91)
	if got := locationText(loc); got != loc {
		t.Errorf("100 characters: %q", got)
	}
	if got := locationText(loc + "b"); got != loc+"…" {
		t.Errorf("101 characters: %q", got)
	}
	if got := locationText("\x1bhttp://h/"); got != `"\x1bhttp://h/"` {
		t.Errorf("a control character first: %q", got)
	}
	body := strings.Repeat("x", 40)
	if got := preview([]byte(body)); got != body {
		t.Errorf("40 characters: %q", got)
	}
	if got := preview([]byte(body + "y")); got != body+"…" {
		t.Errorf("41 characters: %q", got)
	}
	if got := preview([]byte(" a \n\t b ")); got != "a b" {
		t.Errorf("spaces: %q", got)
	}
}

// Every attribute value type passes in its valid shape and fails in the
// shapes the SDK would misread, inside an item of a page.
func TestAnswerCheckAttributeValues(t *testing.T) {
	st := &answerCheck{op: "Scan", params: &dynamodb.ScanInput{}}
	for value, ok := range map[string]bool{
		`{"S":"x"}`: true, `{"N":"1"}`: true, `{"B":"AA=="}`: true, `{"S":null}`: false, `{"N":1}`: false,
		`{"BOOL":false}`: true, `{"BOOL":null}`: false, `{"BOOL":"true"}`: false,
		`{"NULL":true}`: true, `{"NULL":false}`: false, `{"NULL":null}`: false,
		`{"SS":["a"]}`: true, `{"NS":["1"]}`: true, `{"BS":["AA=="]}`: true, `{"SS":null}`: false, `{"SS":["a",null]}`: false, `{"SS":"a"}`: false,
		`{"M":{"a":{"S":"x"}}}`: true, `{"M":{}}`: true, `{"M":null}`: false, `{"M":{"a":{}}}`: false,
		`{"L":[{"S":"x"}]}`: true, `{"L":[]}`: true, `{"L":null}`: false, `{"L":[{}]}`: false,
		`{}`: false, `{"S":"x","N":"1"}`: false, `{"X":"1"}`: false, `null`: false,
	} {
		body := `{"Count":1,"ScannedCount":1,"Items":[{"PK":{"S":"P"},"a":` + value + `}]}`
		if bad := st.check(200, http.Header{}, []byte(body)); (bad == nil) != ok {
			t.Errorf("attribute %s: %v, want accepted %v", value, bad, ok)
		}
	}
	if bad := st.check(200, http.Header{}, []byte(`{"Count":1,"ScannedCount":1,"Items":[null]}`)); bad == nil || bad.Problem != "an item that is null" {
		t.Errorf("a null item: %v", bad)
	}
	if bad := st.check(200, http.Header{}, []byte(`{"Count":1,"ScannedCount":1,"Items":{}}`)); bad == nil || bad.Problem != "a object where Items was expected" {
		t.Errorf("an object for Items: %v", bad)
	}
}

// A size of 0 is unknown, never an empty table: the budget is announced.
func TestUnknownSizeIsABudget(t *testing.T) {
	if e := EstimateRead(Table{ItemCount: 5}, "", false, 1, 0); e.Known || e.RCU != UnknownSizeRCU {
		t.Errorf("size 0: %+v", e)
	}
}

// A Query of one partition is bounded by the whole table, and says why;
// one that fixes the whole primary key by the largest item, when that is
// less.
func TestEstimateQueryBound(t *testing.T) {
	e := EstimateRead(Table{ItemCount: 10000, SizeBytes: 10 << 20}, "", false, 1, 0)
	if rcu, why := e.QueryBound(true); rcu != 50 || !strings.HasPrefix(why, "at most one item") {
		t.Errorf("one item of a 10 MB table: %v, %q", rcu, why)
	}
	if rcu, why := e.QueryBound(false); rcu != e.RCU || !strings.Contains(why, "DynamoDB tells no partition's size before it is read: 10000 items / 10.0 MiB") {
		t.Errorf("one partition of a 10 MB table: %v, %q", rcu, why)
	}
	small := EstimateRead(Table{ItemCount: 3, SizeBytes: 300}, "", true, 1, 0)
	if rcu, _ := small.QueryBound(true); rcu != 1 {
		t.Errorf("one item of a 300-byte table: %v RCU, want the table's 1", rcu)
	}
}
