package dynamo

// A bounded sample of whole items: what index membership needs, since the
// layout sampler (Sample) reads keys only.

import (
	"context"
	"errors"
	"sync"
)

// errSampleFull stops SampleItems' Scan at its item cap.
var errSampleFull = errors.New("the sample is full")

// SampleItems reads up to maxItems whole items of a table with one Scan,
// capped at maxRCU (see CapSizer). scan is Client.Scan, or a
// store's that wraps it. Stop is max-items when the cap ended it.
func SampleItems(ctx context.Context, scan func(context.Context, ScanInput) (ScanResult, error), table string, maxItems int, maxRCU float64) ([]Item, ScanResult, error) {
	var mu sync.Mutex
	var items []Item
	res, err := scan(ctx, ScanInput{
		Table: table, MaxRCU: maxRCU, Limit: int32(min(maxItems, DefaultSamplePageLimit)),
		OnPage: func(p ScanPage) error {
			mu.Lock()
			defer mu.Unlock()
			items = append(items, p.Items...)
			if len(items) >= maxItems {
				items = items[:maxItems]
				return errSampleFull
			}
			return nil
		},
	})
	if errors.Is(err, errSampleFull) {
		res.Stop, err = StopMaxItems, nil
	}
	return items, res, err
}
