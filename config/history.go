package config

// The UI's partition history: the partitions opened before, per table, in
// Dir()/history/TABLE.json.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HistoryEntry is one partition opened before in the UI: the index it was opened on
// ("" for the table) and the partition key value as typed.
type HistoryEntry struct {
	Index string `json:"index,omitempty"`
	PK    string `json:"pk"`
}

// historyFile is what is kept on disk per table.
type historyFile struct {
	Version int            `json:"version"`
	Entries []HistoryEntry `json:"entries"` // most recent first
}

// HistoryMax bounds the partitions remembered per table.
const HistoryMax = 100

// Dir is dynascope's own folder in the user's configuration directory,
// where the UI's partition history lives; "" when there is none.
func Dir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "dynascope")
}

// HistoryPath names the file of one table. Table names are [A-Za-z0-9_.-]
// in DynamoDB, but the name comes from the server, so anything else is
// escaped rather than trusted as a path.
func HistoryPath(dir, table string) string {
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

// LoadHistory reads the partitions opened before on table, most recent
// first; none when dir is "" or the file does not exist yet.
func LoadHistory(dir, table string) ([]HistoryEntry, error) {
	if dir == "" {
		return nil, nil
	}
	b, err := os.ReadFile(HistoryPath(dir, table))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read partition history: %w", err)
	}
	var h historyFile
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("read partition history %s: %w", HistoryPath(dir, table), err)
	}
	if len(h.Entries) > HistoryMax {
		h.Entries = h.Entries[:HistoryMax]
	}
	return h.Entries, nil
}

// SaveHistory writes the file whole through a temporary file, so a crash
// never leaves half of it.
func SaveHistory(dir, table string, entries []HistoryEntry) error {
	if dir == "" {
		return nil
	}
	p := HistoryPath(dir, table)
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
