package dynamo

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/textfmt"
)

// DefaultSkipScanRequests is how many requests a skip-scan may send for one
// partition unless told otherwise: enough for a partition of a dozen entity
// types, far less than reading a partition that needs a skip-scan at all.
const DefaultSkipScanRequests = 25

// SkipScanShareOfPage is the share of a full first page's capacity a
// skip-scan may spend (see Budget.MaxRCU): it exists to save reading, so it
// must cost a small part of what it saves.
const SkipScanShareOfPage = 0.10

// Budget caps what a skip-scan may spend on one partition.
type Budget struct {
	// MaxRequests counts every request Discover sends, its own first page
	// included; 0: DefaultSkipScanRequests; negative: no cap.
	MaxRequests int
	MaxRCU      float64 // 0: no cap on capacity
}

// DiscoverInput names the partition whose entity types are wanted.
type DiscoverInput struct {
	Table, Index string
	PK           string
	Delimiter    string // "" infers it from the first sort key found
	Reverse      bool   // walk from the last type to the first
	Consistent   bool
	Count        bool // also count each type exactly (reads every item of it)
	// CountEst is the bound on a whole read's cost (a count's, a grouping
	// by attribute's) the caller announced: the read stops where a query
	// --all-pages under it stops (QueryRead.Est, an *EstimateError). The
	// zero Estimate stops nothing.
	CountEst Estimate
	// CountMaxRCU caps a whole read as --max-rcu caps a query's; with it
	// the cap alone decides (a *CapError when it stops the read). 0: none.
	CountMaxRCU float64
	Budget      Budget
	// Declared names the types by the application's declared entities
	// (keys.Declared); nil: by inference alone.
	Declared keys.Declared
	// First is the partition's first page as the caller already read it:
	// in the walk's direction, without sort-key condition, filter,
	// projection or start key (the UI's opened partition). Its items are
	// grouped and the walk starts after its last key, so nothing it holds
	// is read again. Nil: Discover reads the first page itself (see
	// firstPageLimit), or the whole partition when Count is set.
	First *Page
	// OnRequest, when set, sees each request of the walk as it completes, so
	// a caller can log it and add its cost while the walk goes on. Calls
	// never overlap, though the two halves of a walk call it from their own
	// goroutines, and come in the same order on every run (within a round
	// of the halves' turns, the main half's answer first).
	OnRequest func(Request)
	// OnGroup, when set, sees each group the walk completes as it does, in
	// the walk's orientation (First in its direction), before the groups are
	// folded: the two halves find them from both ends, not in order. Calls
	// never overlap.
	OnGroup func(keys.Group)
	// OneWay walks from the first page to the end alone, one request after
	// another, instead of from both ends at once (see walkBoth): the walk
	// the concurrent one must equal, for tests and the bench.
	OneWay bool
}

// Discovery is what a skip-scan found: the groups in sort-key order (or
// reverse), and every request it took. Counts are -1 unless counted.
type Discovery struct {
	KeyType   string // the sort key's type; "" when the table or index has none
	Delimiter string
	Groups    []keys.Group
	Requests  []Request
	// Partial is true when the budget ran out: more groups may follow, from
	// Continue on.
	Partial  bool
	Continue SKCond // where the walk would go on (SK >= key, SK > key or SK < key)
	// Until bounds the types that may follow from Continue when the walk's
	// other half found the partition's far end first: they lie before it
	// (SK < key, or SK >= / > key walking in reverse). SKNone when the far
	// end was not reached.
	Until SKCond
	// EntityAttribute is the generic entity attribute the first page shows
	// (keys.DetectEntityAttribute), "" when none: a second grouping on offer.
	EntityAttribute string
	// Stepped are the value groups of letter-led ids (or a list's names)
	// the walk went through one key per request: such keys sort among
	// labels, so no condition jumps past them as ":" jumps digit-led ones.
	Stepped []SteppedGroup
}

