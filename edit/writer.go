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
	// State is done for a write made; a write refused, failed or in
	// doubt comes with its error (ConflictError, InDoubtError, ...).
	State State
	// WCU is what the answer reported consumed. NoWCU: it reported no
	// figure (no answer came, or a refusal, which DynamoDB Local answers
	// without one): the units are unknown, never 0.
	WCU   float64
	NoWCU bool
	// Throttled counts the attempts DynamoDB refused for capacity, which
	// the SDK sent again: they consumed nothing, but they slow a bulk
	// change down.
	Throttled int
	Entry     *Entry // the journal's entry; nil without a journal
	// Requests are the requests sent, for a request log: the write, and
	// the reads after a failed condition or a lost answer.
	Requests []dynamo.Request
	// Note says when the item was found already as wanted after the
	// condition failed or the answer was lost: an earlier attempt of
	// this write landed, or someone made the same change.
	Note string
}

// ConflictError is a write refused because the item is no longer as it
// was read: nothing was written. Current is the item now (nil when there is
// none); AtNewKey, for a key change, is the item now at the new key.
type ConflictError struct {
	Plan     *Plan
	Current  dynamo.Item
	AtNewKey dynamo.Item
	// WCU is what the refusal reported consumed; NoWCU when it reported
	// nothing (DynamoDB Local never does; AWS charges a refused write as
	// a write all the same: ChargedWCU).
	WCU   float64
	NoWCU bool
	Entry *Entry // the journal's entry of the refused write; nil without a journal
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

// ChargedWCU is what AWS charges for the refusal by its rule, for when the
// answer carried no figure: a refused conditional write consumes the
// write units of the item it found (its size rounded up to 1 KB, at least
// 1). 0 for a refused transaction, whose charge the rule does not give.
func (e *ConflictError) ChargedWCU() float64 {
	switch {
	case e.Plan.Op == OpTransact:
		return 0
	case e.Current == nil:
		return 1
	}
	return WriteUnits(itemcodec.ItemSize(e.Current))
}

// Apply sends a plan. It is journalled before it is sent, in doubt, and
// marked with what came of it. When the condition fails, nothing is
// written: the item is read again and returned in a *ConflictError. When
// no answer comes, the write may still be applied: an *InDoubtError, unless
// the item read again is already as the write leaves it.
func (w *Writer) Apply(ctx context.Context, p *Plan) (Result, error) {
	return w.apply(ctx, p, nil)
}

func (w *Writer) apply(ctx context.Context, p *Plan, undo *Entry) (Result, error) {
	undoes := 0
	if undo != nil {
		undoes = max(undo.Number, 1)
	}
	what := string(p.Op) + " on " + p.Table
	entry, err := w.begin(p, undoes)
	if err != nil {
		return Result{Plan: p, Old: p.Old, New: p.New, State: StateFailed}, fmt.Errorf("%s: the journal could not be written, so nothing was sent: %w", what, err)
	}
	res, state, err := w.send(ctx, p, undoes)
	res.Entry = entry
	switch state {
	case StateDone:
		return w.done(res, undo)
	case StateFailed:
		e := dynamo.Explain(err, what, w.target.Endpoint)
		return w.finish(res, StateFailed, e.Error(), e)
	}
	// The condition failed, or the answer never came: the item itself may
	// say what happened. The look goes on after a cancel or time-out.
	look, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.timeout)
	defer cancel()
	conflict := &ConflictError{Plan: p, WCU: res.WCU, NoWCU: res.NoWCU, Entry: entry}
	key := KeyOf(p.Keys, p.New)
	if p.Old != nil {
		key = KeyOf(p.Keys, p.Old)
	}
	var rerr error
	if conflict.Current, rerr = w.read(look, p, key, &res); rerr == nil && p.Op == OpTransact {
		conflict.AtNewKey, rerr = w.read(look, p, KeyOf(p.Keys, p.New), &res)
	}
	if rerr != nil {
		if state == StateRefused {
			return w.finish(res, StateRefused, "", errors.Join(dynamo.Explain(err, what, w.target.Endpoint), rerr))
		}
		return w.finish(res, StateInDoubt, noAnswer(err), &InDoubtError{Plan: p, Entry: entry, Cause: noAnswer(err), Err: err})
	}
	wasInDoubt := undo != nil && undo.State == StateInDoubt
	if landed(p, conflict) {
		switch {
		case wasInDoubt && state == StateRefused:
			// The undo wants the item as it was before the write it takes
			// back, and it is: that write has not landed.
			nl := &NotLandedError{Entry: *undo}
			return w.finish(res, StateRefused, nl.Error(), nl)
		case wasInDoubt:
			cause := fmt.Sprintf("%s, and the item is as it was before entry %d: this undo landed, or entry %d never did", noAnswer(err), undo.Number, undo.Number)
			return w.finish(res, StateInDoubt, cause, &InDoubtError{Plan: p, Entry: entry, Cause: cause, Err: err})
		}
		res.Old, res.New = p.Old, p.New
		res.Note = "the item was already as wanted: an earlier attempt of this write landed, or someone made the same change"
		if state == StateInDoubt {
			res.Note = "the answer was lost, but the item is as wanted: the write landed"
		}
		return w.done(res, undo)
	}
	if state == StateRefused {
		var cerr error = conflict
		if undo != nil {
			cerr = &UndoConflictError{ConflictError: conflict}
		}
		return w.finish(res, StateRefused, "", cerr)
	}
	return w.finish(res, StateInDoubt, noAnswer(err), &InDoubtError{Plan: p, Entry: entry, Cause: noAnswer(err), Err: err})
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

// begin journals the plan before it is sent: an entry in doubt.
func (w *Writer) begin(p *Plan, undoes int) (*Entry, error) {
	if w.journal == nil {
		return nil, nil
	}
	e := newEntry(p, w.target, undoes)
	if err := w.journal.Begin(&e); err != nil {
		return nil, err
	}
	return &e, nil
}

// done marks a write made, with the images DynamoDB reported, and an
// undo's entry in doubt as landed: the undo's condition found the item as
// that write leaves it.
func (w *Writer) done(res Result, undo *Entry) (Result, error) {
	res.State = StateDone
	if res.Entry == nil {
		return res, nil
	}
	if err := w.journal.Mark(res.Entry, Mark{State: StateDone, WCU: units(res), Old: res.Old, New: res.New, Images: true, Note: res.Note}); err != nil {
		return res, fmt.Errorf("the write was made, but the journal could not record it (its entry %d stays in doubt): %w", res.Entry.Number, err)
	}
	if undo != nil && undo.State == StateInDoubt && undo.ID != "" {
		note := fmt.Sprintf("landed: undo entry %d found the item as it leaves it", res.Entry.Number)
		if err := w.journal.Mark(undo, Mark{State: StateDone, Note: note}); err != nil {
			return res, fmt.Errorf("the undo was made, but the journal could not record that entry %d had landed: %w", undo.Number, err)
		}
	}
	return res, nil
}

// finish marks a write that was not made, or may not have been, and
// returns its error. A mark that cannot be written leaves the entry in
// doubt, which never claims less than the truth.
func (w *Writer) finish(res Result, state State, note string, err error) (Result, error) {
	res.State = state
	if res.Entry != nil {
		_ = w.journal.Mark(res.Entry, Mark{State: state, WCU: units(res), Note: note})
	}
	return res, err
}

// units is a result's consumed units for the journal: nil when unknown.
func units(res Result) *float64 {
	if res.NoWCU {
		return nil
	}
	u := res.WCU
	return &u
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

// RequestError is a write request's error as the request log holds it,
// with what came of that one request: refused, failed, or in doubt (no
// answer).
type RequestError struct {
	State State
	Err   error
}

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// RequestState is what came of a logged write request: its RequestError's
// state, done when it has no error, failed for another error.
func RequestState(err error) State {
	var re *RequestError
	switch {
	case err == nil:
		return StateDone
	case errors.As(err, &re):
		return re.State
	}
	return StateFailed
}

// send makes the one request of a plan, and says what came of it before
// the item is read again.
func (w *Writer) send(ctx context.Context, p *Plan, undoes int) (Result, State, error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	res := Result{Plan: p, Old: p.Old, New: p.New}
	req := dynamo.Request{Operation: string(p.Op), Table: p.Table, KeyCondition: KeyText(p.Keys, p.Old, p.New), Expression: p.Condition, Start: time.Now(), Note: NoteWrite}
	if undoes > 0 {
		req.Note = fmt.Sprintf("%s of journal entry %d", NoteUndo, undoes)
	}
	var a attempts
	follow := a.option()
	var cc []types.ConsumedCapacity
	var err error
	switch p.Op {
	case OpPut:
		var out *dynamodb.PutItemOutput
		if out, err = w.api.PutItem(ctx, p.Put, follow); out != nil {
			cc = consumed(out.ConsumedCapacity)
		}
	case OpUpdate:
		var out *dynamodb.UpdateItemOutput
		if out, err = w.api.UpdateItem(ctx, p.Update, follow); out != nil {
			cc = consumed(out.ConsumedCapacity)
			if err == nil {
				err = imageOf(p, out.Attributes)
			}
			if err == nil {
				res.New = out.Attributes
				res.Old = before(out.Attributes, p.Diff)
			}
		}
	case OpDelete:
		var out *dynamodb.DeleteItemOutput
		if out, err = w.api.DeleteItem(ctx, p.Delete, follow); out != nil {
			cc = consumed(out.ConsumedCapacity)
			if err == nil {
				err = imageOf(p, out.Attributes)
			}
			if err == nil {
				res.Old = out.Attributes
			}
		}
	case OpTransact:
		in := *p.Transact
		// The token makes the SDK's retry of a transaction whose answer
		// was lost a no-op instead of a failed condition.
		in.ClientRequestToken = aws.String(token())
		var out *dynamodb.TransactWriteItemsOutput
		if out, err = w.api.TransactWriteItems(ctx, &in, follow); out != nil {
			cc = out.ConsumedCapacity
		}
	}
	for _, c := range cc {
		res.WCU += aws.ToFloat64(c.CapacityUnits)
	}
	res.NoWCU = len(cc) == 0
	res.Throttled = a.throttledAttempts()
	state := a.outcome(err)
	req.Duration = time.Since(req.Start)
	if err != nil {
		req.Err = &RequestError{State: state, Err: err}
	}
	req.Capacity = dynamo.Capacity{Total: res.WCU, Table: res.WCU}
	req.NoCapacity = res.NoWCU
	w.record(req)
	res.Requests = append(res.Requests, req)
	return res, state, err
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
// condition or a lost answer: the one read a conflict costs.
func (w *Writer) read(ctx context.Context, p *Plan, key dynamo.Item, res *Result) (dynamo.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	note := "read again: the write's condition failed"
	if res.State == StateInDoubt || len(res.Requests) > 0 && RequestState(res.Requests[0].Err) == StateInDoubt {
		note = "read again: the write got no answer (the item now proves nothing while it may still land)"
	}
	req := dynamo.Request{Operation: "GetItem", Table: p.Table, KeyCondition: KeyText(p.Keys, key, nil), Consistent: true, Start: time.Now(), Note: note}
	out, err := w.api.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(p.Table), Key: key, ConsistentRead: aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	req.Duration, req.Err = time.Since(req.Start), err
	var item dynamo.Item
	req.NoCapacity = true
	if out != nil {
		if out.ConsumedCapacity != nil {
			u := aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			req.Capacity = dynamo.Capacity{Total: u, Table: u}
			req.NoCapacity = false
		}
		if len(out.Item) > 0 {
			item, req.Count, req.ScannedCount = out.Item, 1, 1
		}
	}
	w.record(req)
	res.Requests = append(res.Requests, req)
	if err != nil {
		return nil, dynamo.Explain(err, "read the item again on "+p.Table, w.target.Endpoint)
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
