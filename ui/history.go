package ui

import "dynascope/config"

// historyEntry is one partition opened before (config owns the file).
type historyEntry = config.HistoryEntry

// remember puts e first, dropping an earlier copy and the oldest beyond config.HistoryMax.
func remember(entries []historyEntry, e historyEntry) []historyEntry {
	out := make([]historyEntry, 0, len(entries)+1)
	out = append(out, e)
	for _, x := range entries {
		if x != e {
			out = append(out, x)
		}
	}
	if len(out) > config.HistoryMax {
		out = out[:config.HistoryMax]
	}
	return out
}
