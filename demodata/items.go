package demodata

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// Table is the table `dynascope demo` seeds, named as in the single-table
// design example.
const Table = "App"

// Partition is the partition the demo opens on: the example customer.
const Partition = "CUST#42"

// TableSpec is the demo's table: generic PK/SK strings, and GSI1 for the
// "open orders of a warehouse" access pattern.
func TableSpec(name string) dynamo.TableSpec {
	return dynamo.TableSpec{
		Name: name,
		PK:   dynamo.KeyAttr{Name: "PK", Type: "S"},
		SK:   &dynamo.KeyAttr{Name: "SK", Type: "S"},
		GSIs: []dynamo.Index{{
			Name:       "GSI1",
			Kind:       dynamo.GSI,
			PK:         dynamo.KeyAttr{Name: "GSI1PK", Type: "S"},
			SK:         &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"},
			Projection: "ALL",
		}},
	}
}

// Shape of the demo data. The numbers are chosen so that seeding DynamoDB
// Local takes seconds while the big customer's partition still spans more
// than one 1 MB Query page.
const (
	demoCustomers   = 300  // ordinary customers CUST#1000..CUST#1299
	demoFirstCust   = 1000 // id of the first ordinary customer
	demoMaxOrders   = 12   // orders per ordinary customer: 0..demoMaxOrders
	demoBigCustomer = "CUST#7"
	demoBigOrders   = 4000
	demoWarehouses  = 5
	demoFirstOrder  = 1001 // order ids B1001, B1002, ... in date order
)

// demoEpoch is the first day of the demo's order history (2024–2025); the
// data set is fixed in time so it never depends on the clock.
var demoEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

const demoDays = 731 // 2024-01-01 .. 2025-12-31

// Items returns the demo data set: the single-table example (CUST#42 with
// its profile and two orders, and order A17's line item) exactly as the
// article writes it, A17 with a second line and a shipment as its pattern
// promises, surrounded by a few hundred customers with addresses,
// orders, line items and shipments, one big customer (CUST#7) whose partition
// is larger than one Query page, and the open orders in the sparse index GSI1.
// It is the same on every call: a fixed-seed generator, no clock.
func Items() []dynamo.Item {
	g := &demoGen{r: rand.New(rand.NewPCG(42, 2025))}
	g.example()
	g.customers()
	g.versions()
	return g.items
}

// versions is the version-history pattern of DynamoDB's own guide for the
// desk lamp of order A17: v1 … v3 each a version of the product as it was
// written, v0 a copy of the newest with the number of the latest version,
// so the current product is one GetItem (SK = v0) and its history one Query
// (begins_with v, or SK > v0). It comes after every random draw, so no
// other item changes with it.
func (g *demoGen) versions() {
	prices := []int{3900, 3500, 3500}
	names := []string{"Desk lamp", "Desk lamp", "Desk lamp (LED)"}
	for v := range len(prices) {
		g.add(dynamo.Item{
			"PK": demoS("PRODUCT#SKU-1025"), "SK": demoS("v" + strconv.Itoa(v+1)),
			"name": demoS(names[v]), "price": demoMoney(prices[v]), "version": demoInt(v + 1),
		})
	}
	last := len(prices)
	g.add(dynamo.Item{
		"PK": demoS("PRODUCT#SKU-1025"), "SK": demoS("v0"),
		"name": demoS(names[last-1]), "price": demoMoney(prices[last-1]), "version": demoInt(last), "latest": demoInt(last),
	})
}

type demoGen struct {
	r     *rand.Rand
	items []dynamo.Item
}

func (g *demoGen) add(it dynamo.Item) { g.items = append(g.items, it) }

func demoS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func demoN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func demoInt(v int) types.AttributeValue  { return demoN(strconv.Itoa(v)) }

// money renders cents as a decimal number, keeping the trailing zero (35.50).
func demoMoney(cents int) types.AttributeValue {
	return demoN(fmt.Sprintf("%d.%02d", cents/100, cents%100))
}

