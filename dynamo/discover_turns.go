package dynamo

import (
	"context"
	"fmt"
	"sync"
)

// The halves of walkBoth take turns. Which requests a walk sends must not
// depend on which answer comes back first (the same table, budget and
// flags give the same requests and RCU every run), yet the halves' requests
// should be in flight together. So the walk goes in rounds: the main half
// decides its next request (reading everything both halves know), then
// the partner decides its own, knowing the main half's decision; then both
// requests go out at once, and the round ends when both are answered. The
// answers are recorded in the halves' order, and each half reads its
// answer in turn, again main first; only once both have read theirs does
// the next round's deciding begin, so neither half sends a jump the
// other's last answer made needless. A half that stops (it met the other,
// its share is spent, it failed) leaves the turns to the other.
//
// Decisions therefore see only answers of finished rounds, in a fixed
// order: a request's answer may come back in any order and at any speed,
// and neither the requests nor the groups change.

// The turn when no half decides.
const (
	turnsOut  = -1 // the round's requests are in flight
	turnsDone = -2 // no half walks any more
)

// turns is the state of walkBoth's rounds, guarded by skipScan.mu.
type turns struct {
	on   bool // the halves take turns (walkBoth); else a walk is alone
	turn int  // the half that decides (half.idx), turnsOut or turnsDone
	live [2]bool
	// digesting: the round's answers are being read, each half in turn;
	// digested says which halves have read theirs (or stopped).
	digesting bool
	digested  [2]bool
	decided   [2]bool   // decided this round: sends a request, or stopped
	answers   [2]*reply // this round's answers, by half
	out       int       // this round's requests not yet answered
}

// reply is one request's answer, kept until the round ends.
type reply struct {
	p   Page
	d   doubt
	err error
}

// errNeedless stops a request of one half that the other half's answers
// made needless: the halves met, or the far end it would look up was read.
var errNeedless = fmt.Errorf("skip-scan request needless")

// startTurns starts the rounds of two halves, the main half's turn first.
// Called before either walks.
func (s *skipScan) startTurns(main, partner *half) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cond()
	main.idx, partner.idx = 0, 1
	s.halves = [2]*half{main, partner}
	s.turns = turns{on: true, live: [2]bool{true, true}}
}

// cond is the walk's condition variable on mu, made once. Called under mu.
func (s *skipScan) cond() *sync.Cond {
	if s.cv == nil {
		s.cv = sync.NewCond(&s.mu)
	}
	return s.cv
}

// stopTurns is a half's last step: it no longer decides, and the turn
// passes on. Safe to call without turns.
func (s *skipScan) stopTurns(h *half) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.turns.on {
		return
	}
	s.waitTurn(h)
	s.turns.live[h.idx] = false
	s.handOn(h)
	s.pass(h)
}

// handOn gives what h leaves of its share of the budget to the half that
// walks on, so a value group's end it has still to look up is not refused
// while budget is left. h stops on its turn, so the other half's next
// decision sees the same shares on every run. Called under mu.
func (s *skipScan) handOn(h *half) {
	o := s.halves[1-h.idx]
	if !h.shared || !s.turns.live[o.idx] {
		return
	}
	if h.requests >= 0 && o.requests >= 0 {
		o.requests += max(h.requests-h.sent, 0)
		h.requests = h.sent
	}
	if h.rcu > 0 && o.rcu > 0 {
		o.rcu += max(h.rcu-h.spent, 0)
		h.rcu = h.spent
	}
}

// waitTurn waits until h decides. Called under mu.
func (s *skipScan) waitTurn(h *half) {
	for s.turns.turn != h.idx {
		s.cond().Wait()
	}
}

// pass ends h's turn: while the round's answers are read, the next half
// that walks and has not read its own reads it, and then deciding begins;
// while deciding, the next half that walks and has not decided decides,
// or, when all have, the round's requests go out. Called under mu.
func (s *skipScan) pass(h *half) {
	t := &s.turns
	if t.digesting {
		t.digested[h.idx] = true
		if i := t.next(t.digested); i >= 0 {
			t.turn = i
			s.cond().Broadcast()
			return
		}
		t.digesting = false
	} else {
		t.decided[h.idx] = true
	}
	t.turn = turnsDone
	if i := t.next(t.decided); i >= 0 {
		t.turn = i
	} else if t.out > 0 {
		t.turn = turnsOut
	}
	s.cond().Broadcast()
}

// next is the first half that walks and is not done, -1 for none.
func (t *turns) next(done [2]bool) int {
	for i := range t.live {
		if t.live[i] && !done[i] {
			return i
		}
	}
	return -1
}

// endRound records the round's answers in the halves' order and gives the
// first half that walks its turn to read its answer. Called under mu.
func (s *skipScan) endRound(halves [2]*half) {
	t := &s.turns
	for i, r := range t.answers {
		if r != nil {
			s.record(halves[i], r.p, r.d)
		}
	}
	t.answers, t.decided, t.digested, t.turn = [2]*reply{}, [2]bool{}, [2]bool{}, turnsDone
	t.digesting = true
	if i := t.next(t.digested); i >= 0 {
		t.turn = i
	}
	s.cond().Broadcast()
}

// send sends one request of the walk, for half h (nil: not a half's),
// unless needed (called under mu, nil: always needed) says the other half
// made it needless or the budget (or h's share of it) cannot afford it,
// with the requests decided and not answered counted as sent. Beside a
// partner, h decides on its turn and its request goes out with the
// partner's (see turns).
func (s *skipScan) send(ctx context.Context, q QueryInput, h *half, needed func() bool) (Page, error) {
	s.mu.Lock()
	inTurns := s.turns.on && h != nil
	if inTurns {
		s.waitTurn(h)
		if s.turns.digesting {
			// h has read its answer: the other half reads its own before
			// either decides.
			s.pass(h)
			s.waitTurn(h)
		}
	}
	switch {
	case needed != nil && !needed():
		s.mu.Unlock()
		return Page{}, errNeedless
	case s.walking && !s.affordable(h):
		s.mu.Unlock()
		return Page{}, errBudget
	}
	s.inflight++
	if h != nil {
		h.sent++
		h.inflight++
	}
	if inTurns {
		s.turns.out++
		s.pass(h)
		for s.turns.turn != turnsOut {
			s.cond().Wait()
		}
	}
	s.mu.Unlock()
	p, d, err := s.c.query(ctx, s.t, q)
	s.mu.Lock()
	defer s.mu.Unlock()
	if inTurns {
		s.turns.answers[h.idx] = &reply{p, d, err}
		if s.turns.out--; s.turns.out == 0 {
			s.endRound(s.halves)
		}
		s.waitTurn(h)
	} else {
		s.record(h, p, d)
	}
	if err == nil && d == answerDoubt {
		err = &UserError{Msg: fmt.Sprintf("the keys of table %s changed while dynascope read it; run the request again.", s.in.Table)}
	}
	return p, err
}

// record counts one answered request of half h (nil: not a half's): the
// discovery's requests, the caller's OnRequest, h's spending and the
// doubt it cast. Called under mu.
func (s *skipScan) record(h *half, p Page, d doubt) {
	s.inflight--
	if h != nil {
		h.inflight--
		h.spent += p.Request.Capacity.Total
	}
	if p.Request.Operation != "" {
		s.d.Requests = append(s.d.Requests, p.Request)
		if s.in.OnRequest != nil {
			s.in.OnRequest(p.Request)
		}
	}
	s.doubt = max(s.doubt, d)
}
