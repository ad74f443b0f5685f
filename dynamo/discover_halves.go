package dynamo

import (
	"context"
	"errors"
	"math"
	"slices"

	"dynascope/keys"
)

// half is one direction of the skip-scan's walk over a string sort key.
// After the first page, the main half walks on from its last key in the
// walk's direction and its partner walks from the partition's other end
// towards it, both at once; their fields are guarded by skipScan.mu.
type half struct {
	idx    int           // its place in the turns: 0 the main half, 1 its partner
	rev    bool          // walks from the last key towards the first
	groups *[]keys.Group // the groups it completed, in its own direction (the main half's are the Discovery's)
	cond   SKCond        // its next jump
	// at, when set, is a key the half stands on without a request: the
	// first page's last key inside a prefix type or the value group, which
	// the walk jumps past at once (a jump past that key alone would most
	// often land in the same type, a request for nothing).
	at string
	// covers: every key on the far side of cond (below an SK >= / > cond,
	// from an SK < cond up) is in groups. The partner covers nothing until
	// its first group is complete; the main half covers the first page.
	covers bool
	// pending are the indexes in groups of the value groups whose far end
	// is not read yet (see ends).
	pending []int
	// Its share of the budget (see shareBudget), when shared: requests it
	// may send (negative: no cap) and RCU it may spend (0: no cap); what
	// it sent (in flight included) and spent so far.
	shared         bool
	requests       int
	rcu            float64
	sent, inflight int
	spent          float64
}

// shareBudget splits what the budget leaves after the first page between
// the halves of walkBoth: the partner may spend half of it, rounded down to
// whole requests, the main half the rest. So a budget that stops the walk
// finds the same types whichever half the scheduler runs first: each
// half's jumps are its own, and a half that stops before its share is
// spent has met the other, which ends the walk.
func (s *skipScan) shareBudget(main, partner *half) {
	main.shared, partner.shared = true, true
	main.requests, partner.requests = -1, -1
	if n := s.maxRequests(); n > 0 {
		left := max(n-len(s.d.Requests), 0)
		partner.requests = left / 2
		main.requests = left - partner.requests
	}
	if b := s.in.Budget.MaxRCU; b > 0 {
		next, left := s.nextCost(), max(b-s.d.Capacity().Total, 0)
		partner.rcu = math.Floor(math.Floor(left/next)/2) * next
		main.rcu = left - partner.rcu
		if partner.rcu == 0 {
			partner.requests = 0 // 0 RCU would read as no cap
		}
	}
}

// past is the condition of h's next jump after a group whose key, in h's
// direction, was key; ok is false when no key can follow it.
func (h *half) past(key, delim string) (SKCond, bool) {
	if h.rev {
		return SKCond{Op: SKLt, Values: []string{keys.SkipBefore(key, delim)}}, true
	}
	start, inclusive, ok := keys.SkipPast(key, delim)
	if !inclusive {
		return SKCond{Op: SKGt, Values: []string{start}}, ok
	}
	return SKCond{Op: SKGe, Values: []string{start}}, ok
}

// holds tells whether key is on the side of h.cond that h has read.
func (h *half) holds(key string) bool {
	if !h.covers || len(h.cond.Values) == 0 {
		return false
	}
	v := h.cond.Values[0]
	switch h.cond.Op {
	case SKGe:
		return key < v
	case SKGt:
		return key <= v
	case SKLt:
		return key >= v
	}
	return false
}

// landed tells whether key, the answer to one half's jump, is one the
// partner has read: a key of one of its groups, or on its side of its
// frontier. A key of one of its groups is that group's far end in the
// partner's direction (the jump found the key nearest the partner's
// frontier), so a group that lacked it has it now. Called under mu.
func (s *skipScan) landed(partner *half, key string) bool {
	id := keys.Classify(key, s.d.Delimiter).ID()
	gs := *partner.groups
	for i := len(gs) - 1; i >= 0; i-- {
		if gs[i].ID() != id {
			continue
		}
		if gs[i].Last == "" {
			s.farEnd(partner, i, key)
		}
		return true
	}
	return partner.holds(key)
}

// met tells whether the halves' frontiers have crossed: every key is on
// the read side of one of them. Called under mu.
func (s *skipScan) met(a, b *half) bool {
	fwd, back := a, b
	if a.rev {
		fwd, back = b, a
	}
	if !fwd.covers || !back.covers || len(fwd.cond.Values) == 0 || len(back.cond.Values) == 0 {
		return false
	}
	return fwd.cond.Values[0] >= back.cond.Values[0]
}

