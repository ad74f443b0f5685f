package dynamotest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// The second writer: a colleague who changes the item between the
// program's read and its write. The proxy holds the program's next write
// request, lets the other writer's requests reach DynamoDB Local first
// (straight, not through the proxy), then forwards the program's request,
// so the race a conditional write must win is played on the real engine
// every time, not by luck of timing.

// writeOps are the operations a program's edit is sent as.
var writeOps = []string{"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"}

// SecondWriter is one second writer waiting for, or done with, the
// program's write.
type SecondWriter struct {
	t     testing.TB
	once  sync.Once
	other func() error
	mu    sync.Mutex
	ran   bool
}

func (*SecondWriter) String() string { return "second writer" }
func (f *SecondWriter) apply(x *exchange) {
	// Its rules go with its first write: a later write passes untouched,
	// and a second writer set up after this one gets the next write.
	x.p.mu.Lock()
	x.p.rules = slices.DeleteFunc(x.p.rules, func(r *ruleState) bool { return r.Fault == Fault(f) })
	x.p.mu.Unlock()
	f.once.Do(func() {
		if err := f.other(); err != nil {
			f.t.Errorf("the second writer's request failed: %v", err)
			x.fail(fmt.Errorf("the second writer failed: %w", err))
			return
		}
		f.mu.Lock()
		f.ran = true
		f.mu.Unlock()
	})
	if x.status == 0 {
		x.forward(false)
	}
}

// Ran tells whether the other writer's requests went out before a write
// of the program's: a test checks that the race it meant to play was
// played.
func (f *SecondWriter) Ran() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ran
}

// BeforeNextWrite makes the program's next write request (PutItem,
// UpdateItem, DeleteItem or TransactWriteItems, whichever comes first)
// wait while other runs — another writer's requests, sent to DynamoDB
// Local with a client of the test's own — and then go on to DynamoDB. A
// failure of other fails the test and answers the program's request 502.
func (p *Proxy) BeforeNextWrite(t testing.TB, other func() error) *SecondWriter {
	f := &SecondWriter{t: t, other: other}
	rules := make([]Rule, len(writeOps))
	for i, op := range writeOps {
		rules[i] = Rule{Op: op, Count: 1, Fault: f}
	}
	p.Inject(rules...)
	return f
}