// SteppedGroup is a value group the skip-scan could not jump in one step:
// its name and how many of its keys the walk read one request each.
type SteppedGroup struct {
	Entity   string
	Requests int
}

// SteppedNote is the one line that says where the skip-scan could not jump
// letter-led ids, "" when it jumped everything it walked.
func (d Discovery) SteppedNote() string {
	if len(d.Stepped) == 0 {
		return ""
	}
	names, n := make([]string, len(d.Stepped)), 0
	for i, g := range d.Stepped {
		names[i], n = textfmt.Sanitize(g.Entity), n+g.Requests
	}
	return fmt.Sprintf("the skip-scan cannot jump letter-led ids in one step (%s): they sort among labels, so it read %s one request each",
		strings.Join(names, ", "), textfmt.Plural(n, "key", "keys"))
}

// Capacity sums the consumed capacity of every request of the discovery.
func (d Discovery) Capacity() Capacity {
	return TotalCapacity(d.Requests)
}

// Discover finds the groups of a partition by skip-scan: sort keys are
// sorted, so after the first key of type ORDER# the query SK >= "ORDER$" with
// Limit 1 lands on the first key of the next type, and after a key that
// starts with a digit (a timestamp, a number) SK >= ":" lands past every such
// key at once. One small request finds each group, and one more the value
// group's far end (a prefix type's is read only where a jump lands on it:
// see walk); the partition itself is never read whole. The walk stops when the budget would be exceeded, reporting
// the groups found so far and where it would go on. Numeric and binary sort
// keys have no types: their range (first and last) is reported as one group.
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
		if _, err := BuildQuery(ks, QueryInput{Table: in.Table, Index: in.Index, PK: in.PK}); err != nil {
			return d, inputDoubt, err
		}
		s := skipScan{c: c, t: t, in: in, d: &d}
		err := s.noSortKey(ctx, ks.PK.Type)
		return d, s.doubt, err
	}
	d.KeyType = ks.SK.Type
	s := skipScan{c: c, t: t, in: in, sk: ks.SK.Name, d: &d, tbl: keys.NewEntityTable(ks.SK.Type, in.Index == "").WithDeclared(in.Declared).Reset(in.PK, in.Reverse)}
	if in.Count {
		// The table's counts: every type's once the partition is read, and
		// none for the type a failed read did not read to its end.
		err = s.readAll(ctx)
		d.Groups = s.tbl.Groups()
		return d, s.doubt, err
	}
	err = s.fromFirst(ctx)
	if err == errBudget {
		d.Partial, err = true, nil
	}
	// The walk's groups join the types of the first page in the table,
	// which folds and names them: METADATA beside METADATA#v1 is one type,
	// and ids the walk visited one by one (a5f0…, f966…, user names) one
	// value group, so no two groups share a name.
	s.tbl = s.tbl.Discover(d.Groups, in.Reverse, d.Delimiter, d.Delimiter)
	d.Groups = s.tbl.Groups()
	for i := range d.Groups {
		d.Groups[i].Count = -1 // counted only when asked (DESIGN.md)
	}
	d.Stepped = stepped(d.Groups, s.exactSteps)
	return d, s.doubt, err
}

// stepped finds the value groups that hold keys the walk landed on as
// exact types (steps): letter-led ids it read one by one, folded since.
func stepped(groups []keys.Group, steps []string) []SteppedGroup {
	var out []SteppedGroup
	for _, g := range groups {
		if g.Kind != keys.KindValue {
			continue
		}
		lo, hi := min(g.First, g.Last), max(g.First, g.Last)
		n := 0
		for _, k := range steps {
			if k >= lo && k <= hi {
				n++
			}
		}
		if n > 0 {
			out = append(out, SteppedGroup{Entity: g.Entity, Requests: n})
		}
	}
	return out
}

// errBudget stops a walk whose next request would exceed its budget.
var errBudget = fmt.Errorf("skip-scan budget spent")

