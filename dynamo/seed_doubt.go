package dynamo

// What a load can say about batches it got no answer for, and about an
// answer that hands back what was never sent: a batch whose answer was
// lost may have been applied (it is in doubt, never counted as written
// nor as not written), and UnprocessedItems naming an item of no request
// in the batch is a broken answer, never written.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/itemcodec"
)

// SeedBatch is a batch of a load whose outcome is unknown.
type SeedBatch struct {
	Items int  // the requests it held when its answer was lost
	First Item // its first item, to name it
}

// SeedStopError is a load that ended before every item was acknowledged:
// Result.Written items reached the table (DynamoDB acknowledged them),
// Result.InDoubt may have; Err is why it ended (nil when a signal stopped
// it, Stopped then), and a caller that knows the signal names it.
type SeedStopError struct {
	Table   string
	Result  SeedResult
	Total   int  // the items to write; 0 when unknown (a stream)
	Stopped bool // the caller's context was cancelled (a signal)
	Err     error
}

func (e *SeedStopError) Error() string { return e.Sentence("") }

// Unwrap is the error that ended the load.
func (e *SeedStopError) Unwrap() error { return e.Err }

// Sentence is the one sentence of the stop; by names the signal that
// stopped it ("SIGTERM"), when the caller knows it.
func (e *SeedStopError) Sentence(by string) string {
	var why string
	switch {
	case e.Stopped && by != "":
		why = "seed table " + e.Table + ": stopped by " + by
	case e.Stopped || e.Err == nil:
		why = "seed table " + e.Table + ": stopped"
	default:
		why = strings.TrimSuffix(e.Err.Error(), ".")
	}
	r := e.Result
	of := ""
	if e.Total > 0 {
		of = fmt.Sprintf(" of %d", e.Total)
	}
	s := fmt.Sprintf("%s; %d%s items reached the table (acknowledged)", why, r.Written, of)
	if r.InDoubt > 0 {
		s += fmt.Sprintf(", %d more in %s in doubt (may have been applied; first %s)",
			r.InDoubt, plural(len(r.InDoubtBatches), "batch", "batches"), batchItemText(r.InDoubtBatches[0].First))
	}
	return s + "; seed again with --force to write them all."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// batchItemText names an item by its first two attributes in name order: the
// load knows no key schema here, and the attributes are short in a key.
func batchItemText(it Item) string {
	b := itemcodec.DynamoJSON(it)
	if len(b) > 48 {
		return string(b[:45]) + "…"
	}
	return string(b)
}

// lostAnswer tells whether a failed BatchWriteItem may have been applied:
// no answer came, or a server error, which may follow the write. A 4xx
// answer (throttled, invalid) is DynamoDB saying it did not apply it.
func lostAnswer(err error) bool {
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorFault() == smithy.FaultClient {
		return false
	}
	return true
}

// checkUnprocessed checks an answer's UnprocessedItems against the batch
// sent: only puts of this table, each one of the requests sent, none
// twice. Anything else is a broken answer, never to be resent; what
// names the job in the sentence ("seed table App").
func checkUnprocessed(what, table string, sent []types.WriteRequest, left map[string][]types.WriteRequest) error {
	count := make(map[string]int, len(sent))
	for _, r := range sent {
		if r.PutRequest != nil {
			count[string(itemcodec.DynamoJSON(r.PutRequest.Item))]++
		}
	}
	for t, reqs := range left {
		if t != table && len(reqs) > 0 {
			return &UserError{Msg: fmt.Sprintf("%s: the answer hands back items of table %s, which the batch never wrote to; not written", what, t)}
		}
		for _, r := range reqs {
			k := ""
			if r.PutRequest != nil {
				k = string(itemcodec.DynamoJSON(r.PutRequest.Item))
			}
			if count[k] == 0 {
				return &UserError{Msg: fmt.Sprintf("%s: the answer names as unprocessed an item never sent; not written", what)}
			}
			count[k]--
		}
	}
	return nil
}
