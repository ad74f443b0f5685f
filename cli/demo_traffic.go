package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"dynascope/demodata"
	"dynascope/dynamo"
)

// startTraffic plays the demo application's writes into the demo's own
// local table in the background (demo --traffic), so that tail and the
// live pane have writes to show. stop ends it and says what it wrote, or
// why it stopped early, on w (after the UI has given the screen back).
func startTraffic(ctx context.Context, api dynamo.WriteAPI, table string, w io.Writer) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var n int
	var err error
	go func() {
		defer close(done)
		n, err = dynamo.DemoTraffic(ctx, api, table, demodata.TrafficInterval, demodata.Traffic(time.Now()))
	}()
	return func() {
		cancel()
		<-done
		if err != nil {
			fmt.Fprintf(w, "demo traffic stopped after %d writes: %v\n", n, err)
			return
		}
		fmt.Fprintf(w, "demo traffic: %d writes to %s.\n", n, table)
	}
}
