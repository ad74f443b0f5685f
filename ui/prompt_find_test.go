package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

// 37.9: a table opened without --pk showed a blank prompt, and ? was typed
// into it. The empty prompt says how partitions are found and what each way
// reads (ctrl+l's sample with its caps, the overview), sends nothing until
// asked, and ? there opens help; in a value, ? is typed.
func TestEmptyPromptSaysHowToFindPartitions(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := newHarness(t, Options{Table: "App", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"}, sz[0], sz[1])
			hs.store.sample = demoSample()
			if hs.m.screen != screenPrompt {
				t.Fatalf("screen %v, want the prompt", hs.m.screen)
			}
			hs.containsFlowing("ctrl+l lists the partitions of a sample here (one Scan, at most 100 items and 1 RCU)", "ctrl+o the table overview", "? help")
			t.Run("empty", func(t *testing.T) { golden.RequireEqual(t, []byte(hs.screen())) })
			if len(hs.store.samples) != 0 || len(hs.store.queries()) != 0 {
				t.Fatalf("the empty prompt read %d samples, %d queries; want nothing before a key asks", len(hs.store.samples), len(hs.store.queries()))
			}

			hs.keys("?")
			if hs.m.topID() != overlay.HelpID || hs.m.prompt.Input.String() != "" {
				t.Fatalf("? on the empty prompt: top %v, input %q; want help, nothing typed", hs.m.topID(), hs.m.prompt.Input.String())
			}
			hs.keys("esc")

			hs.keys("ctrl+l")
			if len(hs.store.samples) != 1 {
				t.Fatalf("ctrl+l sent %d samples, want 1", len(hs.store.samples))
			}
			if in := hs.store.samples[0]; in.MaxItems != pane.PromptSampleItems || in.MaxRCU != pane.PromptSampleRCU || in.Segments != 1 || in.Table != "App" {
				t.Fatalf("sample %+v, want App, one segment, the caps announced", in)
			}
			hs.containsFlowing("a sample of 20 items (4 Scans, 2.5 RCU) holds 6 partitions: the whole table", "in the sample", "CUST#7", "8 items")
			t.Run("sampled", func(t *testing.T) { golden.RequireEqual(t, []byte(hs.screen())) })

			// The sampled values complete what is typed, and ? is typed there.
			hs.typeText("ORDER#A")
			if g := hs.m.prompt.Ghost(); g != "1" {
				t.Fatalf("ORDER#A: ghost %q, want the sample's ORDER#A1", g)
			}
			hs.typeText("?")
			if hs.m.topID() == overlay.HelpID || hs.m.prompt.Input.String() != "ORDER#A?" {
				t.Fatalf("? in a value: top %v, input %q; want it typed", hs.m.topID(), hs.m.prompt.Input.String())
			}
		})
	}
}

// A sample the overview read already is offered by the prompt with no
// request of its own.
func TestPromptOffersTheOverviewsSample(t *testing.T) {
	hs := openOverviewHarness(t, 120, 35, Options{})
	hs.keys("enter") // the overview's caps: sample
	hs.keys("esc", "p", "ctrl+u")
	if len(hs.store.samples) != 1 {
		t.Fatalf("%d samples, want the overview's one", len(hs.store.samples))
	}
	hs.containsFlowing("a sample of 20 items", "opened before, then in the sample", "CUST#7")
	hs.keys("ctrl+l")
	if len(hs.store.samples) != 2 {
		t.Fatalf("ctrl+l: %d samples, want a second, asked for", len(hs.store.samples))
	}
}
