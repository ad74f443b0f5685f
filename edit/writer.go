package edit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// ErrWritesOff is the refusal when writes were not allowed.
var ErrWritesOff = errors.New("writing is off: pass --allow-writes, or set writes: true on the connection in the settings file ('dynascope config path')")

// Writer sends planned changes. It exists only when the user allowed
// writes (Open), and nothing in the explorer holds one: the explore client
// (dynamo.Client) stays without a write method.
type Writer struct {
	api     dynamo.EditAPI
	target  Target
	timeout time.Duration
	journal *Journal // nil: no journal (tests of the writer alone)
	observe func(dynamo.Request)
}

// Open connects a Writer from the same options as the explorer's client,
// and only when allowWrites is set (--allow-writes, or writes: true on the
// named connection). journal may be nil.
func Open(ctx context.Context, o dynamo.Options, allowWrites bool, journal *Journal) (*Writer, error) {
	if !allowWrites {
		return nil, ErrWritesOff
	}
	api, o, region, err := dynamo.ConnectEditor(ctx, o)
	if err != nil {
		return nil, err
	}
	return &Writer{api: api, target: Target{Endpoint: dynamo.PublicEndpoint(o.Endpoint), Region: region, Profile: o.Profile}, timeout: o.Timeout, journal: journal}, nil
}

// Target is where the writer writes, for the command shown and the journal.
func (w *Writer) Target() Target { return w.target }

// JournalPath is the journal file the writer appends to; "" for none.
func (w *Writer) JournalPath() string {
	if w.journal == nil {
		return ""
	}
	return w.journal.Path
}

// OnRequest installs a function called after every request the writer
// sends (its writes, and the reads after a failed condition), so that the
// request log shows them.
func (w *Writer) OnRequest(f func(dynamo.Request)) { w.observe = f }

// Result is what a write did.
type Result struct {
	Plan *Plan
	// Old and New are the item before and after, as DynamoDB reported
	// them where it can (the deleted item, the updated item), else as
	// planned. Old is nil for a new item, New nil for a deleted one.
	Old, New dynamo.Item
	WCU      float64 // consumed, from ReturnConsumedCapacity
	Entry    *Entry  // the journal's entry; nil without a journal
	// Requests are the requests sent, for a request log: the write, and
	// the reads after a failed condition or a lost answer.
	Requests []dynamo.Request
	// Note says when the item was found already as wanted after the
	// condition failed: an earlier attempt of this write landed but its
	// answer was lost, or someone made the same change.
	Note string
}

// ConflictError is a write refused because the item is no longer as it
// was read: nothing was written. Current is the item now (nil when there is
// none); AtNewKey, for a key change, is the item now at the new key.
type ConflictError struct {
	Plan     *Plan
	Current  dynamo.Item
	AtNewKey dynamo.Item
	WCU      float64 // a failed condition still consumes capacity
}

func (e *ConflictError) Error() string {
	if e.Plan.Op == OpTransact && e.AtNewKey != nil {
		return "nothing was written: an item with the new key already exists"
	}
	if e.Plan.Old == nil {
		return "nothing was written: the item exists already (someone else created it since it was read)"
	}
	if e.Current == nil {
		return "nothing was written: the item was deleted by someone else since it was read"
	}
	return "nothing was written: the item was changed by someone else since it was read; compare it with your version and try again"
}

// Diff is the current item against the user's version: what they would
// overwrite.
func (e *ConflictError) Diff() []AttrDiff { return Diff(e.Current, e.Plan.New) }

// Apply sends a plan. When the condition fails, nothing is written: the
// item is read again and returned in a *ConflictError.
func (w *Writer) Apply(ctx context.Context, p *Plan) (Result, error) {
	return w.apply(ctx, p, 0)
}