type skipScan struct {
	c       *Client
	t       Table // the keys the walk is built from
	in      DiscoverInput
	sk      string
	d       *Discovery
	tbl     keys.EntityTable // the partition's types the pages read hold (take)
	doubt   doubt            // the gravest doubt a request cast on t
	walking bool             // budget applies: the walk, not the whole read the user asked for
	// exactSteps are the keys the walk landed on that are exact types: each
	// took a request of its own (stepped).
	exactSteps []string
	// firstSent: Requests[0] is the first page Discover read itself, whose
	// cost says nothing about what a Limit 1 request of the walk costs.
	firstSent bool

	// The two halves of a walk share the discovery: mu guards it and
	// everything below; cv (on mu) says the turn moved (turns.go).
	mu       sync.Mutex
	cv       *sync.Cond
	inflight int  // requests decided and not yet answered
	closed   bool // the halves met: no key lies between what they read
	turns    turns
	halves   [2]*half // walkBoth's: the main half and its partner
}

// query sends one request of the walk. An answer that does not fit the
// keys stops the walk: they decide where it goes next.
func (s *skipScan) query(ctx context.Context, q QueryInput) (Page, error) {
	return s.send(ctx, q, nil, nil)
}

// affordable tells whether one more small request stays within the budget
// and, for a half of walkBoth (h not nil), within its share, with the
// requests in flight counted as sent. Called under mu.
func (s *skipScan) affordable(h *half) bool {
	b := s.in.Budget
	n := s.maxRequests()
	if n > 0 && len(s.d.Requests)+s.inflight >= n {
		return false
	}
	next := s.nextCost()
	if b.MaxRCU > 0 && s.d.Capacity().Total+float64(s.inflight+1)*next > b.MaxRCU {
		return false
	}
	if h == nil || !h.shared {
		return true
	}
	return (h.requests < 0 || h.sent < h.requests) && (h.rcu <= 0 || h.spent+float64(h.inflight+1)*next <= h.rcu)
}

// maxRequests is the budget's request cap, negative for none.
func (s *skipScan) maxRequests() int {
	if n := s.in.Budget.MaxRequests; n != 0 {
		return n
	}
	return DefaultSkipScanRequests
}

// nextCost is what the walk's next request may cost: a Limit 1 Query reads
// one item, so at most what the dearest request so far cost (and at least
// 0.5 RCU, 1 strongly consistent). Called under mu.
func (s *skipScan) nextCost() float64 {
	next := 0.5
	if s.in.Consistent {
		next = 1
	}
	walked := s.d.Requests
	if s.firstSent && len(walked) > 0 {
		walked = walked[1:]
	}
	for _, r := range walked {
		next = max(next, r.Capacity.Total)
	}
	return next
}

// one sends a Limit 1 query, from start when set, and returns the sort key
// it found, if any. An empty page with a LastEvaluatedKey is not the end:
// DynamoDB says more may follow, so the walk reads on from that key (within
// the budget, which ends it as partial, never as complete). needed is
// send's, and so is h.
func (s *skipScan) one(ctx context.Context, cond SKCond, reverse bool, start Item, h *half, needed func() bool) (string, bool, error) {
	q := QueryInput{
		Table: s.in.Table, Index: s.in.Index, PK: s.in.PK, SK: cond,
		Reverse: reverse, Limit: 1, Consistent: s.in.Consistent, StartKey: start,
	}
	for {
		p, err := s.send(ctx, q, h, needed)
		if err != nil {
			return "", false, err
		}
		if len(p.Items) > 0 {
			key := itemcodec.KeyString(p.Items[0][s.sk])
			if s.d.KeyType == "S" && !meets(key, cond) {
				// Only the walk over string keys sends conditions; a server that
				// ignores them would keep it going for ever.
				return "", false, s.stuck(key, cond)
			}
			return key, true, nil
		}
		if p.LastEvaluatedKey == nil {
			return "", false, nil
		}
		q.StartKey = p.LastEvaluatedKey
	}
}

