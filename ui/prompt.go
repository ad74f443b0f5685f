package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dynascope/dynamo"
	"dynascope/keys"
	"dynascope/textfmt"
	"dynascope/ui/keymap"
	"dynascope/ui/overlay"
	"dynascope/ui/pane"
)

func (m Model) promptKey(msg tea.KeyPressMsg, km keymap.KeyMap) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, km.ListUp):
		m.prompt = m.prompt.Browse(1)
	case key.Matches(msg, km.ListDown):
		m.prompt = m.prompt.Browse(-1)
	case key.Matches(msg, km.Complete):
		m.prompt = m.prompt.Complete()
	case key.Matches(msg, km.OverviewCtrl):
		return m.openOverview(), nil
	case key.Matches(msg, km.SamplePartitions):
		return m.samplePartitions()
	case key.Matches(msg, km.Scan):
		return m.openScan(m.table.Name), nil
	case key.Matches(msg, km.Open):
		return m.openPartition(m.prompt.Input.String())
	case key.Matches(msg, km.Cancel):
		switch {
		case m.results.pages() > 0 || m.query.PK != "":
			// Back to the partition that was open; the index it was read
			// through may have been switched here, so restore it.
			m.index = m.query.Index
			ks, _ := m.table.Schema(m.index)
			m.setSchema(ks)
			m.screen = screenPartition
		case m.opts.Table == "":
			m.screen = screenTables
		default:
			return m, tea.Quit
		}
	default:
		return m.promptText(msg)
	}
	return m, nil
}

func (m Model) promptText(msg tea.Msg) (Model, tea.Cmd) {
	if in, ok := m.prompt.Input.Update(msg); ok {
		m.prompt.Input = in
		m.prompt.Err = ""
		m.prompt = m.prompt.Refilter()
	}
	return m, nil
}

// newPrompt is the prompt for a partition of the schema open, with value
// typed, the history and the partitions of a sample already read on offer.
func (m Model) newPrompt(value string) pane.Prompt {
	parts, said := m.promptSample()
	return pane.NewPrompt(m.schema, value, m.history).WithSample(parts, said)
}

// promptSample is what the prompt offers of the overview's sample: the
// partitions it read of the table or index open, most items first, and
// what that sample was. It reads nothing.
func (m Model) promptSample() ([]keys.Partition, string) {
	ov := m.overview
	if ov.Table != m.table.Name || ov.Index != m.index {
		return nil, ""
	}
	switch {
	case ov.Phase == overlay.OvRunning:
		return nil, fmt.Sprintf("sampling: at most %s, %s RCU…", textfmt.Plural(ov.In.MaxItems, "item", "items"), textfmt.Units(ov.In.MaxRCU))
	case ov.Err != "" && !ov.Have:
		return nil, "the sample failed: " + ov.Err
	case !ov.Have:
		return nil, ""
	}
	count := map[string]int{}
	for _, it := range ov.Smp.Items {
		count[it.PK]++
	}
	parts := make([]keys.Partition, 0, len(count))
	for pk, n := range count {
		parts = append(parts, keys.Partition{PK: pk, Items: n})
	}
	slices.SortFunc(parts, func(a, b keys.Partition) int {
		if a.Items != b.Items {
			return b.Items - a.Items
		}
		return strings.Compare(a.PK, b.PK)
	})
	said := fmt.Sprintf("a sample of %s (%s, %s RCU) holds %s",
		textfmt.Plural(len(ov.Smp.Items), "item", "items"), textfmt.Plural(len(ov.Smp.Requests), "Scan", "Scans"),
		textfmt.Units(ov.Smp.Capacity().Total), textfmt.Plural(len(parts), "partition", "partitions"))
	if ov.Smp.Stop == dynamo.StopComplete {
		said += ": the whole " + map[bool]string{true: "index", false: "table"}[m.index != ""]
	}
	return parts, said
}

// samplePartitions reads the small sample the prompt announces (one Scan
// segment, pane.PromptSampleItems items, pane.PromptSampleRCU RCU) as the
// overview's sample, so ctrl+o then shows its layout without reading it
// again; its partitions are offered when it is done (sampleDone).
func (m Model) samplePartitions() (Model, tea.Cmd) {
	if m.overview.Phase == overlay.OvRunning {
		return m, nil // the one in flight is offered when it is done
	}
	m.overview = overlay.OverviewState{Phase: overlay.OvSetup, Table: m.table.Name, Index: m.index,
		Form: overlay.CapsForm(pane.PromptSampleItems, pane.PromptSampleRCU, 1)}
	m, cmd := m.startSample(dynamo.SampleInput{MaxItems: pane.PromptSampleItems, MaxRCU: pane.PromptSampleRCU, Segments: 1})
	m.prompt = m.prompt.WithSample(m.promptSample())
	return m, cmd
}

// The status bar shows what fits in this order: the keys of the prompt
// itself before the ones that leave it. ? types into the field unless it
// is empty (a key value may hold a ?).
var modePrompt = &keymap.Mode{Name: "prompt", Typing: true, HelpTyped: true, Keys: []keymap.Binding{
	keymap.InBar("open", "open partition"), keymap.InBar("complete", "complete (again: next)"),
	keymap.InBar("overviewCtrl"), keymap.InBar("samplePartitions", "sample partitions"), keymap.InBar("help").OnlyIf(keymap.FieldEmpty),
	keymap.InBar("cancel", "back"), keymap.InBar("scan", "scan table"), keymap.InBar("listUp", "older"), keymap.InBar("listDown", "newer"),
	keymap.Bind("connections"),
}}
