// Package edit is dynascope's guarded editing: a change to one item is
// planned (diff, condition, request, predicted cost) before anything is
// sent, sent only through a Writer, which exists only when the user allowed
// writes, and journalled so that it can be listed and undone.
//
// Every write is conditional on the item as it was read: each attribute it
// sets or removes at its value as read, or absent where it was absent, the
// rest read unchanged (or a version attribute), so a change made by someone
// else in between is never silently overwritten. A delete cannot see an
// attribute added after the read unless a version attribute says so; its
// plan says that (Plan.Limit). Planning is pure and needs no connection:
// --dry-run and the UI's confirmation use it without a Writer.
//
// A bulk change is planned here too, for the command line and the UI
// alike (bulkplan.go): PlanBulk takes the table, the items as read and one
// BulkChange (typed values set and removed as ParseAssignment reads them,
// renames, defaults set where absent, or a delete), refuses a change that
// touches a key attribute (*KeyChangeError), and returns a BulkPlan: the
// items' plans, the keys of those already as wanted and the items skipped
// (BulkSkip: a rename's new name taken), with the preview's sums
// (Selected, Changes per attribute and kind, Predicted WCU, Time at a
// rate, the first write's Command and Boto3). Writer.ApplyBulk sends the plans at a
// Pace (RatePace) under one journal entry; UndoBulk takes it back.
//
// It imports dynamo (key schemas), itemcodec (codecs and sizes), codegen
// (the aws command's layout) and the SDK; never
// ui, and nothing in dynamo or ui's read path imports it: the explorer's
// client stays write-free.
package edit

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/itemcodec/number"
)

// Op is the DynamoDB operation a plan sends.
type Op string

// The operations of editing.
const (
	OpPut      Op = "PutItem"            // a new item: it must not exist yet
	OpUpdate   Op = "UpdateItem"         // SET and REMOVE of the attributes that changed
	OpDelete   Op = "DeleteItem"         // the item as read goes
	OpTransact Op = "TransactWriteItems" // a key change: the new item put, the old one deleted, atomically
)

// Change is one item's change: the item as read and the item wanted.
type Change struct {
	Table string
	Keys  dynamo.Table // the table's key schema (PK, SK)
	Old   dynamo.Item  // the item as read; nil when it must not exist
	New   dynamo.Item  // the item wanted; nil to delete it
	// Version names a number attribute every writer increments: the
	// condition is then on it (and on what the write touches) and the
	// write increments it. "" takes one of VersionNames when the item read
	// has it as a number, else the condition is over the whole image read.
	Version string
}

// Plan is a change made ready to send: everything the confirmation shows,
// and the request itself.
type Plan struct {
	Change
	Op        Op
	Diff      []AttrDiff
	Condition string // the condition in DynamoDB's words, values shown
	// Limit says, in one sentence, what the condition can and cannot see
	// where that is less than everything: a delete or key change cannot
	// see an attribute added after the read, unless a version attribute
	// says so. "" for a put or an update.
	Limit string
	// PredictedWCU is the write units the plan should consume: TableWCU
	// (the larger image's size rounded up to 1 KB, at least 1; twice in a
	// transaction) and IndexWCU, by index (units.go).
	PredictedWCU float64
	TableWCU     float64
	IndexWCU     map[string]float64
	Put          *dynamodb.PutItemInput
	Update       *dynamodb.UpdateItemInput
	Delete       *dynamodb.DeleteItemInput
	Transact     *dynamodb.TransactWriteItemsInput
}

// writeUnitBytes is the size one write capacity unit covers.
const writeUnitBytes = 1024

// WriteUnits is what writing an item of this size costs: 1 WCU per 1 KB,
// rounded up, at least 1.
func WriteUnits(size int) float64 {
	return float64(max(1, (size+writeUnitBytes-1)/writeUnitBytes))
}