// delimiter infers the walk's delimiter from the first label-led key it
// finds: a key that starts with a digit is a value under any delimiter, and
// the ":" of a timestamp must not decide it.
func (s *skipScan) delimiter(key string) string {
	if s.d.Delimiter == "" && key != "" && (key[0] < '0' || key[0] > '9') {
		s.d.Delimiter = keys.InferDelimiter([]string{key})
	}
	return s.d.Delimiter
}

// walk visits the groups of a string sort key in h's direction from
// h.cond (and start, a key to read on from), with partner walking towards
// it from the other end (nil: alone, to the end). Each step is one jump:
// the key it lands on is a group's first in h's direction, and the next
// jump starts just past the group. A group's far end (its last key in h's
// direction) is read only where it is free: where the first page holds
// it, where the partner's jump lands on it (landed), and, for the value
// group alone, by a lookup of its own at the end of the walk (ends), since
// its BETWEEN and its name need both ends; a prefix type is selected by
// its prefix, so an end not read is left unknown ("") rather than paid a
// request a type. A key of the last group already known (the first
// page's, cut by its end) continues that group. Beside a partner, h stops
// where the two meet (see walkBoth). A half that stands on a key (h.at)
// takes it as its first step's answer.
func (s *skipScan) walk(ctx context.Context, h, partner *half, start Item) error {
	for {
		key, found := h.at, h.at != ""
		h.at = ""
		if !found {
			var err error
			key, found, err = s.one(ctx, h.cond, h.rev, start, h, func() bool { return !s.closed })
			start = nil
			if err == errNeedless {
				return s.ends(ctx, h)
			}
			if err != nil {
				return err
			}
		}
		s.mu.Lock()
		if !found || partner != nil && s.landed(partner, key) {
			// Nothing lies past h.cond, or the key is one the partner read:
			// either way no key is left between the halves.
			s.closed = s.closed || partner != nil
			s.mu.Unlock()
			return s.ends(ctx, h)
		}
		delim := s.delimiter(key)
		c := keys.Classify(key, delim)
		if c.Exact {
			s.exactSteps = append(s.exactSteps, key)
		}
		g := keys.Group{Entity: c.Entity, Prefix: c.Prefix, Kind: c.Kind, Exact: c.Exact, Count: -1, First: key, Last: key}
		if !c.Exact {
			g.Last = "" // not read yet (see above)
		}
		n := len(*h.groups)
		if n > 0 && (*h.groups)[n-1].ID() == c.ID() {
			g.First = (*h.groups)[n-1].First
			(*h.groups)[n-1] = g
		} else {
			*h.groups = append(*h.groups, g)
			n++
		}
		if c.Kind == keys.KindValue {
			h.pending = append(h.pending, n-1)
		} else {
			s.arrived(h, g)
		}
		next, ok := h.past(key, delim)
		h.cond, h.covers = next, true
		if !ok || partner != nil && s.met(h, partner) {
			// No key can follow the group, or the halves' reads now meet.
			s.closed = s.closed || partner != nil
			s.mu.Unlock()
			return s.ends(ctx, h)
		}
		s.mu.Unlock()
	}
}

// ends looks up the far end of each value group h found without it, once
// h has walked: one Limit 1 request from the other side of the value run
// (SK < ":" backward, SK >= "0" forward), unless the partner's jump landed
// on that end first. Done last, so a walk whose halves meet early sends
// its lookups together, and one the partner made needless is not sent.
func (s *skipScan) ends(ctx context.Context, h *half) error {
	for _, i := range h.pending {
		unknown := func() bool { return (*h.groups)[i].Last == "" }
		s.mu.Lock()
		needed := unknown()
		s.mu.Unlock()
		if !needed {
			continue
		}
		end := SKCond{Op: SKLt, Values: []string{keys.ValueRunEnd}}
		if h.rev {
			end = SKCond{Op: SKGe, Values: []string{keys.ValueRunStart}}
		}
		last, found, err := s.one(ctx, end, !h.rev, nil, h, unknown)
		if err == errNeedless {
			continue
		}
		if err != nil {
			return err
		}
		s.mu.Lock()
		if found && unknown() {
			s.farEnd(h, i, last)
		}
		s.mu.Unlock()
	}
	return nil
}

