package edit

// The journal: every write, appended as JSON lines to a file in the user's
// state directory, so that what was changed where can be listed and
// undone later, after the session that made it. A write's entry is
// appended BEFORE it is sent, in doubt; a mark line naming the entry is
// appended when the answer comes (done, refused, failed) or does not (in
// doubt). A run killed between the two leaves the entry in doubt, which is
// the truth: the write may have landed.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
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

// entryLine is an entry as the file holds it. Version 1 lines (no "v")
// held one item at the top (key, old, new) and the units consumed; they
// are read as one done item.
type entryLine struct {
	V            int          `json:"v,omitempty"`
	ID           string       `json:"id,omitempty"`
	Time         time.Time    `json:"time"`
	Endpoint     string       `json:"endpoint"` // "" for AWS
	Region       string       `json:"region"`
	Table        string       `json:"table"`
	Operation    Op           `json:"operation"`
	PK           KeyAttrJSON  `json:"pk"`
	SK           *KeyAttrJSON `json:"sk,omitempty"`
	Items        []EntryItem  `json:"items,omitempty"`
	PredictedWCU float64      `json:"predictedWCU"`
	Version      string       `json:"versionAttribute,omitempty"`
	Undoes       int          `json:"undoes,omitempty"`    // the entry this write undoes
	Continues    int          `json:"continues,omitempty"` // the stopped bulk entry whose rest this one sent
	// Version 1 only.
	Key  json.RawMessage `json:"key,omitempty"`
	Old  json.RawMessage `json:"old,omitempty"`
	New  json.RawMessage `json:"new,omitempty"`
	WCU  *float64        `json:"wcu,omitempty"`
	Note string          `json:"note,omitempty"`
}

// markLine is what came of an entry's write. Its first field names the
// entry, so a mark is told from an entry by the start of its line alone
// (markPrefix), which numbering relies on.
type markLine struct {
	Mark  string     `json:"mark"` // the entry's id
	Time  time.Time  `json:"time"`
	State State      `json:"state"`
	WCU   *float64   `json:"wcu"` // null: the answer reported none, or none came
	Items []markItem `json:"items,omitempty"`
	Note  string     `json:"note,omitempty"`
}

// markItem is one item's outcome, in the entry's order: its state and,
// where DynamoDB reported them, the images before and after.
type markItem struct {
	State State           `json:"state"`
	Old   json.RawMessage `json:"old,omitempty"`
	New   json.RawMessage `json:"new,omitempty"`
	Note  string          `json:"note,omitempty"`
}

var markPrefix = []byte(`{"mark":`)

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

// Begin appends the entry of a write about to be sent, in doubt, and
// sets its ID and Number. Nothing may be sent when it fails.
func (j *Journal) Begin(e *Entry) error {
	if e.ID == "" {
		e.ID = newID()
	}
	e.Version, e.State, e.Unanswered = JournalVersion, StateInDoubt, true
	for i := range e.Items {
		e.Items[i].State = StateInDoubt
	}
	line, err := json.Marshal(entryLine{
		V: JournalVersion, ID: e.ID, Time: e.Time, Endpoint: e.Endpoint, Region: e.Region, Table: e.Table,
		Operation: e.Operation, PK: e.PK, SK: e.SK, Items: e.Items, PredictedWCU: e.PredictedWCU,
		Version: e.VersionAttr, Undoes: e.Undoes, Continues: e.Continues,
	})
	if err != nil {
		return err
	}
	n, err := j.append(line, true)
	if err != nil {
		return err
	}
	e.Number = n
	return nil
}

// Mark appends what came of the entry's write and sets it on e: the
// state of each of its items (one mark says the same of all), the units
// and the images DynamoDB reported.
func (j *Journal) Mark(e *Entry, m Mark) error {
	ml := markLine{Mark: e.ID, Time: time.Now().UTC(), State: m.State, WCU: m.WCU, Note: m.Note}
	for i := range e.Items {
		it := markItem{State: m.State}
		if m.Images {
			it.Old, it.New = image(m.Old), image(m.New)
		}
		if i < len(m.Items) {
			im := m.Items[i]
			it = markItem{State: im.State, Note: im.Note}
			if im.Images {
				it.Old, it.New = image(im.Old), image(im.New)
			}
		}
		ml.Items = append(ml.Items, it)
	}
	line, err := json.Marshal(ml)
	if err != nil {
		return err
	}
	if _, err := j.append(line, false); err != nil {
		return err
	}
	applyMark(e, ml)
	return nil
}