// ErrNoChange is a plan of an item that is already as wanted.
var ErrNoChange = errors.New("nothing to write: the item is already as wanted")

// NewPlan checks a change and builds its request. Every problem is found
// here, before anything is sent.
func NewPlan(c Change) (*Plan, error) {
	if c.Old == nil && c.New == nil {
		return nil, errors.New("nothing to write: no item read and none wanted")
	}
	if c.Keys.PK.Name == "" {
		return nil, fmt.Errorf("the key schema of table %s is unknown", c.Table)
	}
	for _, it := range []dynamo.Item{c.Old, c.New} {
		if it != nil {
			if err := checkKey(c.Keys, it); err != nil {
				return nil, err
			}
		}
	}
	if c.New != nil {
		if err := checkItem(c.New); err != nil {
			return nil, err
		}
	}
	if c.Version == "" && c.Old != nil {
		c.Version = findVersion(c.Old)
	}
	p := &Plan{Change: c}
	if c.Version != "" && c.New != nil {
		p.New = withNextVersion(c.Old, c.New, c.Version)
	}
	p.Diff = Diff(c.Old, p.New)
	if c.Old != nil && p.New != nil && !Changed(p.Diff) {
		return nil, ErrNoChange
	}
	var err error
	switch {
	case c.Old == nil:
		p.Op = OpPut
		err = p.buildPut()
	case p.New == nil:
		p.Op = OpDelete
		err = p.buildDelete()
	case !sameKey(c.Keys, c.Old, p.New):
		p.Op = OpTransact
		err = p.buildTransact()
	default:
		p.Op = OpUpdate
		err = p.buildUpdate()
	}
	if err != nil {
		return nil, err
	}
	if p.Op == OpDelete || p.Op == OpTransact {
		p.Limit = p.goneLimit()
	}
	p.predict()
	return p, nil
}

// keyNames are the table's key attribute names, partition key first.
func keyNames(t dynamo.Table) []string {
	if t.SK == nil {
		return []string{t.PK.Name}
	}
	return []string{t.PK.Name, t.SK.Name}
}

// KeyNames are the table's key attributes, partition key first.
func KeyNames(t dynamo.Table) []string { return keyNames(t) }

// KeysFirst orders attribute names with the table's key attributes first,
// in key order; a stable sort keeps the others as they were.
func KeysFirst(t dynamo.Table) func(a, b string) int {
	keys := keyNames(t)
	return func(a, b string) int {
		ai, bi := slices.Index(keys, a), slices.Index(keys, b)
		switch {
		case ai >= 0 && bi >= 0:
			return ai - bi
		case ai >= 0:
			return -1
		case bi >= 0:
			return 1
		}
		return 0
	}
}

// KeyOf is the primary key of an item.
func KeyOf(t dynamo.Table, it dynamo.Item) dynamo.Item {
	k := dynamo.Item{}
	for _, n := range keyNames(t) {
		if v, ok := it[n]; ok {
			k[n] = v
		}
	}
	return k
}

func checkKey(t dynamo.Table, it dynamo.Item) error {
	attrs := []dynamo.KeyAttr{t.PK}
	if t.SK != nil {
		attrs = append(attrs, *t.SK)
	}
	for _, a := range attrs {
		v, ok := it[a.Name]
		if !ok {
			return fmt.Errorf("the item has no %s: it is part of the key of table %s", a.Name, t.Name)
		}
		if typ := itemcodec.AttributeTypeName(v); typ != a.Type {
			return fmt.Errorf("the key attribute %s must be of type %s, not %s", a.Name, a.Type, typ)
		}
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			if v.Value == "" {
				return fmt.Errorf("the key attribute %s cannot be empty", a.Name)
			}
		case *types.AttributeValueMemberB:
			if len(v.Value) == 0 {
				return fmt.Errorf("the key attribute %s cannot be empty", a.Name)
			}
		}
	}
	return nil
}