// farEnd records key as the far end of h's group i, which had none, and
// hands the group on complete. Called under mu.
func (s *skipScan) farEnd(h *half, i int, key string) {
	g := &(*h.groups)[i]
	g.Last = key
	if g.Kind == keys.KindValue {
		g.Entity = keys.RunName(g.First, g.Last)
	}
	s.arrived(h, *g)
}

// stuck is the error for a key that does not meet the condition it was
// asked with: from a server that answers so, the walk would never end.
func (s *skipScan) stuck(key string, c SKCond) error {
	return Explain(&BadAnswerError{Op: "Query", Problem: fmt.Sprintf("the sort key %q to the condition SK %s %q, which it does not meet (the skip-scan would not move on)", key, string(c.Op), c.Values[0])},
		fmt.Sprintf("skip-scan %s on %s", s.in.PK, tableAndIndex(s.in.Table, s.in.Index)), s.c.opts.Endpoint)
}

// meets tells whether a string sort key meets a one-value condition of the
// walk, compared by bytes as DynamoDB compares strings.
func meets(key string, c SKCond) bool {
	if len(c.Values) == 0 {
		return true
	}
	v := c.Values[0]
	switch c.Op {
	case SKGe:
		return key >= v
	case SKGt:
		return key > v
	case SKLt:
		return key < v
	case SKBeginsWith:
		return strings.HasPrefix(key, v)
	}
	return true
}

// keyRange finds the last value of a numeric or binary sort key whose
// first page (one group, its first value known) did not hold the
// partition: one Limit 1 request from the other end, past the page's last
// key, so no item of the page is read again.
func (s *skipScan) keyRange(ctx context.Context, lastSeen string) error {
	g := &s.d.Groups[len(s.d.Groups)-1]
	cond := SKCond{Op: SKGt, Values: []string{lastSeen}}
	if s.in.Reverse {
		cond.Op = SKLt
	}
	s.walking = true
	defer func() { s.walking = false }()
	last, found, err := s.one(ctx, cond, !s.in.Reverse, nil, nil, nil)
	if err != nil {
		return err
	}
	if found {
		g.Last = last
	}
	return nil
}

// GroupCondition is the sort-key condition that selects exactly a group's
// items: = for an exact type, begins_with for a prefix type, BETWEEN its
// first and last key for a value group of strings and a prefix type holding
// its bare label (keys.FoldBare; its last key not read, up to the end of
// its prefix), none for numbers and binary.
func GroupCondition(g keys.Group, keyType string) SKCond {
	switch {
	case keyType != "S":
		return SKCond{}
	case g.Bare && (g.First == "" || g.Last == ""):
		// The skip-scan read the bare label (it sorts first) but not the
		// type's last key: up to the highest key its prefix can start in
		// practice (four U+10FFFF after it).
		return SKCond{Op: SKBetween, Values: []string{max(g.First, g.Last), g.Prefix + strings.Repeat("\U0010FFFF", 4)}}
	case g.Kind == keys.KindValue || g.Bare:
		lo, hi := min(g.First, g.Last), max(g.First, g.Last)
		return SKCond{Op: SKBetween, Values: []string{lo, hi}}
	case g.Exact:
		return SKCond{Op: SKEq, Values: []string{g.Prefix}}
	}
	return SKCond{Op: SKBeginsWith, Values: []string{g.Prefix}}
}
