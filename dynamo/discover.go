package dynamo

import (
	"context"
	"fmt"
	"strings"

	"dynascope/keys"
)

// DiscoverInput names the partition whose entity types are wanted.
type DiscoverInput struct {
	Table, Index string
	PK           string
	Delimiter    string // "" infers it from the first sort key found
	Reverse      bool   // walk from the last type to the first
	Consistent   bool
	Count        bool // also count each type exactly (reads every item of it)
}

// Discovery is what a skip-scan found: the entity types in sort-key order (or
// reverse), and every request it took. Counts are -1 unless counted.
type Discovery struct {
	KeyType   string // the sort key's type; "" when the table or index has none
	Delimiter string
	Groups    []keys.Group
	Requests  []Request
}

// Capacity sums the consumed capacity of every request of the discovery.
func (d Discovery) Capacity() Capacity {
	return TotalCapacity(d.Requests)
}

// Discover finds the entity types of a partition by skip-scan: sort keys are
// sorted, so after the first key of type ORDER# the query SK >= "ORDER$" with
// Limit 1 lands on the first key of the next type. One small request finds
// each type and, for a prefix type, one more finds its last key; the partition
// itself is never read whole. Numeric and binary sort keys have no types: their
// range (first and last) is reported as one group.
func (c *Client) Discover(ctx context.Context, in DiscoverInput) (Discovery, error) {
	var d Discovery
	var spent []Request // a first walk's requests, when cached keys sent it astray
	err := c.withKeys(ctx, in.Table, func(t Table) (doubt, error) {
		spent = append(spent, d.Requests...)
		var dt doubt
		var err error
		d, dt, err = c.discover(ctx, t, in)
		return dt, err
	})
	d.Requests = append(spent, d.Requests...)
	return d, err
}

func (c *Client) discover(ctx context.Context, t Table, in DiscoverInput) (Discovery, doubt, error) {
	ks, err := t.Schema(in.Index)
	if err != nil {
		return Discovery{}, inputDoubt, err
	}
	d := Discovery{Delimiter: in.Delimiter}
	if ks.SK == nil {
		// Validate the key value all the same: a bad value is an error here too.
		if _, err := BuildQuery(ks, QueryInput{Table: in.Table, Index: in.Index, PK: in.PK}); err != nil {
			return d, inputDoubt, err
		}
		return d, noDoubt, nil
	}
	d.KeyType = ks.SK.Type
	s := skipScan{c: c, t: t, in: in, sk: ks.SK.Name, d: &d}
	if ks.SK.Type != "S" {
		err = s.keyRange(ctx)
	} else if in.Reverse {
		err = s.backward(ctx)
	} else {
		err = s.forward(ctx)
	}
	if err != nil || !in.Count {
		return d, s.doubt, err
	}
	for i := range d.Groups {
		n, err := s.count(ctx, d.Groups[i])
		if err != nil {
			return d, s.doubt, err
		}
		d.Groups[i].Count = n
	}
	return d, s.doubt, nil
}

type skipScan struct {
	c     *Client
	t     Table // the keys the walk is built from
	in    DiscoverInput
	sk    string
	d     *Discovery
	doubt doubt // the gravest doubt a request cast on t
}

// query sends one request of the walk. An answer that does not fit the
// keys stops the walk: they decide where it goes next.
func (s *skipScan) query(ctx context.Context, q QueryInput) (Page, error) {
	p, d, err := s.c.query(ctx, s.t, q)
	if p.Request.Operation != "" {
		s.d.Requests = append(s.d.Requests, p.Request)
	}
	s.doubt = max(s.doubt, d)
	if err == nil && d == answerDoubt {
		err = &UserError{Msg: fmt.Sprintf("the keys of table %s changed while dynascope read it; run the request again.", s.in.Table)}
	}
	return p, err
}

// one sends a Limit 1 query and returns the sort key it found, if any.
func (s *skipScan) one(ctx context.Context, cond SKCond, reverse bool) (string, bool, error) {
	p, err := s.query(ctx, QueryInput{
		Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, SK: cond,
		Reverse: reverse, Limit: 1, Consistent: s.in.Consistent,
	})
	if err != nil || len(p.Items) == 0 {
		return "", false, err
	}
	return KeyString(p.Items[0][s.sk]), true, nil
}

func (s *skipScan) delimiter(firstKey string) string {
	if s.d.Delimiter == "" {
		s.d.Delimiter = keys.InferDelimiter([]string{firstKey})
	}
	return s.d.Delimiter
}

