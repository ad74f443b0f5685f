package edit

// The journal: every write, appended as one JSON line to a file in the
// user's state directory, so that what was changed where can be listed and
// undone later, after the session that made it.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// JournalFile is the journal's name in StateDir.
const JournalFile = "journal.jsonl"

// StateDir is where dynascope keeps what must outlive a run and is not
// settings: $XDG_STATE_HOME/dynascope, else ~/.local/state/dynascope on
// Unix, else beside the settings (os.UserConfigDir). Like the schema cache
// (os.UserCacheDir()/dynascope), it is the user's own per-user directory,
// but not the cache: a journal must not be deleted as a cache may be.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "dynascope"), nil
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" && runtime.GOOS != "ios" && runtime.GOOS != "plan9" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot find the home directory for the journal: %w", err)
		}
		return filepath.Join(home, ".local", "state", "dynascope"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the user's directory for the journal: %w", err)
	}
	return filepath.Join(dir, "dynascope"), nil
}

// DefaultJournalPath is the journal file in StateDir.
func DefaultJournalPath() (string, error) {
	dir, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, JournalFile), nil
}

// KeyAttrJSON is one key attribute in the journal.
type KeyAttrJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Entry is one journalled write. Images are DynamoDB JSON, typed, so that
// undo writes back exactly what was there.
type Entry struct {
	Number       int             `json:"-"` // its line in the journal, from 1
	Time         time.Time       `json:"time"`
	Endpoint     string          `json:"endpoint"` // "" for AWS
	Region       string          `json:"region"`
	Table        string          `json:"table"`
	Operation    Op              `json:"operation"`
	PK           KeyAttrJSON     `json:"pk"`
	SK           *KeyAttrJSON    `json:"sk,omitempty"`
	Key          json.RawMessage `json:"key"`
	Old          json.RawMessage `json:"old"` // null for a new item
	New          json.RawMessage `json:"new"` // null for a deleted one
	PredictedWCU float64         `json:"predictedWCU"`
	WCU          float64         `json:"wcu"`
	Version      string          `json:"versionAttribute,omitempty"`
	Undoes       int             `json:"undoes,omitempty"` // the entry this write undid
	Note         string          `json:"note,omitempty"`
}

func newEntry(p *Plan, res Result, to Target, undoes int) Entry {
	key := KeyOf(p.Keys, res.Old)
	if res.Old == nil {
		key = KeyOf(p.Keys, res.New)
	}
	e := Entry{
		Time: time.Now().UTC(), Endpoint: to.Endpoint, Region: to.Region, Table: p.Table, Operation: p.Op,
		PK:  KeyAttrJSON{p.Keys.PK.Name, p.Keys.PK.Type},
		Key: itemcodec.DynamoJSON(key), Old: image(res.Old), New: image(res.New),
		PredictedWCU: p.PredictedWCU, WCU: res.WCU, Version: p.Version, Undoes: undoes, Note: res.Note,
	}
	if sk := p.Keys.SK; sk != nil {
		e.SK = &KeyAttrJSON{sk.Name, sk.Type}
	}
	return e
}

func image(it dynamo.Item) json.RawMessage {
	if it == nil {
		return json.RawMessage("null")
	}
	return itemcodec.DynamoJSON(it)
}

func parseImage(raw json.RawMessage) (dynamo.Item, error) {
	if len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	return itemcodec.ParseDynamoJSON(raw)
}

// OldItem is the image the write found; nil for a new item.
func (e Entry) OldItem() (dynamo.Item, error) { return parseImage(e.Old) }

// NewItem is the image the write left; nil for a deleted item.
func (e Entry) NewItem() (dynamo.Item, error) { return parseImage(e.New) }

// Keys is the key schema the entry recorded.
func (e Entry) Keys() dynamo.Table {
	t := dynamo.Table{Name: e.Table, PK: dynamo.KeyAttr{Name: e.PK.Name, Type: e.PK.Type}}
	if e.SK != nil {
		t.SK = &dynamo.KeyAttr{Name: e.SK.Name, Type: e.SK.Type}
	}
	return t
}

// Journal is the journal file. Safe for concurrent use within a process;
// appends from several processes stay whole lines (O_APPEND, one write).
type Journal struct {
	Path string
	mu   sync.Mutex
}

// OpenJournal is the journal at path ("" for DefaultJournalPath). Nothing
// is created until the first write.
func OpenJournal(path string) (*Journal, error) {
	if path == "" {
		p, err := DefaultJournalPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	return &Journal{Path: path}, nil
}

// Append adds an entry and sets its Number.
func (j *Journal) Append(e *Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(j.Path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(j.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		return err
	}
	// The entry's number is its line: the lines up to where this write
	// ended, whatever another process appended before or after it.
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	lines, err := countLines(io.NewSectionReader(f, 0, end))
	if err != nil {
		return err
	}
	e.Number = lines
	return f.Close()
}

func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64*1024)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// Read returns the journal's entries, numbered by line, and a sentence for
// each line that is not an entry (a file edited by hand, a write cut off).
// A missing journal has no entries.
func (j *Journal) Read() ([]Entry, []string, error) {
	f, err := os.Open(j.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readEntries(f, j.Path)
}

func readEntries(r io.Reader, name string) ([]Entry, []string, error) {
	var entries []Entry
	var bad []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*maxItemBytes)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Table == "" || e.PK.Name == "" {
			bad = append(bad, fmt.Sprintf("%s:%d is not a journal entry; it is left out", name, n))
			continue
		}
		e.Number = n
		entries = append(entries, e)
	}
	return entries, bad, sc.Err()
}

// Undone tells which entries a later entry undid.
func Undone(entries []Entry) map[int]bool {
	u := map[int]bool{}
	for _, e := range entries {
		if e.Undoes > 0 {
			u[e.Undoes] = true
		}
	}
	return u
}