// maxItemBytes is DynamoDB's item size limit.
const maxItemBytes = 400 * 1024

// checkItem refuses what DynamoDB would refuse, in one sentence: numbers it
// cannot store, empty or repeating sets, an item over 400 KB.
func checkItem(it dynamo.Item) error {
	for _, name := range slices.Sorted(maps.Keys(it)) {
		if err := CheckValue(name, it[name]); err != nil {
			return err
		}
	}
	if n := itemcodec.ItemSize(it); n > maxItemBytes {
		return fmt.Errorf("the item would be %d bytes; DynamoDB stores at most 400 KB (409600 bytes) an item", n)
	}
	return nil
}

// notNumber says why s is no DynamoDB number; a reason that only repeats
// "not a number" is left out.
func notNumber(path, s string, err error) error {
	if errors.Is(err, number.ErrSyntax) {
		return fmt.Errorf("%s: %q is not a DynamoDB number", path, s)
	}
	return fmt.Errorf("%s: %q is not a DynamoDB number (%v)", path, s, err)
}

// CheckValue refuses a value DynamoDB would refuse; path names it.
func CheckValue(path string, av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		if _, err := number.Parse(v.Value); err != nil {
			return notNumber(path, v.Value, err)
		}
	case *types.AttributeValueMemberNS:
		return checkSet(path, "NS", v.Value, func(s string) (string, error) {
			d, err := number.Parse(s)
			if err != nil {
				return "", notNumber(path, s, err)
			}
			return d.Key(), nil
		})
	case *types.AttributeValueMemberSS:
		return checkSet(path, "SS", v.Value, func(s string) (string, error) { return s, nil })
	case *types.AttributeValueMemberBS:
		return checkSet(path, "BS", v.Value, func(b []byte) (string, error) { return string(b), nil })
	case *types.AttributeValueMemberL:
		for i, e := range v.Value {
			if err := CheckValue(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	case *types.AttributeValueMemberM:
		for _, k := range slices.Sorted(maps.Keys(v.Value)) {
			if err := CheckValue(path+"."+k, v.Value[k]); err != nil {
				return err
			}
		}
	case nil:
		return fmt.Errorf("%s has no value", path)
	}
	return nil
}

func checkSet[T any](path, typ string, members []T, key func(T) (string, error)) error {
	if len(members) == 0 {
		return fmt.Errorf("%s: a %s cannot be empty; remove the attribute instead", path, typ)
	}
	seen := map[string]bool{}
	for _, m := range members {
		k, err := key(m)
		if err != nil {
			return err
		}
		if seen[k] {
			return fmt.Errorf("%s: the %s has %s twice; a set holds each member once", path, typ, memberText(m))
		}
		seen[k] = true
	}
	return nil
}

func memberText(m any) string {
	if b, ok := m.([]byte); ok {
		return fmt.Sprintf("the binary member %x", b)
	}
	return fmt.Sprintf("%q", m)
}

func sameKey(t dynamo.Table, a, b dynamo.Item) bool {
	for _, n := range keyNames(t) {
		if !Equal(a[n], b[n]) {
			return false
		}
	}
	return true
}

// avValue hands an already-typed value to the expression builder, which
// otherwise marshals Go values.
type avValue struct{ av types.AttributeValue }

func (v avValue) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) { return v.av, nil }

func value(av types.AttributeValue) expression.ValueBuilder { return expression.Value(avValue{av}) }

// maxConditionBytes is DynamoDB's limit on an expression's length.
const maxConditionBytes = 4096

func (p *Plan) build(cond expression.ConditionBuilder, upd *expression.UpdateBuilder) (expression.Expression, error) {
	b := expression.NewBuilder().WithCondition(cond)
	if upd != nil {
		b = b.WithUpdate(*upd)
	}
	e, err := b.Build()
	if err != nil {
		return e, fmt.Errorf("cannot build the request: %w", err)
	}
	if c := e.Condition(); c != nil && len(*c) > maxConditionBytes {
		return e, &conditionTooLong{len(*c)}
	}
	p.Condition = describe(e.Condition(), e.Names(), e.Values())
	return e, nil
}