// example is the article's example, attribute for attribute, so that the
// demo answers its queries exactly as the article prints them.
func (g *demoGen) example() {
	g.add(dynamo.Item{"PK": demoS("CUST#42"), "SK": demoS("PROFILE"), "name": demoS("Ann")})
	g.add(dynamo.Item{"PK": demoS("CUST#42"), "SK": demoS("ORDER#2025-01-09#A11"), "total": demoInt(20)})
	g.add(dynamo.Item{"PK": demoS("CUST#42"), "SK": demoS("ORDER#2025-03-01#A17"), "total": demoInt(35)})
	g.add(dynamo.Item{"PK": demoS("ORDER#A11"), "SK": demoS("ITEM#1"), "sku": demoS("SKU-1001"), "name": demoS("Enamel mug"), "qty": demoInt(2), "price": demoInt(10)})
	g.add(dynamo.Item{"PK": demoS("ORDER#A17"), "SK": demoS("ITEM#1"), "sku": demoS("SKU-1025"), "name": demoS("Desk lamp"), "qty": demoInt(1), "price": demoInt(35)})
	// Beyond the article: the pattern "order with line items" promises an
	// order's line items and shipments, so its example order A17 has two
	// lines (the bulb comes with the lamp, so the total stays 35) and a
	// shipment.
	g.add(dynamo.Item{"PK": demoS("ORDER#A17"), "SK": demoS("ITEM#2"), "sku": demoS("SKU-1026"), "name": demoS("LED bulb (with the lamp)"), "qty": demoInt(1), "price": demoInt(0)})
	g.add(dynamo.Item{"PK": demoS("ORDER#A17"), "SK": demoS("SHIPMENT#2025-03-03"), "carrier": demoS("DHL"), "tracking": demoS("TRK0000004217")})
}

type demoProduct struct {
	sku   string
	name  string
	cents int
}

var demoCatalog = func() []demoProduct {
	names := []string{
		"Enamel mug", "Notebook A5", "Fountain pen", "Ink cartridges (12)", "Desk organiser",
		"Wireless mouse", "USB-C cable 2 m", "Laptop stand", "Monitor arm", "Mechanical keyboard",
		"Noise-cancelling headphones", "Webcam 1080p", "Desk lamp", "Ergonomic chair cushion", "Cable ties (100)",
		"Whiteboard markers (8)", "Sticky notes (12 pads)", "Paper ream A4", "Stapler", "Label printer",
		"Label tape 12 mm", "Shipping boxes (20)", "Packing tape", "Bubble wrap roll", "Water bottle",
		"Coffee beans 1 kg", "Tea sampler", "Printer toner", "Surge protector", "Power bank 20,000 mAh",
	}
	cents := []int{1000, 450, 2899, 699, 1850, 2499, 1299, 3999, 8900, 11900,
		19900, 5499, 3500, 2450, 599, 899, 1199, 550, 1475, 6999,
		1299, 2199, 399, 1850, 1599, 2250, 1400, 7450, 2999, 3950}
	p := make([]demoProduct, len(names))
	for i := range names {
		p[i] = demoProduct{sku: fmt.Sprintf("SKU-%d", 1001+i*2), name: names[i], cents: cents[i]}
	}
	return p
}()

var (
	demoFirstNames = []string{"Olivia", "Liam", "Emma", "Noah", "Ava", "Mateo", "Sofia", "Lucas", "Mia", "Arjun",
		"Chloe", "Kenji", "Amara", "Jonas", "Priya", "Diego", "Hannah", "Omar", "Lea", "Tomasz",
		"Ines", "Kwame", "Yuki", "Elena", "Samuel", "Nadia", "Felix", "Zara", "Hugo", "Maya"}
	demoLastNames = []string{"Smith", "Garcia", "Müller", "Rossi", "Nguyen", "Kowalski", "Okafor", "Tanaka", "Silva", "Jensen",
		"Dubois", "Patel", "Novak", "Haddad", "Larsen", "Fischer", "Moreau", "Costa", "Ivanova", "O'Brien"}
	demoStreets = []string{"Maple", "Station", "Harbour", "Mill", "Church", "Victoria", "Elm", "King", "Park", "Bridge"}
	demoCities  = []struct{ city, postcode, country string }{
		{"Seattle", "98101", "US"}, {"Austin", "73301", "US"}, {"Toronto", "M5V 2T6", "CA"},
		{"London", "EC1A 1BB", "GB"}, {"Dublin", "D02 X285", "IE"}, {"Berlin", "10115", "DE"},
		{"Lyon", "69002", "FR"}, {"Milan", "20121", "IT"}, {"Warsaw", "00-001", "PL"},
		{"Sydney", "2000", "AU"}, {"Osaka", "530-0001", "JP"}, {"São Paulo", "01310-000", "BR"},
	}
	demoCarriers = []string{"UPS", "DHL", "FedEx", "Royal Mail", "DPD"}
)

