package ui

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// The items pane keeps what it loaded in the compact binary form of
// itemcodec (binary.go there): a page is one byte buffer, attribute names
// are ids of one itemcodec.Names shared by the whole store.

// storedPage is one page of the results as DynamoDB returned it. A released
// page keeps its place (first, n) and the ExclusiveStartKey that reads it
// again; its bytes are gone.
type storedPage struct {
	no       int         // its page number in the query, from 1
	startKey dynamo.Item // the ExclusiveStartKey it was read with; nil for the first
	first, n int         // its rows
	data     []byte      // the encoded items; nil when released
	off      []uint32    // where each item starts in data
}

func (p storedPage) resident() bool { return p.off != nil }

// itemStore is the loaded results, page by page. Its methods return a new
// store and never write to a page or slice another copy can see, so copies
// of the model stay independent.
type itemStore struct {
	names *itemcodec.Names
	// nameList is the names by id as of this store's last page. Decoding
	// reads it, never names: an export decodes a copy of the store on its
	// own goroutine while Update may give new names ids.
	nameList []string
	pages    []storedPage
	total    int // rows, released pages included
	inMemory int // rows whose items are held
}

// visitFunc sees each top-level attribute as a page is encoded: the item's
// index in the page, the attribute's name id, its value.
type visitFunc func(item int, id uint32, av types.AttributeValue)

// add appends a page read with startKey as page no; visit, if not nil, sees
// its attributes.
func (s itemStore) add(items []dynamo.Item, startKey dynamo.Item, no int, visit visitFunc) itemStore {
	s = s.withNames()
	pg := storedPage{no: no, startKey: startKey, first: s.total, n: len(items)}
	pg.data, pg.off = itemcodec.EncodePage(s.names, items, visit)
	s.nameList = s.names.List()
	s.pages = append(slices.Clip(s.pages), pg)
	s.total += len(items)
	s.inMemory += len(items)
	return s
}

// withNames gives the store its name table, once.
func (s itemStore) withNames() itemStore {
	if s.names == nil {
		s.names = itemcodec.NewNames()
	}
	return s
}

// release drops the items of page i, keeping its place.
func (s itemStore) release(i int) itemStore {
	if !s.pages[i].resident() {
		return s
	}
	s.pages = slices.Clone(s.pages)
	s.inMemory -= s.pages[i].n
	s.pages[i].data, s.pages[i].off = nil, nil
	return s
}

// restore puts the items of released page i back, read again. If the table
// changed since and the page holds a different number of items now, the
// rows after it move.
func (s itemStore) restore(i int, items []dynamo.Item) itemStore {
	if s.pages[i].resident() {
		return s
	}
	s.pages = slices.Clone(s.pages)
	pg := &s.pages[i]
	pg.data, pg.off = itemcodec.EncodePage(s.names, items, nil)
	s.nameList = s.names.List()
	if d := len(items) - pg.n; d != 0 {
		pg.n = len(items)
		for j := i + 1; j < len(s.pages); j++ {
			s.pages[j].first += d
		}
		s.total += d
	}
	s.inMemory += len(items)
	return s
}

// pageOf is the index of the page holding row r.
func (s itemStore) pageOf(r int) int {
	i, _ := slices.BinarySearchFunc(s.pages, r, func(p storedPage, r int) int {
		switch {
		case r < p.first:
			return 1
		case r >= p.first+p.n:
			return -1
		}
		return 0
	})
	return i
}

// raw is the encoding of row r's item, nil when its page is released.
func (s itemStore) raw(r int) []byte {
	if r < 0 || r >= s.total {
		return nil
	}
	p := &s.pages[s.pageOf(r)]
	if !p.resident() {
		return nil
	}
	k := r - p.first
	end := len(p.data)
	if k+1 < len(p.off) {
		end = int(p.off[k+1])
	}
	return p.data[p.off[k]:end]
}

// item decodes row r's item; false when its page is released.
func (s itemStore) item(r int) (dynamo.Item, bool) {
	b := s.raw(r)
	if b == nil {
		return nil, false
	}
	return itemcodec.DecodeItem(s.nameList, b), true
}

// HeldItemBytes is the DynamoDB size of the items in memory now, pages
// released by the item cap left out: what bench/rss bounds peak RSS by.
func (m Model) HeldItemBytes() int {
	n := 0
	for r := range m.items.store.total {
		if it, ok := m.items.store.item(r); ok {
			n += itemcodec.ItemSize(it)
		}
	}
	return n
}
