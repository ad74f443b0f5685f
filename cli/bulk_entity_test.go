package cli

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/patterns"
	"dynascope/textfmt"
)

// partitionSKs are the sort keys of partition pk, read by the SDK, that
// match re: what a test expects a selection to be, found apart from the
// code it tests.
func partitionSKs(t *testing.T, sdk *dynamodb.Client, table, pk string, re *regexp.Regexp) []string {
	t.Helper()
	var out []string
	p := dynamodb.NewQueryPaginator(sdk, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression: aws.String("PK = :pk"), ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}}})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if sk := itemcodec.KeyString(it["SK"]); re.MatchString(sk) {
				out = append(out, sk)
			}
		}
	}
	return out
}

// putDrift writes items into the table and deletes them when the test ends.
func putDrift(t *testing.T, sdk *dynamodb.Client, table string, items ...map[string]types.AttributeValue) {
	t.Helper()
	for _, it := range items {
		if _, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
		key := map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]}
		t.Cleanup(func() {
			if _, err := sdk.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key}); err != nil {
				t.Errorf("removing the drift item: %v", err)
			}
		})
	}
}

type declaredPreviewJSON struct {
	bulkPreviewJSON
	Entity *declaredEntityJSON
}

type declaredEntityJSON struct {
	Name, KeyCondition string
	Read, Matched      int
	Unmatched          []map[string]string
}

func declaredPreviewOf(t *testing.T, out string) declaredPreviewJSON {
	t.Helper()
	var p declaredPreviewJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return p
}

// Orders as the demo's dynascope.yaml declares them (Order's SK is
// ORDER#{orderDate}#{orderId}, orderDate a date).
var declaredOrder = regexp.MustCompile(`^ORDER#\d{4}-\d{2}-\d{2}#[^#]+$`)

