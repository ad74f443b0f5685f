package pane

import (
	"slices"
	"strings"
)

// promptCycle is where tab left the partition prompt: a second tab, with
// nothing typed between, steps from the first remembered value that starts
// with stem to the next one (CUST# → CUST#1151 → CUST#1042 → … → CUST#1151),
// as a shell cycles its completions.
type promptCycle struct {
	stem string // what was typed before the first tab; "" when not cycling
	at   string // the value tab last put in the input
	n    int    // which of the stem's matches that is
}

// nextMatch is the prompt with the next match of the stem, when the input is
// still what the last tab made it.
func (p Prompt) NextMatch() (Prompt, bool) {
	c := p.cycle
	if c.stem == "" || p.Input.String() != c.at {
		return p, false
	}
	var cands []string
	for _, h := range p.History {
		if h.Index == p.Schema.Index && strings.HasPrefix(h.PK, c.stem) && h.PK != c.stem && !slices.Contains(cands, h.PK) {
			cands = append(cands, h.PK)
		}
	}
	if len(cands) < 2 {
		return p, false
	}
	c.n = (c.n + 1) % len(cands)
	c.at = cands[c.n]
	p.Input.Set(c.at)
	p = p.Refilter()
	p.cycle = c
	return p, true
}
