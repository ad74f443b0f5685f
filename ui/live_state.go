package ui

import (
	"context"
	"dynascope/dynamo"
	"dynascope/ui/overlay"
)

// liveState is the tail of one opening of the pane; it outlives the
// overlay's value because replies change it.
type liveState struct {
	id       int // of the tail running; 0 for none
	cancel   context.CancelFunc
	info     dynamo.StreamInfo
	ch       <-chan liveEvent
	lines    []liveLine // the newest last, at most maxLiveLines
	seen     int        // records of the partition
	polls    int        // GetRecords sent
	others   int        // records of other partitions, left out
	err      string
	starting bool
	markGen  int // of the latest mark on a changed item; its tick clears only its own
}

// liveLine is one record as the pane shows it (the overlay draws them).
type liveLine = overlay.LiveLine

// liveEvent is what the tail's goroutine hands over: records, a request, a
// notice of what the stream's checks left out, or its end.
type liveEvent struct {
	recs   []dynamo.StreamRecord
	req    *dynamo.Request
	notice *dynamo.TailNotice
	err    error
	end    bool
}