// 39.3 in bulk changes: on the demo, --entity of a declared entity selects
// exactly the items whose keys match its declaration: CUST#42's orders read
// under SK begins_with ORDER#, an undeclared item of that prefix (an old
// delimiter between date and id) read, counted and left out, an ORDER|…
// order written the old way (the demo traffic's drift) not even read;
// ProductVersion on PRODUCT#SKU-1025 by its prefix v; Customer by its exact
// key. An inferred name still selects as before, an unknown name gets one
// sentence naming both kinds, and a partition not of the entity's PK
// template is refused before any request.
func TestBulkEntityDeclared(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	sdk := dynamotest.SDK(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	oldOrder := demodata.OldOrder(1, time.Date(2025, 2, 3, 0, 0, 0, 0, time.UTC))
	putDrift(t, sdk, table,
		map[string]types.AttributeValue{"PK": s("CUST#42"), "SK": s("ORDER#2025-02-02|A99"), "total": &types.AttributeValueMemberN{Value: "5"}},
		oldOrder)
	orders := partitionSKs(t, sdk, table, "CUST#42", declaredOrder)
	if len(orders) < 2 {
		t.Fatalf("CUST#42's orders: %v", orders)
	}
	conn := []string{"--endpoint-url", ep, "--table", table, "--patterns", "dynascope.yaml"}
	preview := func(pk, entity string, more ...string) (declaredPreviewJSON, string) {
		t.Helper()
		args := slices.Concat([]string{"update", "--pk", pk, "--entity", entity, "--set", "x=S:1", "--output", "json"}, conn, more)
		out, stderr, err := cli(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		return declaredPreviewOf(t, out), stderr
	}

	p, stderr := preview("CUST#42", "Order")
	e := p.Entity
	if e == nil || e.Name != "Order" || e.KeyCondition != "SK begins_with ORDER#" || e.Read != len(orders)+1 || e.Matched != len(orders) ||
		len(e.Unmatched) != 1 || e.Unmatched[0]["SK"] != "ORDER#2025-02-02|A99" || e.Unmatched[0]["PK"] != "CUST#42" {
		t.Errorf("the declared Order's read: %+v, want %d of %d read matched, ORDER#2025-02-02|A99 not", e, len(orders), len(orders)+1)
	}
	if !p.DryRun || p.Selected != len(orders) || p.ToWrite != len(orders) {
		t.Errorf("selected %d, to write %d; want CUST#42's %d orders %v", p.Selected, p.ToWrite, len(orders), orders)
	}
	for _, it := range p.Items {
		if !slices.Contains(orders, it.Key["SK"]) {
			t.Errorf("previewed %v, not one of CUST#42's declared orders", it.Key)
		}
	}
	if !strings.Contains(p.Selection, "entity Order (declared: PK CUST#{customerId}, SK ORDER#{orderDate}#{orderId})") ||
		!strings.Contains(stderr, "the selection (PK = CUST#42, entity Order") {
		t.Errorf("the selection in words: %q; said first: %q", p.Selection, stderr)
	}
	out, _, err := cli(t, slices.Concat([]string{"update", "--pk", "CUST#42", "--entity", "Order", "--set", "x=S:1"}, conn)...)
	want := "entity Order by its declaration (PK CUST#{customerId}, SK ORDER#{orderDate}#{orderId}): read " + itemsText(len(orders)+1) + " under SK begins_with ORDER#, " +
		strconv.Itoa(len(orders)) + " of them Order; 1 item is not (its keys match no template of Order), left unchanged: {\"PK\":\"CUST#42\",\"SK\":\"ORDER#2025-02-02|A99\"}\n"
	if err != nil || !strings.Contains(out, want) || !strings.Contains(out, "selected "+itemsText(len(orders))+" (") {
		t.Errorf("the text preview: %v, want %q in\n%s", err, want, out)
	}

	// With --filter the read is still the template's prefix, the filter
	// sent with it; what it keeps is matched as without it.
	p, _ = preview("CUST#42", "Order", "--filter", "total >= 5")
	if e := p.Entity; e == nil || e.KeyCondition != "SK begins_with ORDER#" || e.Matched != p.Selected || len(e.Unmatched) != 1 || p.Selected == 0 || p.Selected > len(orders) {
		t.Errorf("Order with --filter: %+v, selected %d", e, p.Selected)
	}

	versions := partitionSKs(t, sdk, table, "PRODUCT#SKU-1025", regexp.MustCompile(`^v\d+$`))
	p, _ = preview("PRODUCT#SKU-1025", "ProductVersion")
	if e := p.Entity; len(versions) != 4 || e == nil || e.KeyCondition != "SK begins_with v" || e.Read != 4 || e.Matched != 4 || len(e.Unmatched) != 0 || p.Selected != 4 {
		t.Errorf("ProductVersion of %v: %+v, selected %d", versions, e, p.Selected)
	}
	p, _ = preview("CUST#42", "Customer")
	if e := p.Entity; e == nil || e.KeyCondition != "SK = PROFILE" || e.Read != 1 || p.Selected != 1 || p.Items[0].Key["SK"] != "PROFILE" {
		t.Errorf("Customer by its exact key: %+v, selected %d", e, p.Selected)
	}

	// A name inferred from the keys selects as before, the file's
	// declarations notwithstanding: ORDER is every ORDER#… of the
	// partition, the undeclared one too.
	p, _ = preview("CUST#42", "ORDER")
	if p.Entity != nil || p.Selected != len(orders)+1 {
		t.Errorf("the inferred ORDER: %+v, selected %d, want %d", p.Entity, p.Selected, len(orders)+1)
	}

	_, _, err = cli(t, slices.Concat([]string{"update", "--pk", "CUST#42", "--entity", "Orders", "--set", "x=S:1"}, conn)...)
	if err == nil || err.Error() != "partition CUST#42 has no type Orders: the declared entities are Customer, Address, Order, LineItem, Shipment, ProductVersion, and the types inferred from its keys are ORDER, ORDER|, PROFILE." {
		t.Errorf("an unknown name: %v", err)
	}
	_, _, err = cli(t, slices.Concat([]string{"update", "--pk", "CUST#999999", "--entity", "Orders", "--set", "x=S:1"}, conn)...)
	if err == nil || err.Error() != "partition CUST#999999 has no item, and Orders is none of the declared entities, which are Customer, Address, Order, LineItem, Shipment, ProductVersion." {
		t.Errorf("an unknown name on an empty partition: %v", err)
	}
	_, _, err = cli(t, slices.Concat([]string{"update", "--pk", "CUST#42", "--entity", "Orders", "--filter", "total > 0", "--set", "x=S:1"}, conn)...)
	if err == nil || !strings.Contains(err.Error(), "(dynascope groups --pk 'CUST#42' lists them) or one of the declared entities (Customer, Address, Order, LineItem, Shipment, ProductVersion), or leave out --filter.") {
		t.Errorf("an unknown name with --filter: %v", err)
	}
	// Without the file (the demo table is not the file's table: App) the
	// names are the inferred ones only.
	_, _, err = cli(t, "update", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--entity", "Order", "--set", "x=S:1")
	if err == nil || err.Error() != "partition CUST#42 has no type Order; its types are ORDER, ORDER|, PROFILE." {
		t.Errorf("an undeclared name without declarations: %v", err)
	}

	proxy := dynamotest.StartProxy(t, ep)
	_, _, err = cli(t, "update", "--endpoint-url", proxy.URL, "--table", table, "--patterns", "dynascope.yaml", "--pk", "ORDER#A17", "--entity", "Order", "--set", "x=S:1")
	if err == nil || err.Error() != "--entity Order: partition ORDER#A17 is not of Order's PK CUST#{customerId}, so it holds no Order item; give --pk as CUST#{customerId} builds it." || proxy.Count("Query") != 0 {
		t.Errorf("a partition not of Order's: %v, %d queries", err, proxy.Count("Query"))
	}
	if _, _, err = cli(t, "update", "--endpoint-url", ep, "--table", table, "--patterns", "dynascope.yaml", "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--set", "x=S:1"); err == nil ||
		!strings.Contains(err.Error(), "give --entity TYPE too") {
		t.Errorf("--patterns without --entity: %v", err)
	}
}

func itemsText(n int) string {
	return textfmt.Plural(n, "item", "items")
}

// 39.3 in bulk changes, sent: on a table of the test's own shaped as the
// demo's, --entity Order --yes writes exactly the items whose keys the
// declaration names; the undeclared ORDER#…|… and ORDER|… items, the
// profile and the address are left byte-identical.
func TestBulkEntityDeclaredSent(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sdk := dynamotest.SDK(t)
	table := dynamotest.Table(t, sdk, dynamotest.WithGSI(dynamotest.PKSK(), "GSI1", "GSI1PK", "S", "GSI1SK", "S", types.ProjectionTypeAll))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, sk := range []string{"PROFILE", "ADDRESS#home", "ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "ORDER#2025-03-01#A17", "ORDER|2025-02-03|A98"} {
		if _, err := sdk.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": s("CUST#42"), "SK": s(sk)}}); err != nil {
			t.Fatal(err)
		}
	}
	before := tableImage(t, sdk, table)
	out, _, err := cli(t, "update", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--patterns", "../dynascope.yaml", "--pk", "CUST#42", "--entity", "Order",
		"--set", "x=S:1", "--yes", "--allow-writes", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sent := sentOf(t, out); sent.Selected != 2 || sent.Written.Count != 2 || !slices.Equal(sks(sent.Written.Keys), []string{"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17"}) {
		t.Errorf("sent: %+v", sent)
	}
	var outcome struct{ Entity *declaredEntityJSON }
	if err := json.Unmarshal([]byte(out), &outcome); err != nil {
		t.Fatal(err)
	}
	if e := outcome.Entity; e == nil || e.Read != 3 || e.Matched != 2 || len(e.Unmatched) != 1 || e.Unmatched[0]["SK"] != "ORDER#2025-02-02|A99" {
		t.Errorf("the outcome's entity: %+v, want 2 of the 3 read under ORDER# matched", e)
	}
	after := tableImage(t, sdk, table)
	var changed []string
	for i := range before {
		if before[i] != after[i] {
			changed = append(changed, after[i])
		}
	}
	if len(changed) != 2 || !strings.Contains(changed[0], "ORDER#2025-01-09#A11") || !strings.Contains(changed[1], "ORDER#2025-03-01#A17") {
		t.Errorf("changed %v, want the two declared orders only", changed)
	}
}

// The read a declared entity's selection sends, without a network: its
// sort-key template's literal prefix, the exact key of a template without
// parameters, the whole partition for one that opens with a parameter; a
// partition not of its PK template refused; a name not declared left to
// inference (nil).
func TestPickDeclaredCondition(t *testing.T) {
	set, err := patterns.LoadPatterns(checkFile(t, `table: App
entities:
  - name: Order
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderDate}#{orderId}"}
    params: {customerId: number, orderDate: date, orderId: text}
  - name: Customer
    keys: {PK: "CUST#{customerId}", SK: "PROFILE"}
    params: {customerId: number}
  - name: Event
    keys: {PK: "DEVICE#{deviceId}", SK: "{at}#EVENT"}
    params: {deviceId: text, at: datetime}
`))
	if err != nil {
		t.Fatal(err)
	}
	table := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	for _, c := range []struct {
		pk, entity, cond, err string
		undeclared            bool
	}{
		{pk: "CUST#42", entity: "Order", cond: "SK begins_with ORDER#"},
		{pk: "CUST#42", entity: "Customer", cond: "SK = PROFILE"},
		{pk: "DEVICE#d1", entity: "Event", cond: "the whole partition"},
		{pk: "CUST#x", entity: "Order", err: "--entity Order: partition CUST#x is not of Order's PK CUST#{customerId}, so it holds no Order item; give --pk as CUST#{customerId} builds it."},
		{pk: "CUST#42", entity: "ORDER", undeclared: true},
	} {
		opts := &writeOptions{PK: c.pk, Bulk: bulkSelect{Entity: c.entity}}
		p, err := pickDeclared(set.Entities, table, opts)
		switch {
		case c.err != "" || err != nil:
			if err == nil || err.Error() != c.err {
				t.Errorf("%s on %s: %v, want %q", c.entity, c.pk, err, c.err)
			}
		case c.undeclared:
			if p != nil {
				t.Errorf("%s: picked as declared: %+v", c.entity, p)
			}
		case p == nil || p.condText() != c.cond:
			t.Errorf("%s on %s: %+v, want the read %q", c.entity, c.pk, p, c.cond)
		}
	}
}