func (s *skipScan) forward(ctx context.Context) error {
	key, found, err := s.one(ctx, SKCond{}, false)
	for err == nil && found {
		delim := s.delimiter(key)
		entity, prefix := keys.EntityType(key, delim)
		g := keys.Group{Entity: entity, Prefix: prefix, Count: -1, First: key, Last: key}
		if isPrefixType(key, delim) {
			// A prefix type: its last key is the newest one starting with it.
			if g.Last, _, err = s.one(ctx, SKCond{Op: SKBeginsWith, Values: []string{prefix}}, true); err != nil {
				return err
			}
		}
		s.d.Groups = append(s.d.Groups, g)
		start, inclusive, ok := keys.SkipPast(key, delim)
		if !ok {
			return nil
		}
		op := SKGe
		if !inclusive {
			op = SKGt
		}
		key, found, err = s.one(ctx, SKCond{Op: op, Values: []string{start}}, false)
		if err == nil && found && (key < start || key == start && !inclusive) {
			return s.stuck(key, string(op), start)
		}
	}
	return err
}

// stuck is the error for a key that does not meet the condition it was
// asked with: from a server that answers so, the walk would never end.
func (s *skipScan) stuck(key, op, bound string) error {
	return Explain(&BadAnswerError{Op: "Query", Problem: fmt.Sprintf("the sort key %q to the condition SK %s %q, which it does not meet (the skip-scan would not move on)", key, op, bound)},
		fmt.Sprintf("skip-scan %s on %s", s.in.PK, tableAndIndex(s.in.Table, s.in.Index)), s.c.opts.Endpoint)
}

func (s *skipScan) backward(ctx context.Context) error {
	key, found, err := s.one(ctx, SKCond{}, true)
	for err == nil && found {
		delim := s.delimiter(key)
		entity, prefix := keys.EntityType(key, delim)
		g := keys.Group{Entity: entity, Prefix: prefix, Count: -1, First: key, Last: key}
		bound := key // an exact type: the previous type is below the key itself
		if isPrefixType(key, delim) {
			if g.Last, _, err = s.one(ctx, SKCond{Op: SKBeginsWith, Values: []string{prefix}}, false); err != nil {
				return err
			}
			bound = prefix // every key of the type sorts at or after its prefix
		}
		s.d.Groups = append(s.d.Groups, g)
		key, found, err = s.one(ctx, SKCond{Op: SKLt, Values: []string{bound}}, true)
		if err == nil && found && key >= bound {
			return s.stuck(key, string(SKLt), bound)
		}
	}
	return err
}

// keyRange reports a numeric or binary sort key's first and last value.
func (s *skipScan) keyRange(ctx context.Context) error {
	first, found, err := s.one(ctx, SKCond{}, s.in.Reverse)
	if err != nil || !found {
		return err
	}
	last, _, err := s.one(ctx, SKCond{}, !s.in.Reverse)
	if err != nil {
		return err
	}
	entity := keys.NumberEntity
	if s.d.KeyType == "B" {
		entity = keys.BinaryEntity
	}
	s.d.Groups = []keys.Group{{Entity: entity, Count: -1, First: first, Last: last}}
	return nil
}

// count counts one type exactly with Select=COUNT, page by page: it costs as
// much as reading every item of the type.
func (s *skipScan) count(ctx context.Context, g keys.Group) (int, error) {
	q := QueryInput{Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, Consistent: s.in.Consistent, CountOnly: true}
	switch {
	case s.d.KeyType != "S":
		// the whole range
	case !isPrefixType(g.Prefix, s.d.Delimiter):
		q.SK = SKCond{Op: SKEq, Values: []string{g.Prefix}}
	default:
		q.SK = SKCond{Op: SKBeginsWith, Values: []string{g.Prefix}}
	}
	n := 0
	for {
		p, err := s.query(ctx, q)
		if err != nil {
			return n, err
		}
		n += int(p.Count)
		if p.LastEvaluatedKey == nil {
			return n, nil
		}
		q.StartKey = p.LastEvaluatedKey
	}
}

// isPrefixType tells a key of a prefix type ("ORDER#...", all keys starting
// with "ORDER#") from one that is a type of its own ("PROFILE"), as
// keys.EntityType decides it.
func isPrefixType(key, delim string) bool {
	return delim != "" && strings.Contains(key, delim)
}
