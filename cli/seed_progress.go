package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"dynascope/dynamo"
	"dynascope/textfmt"
)

// progressBar shows a load's progress on a terminal: one line redrawn at
// most a few times a second, then cleared, so it never mixes with the
// sentences printed after it.
type progressBar struct {
	w     io.Writer
	table string
	total int
	mu    sync.Mutex
	last  time.Time
	shown bool
}

// newProgressBar returns nil when w is not a terminal: a pipe or a log gets
// the final sentences only.
func newProgressBar(w io.Writer, table string, total int) *progressBar {
	if !isTerminal(w) {
		return nil
	}
	return &progressBar{w: w, table: textfmt.Sanitize(table), total: total}
}

func (b *progressBar) update(r dynamo.SeedResult) {
	rate := 0.0
	if s := r.Duration.Seconds(); s > 0 {
		rate = float64(r.Written) / s
	}
	note := fmt.Sprintf("%.0f items/s", rate)
	if r.Retries > 0 {
		note += fmt.Sprintf(", throttled: %d batches resent", r.Retries)
	}
	b.show(r.Written, note)
}

// show redraws the line with done of the total and a note after them, at
// most five times a second but always for the last item.
func (b *progressBar) show(done int, note string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if time.Since(b.last) < 200*time.Millisecond && done < b.total {
		return
	}
	b.last = time.Now()
	const width = 30
	filled := 0
	if b.total > 0 {
		filled = min(width, done*width/b.total)
	}
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < filled {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(b.w, "\r\x1b[2K%s [%s] %d/%d items, %s", b.table, bar, done, b.total, note)
	b.shown = true
}

func (b *progressBar) done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.shown {
		fmt.Fprint(b.w, "\r\x1b[2K")
	}
}