// arrived hands a completed group to in.OnGroup in the walk's orientation.
// Called under mu.
func (s *skipScan) arrived(h *half, g keys.Group) {
	if s.in.OnGroup == nil {
		return
	}
	if h.rev != s.in.Reverse {
		g = turned(g)
	}
	s.in.OnGroup(g)
}

// turned is a group found walking one way as the other way names it: its
// ends swapped, a value group named from its new first.
func turned(g keys.Group) keys.Group {
	g.First, g.Last = g.Last, g.First
	if g.Kind == keys.KindValue {
		g.Entity = keys.RunName(g.First, g.Last)
	}
	return g
}

// unread tells whether a value group h found lacks its far end: the
// budget stopped its lookup (ends), so the walk is not complete. Called
// after the halves walked.
func (h *half) unread() bool {
	return slices.ContainsFunc(h.pending, func(i int) bool { return (*h.groups)[i].Last == "" })
}

// walkOne walks from the main half's frontier to the partition's end,
// one request after another.
func (s *skipScan) walkOne(ctx context.Context, main *half, start Item) error {
	s.walking = true
	defer func() { s.walking = false }()
	err := s.walk(ctx, main, nil, start)
	s.d.Continue = main.cond
	return err
}

// walkBoth walks the rest of the partition from both ends at once: the
// main half on from the first page's last key, its partner from the
// partition's other end towards it, so the types arrive in about half the
// round trips of walkOne. The halves share their frontiers (under mu), and
// the discovery has walkOne's types (the same names, kinds and
// completeness; an end one walk read free the other may not have read):
//
//   - a group is found by one half only: a half whose jump lands on a key
//     of a group the partner found or has passed stops there, and gives
//     the partner that key, the group's far end in the partner's
//     direction;
//   - a half stops before a jump when the partner's frontier has reached
//     its own (every key is then on one half's read side), or when the
//     partner's answer made the jump needless;
//   - the halves take turns (discover_turns.go): each round both read
//     their answers (main half first), then the main half decides its
//     request, then the partner, and both go out at once, so the requests
//     never depend on which answer comes back first, and neither decides
//     before it knows what the other's last answer told;
//   - the budget left after the first page is shared (shareBudget): the
//     partner may spend half, the main half the rest, so a tight budget
//     stops the walk at the same keys on every run; the main half's
//     request of the round counts as sent when the partner decides.
//
// What meeting can cost: walkOne ends with one jump that finds the end;
// here each half ends with at most one jump that lands on a key the other
// half read, so the walk sends at most one Limit 1 request more than
// walkOne (0.5 RCU, 1 strongly consistent: one item) and reads at most two
// items twice, one per half, either of which may be the first page's last
// item; each such landing reads a far end walkOne would not have read. No
// other item is read twice.
//
// When the budget stops it short, the groups of both halves are kept in
// order, Continue is where the main half would go on and Until where the
// partner's groups begin.
func (s *skipScan) walkBoth(ctx context.Context, main *half) error {
	var own []keys.Group
	// The partner's first jump: the partition's other end, within the
	// first page's last key (SK > last walking back, SK < last forward).
	partner := &half{rev: !main.rev, groups: &own, cond: main.cond}
	s.shareBudget(main, partner)
	s.walking = true
	s.startTurns(main, partner)
	ctx, cancel := context.WithCancel(ctx)
	var errs [2]error
	done := make(chan struct{})
	go func() {
		defer close(done)
		errs[1] = s.walk(ctx, partner, main, nil)
		s.stopTurns(partner)
		if errs[1] != nil && errs[1] != errBudget {
			cancel()
		}
	}()
	errs[0] = s.walk(ctx, main, partner, nil)
	s.stopTurns(main)
	if errs[0] != nil && errs[0] != errBudget {
		cancel()
	}
	<-done
	cancel()
	s.walking = false
	s.turns.on = false

	for i := len(own) - 1; i >= 0; i-- {
		s.d.Groups = append(s.d.Groups, turned(own[i]))
	}
	s.d.Continue = main.cond
	// A real failure of either half, before the cancellation it caused in
	// the other.
	var failed error
	for _, err := range errs {
		if err != nil && err != errBudget && (failed == nil || errors.Is(failed, context.Canceled)) {
			failed = err
		}
	}
	if failed != nil {
		return failed
	}
	if s.closed && !main.unread() && !partner.unread() {
		return nil
	}
	if partner.covers {
		s.d.Until = partner.cond
	}
	return errBudget
}
