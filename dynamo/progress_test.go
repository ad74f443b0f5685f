package dynamo

import "testing"

// The cost guard leaves room for a stale size and per-page rounding, and
// stops only a clear excess; no bound, no stop.
func TestOverBudget(t *testing.T) {
	for _, c := range []struct {
		spent, bound float64
		pages        int
		want         bool
	}{
		{spent: 450, bound: 450, pages: 10},
		{spent: 901 + 10, bound: 450, pages: 10},
		{spent: 901 + 10.5, bound: 450, pages: 10, want: true},
		{spent: 10538, bound: 450, pages: 100, want: true},
		{spent: 2.5, bound: 0.5, pages: 5}, // five 1-item pages of a tiny table
		{spent: 1e9, bound: 0, pages: 1},
		// Pages that cost 1 RCU or less, or say they cost nothing, end too:
		// the room a page adds stops growing, and each counts at least 0.5.
		{spent: 100, bound: 0.5, pages: 100, want: true},
		{spent: 0, bound: 0.5, pages: 100, want: true},
		{spent: 0, bound: 0.5, pages: 20},
	} {
		if got := OverBudget(c.spent, c.bound, c.pages); got != c.want {
			t.Errorf("OverBudget(%v, %v, %d) = %v", c.spent, c.bound, c.pages, got)
		}
	}
}