type demoOrder struct {
	cust string
	day  int // days since demoEpoch
	seq  int // generation order, a tie-break that keeps the sort stable
	big  bool
}

func (g *demoGen) pick(n int) int { return g.r.IntN(n) }

func (g *demoGen) customers() {
	var orders []demoOrder
	for i := range demoCustomers {
		id := demoFirstCust + i
		pk := "CUST#" + strconv.Itoa(id)
		first := demoFirstNames[g.pick(len(demoFirstNames))]
		last := demoLastNames[g.pick(len(demoLastNames))]
		// Customers signed up between 2023-01-01 and 2025-06-30.
		joined := g.pick(365 + 546)
		at := demoEpoch.AddDate(-1, 0, joined).Add(time.Duration(g.pick(86400)) * time.Second)
		g.add(dynamo.Item{
			"PK": demoS(pk), "SK": demoS("PROFILE"),
			"name":      demoS(first + " " + last),
			"email":     demoS(fmt.Sprintf("%s.%s%d@example.com", demoASCIILower(first), demoASCIILower(last), id)),
			"createdAt": demoS(at.Format(time.RFC3339)),
		})
		for _, label := range [][]string{nil, {"HOME"}, {"HOME", "WORK"}}[g.pick(3)] {
			c := demoCities[g.pick(len(demoCities))]
			g.add(dynamo.Item{
				"PK": demoS(pk), "SK": demoS("ADDRESS#" + label),
				"line1":    demoS(fmt.Sprintf("%d %s Street", 1+g.pick(240), demoStreets[g.pick(len(demoStreets))])),
				"city":     demoS(c.city),
				"postcode": demoS(c.postcode),
				"country":  demoS(c.country),
			})
		}
		firstDay := max(0, joined-365) // no order before the customer joined
		for range g.pick(demoMaxOrders + 1) {
			orders = append(orders, demoOrder{cust: pk, day: firstDay + g.pick(demoDays-firstDay), seq: len(orders)})
		}
	}
	g.add(dynamo.Item{
		"PK": demoS(demoBigCustomer), "SK": demoS("PROFILE"),
		"name":      demoS("Big Corp"),
		"email":     demoS("purchasing@bigcorp.example"),
		"createdAt": demoS("2019-04-02T08:00:00Z"),
	})
	for range demoBigOrders {
		orders = append(orders, demoOrder{cust: demoBigCustomer, day: g.pick(demoDays), seq: len(orders), big: true})
	}
	// Order ids are handed out in date order, as a real system would.
	slices.SortFunc(orders, func(a, b demoOrder) int {
		if a.day != b.day {
			return a.day - b.day
		}
		return a.seq - b.seq
	})
	for i, o := range orders {
		g.order(o, "B"+strconv.Itoa(demoFirstOrder+i))
	}
}

// status depends on the order's age at the end of 2025, so open orders are
// recent and old ones were delivered long ago.
func (g *demoGen) status(day int) string {
	age := demoDays - 1 - day
	p := g.pick(100)
	switch {
	case age < 14:
		return demoPickBy(p, []int{70, 25, 5}, "OPEN", "SHIPPED", "CANCELLED")
	case age < 30:
		return demoPickBy(p, []int{15, 55, 25, 5}, "OPEN", "SHIPPED", "DELIVERED", "CANCELLED")
	default:
		return demoPickBy(p, []int{92, 8}, "DELIVERED", "CANCELLED")
	}
}

func demoPickBy(p int, weights []int, names ...string) string {
	for i, w := range weights {
		if p < w {
			return names[i]
		}
		p -= w
	}
	return names[len(names)-1]
}

