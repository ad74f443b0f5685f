package dynamo

// A Scan's order is the hash's, which nobody can check: what is sure is
// that no item comes twice in one read (issue 35.2). A segment remembers
// a hash of every key it has read, in as little memory as an exact set of
// hashes can take (issue 41.2: a read of a million items within 64 MB).

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// scanKeys remembers the items one Scan segment has read, to refuse an
// item that comes twice: a 64-bit hash of each key (seeded afresh for each
// segment, so two keys of a read of a million items share one about once
// in 37 million reads), up to maxScanKeys items a segment (past that,
// repeats go unchecked rather than memory grow without bound).
//
// The hashes are kept in sorted runs, as an LSM tree keeps its levels: a
// page's hashes, sorted, become the newest run, and a run at least as long
// as the one before it is merged into that one, so the runs halve in
// length and there are at most log2 of the items over a page's. A hash is
// looked for by binary search in each. A run is held in chunks of
// chunkHashes, and a merge hands each chunk it has read on to the run it
// writes: that is 8 bytes an item (a Go map of the same hashes holds 38)
// and a few chunks more, while merging too, with no garbage of the runs'
// size for the heap to grow by.
type scanKeys struct {
	seed  maphash.Seed
	runs  []hashRun // each longer than the next
	n     int       // the hashes in runs
	spare [][]uint64
	buf   []byte   // a key's bytes, hashed
	order []uint64 // a page's hashes in the page's order
}

// hashRun is a sorted run of distinct hashes, in chunks: each chunk
// sorted, non-empty, every hash of it below the next chunk's first.
type hashRun struct {
	chunks [][]uint64
	n      int
}

// chunkHashes is the length of a chunk: 64 KB.
const chunkHashes = 1 << 13

// maxScanKeys bounds the keys a segment remembers: 4 M items, 32 MB of
// hashes.
const maxScanKeys = 1 << 22

func newScanKeys() *scanKeys {
	return &scanKeys{seed: maphash.MakeSeed()}
}

// page checks a Scan page: its items' keys (keyProblem), its
// LastEvaluatedKey (lastKeyProblem), and no item read before in the
// segment, the first such item of the page named. The items are
// remembered only when the page passes.
func (s *scanKeys) page(t Table, ks KeySchema, items []Item, lek Item) string {
	for _, it := range items {
		if p := keyProblem(t, ks.Index, it); p != "" {
			return p
		}
	}
	if p := lastKeyProblem(t, ks, lek); p != "" {
		return p
	}
	if s == nil {
		return ""
	}
	names := keyNames(t, ks)
	s.order = s.order[:0]
	first := len(items) // the first item read before
	for i, it := range items {
		h := s.hash(names, it)
		s.order = append(s.order, h)
		if first == len(items) && s.has(h) {
			first = i
		}
	}
	run := append(s.chunk(len(items)), s.order...)
	slices.Sort(run)
	first = min(first, firstRepeat(s.order, run))
	if first < len(items) {
		s.release(run)
		return fmt.Sprintf("an item %s it had sent before in this read", keyMapText(keyPart(t, ks, items[first])))
	}
	s.add(run[:min(len(run), maxScanKeys-s.n)])
	return ""
}

// keyNames are the key attributes keyPart keeps, each once, in a fixed
// order: the index's and the table's.
func keyNames(t Table, ks KeySchema) []string {
	var names []string
	for _, a := range []*KeyAttr{&ks.PK, ks.SK, &t.PK, t.SK} {
		if a != nil && !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
		}
	}
	return names
}

// hash is the hash of an item's key: each key attribute's name, type and
// value, each length first, so that two keys hash alike only when they are
// the same key (as keyID would write them) or by a 64-bit chance.
func (s *scanKeys) hash(names []string, it Item) uint64 {
	b := s.buf[:0]
	for _, name := range names {
		b = binary.AppendUvarint(b, uint64(len(name)))
		b = append(b, name...)
		switch v := it[name].(type) {
		case nil:
			b = append(b, 0)
		case *types.AttributeValueMemberS:
			b = appendValue(b, 'S', v.Value)
		case *types.AttributeValueMemberN:
			b = appendValue(b, 'N', v.Value)
		case *types.AttributeValueMemberB:
			b = appendValue(b, 'B', string(v.Value))
		default:
			// no key's type (keyProblem refuses it first): its type only
			b = append(b, '?')
			b = append(b, itemcodec.AttributeTypeName(v)...)
		}
	}
	s.buf = b
	return maphash.Bytes(s.seed, b)
}

