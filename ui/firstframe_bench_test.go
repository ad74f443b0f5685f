package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
)

// limitStore is benchStore answering a first page with a Limit as
// DynamoDB does: the first Limit items, with the last as its
// LastEvaluatedKey. It answers at once: what is measured is the UI's own
// work.
type limitStore struct{ *benchStore }

func (ls limitStore) Query(ctx context.Context, q dynamo.QueryInput) (dynamo.Page, error) {
	p, err := ls.benchStore.Query(ctx, q)
	if err != nil || q.Limit <= 0 || q.StartKey != nil || int(q.Limit) >= len(p.Items) {
		return p, err
	}
	p.Items = p.Items[:q.Limit]
	p.Count, p.ScannedCount, p.LastEvaluatedKey = q.Limit, q.Limit, p.Items[len(p.Items)-1]
	p.Request.Count, p.Request.ScannedCount, p.Request.More, p.Request.Limit = q.Limit, q.Limit, true, q.Limit
	return p, nil
}

// BenchmarkFirstFrame is the UI's own work from start to its first frame
// of a partition's items with an instant server (issue 41.3: under 50 ms):
// the model made, the window's size, the table opened, the first page
// decoded and laid out, the frame drawn; the skip-scan and the rest after
// it are not waited for. screen is the first page sized to the screen, as
// the UI sends it; 1MB is the first page DynamoDB sends without a Limit
// (before 41.3), for comparison.
func BenchmarkFirstFrame(b *testing.B) {
	items := benchdata.Big(200_000)
	for _, c := range []struct {
		name  string
		store func(*benchStore) Store
	}{
		{"screen", func(bs *benchStore) Store { return limitStore{bs} }},
		{"1MB", func(bs *benchStore) Store { return bs }},
	} {
		b.Run(c.name, func(b *testing.B) {
			bs := newBenchStore(items)
			store := c.store(bs)
			dir := b.TempDir()
			var total time.Duration
			for b.Loop() {
				began := time.Now()
				m := New(Options{Store: store, Table: "App", PK: benchdata.BigPK, ConfigDir: dir, Rows: 35})
				m.after = func(int) tea.Cmd { return nil }
				d := &firstFrameDriver{m: m}
				d.send(tea.WindowSizeMsg{Width: 120, Height: 35})
				d.run(d.m.Init())
				_ = d.m.View()
				total += time.Since(began)
				if d.m.items.Loaded() == 0 {
					b.Fatal("no items on the first frame")
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-frame")
		})
	}
}

// firstFrameDriver runs the model's commands synchronously up to the first
// page: the skip-scan the page starts, which arrives after the first
// frame, is not run.
type firstFrameDriver struct{ m Model }

func (d *firstFrameDriver) send(msg tea.Msg) {
	m, cmd := d.m.Update(msg)
	d.m = m.(Model)
	if _, ok := msg.(queryDoneMsg); ok {
		return // the first page is in: the first frame follows
	}
	d.run(cmd)
}

func (d *firstFrameDriver) run(cmd tea.Cmd) { runCmd(cmd, d.send) }
