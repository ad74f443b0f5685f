// Package dynamo is the only package that talks to DynamoDB: the client and
// its retries, key queries and gets, paged reads (a Query's through one
// reader, queryread.go, that every caller uses; a Scan's in segments, and
// what DynamoDB's 1 MB page rule makes of their pages, onemb.go), consumed
// capacity, the request log, skip-scan discovery, sampling, the one
// estimate of a whole read, the checks on what a server answers, the
// key-schema cache, seeding (the only writes) and the demo's traffic (its
// data is demodata's). DynamoDB Local as a program (installed, started) is
// dynamolocal's.
//
// It imports keys, itemcodec, filterexpr, partiql (the plan of a SELECT)
// and textfmt; never ui, config, patterns, codegen, workbench or the
// command line, which all build on it, nor demodata, the data it sends for
// the demo. What needs no network (item JSON, files, sizes) is in
// itemcodec, and reading a PartiQL statement in partiql.
package dynamo

import (
	"time"

	"dynascope/itemcodec"
)

// Item is one DynamoDB item exactly as the SDK returns it (itemcodec.Item).
type Item = itemcodec.Item

// KeyAttr is one key attribute: its name and scalar type ("S", "N" or "B").
type KeyAttr struct {
	Name string
	Type string
}

// IndexKind tells a global from a local secondary index.
type IndexKind string

// The two kinds of secondary index.
const (
	GSI IndexKind = "GSI"
	LSI IndexKind = "LSI"
)

// Index describes one secondary index of a table.
type Index struct {
	Name       string
	Kind       IndexKind
	PK         KeyAttr
	SK         *KeyAttr // nil when the index has no sort key
	Projection string   // ALL, KEYS_ONLY or INCLUDE
	NonKeyAttr []string // the INCLUDE list
	ItemCount  int64
	SizeBytes  int64
}

// Table describes a table as DescribeTable reports it.
type Table struct {
	Name        string
	PK          KeyAttr
	SK          *KeyAttr // nil when the table has no sort key
	Indexes     []Index
	ItemCount   int64
	SizeBytes   int64
	Status      string
	BillingMode string // PAY_PER_REQUEST or PROVISIONED
}

// KeySchema is the key of the table or of one of its indexes.
type KeySchema struct {
	Index string // "" for the table itself
	PK    KeyAttr
	SK    *KeyAttr
	// Base names the table's own key attributes when this is an index's
	// schema: a projection keeps them too, so paging and items' identity
	// survive it.
	Base []string
}

// SKOp is a sort-key condition operator, spelled as DynamoDB spells it.
type SKOp string

// The sort-key operators a key condition allows.
const (
	SKNone       SKOp = ""
	SKEq         SKOp = "="
	SKLt         SKOp = "<"
	SKLe         SKOp = "<="
	SKGt         SKOp = ">"
	SKGe         SKOp = ">="
	SKBetween    SKOp = "between"
	SKBeginsWith SKOp = "begins_with"
)

// SKCond is an optional sort-key condition. Values hold the user's text (two
// for between, one otherwise); they are converted to the key's type before any
// request is sent.
type SKCond struct {
	Op     SKOp
	Values []string
}

// QueryInput is one access pattern: partition-key equality, an optional
// sort-key condition, and the knobs DynamoDB offers.
type QueryInput struct {
	Table      string
	Index      string // "" for the table
	PK         string // the partition key value as text (number digits, base64 for binary)
	SK         SKCond
	Reverse    bool  // ScanIndexForward=false
	Limit      int32 // 0 means no Limit
	Consistent bool  // ConsistentRead
	StartKey   Item  // ExclusiveStartKey; nil for the first page
	CountOnly  bool  // Select=COUNT
	// Filter is a FilterExpression in filterexpr's syntax, literal values
	// in place ("" for none); Project a projection list ("a, b, c.d").
	Filter, Project string
}

// GetInput names one item by its full primary key, given as text.
type GetInput struct {
	Table      string
	PK         string
	SK         string // ignored when the table has no sort key
	Consistent bool
}

// Capacity is the consumed capacity of one request, as DynamoDB reported it.
type Capacity struct {
	Total   float64
	Table   float64
	Indexes map[string]float64
}

// TotalCapacity is the capacity of requests, summed index by index.
func TotalCapacity(reqs []Request) Capacity {
	var c Capacity
	for _, r := range reqs {
		c = c.Add(r.Capacity)
	}
	return c
}

// Add returns the sum of two capacities, index by index.
func (c Capacity) Add(o Capacity) Capacity {
	r := Capacity{Total: c.Total + o.Total, Table: c.Table + o.Table}
	if len(c.Indexes)+len(o.Indexes) > 0 {
		r.Indexes = make(map[string]float64, len(c.Indexes)+len(o.Indexes))
		for k, v := range c.Indexes {
			r.Indexes[k] += v
		}
		for k, v := range o.Indexes {
			r.Indexes[k] += v
		}
	}
	return r
}

// Request is the record of one request sent to DynamoDB: what was asked, what
// came back and what it cost. It is kept for the request log.
type Request struct {
	Seq          int64  // order in the session, from 1
	Operation    string // Query, GetItem, Scan, DescribeTable, ...
	Table        string
	Index        string
	KeyCondition string            // in DynamoDB's words with values shown: PK = "CUST#42" AND begins_with(SK, "ORDER#")
	Statement    string            // the PartiQL statement an ExecuteStatement sent ("" for the other operations)
	Expression   string            // the expression as sent, with placeholders
	Values       map[string]string // placeholder -> value text
	Forward      bool              // ScanIndexForward
	Limit        int32
	Consistent   bool
	CountOnly    bool
	Count        int32
	ScannedCount int32
	Capacity     Capacity
	Start        time.Time
	Duration     time.Duration
	More         bool  // LastEvaluatedKey was returned
	Err          error // nil on success
	// Note says why dynascope sent a request the user did not ask for, such
	// as the DescribeTable that re-reads a cached key schema; "" otherwise.
	Note string
	// Filter and Projection are the request's filter and projection in
	// filterexpr's words ("" for none).
	Filter, Projection string
	// NoCapacity marks an answer that reported no consumed capacity
	// although it was asked for: DynamoDB Local's ExecuteStatement.
	NoCapacity bool
	// Query is a Query's input as it was sent, for its code (a skip-scan
	// step's, which no caller keeps); nil for the other operations.
	Query *QueryInput
}

// Page is one page of a Query (or the single result of a GetItem).
type Page struct {
	Items            []Item
	Count            int32
	ScannedCount     int32
	LastEvaluatedKey Item // nil when the query is complete
	Request          Request
}