func (p *Plan) buildPut() error {
	e, err := p.build(asRead(p.Keys, nil, "", nil, false), nil)
	if err != nil {
		return err
	}
	p.Put = &dynamodb.PutItemInput{
		TableName: aws.String(p.Table), Item: p.New,
		ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	return nil
}

func (p *Plan) buildDelete() error {
	e, err := p.goneCondition()
	if err != nil {
		return err
	}
	p.Delete = &dynamodb.DeleteItemInput{
		TableName: aws.String(p.Table), Key: KeyOf(p.Keys, p.Old),
		ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		// The item as it was, attributes added by someone else included,
		// goes to the journal: undo brings back what was really deleted.
		ReturnValues: types.ReturnValueAllOld,
	}
	return nil
}

func (p *Plan) buildUpdate() error {
	cond := asRead(p.Keys, p.Old, p.Version, p.touched(false), false)
	var upd expression.UpdateBuilder
	for _, d := range p.Diff {
		switch {
		case d.New == nil && d.Old != nil:
			upd = upd.Remove(expression.NameNoDotSplit(d.Name))
		case d.Old == nil || !Equal(d.Old, d.New):
			upd = upd.Set(expression.NameNoDotSplit(d.Name), value(d.New))
		}
	}
	e, err := p.build(cond, &upd)
	if err != nil {
		return err
	}
	p.Update = &dynamodb.UpdateItemInput{
		TableName: aws.String(p.Table), Key: KeyOf(p.Keys, p.Old),
		UpdateExpression: aws.String(oneLine(aws.ToString(e.Update()))), ConditionExpression: e.Condition(),
		ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		// The whole item as written, for the journal: undo's condition is
		// that the item is still exactly this.
		ReturnValues: types.ReturnValueAllNew,
	}
	return nil
}

// oneLine is an expression on one line: the builder puts a newline
// between SET and REMOVE, which would break the aws command shown.
func oneLine(expr string) string { return strings.Join(strings.Fields(expr), " ") }

func (p *Plan) buildTransact() error {
	pe, err := p.build(asRead(p.Keys, nil, "", nil, false), nil)
	if err != nil {
		return err
	}
	putDesc := p.Condition
	de, err := p.goneCondition()
	if err != nil {
		return err
	}
	p.Condition = "new key: " + putDesc + "; old key: " + p.Condition
	p.Transact = &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{
				TableName: aws.String(p.Table), Item: p.New,
				ConditionExpression: pe.Condition(), ExpressionAttributeNames: pe.Names(),
			}},
			{Delete: &types.Delete{
				TableName: aws.String(p.Table), Key: KeyOf(p.Keys, p.Old),
				ConditionExpression: de.Condition(), ExpressionAttributeNames: de.Names(), ExpressionAttributeValues: de.Values(),
			}},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	return nil
}

// describe writes an expression with its names and values put back, for
// people: #0 = :0 becomes status = "OPEN".
func describe(expr *string, names map[string]string, values map[string]types.AttributeValue) string {
	if expr == nil {
		return ""
	}
	var words []string
	for k, v := range names {
		words = append(words, k, v)
	}
	for k, v := range values {
		words = append(words, k, ValueText(v))
	}
	// Longest placeholders first, so that :10 is not read as :1 and a 0.
	pairs := make([][2]string, 0, len(words)/2)
	for i := 0; i < len(words); i += 2 {
		pairs = append(pairs, [2]string{words[i], words[i+1]})
	}
	slices.SortFunc(pairs, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
	var flat []string
	for _, p := range pairs {
		flat = append(flat, p[0], p[1])
	}
	return strings.NewReplacer(flat...).Replace(*expr)
}