func appendValue(b []byte, kind byte, v string) []byte {
	b = append(b, kind)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// has tells whether h is in a run.
func (s *scanKeys) has(h uint64) bool {
	for _, r := range s.runs {
		if r.has(h) {
			return true
		}
	}
	return false
}

func (r hashRun) has(h uint64) bool {
	// the last chunk whose first hash is h or below
	i := sort.Search(len(r.chunks), func(i int) bool { return r.chunks[i][0] > h }) - 1
	if i < 0 {
		return false
	}
	_, ok := slices.BinarySearch(r.chunks[i], h)
	return ok
}

// firstRepeat is the index in hashes of the first one that equals one
// before it, or len(hashes); sorted is hashes sorted.
func firstRepeat(hashes, sorted []uint64) int {
	var twice map[uint64]bool
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			if twice == nil {
				twice = map[uint64]bool{}
			}
			twice[sorted[i]] = false
		}
	}
	for i, h := range hashes {
		if met, ok := twice[h]; ok {
			if met {
				return i
			}
			twice[h] = true
		}
	}
	return len(hashes)
}

// chunk is an empty chunk for at least n hashes: a spare one when n fits.
func (s *scanKeys) chunk(n int) []uint64 {
	if n > chunkHashes {
		return make([]uint64, 0, n)
	}
	if k := len(s.spare); k > 0 {
		c := s.spare[k-1]
		s.spare[k-1] = nil
		s.spare = s.spare[:k-1]
		return c[:0]
	}
	return make([]uint64, 0, chunkHashes)
}

// release keeps a chunk read to its end for the next chunk asked for.
// Chunks not of chunkHashes (a big page's) go to the garbage collector.
func (s *scanKeys) release(c []uint64) {
	if cap(c) == chunkHashes {
		s.spare = append(s.spare, c)
	}
}

// add remembers a sorted run of new hashes, merging each run as long as
// the one before it into that one.
func (s *scanKeys) add(run []uint64) {
	if len(run) == 0 {
		s.release(run)
		return
	}
	s.n += len(run)
	s.runs = append(s.runs, hashRun{chunks: [][]uint64{run}, n: len(run)})
	for k := len(s.runs); k >= 2 && s.runs[k-2].n <= s.runs[k-1].n; k-- {
		s.runs[k-2] = s.merge(s.runs[k-2], s.runs[k-1])
		s.runs[k-1] = hashRun{}
		s.runs = s.runs[:k-1]
	}
}

// merge merges two runs into one, releasing each chunk of theirs once it
// has been read, so that the merge holds at most a few chunks more than
// the two runs.
func (s *scanKeys) merge(a, b hashRun) hashRun {
	out := hashRun{n: a.n + b.n}
	c := s.chunk(0)
	put := func(h uint64) {
		if len(c) == chunkHashes {
			out.chunks = append(out.chunks, c)
			c = s.chunk(0)
		}
		c = append(c, h)
	}
	ra, rb := runReader{run: a}, runReader{run: b}
	for !ra.done() && !rb.done() {
		if ra.peek() < rb.peek() {
			put(ra.next(s))
		} else {
			put(rb.next(s))
		}
	}
	for !ra.done() {
		put(ra.next(s))
	}
	for !rb.done() {
		put(rb.next(s))
	}
	out.chunks = append(out.chunks, c)
	return out
}

// runReader reads a run's hashes in order, releasing each chunk read.
type runReader struct {
	run  hashRun
	i, j int // chunk, hash in it
}

func (r *runReader) done() bool   { return r.i == len(r.run.chunks) }
func (r *runReader) peek() uint64 { return r.run.chunks[r.i][r.j] }

func (r *runReader) next(s *scanKeys) uint64 {
	c := r.run.chunks[r.i]
	h := c[r.j]
	if r.j++; r.j == len(c) {
		s.release(c)
		r.run.chunks[r.i] = nil
		r.i, r.j = r.i+1, 0
	}
	return h
}
