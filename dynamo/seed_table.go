package dynamo

// Creating the table that seeding writes into: the only other write dynascope makes.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/textfmt"
)

// TableSpec is the table EnsureTable creates when it is missing.
type TableSpec struct {
	Name string
	PK   KeyAttr
	SK   *KeyAttr // nil for a table without a sort key
	// GSIs are created as global secondary indexes whatever their Kind; the
	// projection is ALL unless Projection says otherwise.
	GSIs []Index
}

// seedCallTimeout bounds each single request of seeding: the caller's ctx bounds
// the whole job, but a server that accepts and never answers must not hang it.
const seedCallTimeout = DefaultTimeout

// tableActiveWait bounds how long EnsureTable waits for a new table to become
// ACTIVE when the caller's ctx allows longer. AWS takes seconds to a minute.
// waitNoteAfter is how long it waits before saying so, and again each
// waitNoteEvery. Variables for the tests.
var (
	tableActiveWait = 5 * time.Minute
	waitNoteAfter   = 2 * time.Second
	waitNoteEvery   = 30 * time.Second
)

// EnsureTable creates the table of spec, on demand (PAY_PER_REQUEST) and with
// its indexes, when it does not exist, and waits until it and its indexes are
// ACTIVE. An existing table is checked against the spec instead: writing demo
// items into a table keyed differently would only fail item by item later.
func EnsureTable(ctx context.Context, api WriteAPI, spec TableSpec) (created bool, err error) {
	return EnsureTableSaying(ctx, api, spec, nil)
}

// EnsureTableSaying is EnsureTable that, while the table or an index is
// not ACTIVE yet, tells say (when not nil) what it waits for and for how
// long at most: a table that stays CREATING is never a silent wait.
func EnsureTableSaying(ctx context.Context, api WriteAPI, spec TableSpec, say func(string)) (created bool, err error) {
	if err := spec.Validate(); err != nil {
		return false, err
	}
	endpoint := sdkEndpoint(api)
	d, err := describeRaw(ctx, api, spec.Name)
	switch {
	case err == nil:
		if err := spec.matches(tableFromDescription(d)); err != nil {
			return false, err
		}
	case isTableNotFound(err):
		in, err := spec.createInput()
		if err != nil {
			return false, err
		}
		cctx, cancel := context.WithTimeout(ctx, seedCallTimeout)
		_, err = api.CreateTable(cctx, in)
		cancel()
		var inUse *types.ResourceInUseException
		switch {
		case errors.As(err, &inUse):
			// Someone created it between our look and our create; check
			// it like any existing table.
			if d, err := describeRaw(ctx, api, spec.Name); err == nil {
				if err := spec.matches(tableFromDescription(d)); err != nil {
					return false, err
				}
			}
		case err != nil:
			return false, Explain(err, "create table "+spec.Name, endpoint)
		default:
			created = true
		}
	default:
		return false, Explain(err, "describe table "+spec.Name, endpoint)
	}
	return created, seedWaitActive(ctx, api, spec.Name, say)
}

// sdkEndpoint returns the endpoint an SDK client was built for, so errors can
// name DynamoDB Local instead of AWS; "" when it is AWS or unknown.
func sdkEndpoint(api API) string {
	if c, ok := api.(interface{ Options() dynamodb.Options }); ok {
		return aws.ToString(c.Options().BaseEndpoint)
	}
	return ""
}

// Describe is DescribeTable for code that holds an SDK client rather than
// a Client (seeding, which writes through ConnectWriter's): no request log,
// no caches.
func Describe(ctx context.Context, api API, table string) (Table, error) {
	d, err := describeRaw(ctx, api, table)
	if err != nil {
		return Table{}, Explain(err, "describe table "+table, sdkEndpoint(api))
	}
	return tableFromDescription(d), nil
}

func describeRaw(ctx context.Context, api API, table string) (*types.TableDescription, error) {
	cctx, cancel := context.WithTimeout(ctx, seedCallTimeout)
	defer cancel()
	out, err := api.DescribeTable(cctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, err
	}
	return out.Table, nil
}

// IsTableNotFound tells whether err says the table does not exist.
func IsTableNotFound(err error) bool { return isTableNotFound(err) }

func isTableNotFound(err error) bool {
	var rnf *types.ResourceNotFoundException
	return errors.As(err, &rnf)
}

// seedWaitActive polls until the table and every index are ACTIVE. DynamoDB
// Local is instant; AWS takes seconds to minutes, and writes to a CREATING
// table fail. After waitNoteAfter it tells say what it waits for.
func seedWaitActive(ctx context.Context, api API, table string, say func(string)) error {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, tableActiveWait)
	defer cancel()
	delay := 100 * time.Millisecond
	noted := time.Time{}
	for {
		d, err := describeRaw(ctx, api, table)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
				return &UserError{Msg: fmt.Sprintf("table %s did not become ACTIVE within %s; check it in the console and retry.", table, tableActiveWait), Err: err}
			}
			return Explain(err, "wait for table "+table, sdkEndpoint(api))
		}
		if tableActive(d) {
			return nil
		}
		if say != nil && time.Since(began) >= waitNoteAfter && (noted.IsZero() || time.Since(noted) >= waitNoteEvery) {
			noted = time.Now()
			say(fmt.Sprintf("waiting for %s to become ACTIVE (%s), %s so far, at most %s", table, notActive(d),
				time.Since(began).Round(time.Second), tableActiveWait))
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return Explain(ctx.Err(), "wait for table "+table, sdkEndpoint(api))
			}
			return &UserError{Msg: fmt.Sprintf("table %s is not ACTIVE after %s (%s); wait until it is and retry.", table, tableActiveWait, notActive(d)), Err: ctx.Err()}
		case <-time.After(delay):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// notActive says what of a table is not ACTIVE: "it is CREATING", "index