func (g *demoGen) order(o demoOrder, id string) {
	date := demoEpoch.AddDate(0, 0, o.day).Format(time.DateOnly)
	status := g.status(o.day)
	lines := 1 + g.pick(3)
	if o.big {
		lines = 1 + g.pick(2)
	}
	total := 0
	for n := 1; n <= lines; n++ {
		p := demoCatalog[g.pick(len(demoCatalog))]
		qty := 1 + g.pick(3)
		if o.big {
			qty = 5 * (1 + g.pick(10))
		}
		total += qty * p.cents
		g.add(dynamo.Item{
			"PK": demoS("ORDER#" + id), "SK": demoS("ITEM#" + strconv.Itoa(n)),
			"sku": demoS(p.sku), "name": demoS(p.name), "qty": demoInt(qty), "price": demoMoney(p.cents),
		})
	}
	it := dynamo.Item{
		"PK": demoS(o.cust), "SK": demoS("ORDER#" + date + "#" + id),
		"orderId":   demoS(id),
		"total":     demoMoney(total),
		"status":    demoS(status),
		"itemCount": demoInt(lines),
	}
	if status == "OPEN" {
		// GSI1 is sparse: only open orders carry its keys, so the index
		// holds exactly the warehouses' work queues.
		wh := 1 + g.pick(demoWarehouses)
		it["GSI1PK"] = demoS("WH#" + strconv.Itoa(wh))
		it["GSI1SK"] = demoS("OPEN#" + date + "#" + id)
	}
	if o.big {
		g.bigOrder(it, id)
	}
	g.add(it)
	if status == "SHIPPED" || status == "DELIVERED" {
		shipped := demoEpoch.AddDate(0, 0, o.day+1+g.pick(2))
		sh := dynamo.Item{
			"PK": demoS("ORDER#" + id), "SK": demoS("SHIPMENT#" + shipped.Format(time.DateOnly)),
			"carrier":  demoS(demoCarriers[g.pick(len(demoCarriers))]),
			"tracking": demoS(fmt.Sprintf("TRK%010d", g.r.Int64N(1e10))),
		}
		if status == "DELIVERED" {
			sh["deliveredOn"] = demoS(shipped.AddDate(0, 0, 1+g.pick(4)).Format(time.DateOnly))
		}
		g.add(sh)
	}
}

var demoSites = []struct{ site, line1, city, postcode, country string }{
	{"Plant 1", "1 Foundry Way", "Detroit", "48201", "US"},
	{"Plant 4", "400 Industrial Pkwy", "Columbus", "43004", "US"},
	{"Distribution East", "77 Harbor Logistics Park", "Newark", "07102", "US"},
	{"Distribution West", "2150 Port Access Rd", "Oakland", "94607", "US"},
	{"HQ", "1 Corporate Plaza, Floor 31", "Chicago", "60601", "US"},
	{"R&D Campus", "88 Innovation Dr", "Raleigh", "27601", "US"},
	{"EU Hub", "Europaallee 12", "Frankfurt", "60327", "DE"},
	{"UK Office", "20 Canada Square", "London", "E14 5AB", "GB"},
}

// bigOrder makes Big Corp's orders as heavy as real B2B orders are — a
// purchase-order number, a delivery site and free-text instructions — so
// that its partition outgrows one 1 MB Query page.
func (g *demoGen) bigOrder(it dynamo.Item, id string) {
	s := demoSites[g.pick(len(demoSites))]
	contact := demoFirstNames[g.pick(len(demoFirstNames))] + " " + demoLastNames[g.pick(len(demoLastNames))]
	po := fmt.Sprintf("PO-7-%06d", 100000+g.pick(900000))
	from := 6 + g.pick(4)
	it["poNumber"] = demoS(po)
	it["shipTo"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"site":     demoS("Big Corp " + s.site),
		"line1":    demoS(s.line1),
		"city":     demoS(s.city),
		"postcode": demoS(s.postcode),
		"country":  demoS(s.country),
		"contact":  demoS(contact),
	}}
	notes := []string{
		fmt.Sprintf("Deliver to loading dock %c between %02d:00 and %02d:00 on weekdays only.", 'A'+rune(g.pick(6)), from, from+8),
		fmt.Sprintf("Call %s at extension %d thirty minutes before arrival; the site gate requires a visitor badge.", contact, 2000+g.pick(8000)),
		fmt.Sprintf("Pallets must not exceed %d kg and must be shrink-wrapped and labelled with %s and order %s.", 500+100*g.pick(6), po, id),
		"Invoices go to accounts payable by e-mail only, quoting the PO number; paper invoices are returned unpaid.",
	}
	it["notes"] = demoS(strings.Join(notes, " "))
}

// asciiLower lower-cases a name for an e-mail address and drops what an
// address would not carry (ü, apostrophes).
func demoASCIILower(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r == 'ü':
			b.WriteString("ue")
		}
	}
	return b.String()
}