// append writes one line and, for an entry, returns its number: the
// entries up to where this write ended, whatever another process
// appended before or after it.
func (j *Journal) append(line []byte, numbered bool) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(j.Path), 0o700); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(j.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		return 0, err
	}
	n := 0
	if numbered {
		end, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, err
		}
		if n, err = countEntries(io.NewSectionReader(f, 0, end)); err != nil {
			return 0, err
		}
	}
	return n, f.Close()
}

// countEntries counts the lines that are not marks (entries, and lines
// that are neither, which keep their number as Read gives it).
func countEntries(r io.Reader) (int, error) {
	br := bufio.NewReaderSize(r, 64*1024)
	n := 0
	for {
		head, err := br.Peek(len(markPrefix))
		if len(head) > 0 && !bytes.Equal(head, markPrefix) && head[0] != '\n' {
			n++
		}
		if err != nil { // a last line shorter than a mark's start is counted above
			return n, nil
		}
		if err := skipLine(br); err == io.EOF {
			return n, nil
		} else if err != nil {
			return n, err
		}
	}
}

// skipLine reads past the next newline, however long the line.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Read returns the journal's entries, numbered, each with what its marks
// say, and a sentence for each line that is neither an entry nor a mark
// (a file edited by hand, a write cut off). A missing journal has no
// entries.
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
	byID := map[string]int{}
	// A line is read whole however long: a bulk change's entry holds each
	// item's images, megabytes for a few thousand items, and a line the
	// reader refused would make the whole journal unreadable.
	br := bufio.NewReaderSize(r, 64*1024)
	n := 0 // entries so far, lines that are neither included
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return entries, bad, err
		}
		if len(b) == 0 && err == io.EOF {
			break
		}
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if bytes.HasPrefix(b, markPrefix) {
			var m markLine
			i, ok := 0, false
			if json.Unmarshal(b, &m) == nil {
				i, ok = byID[m.Mark]
			}
			if !ok {
				bad = append(bad, fmt.Sprintf("%s:%d is not the mark of an entry before it; it is left out", name, line))
				continue
			}
			applyMark(&entries[i], m)
			continue
		}
		n++
		e, ok := parseEntry(b)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s:%d is not a journal entry; it is left out", name, line))
			continue
		}
		e.Number = n
		if e.ID != "" {
			byID[e.ID] = len(entries)
		}
		entries = append(entries, e)
	}
	return entries, bad, nil
}

// parseEntry reads an entry line of either version.
func parseEntry(b []byte) (Entry, bool) {
	var l entryLine
	if err := json.Unmarshal(b, &l); err != nil || l.Table == "" || l.PK.Name == "" {
		return Entry{}, false
	}
	e := Entry{
		ID: l.ID, Version: l.V, Time: l.Time, Endpoint: l.Endpoint, Region: l.Region, Table: l.Table, Operation: l.Operation,
		PK: l.PK, SK: l.SK, Items: l.Items, PredictedWCU: l.PredictedWCU, VersionAttr: l.Version, Undoes: l.Undoes,
		Continues: l.Continues,
	}
	if l.V == 0 {
		// Version 1 wrote an entry only once DynamoDB had answered that the
		// write was made.
		e.Version, e.State, e.WCU, e.Note, e.Answered = 1, StateDone, l.WCU, l.Note, l.Time
		e.Items = []EntryItem{{Key: l.Key, Old: l.Old, New: l.New, State: StateDone}}
		return e, true
	}
	if len(e.Items) == 0 || e.ID == "" {
		return Entry{}, false
	}
	e.State, e.Unanswered = StateInDoubt, true
	for i := range e.Items {
		e.Items[i].State = StateInDoubt
	}
	return e, true
}

// applyMark sets what a mark says on its entry. A later mark decides the
// state; units stay known once a mark knew them.
func applyMark(e *Entry, m markLine) {
	e.State, e.Note, e.Answered, e.Unanswered = m.State, m.Note, m.Time, false
	if m.WCU != nil {
		e.WCU = m.WCU
	}
	for i := range e.Items {
		if i >= len(m.Items) {
			e.Items[i].State = m.State
			continue
		}
		mi := m.Items[i]
		e.Items[i].State, e.Items[i].Note = mi.State, mi.Note
		if len(mi.Old) > 0 {
			e.Items[i].Old = mi.Old
		}
		if len(mi.New) > 0 {
			e.Items[i].New = mi.New
		}
	}
}
