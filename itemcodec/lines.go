package itemcodec

// Reading item files line by line: JSON lines, with the line of a mistake
// named.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"dynascope/textfmt"
)

// BatchWriteLimit is DynamoDB's limit on requests in one BatchWriteItem; the
// batch export writer and seed both cut at it.
const BatchWriteLimit = 25

// maxJSONLLine bounds one JSONL line: an item is at most 400 KB, and its DynamoDB
// JSON with type tags and escapes can be several times that.
const maxJSONLLine = 16 << 20

// ReadJSONL reads items in DynamoDB JSON, one per line, as `aws dynamodb
// scan` output turned into lines would give them. Blank lines are skipped;
// an error names the line it is on.
func ReadJSONL(r io.Reader) ([]Item, error) {
	return readLines(r, func(line []byte) ([]Item, error) {
		it, err := ParseDynamoJSON(line)
		return []Item{it}, err
	})
}

// readLines reads r line by line, skipping blank lines and a leading
// byte-order mark, and gathers what parse makes of each line. An error
// names its line.
func readLines(r io.Reader, parse func(line []byte) ([]Item, error)) ([]Item, error) {
	sc := newLineScanner(r)
	var items []Item
	for {
		line, ok := sc.next()
		if !ok {
			break
		}
		got, err := parse(line)
		if err != nil {
			return nil, &textfmt.UserError{Msg: fmt.Sprintf("line %d: %s.", sc.n, strings.TrimSuffix(strings.TrimSpace(err.Error()), ".")), Err: err}
		}
		items = append(items, got...)
	}
	return items, sc.err()
}

// lineScanner yields the non-blank lines of a file, trimmed, without a
// leading byte-order mark; n is the number of the line last returned.
type lineScanner struct {
	sc *bufio.Scanner
	n  int
}

func newLineScanner(r io.Reader) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxJSONLLine)
	return &lineScanner{sc: sc}
}

func (l *lineScanner) next() ([]byte, bool) {
	for l.sc.Scan() {
		l.n++
		line := l.sc.Bytes()
		if l.n == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, true
		}
	}
	return nil, false
}

// err is why the scan stopped early, as a sentence naming the line; nil at
// the end of the input.
func (l *lineScanner) err() error {
	err := l.sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return &textfmt.UserError{Msg: fmt.Sprintf("line %d: longer than %d MB, far beyond DynamoDB's 400 KB item limit.", l.n+1, maxJSONLLine>>20), Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return err // a cut-short gzip stream: the caller names the file
	}
	return &textfmt.UserError{Msg: fmt.Sprintf("line %d: %s.", l.n+1, err), Err: err}
}