// ByType is CREATING".
func notActive(d *types.TableDescription) string {
	var parts []string
	if d.TableStatus != types.TableStatusActive {
		parts = append(parts, "it is "+cmp.Or(textfmt.Sanitize(string(d.TableStatus)), "of no status"))
	}
	for _, g := range d.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			parts = append(parts, "index "+textfmt.Sanitize(aws.ToString(g.IndexName))+" is "+cmp.Or(textfmt.Sanitize(string(g.IndexStatus)), "of no status"))
		}
	}
	return strings.Join(parts, ", ")
}

func tableActive(d *types.TableDescription) bool {
	if d.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range d.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}

// Validate says, as one sentence, what in the spec DynamoDB would refuse.
func (s TableSpec) Validate() error {
	if s.Name == "" {
		return &UserError{Msg: "no table name given; pass --table."}
	}
	check := func(where string, k KeyAttr) error {
		if k.Name == "" {
			return &UserError{Msg: fmt.Sprintf("the %s of table %s has no name.", where, s.Name)}
		}
		switch k.Type {
		case "S", "N", "B":
			return nil
		}
		return &UserError{Msg: fmt.Sprintf("the %s %s of table %s has type %q; use S, N or B.", where, k.Name, s.Name, k.Type)}
	}
	if err := check("partition key", s.PK); err != nil {
		return err
	}
	if s.SK != nil {
		if err := check("sort key", *s.SK); err != nil {
			return err
		}
	}
	for _, g := range s.GSIs {
		if g.Name == "" {
			return &UserError{Msg: fmt.Sprintf("an index of table %s has no name.", s.Name)}
		}
		if err := check("partition key of index "+g.Name+",", g.PK); err != nil {
			return err
		}
		if g.SK != nil {
			if err := check("sort key of index "+g.Name+",", *g.SK); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s TableSpec) createInput() (*dynamodb.CreateTableInput, error) {
	defs := map[string]string{}
	var order []string
	define := func(k KeyAttr) error {
		if t, ok := defs[k.Name]; ok {
			if t != k.Type {
				return &UserError{Msg: fmt.Sprintf("table %s uses attribute %s as a key with two types (%s and %s); give it one.", s.Name, k.Name, t, k.Type)}
			}
			return nil
		}
		defs[k.Name] = k.Type
		order = append(order, k.Name)
		return nil
	}
	schema := func(pk KeyAttr, sk *KeyAttr) ([]types.KeySchemaElement, error) {
		if err := define(pk); err != nil {
			return nil, err
		}
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
		if sk != nil {
			if err := define(*sk); err != nil {
				return nil, err
			}
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
		}
		return ks, nil
	}
	ks, err := schema(s.PK, s.SK)
	if err != nil {
		return nil, err
	}
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(s.Name),
		KeySchema:   ks,
		BillingMode: types.BillingModePayPerRequest,
	}
	for _, g := range s.GSIs {
		gks, err := schema(g.PK, g.SK)
		if err != nil {
			return nil, err
		}
		p := &types.Projection{ProjectionType: types.ProjectionTypeAll}
		switch strings.ToUpper(g.Projection) {
		case "", "ALL":
		case "KEYS_ONLY":
			p.ProjectionType = types.ProjectionTypeKeysOnly
		case "INCLUDE":
			p.ProjectionType = types.ProjectionTypeInclude
			p.NonKeyAttributes = g.NonKeyAttr
		default:
			return nil, &UserError{Msg: fmt.Sprintf("index %s has projection %q; use ALL, KEYS_ONLY or INCLUDE.", g.Name, g.Projection)}
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(g.Name), KeySchema: gks, Projection: p,
		})
	}
	for _, n := range order {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(n), AttributeType: types.ScalarAttributeType(defs[n]),
		})
	}
	return in, nil
}

// matches says in one sentence how an existing table differs from the spec.
func (s TableSpec) matches(t Table) error {
	want := KeySchema{PK: s.PK, SK: s.SK}
	got := KeySchema{PK: t.PK, SK: t.SK}
	if !sameKeySchema(want, got) {
		return &UserError{Msg: fmt.Sprintf("table %s already exists with key %s, not %s; pick another --table or delete it first.", s.Name, got.KeyText(), want.KeyText())}
	}
	for _, g := range s.GSIs {
		ix, ok := t.IndexByName(g.Name)
		if !ok {
			return &UserError{Msg: fmt.Sprintf("table %s already exists without the index %s; pick another --table or add the index.", s.Name, g.Name)}
		}
		want := KeySchema{Index: g.Name, PK: g.PK, SK: g.SK}
		got := KeySchema{Index: g.Name, PK: ix.PK, SK: ix.SK}
		if !sameKeySchema(want, got) {
			return &UserError{Msg: fmt.Sprintf("index %s of table %s has key %s, not %s; pick another --table or delete it first.", g.Name, s.Name, got.KeyText(), want.KeyText())}
		}
	}
	return nil
}

func sameKeySchema(a, b KeySchema) bool {
	if a.PK != b.PK || (a.SK == nil) != (b.SK == nil) {
		return false
	}
	return a.SK == nil || *a.SK == *b.SK
}

// maxEmptyScanPages bounds IsEmpty: a Scan page can come back with no items and
// a LastEvaluatedKey (it stopped on an empty stretch of the key space), which
// proves nothing either way.
const maxEmptyScanPages = 8