func (w *Writer) apply(ctx context.Context, p *Plan, undoes int) (Result, error) {
	res, err := w.send(ctx, p, undoes)
	if err == nil {
		return w.journalled(p, res, undoes)
	}
	var api smithy.APIError
	failed := ConditionFailed(err)
	if !failed && errors.As(err, &api) {
		return res, dynamo.Explain(err, string(p.Op)+" on "+p.Table, w.target.Endpoint)
	}
	// The condition failed, or the answer never came (a connection broken
	// after the request may have landed): either way the item itself
	// says what happened. The look goes on after a cancel or time-out.
	look, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.timeout)
	defer cancel()
	conflict := &ConflictError{Plan: p, WCU: res.WCU}
	key := KeyOf(p.Keys, p.New)
	if p.Old != nil {
		key = KeyOf(p.Keys, p.Old)
	}
	var rerr error
	if conflict.Current, rerr = w.read(look, p, key, &res); rerr != nil {
		return res, errors.Join(dynamo.Explain(err, string(p.Op)+" on "+p.Table, w.target.Endpoint), rerr)
	}
	if p.Op == OpTransact {
		if conflict.AtNewKey, rerr = w.read(look, p, KeyOf(p.Keys, p.New), &res); rerr != nil {
			return res, errors.Join(dynamo.Explain(err, string(p.Op)+" on "+p.Table, w.target.Endpoint), rerr)
		}
	}
	if landed(p, conflict) {
		res.Old, res.New = p.Old, p.New
		res.Note = "the item was already as wanted: an earlier attempt of this write landed, or someone made the same change"
		if !failed {
			res.Note = "the answer was lost, but the item is as wanted: the write landed"
		}
		return w.journalled(p, res, undoes)
	}
	if !failed {
		what := "the item is not as wanted"
		if untouched(p, conflict) {
			what = "nothing was written"
		}
		return res, fmt.Errorf("%w (read again: %s)", dynamo.Explain(err, string(p.Op)+" on "+p.Table, w.target.Endpoint), what)
	}
	if undoes > 0 {
		return res, &UndoConflictError{ConflictError: conflict}
	}
	return res, conflict
}

// untouched tells whether the item is still exactly as read (and, for a
// key change, nothing at the new key).
func untouched(p *Plan, c *ConflictError) bool {
	return SameItem(c.Current, p.Old) && (p.Op != OpTransact || c.AtNewKey == nil)
}

// landed tells whether the item is already exactly as the plan wanted it.
func landed(p *Plan, c *ConflictError) bool {
	switch p.Op {
	case OpDelete:
		return c.Current == nil
	case OpTransact:
		return c.Current == nil && SameItem(c.AtNewKey, p.New)
	}
	return SameItem(c.Current, p.New)
}

func (w *Writer) journalled(p *Plan, res Result, undoes int) (Result, error) {
	if w.journal == nil {
		return res, nil
	}
	e := newEntry(p, res, w.target, undoes)
	if err := w.journal.Append(&e); err != nil {
		return res, fmt.Errorf("the write was made, but the journal could not be appended: %w", err)
	}
	res.Entry = &e
	return res, nil
}

// The notes of the write requests a Writer reports (OnRequest): a write,
// or "undo of journal entry N".
const (
	NoteWrite = "write"
	NoteUndo  = "undo"
)

// IsWriteNote tells whether a request's note is one of a write's.
func IsWriteNote(note string) bool {
	return note == NoteWrite || strings.HasPrefix(note, NoteUndo+" of journal entry ")
}

// send makes the one request of a plan.
func (w *Writer) send(ctx context.Context, p *Plan, undoes int) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	res := Result{Plan: p, Old: p.Old, New: p.New}
	req := dynamo.Request{Operation: string(p.Op), Table: p.Table, KeyCondition: KeyText(p.Keys, p.Old, p.New), Expression: p.Condition, Start: time.Now(), Note: NoteWrite}
	if undoes > 0 {
		req.Note = fmt.Sprintf("%s of journal entry %d", NoteUndo, undoes)
	}
	var cc []types.ConsumedCapacity
	var err error
	switch p.Op {
	case OpPut:
		var out *dynamodb.PutItemOutput
		if out, err = w.api.PutItem(ctx, p.Put); out != nil {
			cc = consumed(out.ConsumedCapacity)
		}
	case OpUpdate:
		var out *dynamodb.UpdateItemOutput
		if out, err = w.api.UpdateItem(ctx, p.Update); out != nil {
			cc = consumed(out.ConsumedCapacity)
			if out.Attributes != nil {
				res.New = out.Attributes
				res.Old = before(out.Attributes, p.Diff)
			}
		}
	case OpDelete:
		var out *dynamodb.DeleteItemOutput
		if out, err = w.api.DeleteItem(ctx, p.Delete); out != nil {
			cc = consumed(out.ConsumedCapacity)
			if out.Attributes != nil {
				res.Old = out.Attributes
			}
		}
	case OpTransact:
		in := *p.Transact
		// The token makes the SDK's retry of a transaction whose answer
		// was lost a no-op instead of a failed condition.
		in.ClientRequestToken = aws.String(token())
		var out *dynamodb.TransactWriteItemsOutput
		if out, err = w.api.TransactWriteItems(ctx, &in); out != nil {
			cc = out.ConsumedCapacity
		}
	}
	for _, c := range cc {
		res.WCU += aws.ToFloat64(c.CapacityUnits)
	}
	req.Duration, req.Err = time.Since(req.Start), err
	req.Capacity = dynamo.Capacity{Total: res.WCU, Table: res.WCU}
	w.record(req)
	res.Requests = append(res.Requests, req)
	return res, err
}

