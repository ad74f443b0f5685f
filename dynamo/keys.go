package dynamo

// Key schemas for building requests. Query, GetItem and Discover need only a
// table's key names and types, which rarely change, so they take them from
// the session or the schema cache (schemacache.go) instead of asking
// DynamoDB each run. A cached schema can be out of date (the table was
// deleted and created again with other keys), and DynamoDB says so in its
// own way: a ValidationException, a missing table, or items whose keys do
// not fit. Then the schema is read again, and if it did change the request
// is built anew and sent once more.

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/smithy-go"

	"dynascope/itemcodec"
)

// TableKeys returns the table's key schema and indexes for building
// requests: from this session, else from the schema cache when it holds a
// fresh entry, else from DescribeTable. ItemCount, SizeBytes, Status and
// BillingMode are zero when the answer came from the cache; ask
// DescribeTable for them.
func (c *Client) TableKeys(ctx context.Context, name string) (Table, error) {
	k, err := c.keysFor(ctx, name)
	return k.t, err
}

// tableKeys is a key schema and how far it can be trusted.
type tableKeys struct {
	t         Table
	cached    bool // not read from DynamoDB for the request at hand
	confirmed bool // read from DynamoDB in this session, not only from the cache
}

func (c *Client) keysFor(ctx context.Context, name string) (tableKeys, error) {
	c.mu.Lock()
	if t, ok := c.tables[name]; ok {
		c.mu.Unlock()
		return tableKeys{t: t, cached: true, confirmed: true}, nil
	}
	if t, ok := c.keys[name]; ok {
		c.mu.Unlock()
		return tableKeys{t: t, cached: true}, nil
	}
	c.mu.Unlock()
	if t, ok := c.schemas.load(name); ok {
		c.mu.Lock()
		c.keys[name] = t
		c.mu.Unlock()
		return tableKeys{t: t, cached: true}, nil
	}
	t, err := c.DescribeTable(ctx, name)
	return tableKeys{t: t}, err
}

// doubt is what the outcome of a request says about the key schema it was
// built from.
type doubt int

const (
	noDoubt doubt = iota
	// inputDoubt: the request could not be built (a value does not fit a
	// key's type, no such index). Wrong keys would explain it, and so would
	// a typing mistake, so only keys never confirmed are re-read for it.
	inputDoubt
	// answerDoubt: DynamoDB refused the request or answered with items
	// whose keys do not fit.
	answerDoubt
)

// withKeys runs send with the table's key schema. When the schema was
// cached and the outcome casts doubt on it, the schema is read again, and
// if it changed, send runs once more with the new one; otherwise the first
// outcome stands.
func (c *Client) withKeys(ctx context.Context, table string, send func(Table) (doubt, error)) error {
	k, err := c.keysFor(ctx, table)
	if err != nil {
		return err
	}
	d, err := send(k.t)
	if !k.cached || d == noDoubt || (d == inputDoubt && k.confirmed) {
		return err
	}
	fresh, changed := c.recheck(ctx, k.t)
	if !changed {
		return err
	}
	_, err = send(fresh)
	return err
}

// recheck forgets a table's key schema, reads it from DynamoDB again and
// tells whether it differs from old. Its DescribeTable record says why it
// was sent, so the request log explains the request that follows.
func (c *Client) recheck(ctx context.Context, old Table) (Table, bool) {
	c.mu.Lock()
	delete(c.tables, old.Name)
	delete(c.keys, old.Name)
	c.mu.Unlock()
	c.schemas.forget(old.Name)
	t, req, err := c.describe(ctx, old.Name)
	changed := err == nil && !sameKeys(old, t)
	switch {
	case err != nil:
		req.Note = fmt.Sprintf("re-read the key schema of %s after a request built from the cached one failed", old.Name)
	case changed:
		req.Note = fmt.Sprintf("the key schema of %s changed since it was cached; the request is sent again", old.Name)
	default:
		req.Note = fmt.Sprintf("re-read the key schema of %s after a request built from the cached one failed: unchanged", old.Name)
	}
	c.record(&req)
	return t, changed
}

// answerDoubtOf tells whether a failed request's error could come from a
// key schema that is out of date: DynamoDB refuses key conditions, keys and
// index names that do not match the table, and a missing table is missing.
func answerDoubtOf(err error) doubt {
	if isTableNotFound(err) {
		return answerDoubt
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "ValidationException" {
		return answerDoubt
	}
	return noDoubt
}

// fits tells whether an item read from the table (index "") or an index
// carries that key's attributes with their types, as every such item does;
// one that does not was read with keys that are out of date.
func (t Table) fits(index string, it Item) bool {
	ks, err := t.Schema(index)
	if err != nil {
		return false
	}
	for _, k := range []*KeyAttr{&ks.PK, ks.SK, &t.PK, t.SK} {
		if k != nil && itemcodec.AttributeTypeName(it[k.Name]) != k.Type {
			return false
		}
	}
	return true
}

// sameKeys tells whether two descriptions of a table would build the same
// requests: the same keys, and the same indexes with the same keys.
func sameKeys(a, b Table) bool {
	if !sameKeySchema(KeySchema{PK: a.PK, SK: a.SK}, KeySchema{PK: b.PK, SK: b.SK}) || len(a.Indexes) != len(b.Indexes) {
		return false
	}
	for i, x := range a.Indexes {
		y := b.Indexes[i]
		if x.Name != y.Name || x.Kind != y.Kind || !sameKeySchema(KeySchema{PK: x.PK, SK: x.SK}, KeySchema{PK: y.PK, SK: y.SK}) {
			return false
		}
	}
	return true
}
