package entities

import (
	"maps"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const schemaYAML = `
entities:
  - name: Customer
    keys:
      PK: "CUST#{customerId}"
      SK: "PROFILE"
    params:
      customerId: number
  - name: Order
    entityAttribute: {name: _type, value: Order}
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderDate}#{orderId}"
      GSI1PK: "ORDER#{orderId}"
      GSI1SK: "ORDER#{orderId}"
    params:
      customerId: number
      orderDate: date
      orderId: text
  - name: Shipment
    keys: {PK: "SHIP#{shipId}", SK: "SEQ#{seq}"}
    params:
      shipId: {type: id, shape: ulid}
      seq: {type: padded, width: 5}
`

// parseSection reads the entities: section of a document.
func parseSection(t testing.TB, doc string) (*Set, error) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	root := n.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "entities" {
			return Parse(root.Content[i+1])
		}
	}
	t.Fatal("no entities: in the document")
	return nil, nil
}

func mustSet(t testing.TB, doc string) *Set {
	t.Helper()
	s, err := parseSection(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSchemaExample(t *testing.T) {
	s := mustSet(t, schemaYAML)
	if got := strings.Join(s.Names(), ","); got != "Customer,Order,Shipment" {
		t.Fatalf("names %s", got)
	}
	o := s.Find("Order")
	if o.EntityAttr == nil || *o.EntityAttr != (Attr{Name: "_type", Value: "Order"}) {
		t.Errorf("entity attribute %+v", o.EntityAttr)
	}
	if got := strings.Join(o.KeyOrder, ","); got != "PK,SK,GSI1PK,GSI1SK" {
		t.Errorf("key order %s", got)
	}
	if got := strings.Join(o.ParamOrder(), ","); got != "customerId,orderDate,orderId" {
		t.Errorf("param order %s", got)
	}
	sh := s.Find("Shipment")
	if p := sh.Params["seq"]; p.Type != Padded || p.Width != 5 {
		t.Errorf("seq %+v", p)
	}
	if p := sh.Params["shipId"]; p.Type != ID || p.Shape != ULID {
		t.Errorf("shipId %+v", p)
	}
	if got := strings.Join(s.TableKeys(), ","); got != "PK,SK" {
		t.Errorf("table keys guessed %s, want PK,SK", got)
	}
}

func TestMatchDecodesParameters(t *testing.T) {
	s := mustSet(t, schemaYAML)
	if err := s.SetKeys([]string{"PK", "SK"}, []string{"GSI1PK", "GSI1SK"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		attrs  map[string]string
		entity string
		params string
		drift  int
	}{
		{map[string]string{"PK": "CUST#42", "SK": "PROFILE"}, "Customer", "customerId = 42", 0},
		{map[string]string{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17", "GSI1PK": "ORDER#A17", "GSI1SK": "ORDER#A17"}, "Order", "customerId = 42, orderDate = 2025-03-01, orderId = A17", 0},
		{map[string]string{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17"}, "Order", "customerId = 42, orderDate = 2025-03-01, orderId = A17", 2},
		{map[string]string{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17", "GSI1PK": "ORDER#B9", "GSI1SK": "ORDER#A17"}, "Order", "customerId = 42, orderDate = 2025-03-01, orderId = A17", 1},
		{map[string]string{"PK": "SHIP#01ARZ3NDEKTSV4RRFFQ69G5FAV", "SK": "SEQ#00007"}, "Shipment", "shipId = 01ARZ3NDEKTSV4RRFFQ69G5FAV, seq = 00007", 0},
	}
	for _, c := range cases {
		m, ok := s.Match(c.attrs)
		if !ok {
			t.Errorf("%v matched nothing, want %s", c.attrs, c.entity)
			continue
		}
		if m.Name() != c.entity || m.Decoded() != c.params || len(m.Drift) != c.drift {
			t.Errorf("%v: %s (%s) drift %q; want %s (%s) with %d drift", c.attrs, m.Name(), m.Decoded(), m.Drift, c.entity, c.params, c.drift)
		}
	}
	for _, attrs := range []map[string]string{
		{"PK": "CUST#forty-two", "SK": "PROFILE"},                // not a number
		{"PK": "CUST|42", "SK": "PROFILE"},                       // another delimiter
		{"PK": "CUST#42", "SK": "ORDER#2025-13-01#A17"},          // no such date
		{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17#extra"},    // text holds its next literal? no: the last part takes the rest
		{"PK": "SHIP#01ARZ3NDEKTSV4RRFFQ69G5FAV", "SK": "SEQ#7"}, // not padded
		{"PK": "CUST#42"}, // no sort key
		{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17", "_type": "Line"}, // the entity attribute disagrees
	} {
		m, ok := s.Match(attrs)
		if attrs["SK"] == "ORDER#2025-03-01#A17#extra" {
			// the last placeholder takes the rest of the key: orderId = A17#extra
			if !ok || m.Param("orderId") != "A17#extra" {
				t.Errorf("%v: %v %v, want Order with orderId A17#extra", attrs, m.Params, ok)
			}
			continue
		}
		if ok {
			t.Errorf("%v matched %s (%s), want none", attrs, m.Name(), m.Decoded())
		}
	}
}

func TestMoreLiteralWins(t *testing.T) {
	s := mustSet(t, `
entities:
  - name: Any
    keys: {PK: "USER#{id}", SK: "{rest}"}
    params: {id: text, rest: text}
  - name: Profile
    keys: {PK: "USER#{id}", SK: "PROFILE"}
    params: {id: text}
`)
	m, ok := s.Match(map[string]string{"PK": "USER#1", "SK": "PROFILE"})
	if !ok || m.Name() != "Profile" {
		t.Fatalf("got %v %v, want Profile (more literal) though Any comes first", m.Entity, ok)
	}
	m, ok = s.Match(map[string]string{"PK": "USER#1", "SK": "SETTINGS"})
	if !ok || m.Name() != "Any" || m.Param("rest") != "SETTINGS" {
		t.Fatalf("got %v %v, want Any", m.Entity, ok)
	}
}

func TestParseErrorsHaveLineAndColumn(t *testing.T) {
	cases := []struct {
		name, doc, want string
	}{
		{"unknown type", `
entities:
  - name: A
    keys: {PK: "A#{id}"}
    params: {id: nubmer}
`, `line 5, column 18: entity "A": id has the unknown type "nubmer" (did you mean "number"?)`},
		{"placeholder without param", `
entities:
  - name: A
    keys: {PK: "A#{id}", SK: "B#{other}"}
    params: {id: text}
`, `line 5, column 13: entity "A": the key SK (B#{other}) uses {other}, which params: does not declare`},
		{"param never used", `
entities:
  - name: A
    keys: {PK: "A#{id}"}
    params:
      id: text
      extra: number
`, `line 7, column 7: entity "A": params declares extra, which no key uses`},
		{"ambiguous", `
entities:
  - name: A
    keys: {PK: "A#{id}"}
    params: {id: text}
  - name: B
    keys: {PK: "A#{n}"}
    params: {n: number}
`, `line 6, column 5: entity "B": it and A (line 3) could both match one key`},
		{"adjacent", `
entities:
  - name: A
    keys: {PK: "A#{x}{y}"}
    params: {x: text, y: text}
`, `line 4, column 12: entity "A": the key PK (A#{x}{y}) has {x} right before {y}`},
		{"bad template", `
entities:
  - name: A
    keys: {PK: "A#{x"}
`, `line 4, column 16: entity "A": PK: "A#{x" has a { without its closing }`},
		{"padded without width", `
entities:
  - name: A
    keys: {PK: "A#{x}"}
    params: {x: {type: padded}}
`, `line 5, column 17: entity "A": x is padded and needs its width`},
		{"unknown shape", `
entities:
  - name: A
    keys: {PK: "A#{x}"}
    params: {x: {type: id, shape: uiid}}
`, `line 5, column 35: entity "A": x has the unknown id shape "uiid" (did you mean "uuid"?)`},
		{"unknown field", `
entities:
  - name: A
    key: {PK: "A#{x}"}
`, `line 4, column 5: entity "A": unknown field "key" (did you mean "keys"?)`},
		{"duplicate", `
entities:
  - name: A
    keys: {PK: "A"}
  - name: A
    keys: {PK: "B"}
`, `line 5, column 5: entity "A": the name is used twice (first at line 3)`},
	}
	for _, c := range cases {
		_, err := parseSection(t, c.doc)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s…", c.name, err, c.want)
		}
	}
}

func TestSetKeysRefusesWhatIsNotAKey(t *testing.T) {
	s := mustSet(t, schemaYAML)
	err := s.SetKeys([]string{"PK", "SK"}, []string{"GSI2PK"})
	want := `line 14, column 7: entity "Order": GSI1PK is not a key attribute of the table or of an index (did you mean "GSI2PK"?)`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v\nwant %s…", err, want)
	}
	s = mustSet(t, "entities:\n  - name: A\n    keys: {SK: \"X\"}\n")
	if err := s.SetKeys([]string{"PK", "SK"}, nil); err == nil || !strings.Contains(err.Error(), "no template for the table's partition key PK") {
		t.Fatalf("got %v", err)
	}
}

func TestEntityAttributeTellsTwinsApart(t *testing.T) {
	s := mustSet(t, `
entities:
  - name: Cat
    entityAttribute: {name: kind, value: cat}
    keys: {PK: "PET#{id}"}
    params: {id: text}
  - name: Dog
    entityAttribute: {name: kind, value: dog}
    keys: {PK: "PET#{id}"}
    params: {id: text}
`)
	m, ok := s.Match(map[string]string{"PK": "PET#1", "kind": "dog"})
	if !ok || m.Name() != "Dog" {
		t.Fatalf("got %v %v, want Dog", m.Entity, ok)
	}
}

func TestBuild(t *testing.T) {
	s := mustSet(t, schemaYAML)
	o, sh := s.Find("Order"), s.Find("Shipment")
	got, err := o.Build(map[string]string{"customerId": "42", "orderDate": "2025-03-01", "orderId": "A17"}, "SK")
	if err != nil || got != "ORDER#2025-03-01#A17" {
		t.Errorf("Build SK = %q, %v", got, err)
	}
	if got, err := sh.Build(map[string]string{"seq": "7"}, "SK"); err != nil || got != "SEQ#00007" {
		t.Errorf("padded Build = %q, %v; want SEQ#00007", got, err)
	}
	for _, c := range []struct {
		params map[string]string
		attr   string
		want   string
	}{
		{map[string]string{"orderDate": "2025-3-1", "orderId": "A17"}, "SK", `orderDate is "2025-3-1", which is not a date (YYYY-MM-DD)`},
		{map[string]string{"orderDate": "2025-03-01"}, "SK", `Order's SK (ORDER#{orderDate}#{orderId}) needs orderId`},
		{map[string]string{"customerId": "x"}, "PK", `customerId is "x", which is not a number`},
		{nil, "GSI9PK", `Order declares no key GSI9PK`},
	} {
		_, err := o.Build(c.params, c.attr)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Build(%v, %s): %v, want %s…", c.params, c.attr, err, c.want)
		}
	}
	// the last placeholder takes the rest of the key, so it may hold the delimiter
	if got, err := o.Build(map[string]string{"orderDate": "2025-03-01", "orderId": "A#17"}, "SK"); err != nil || got != "ORDER#2025-03-01#A#17" {
		t.Errorf("Build = %q, %v", got, err)
	}
	x := mustSet(t, "entities:\n  - name: X\n    keys: {PK: \"{t}#END\"}\n    params: {t: text}\n").Find("X")
	if _, err := x.Build(map[string]string{"t": "a#ENDb"}, "PK"); err == nil || !strings.HasPrefix(err.Error(), `t is "a#ENDb", which holds "#END", the text that follows it in {t}#END`) {
		t.Errorf("text holding its next literal: %v", err)
	}
	if _, err := sh.Build(map[string]string{"seq": "123456"}, "SK"); err == nil {
		t.Error("a seq wider than 5 digits was built")
	}
}

func TestParamCheck(t *testing.T) {
	ok := []struct {
		p Param
		v string
	}{
		{Param{Type: Number}, "-1.5e3"},
		{Param{Type: Date}, "2024-02-29"},
		{Param{Type: DateTime}, "2025-03-01T10:00:00Z"},
		{Param{Type: DateTime}, "2025-03-01T10:00:00.123+02:00"},
		{Param{Type: ID, Shape: UUID}, "123e4567-e89b-12d3-a456-426614174000"},
		{Param{Type: ID, Shape: KSUID}, "0ujsswThIGTUYm2K8FjOOfXtY1K"},
		{Param{Type: ID, Shape: Hex}, "deadBEEF"},
		{Param{Type: ID, Shape: Any}, "x"},
		{Param{Type: Text}, "anything at all"},
	}
	for _, c := range ok {
		if err := c.p.Check(c.v); err != nil {
			t.Errorf("%+v refused %q: %v", c.p, c.v, err)
		}
	}
	bad := []struct {
		p Param
		v string
	}{
		{Param{Type: Number}, "1e"},
		{Param{Type: Date}, "2023-02-29"},
		{Param{Type: DateTime}, "2025-03-01"},
		{Param{Type: ID, Shape: UUID}, "123e4567e89b12d3a456426614174000"},
		{Param{Type: ID, Shape: ULID}, "81ARZ3NDEKTSV4RRFFQ69G5FAV"}, // overflows 128 bits
		{Param{Type: ID, Shape: Hex}, "xyz"},
		{Param{Type: Padded, Width: 3}, "12"},
		{Param{Type: Text}, ""},
	}
	for _, c := range bad {
		c.p.Name = "p"
		if err := c.p.Check(c.v); err == nil {
			t.Errorf("%+v accepted %q", c.p, c.v)
		} else if strings.Count(err.Error(), ".") > 1 || !strings.HasPrefix(err.Error(), "p ") {
			t.Errorf("%+v: %q is not one sentence naming the parameter", c.p, err)
		}
	}
}

// FuzzBuildMatch: whatever Build makes, Match reads back as the values
// given (padded ones padded), for each entity of the schema's example and
// a few templates whose literals look like their values.
func FuzzBuildMatch(f *testing.F) {
	f.Add("42", "2025-03-01", "A17", "7", "01ARZ3NDEKTSV4RRFFQ69G5FAV")
	f.Add("-1.5", "2000-01-01", "#", "00000", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ")
	f.Add("1e5", "1999-12-31", "ORDER#x", "99999", "")
	s := mustSet(f, schemaYAML+`
  - name: Tricky
    keys: {PK: "T1{n}1{m}", SK: "{d}-{n}--{t}"}
    params: {n: number, m: number, d: date, t: text}
`)
	if err := s.SetKeys([]string{"PK", "SK"}, []string{"GSI1PK", "GSI1SK"}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, num, date, text, pad, ulid string) {
		values := map[string]string{"customerId": num, "orderDate": date, "orderId": text, "seq": pad, "shipId": ulid, "n": num, "m": num, "d": date, "t": text}
		for _, e := range s.Entities {
			attrs := map[string]string{}
			want := map[string]string{}
			built := true
			for _, a := range e.KeyOrder {
				key, err := e.Build(values, a)
				if err != nil {
					built = false
					break
				}
				attrs[a] = key
			}
			if !built {
				continue
			}
			for _, name := range e.ParamOrder() {
				want[name], _ = e.Params[name].Normalize(values[name])
			}
			m, ok := s.Match(attrs)
			if !ok {
				t.Fatalf("%s built %v, which matches nothing", e.Name, attrs)
			}
			got := map[string]string{}
			for _, v := range m.Params {
				got[v.Name] = v.Value
			}
			if m.Entity != e || !maps.Equal(got, want) || len(m.Drift) > 0 {
				t.Fatalf("%s built %v from %v; Match gives %s %v drift %q", e.Name, attrs, want, m.Name(), got, m.Drift)
			}
		}
	})
}

func TestOptionalIndexKeys(t *testing.T) {
	s := mustSet(t, `
entities:
  - name: Order
    keys: {PK: "CUST#{c}", SK: "ORDER#{d}#{id}", GSI1PK: "WH#{wh}", GSI1SK: "OPEN#{d}#{id}"}
    params: {c: number, d: date, id: text, wh: number}
    optional: [GSI1PK, GSI1SK]
`)
	if err := s.SetKeys([]string{"PK", "SK"}, []string{"GSI1PK", "GSI1SK"}); err != nil {
		t.Fatal(err)
	}
	m, ok := s.Match(map[string]string{"PK": "CUST#1", "SK": "ORDER#2025-01-01#B1"})
	if !ok || len(m.Drift) != 0 {
		t.Fatalf("an order out of the sparse index: %v drift %q", ok, m.Drift)
	}
	m, _ = s.Match(map[string]string{"PK": "CUST#1", "SK": "ORDER#2025-01-01#B1", "GSI1PK": "WH#1", "GSI1SK": "OPEN#2025-01-02#B1"})
	if len(m.Drift) != 1 || !strings.Contains(m.Drift[0], "GSI1SK") {
		t.Fatalf("an open order with a GSI1SK of another date: drift %q", m.Drift)
	}
	if m, _ := s.Match(map[string]string{"PK": "CUST#1", "SK": "ORDER#2025-01-01#B1", "GSI1PK": "WH#3", "GSI1SK": "OPEN#2025-01-01#B1"}); m.Decoded() != "c = 1, d = 2025-01-01, id = B1, wh = 3" || len(m.Drift) != 0 {
		t.Fatalf("an open order: %s drift %q", m.Decoded(), m.Drift)
	}
	if err := s.SetKeys([]string{"PK", "GSI1PK"}, []string{"SK", "GSI1SK"}); err == nil || !strings.Contains(err.Error(), "line 6, column 16: entity \"Order\": optional: lists GSI1PK, a key of the table") {
		t.Fatalf("an optional table key: %v", err)
	}
	if _, err := parseSection(t, "entities:\n  - name: A\n    keys: {PK: A}\n    optional: [GSI9]\n"); err == nil || !strings.HasPrefix(err.Error(), "line 4, column 16: entity \"A\": optional: lists GSI9, which keys: does not declare") {
		t.Fatalf("an optional key not declared: %v", err)
	}
}

func TestNamer(t *testing.T) {
	s := mustSet(t, schemaYAML)
	if err := s.SetKeys([]string{"PK", "SK"}, []string{"GSI1PK", "GSI1SK"}); err != nil {
		t.Fatal(err)
	}
	table := s.Namer("PK", "SK")
	if n, ok := table("CUST#42", "PROFILE"); !ok || n != "Customer" {
		t.Errorf("table key: %q %v", n, ok)
	}
	if _, ok := table("CUST#42", "ORDER|2025-03-01|A17"); ok {
		t.Error("an old delimiter matched")
	}
	index := s.Namer("GSI1PK", "GSI1SK")
	if n, ok := index("ORDER#A17", "ORDER#A17"); !ok || n != "Order" {
		t.Errorf("index key: %q %v", n, ok)
	}
	if _, ok := index("ORDER#A17", "ORDER#B9"); ok {
		t.Error("an index key whose two halves disagree matched")
	}
	if (&Set{}).Namer("PK", "SK") != nil {
		t.Error("no entities, yet a namer")
	}
}