// before is the item an update found, from the item it left: the
// condition held every attribute the update touched at its value as read,
// so those go back to it, and an attribute someone else added meanwhile
// stays. Undo then takes back what the update changed, and nothing else.
func before(after dynamo.Item, d []AttrDiff) dynamo.Item {
	out := maps.Clone(after)
	for _, x := range d {
		if x.Old == nil {
			delete(out, x.Name)
		} else {
			out[x.Name] = x.Old
		}
	}
	return out
}

func consumed(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}

func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (w *Writer) record(r dynamo.Request) {
	if w.observe != nil {
		w.observe(r)
	}
}

// read reads the item at key again, strongly consistent, after a failed
// condition: the one read a conflict costs.
func (w *Writer) read(ctx context.Context, p *Plan, key dynamo.Item, res *Result) (dynamo.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	req := dynamo.Request{Operation: "GetItem", Table: p.Table, KeyCondition: KeyText(p.Keys, key, nil), Consistent: true, Start: time.Now(), Note: "read again: the write's condition failed"}
	out, err := w.api.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(p.Table), Key: key, ConsistentRead: aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	req.Duration, req.Err = time.Since(req.Start), err
	var item dynamo.Item
	if out != nil {
		if out.ConsumedCapacity != nil {
			u := aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			req.Capacity = dynamo.Capacity{Total: u, Table: u}
		}
		if len(out.Item) > 0 {
			item, req.Count, req.ScannedCount = out.Item, 1, 1
		}
	}
	w.record(req)
	res.Requests = append(res.Requests, req)
	if err != nil {
		return nil, dynamo.Explain(err, "read the item again after the condition failed on "+p.Table, w.target.Endpoint)
	}
	return item, nil
}

// ConditionFailed tells a write refused by its condition from other
// failures, for a single write and for a transaction.
func ConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return true
	}
	var tc *types.TransactionCanceledException
	if errors.As(err, &tc) {
		for _, r := range tc.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return true
			}
		}
	}
	return false
}

// KeyText is the key of a change for people: PK = "CUST#42", SK = "PROFILE"
// (old → new when the key changes).
func KeyText(t dynamo.Table, old, new dynamo.Item) string {
	one := func(it dynamo.Item) string {
		s := ""
		for i, n := range keyNames(t) {
			if i > 0 {
				s += ", "
			}
			s += n + " = " + itemcodec.KeyString(it[n])
		}
		return s
	}
	switch {
	case old == nil:
		return one(new)
	case new == nil || sameKey(t, old, new):
		return one(old)
	}
	return one(old) + " → " + one(new)
}

// Undo sends an undo plan (UndoPlan) of the journal entry number, on the
// condition that the item is still exactly as that write left it: a later
// change by anyone makes it refuse with an *UndoConflictError, writing
// nothing.
func (w *Writer) Undo(ctx context.Context, p *Plan, number int) (Result, error) {
	return w.apply(ctx, p, max(number, 1))
}

// UndoConflictError is an undo refused because the item changed after the
// write being undone.
type UndoConflictError struct{ *ConflictError }

func (e *UndoConflictError) Error() string {
	return "nothing was undone: the item has changed since that write (by someone else, or by a later write); undo the later writes first, or edit it by hand"
}

// UndoPlan is the plan that reverses a journalled write: from the image it
// left back to the image it found. t is the table as described now, for
// its indexes' share of the predicted units; a zero t uses the key schema
// the entry recorded.
func UndoPlan(e Entry, t dynamo.Table) (*Plan, error) {
	keys := e.Keys()
	if t.PK == keys.PK && (t.SK == nil) == (keys.SK == nil) && (t.SK == nil || *t.SK == *keys.SK) {
		keys = t
	}
	old, err := e.OldItem()
	if err != nil {
		return nil, err
	}
	new, err := e.NewItem()
	if err != nil {
		return nil, err
	}
	if e.Version != "" && new != nil && old != nil {
		// Versions only go up: the undo writes the version after the one
		// the write left, so a writer holding either one is refused.
		if v, ok := new[e.Version]; ok {
			old[e.Version] = v
		}
	}
	return NewPlan(Change{Table: e.Table, Keys: keys, Old: new, New: old, Version: e.Version})
}
