package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// historyEntry is one partition opened before: the index it was opened on
// ("" for the table) and the partition key value as typed.
type historyEntry struct {
	Index string `json:"index,omitempty"`
	PK    string `json:"pk"`
}

// historyFile is what is kept on disk per table.
type historyFile struct {
	Version int            `json:"version"`
	Entries []historyEntry `json:"entries"` // most recent first
}

// historyMax bounds the partitions remembered per table.
const historyMax = 100

// defaultConfigDir is where history lives when Options.ConfigDir is empty.
func defaultConfigDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "dynascope")
}

// historyPath names the file of one table. Table names are [A-Za-z0-9_.-]
// in DynamoDB, but the name comes from the server, so anything else is
// escaped rather than trusted as a path.
func historyPath(dir, table string) string {
	var b strings.Builder
	for _, r := range table {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r == '.' && b.Len() > 0:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "%%%02X", r)
		}
	}
	return filepath.Join(dir, "history", b.String()+".json")
}

func loadHistory(dir, table string) ([]historyEntry, error) {
	if dir == "" {
		return nil, nil
	}
	b, err := os.ReadFile(historyPath(dir, table))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read partition history: %w", err)
	}
	var h historyFile
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("read partition history %s: %w", historyPath(dir, table), err)
	}
	if len(h.Entries) > historyMax {
		h.Entries = h.Entries[:historyMax]
	}
	return h.Entries, nil
}

// saveHistory writes the file whole through a temporary file, so a crash
// never leaves half of it.
func saveHistory(dir, table string, entries []historyEntry) error {
	if dir == "" {
		return nil
	}
	p := historyPath(dir, table)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("save partition history: %w", err)
	}
	b, err := json.MarshalIndent(historyFile{Version: 1, Entries: entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("save partition history: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".history-*")
	if err != nil {
		return fmt.Errorf("save partition history: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save partition history: %w", errors.Join(werr, cerr))
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save partition history: %w", err)
	}
	return nil
}

// remember puts e first, dropping an earlier copy and the oldest beyond historyMax.
func remember(entries []historyEntry, e historyEntry) []historyEntry {
	out := make([]historyEntry, 0, len(entries)+1)
	out = append(out, e)
	for _, x := range entries {
		if x != e {
			out = append(out, x)
		}
	}
	if len(out) > historyMax {
		out = out[:historyMax]
	}
	return out
}
