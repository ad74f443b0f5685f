package pane

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// The items pane keeps what it loaded in the compact binary form of
// itemcodec (binary.go there): a page is one byte buffer, attribute names
// are ids of one itemcodec.Names shared by the whole store.

// StoredPage is one page of the results as DynamoDB returned it. A released
// page keeps its place (first, n) and the ExclusiveStartKey that reads it
// again; its bytes are gone.
type StoredPage struct {
	No       int         // its page number in the query, from 1
	StartKey dynamo.Item // the ExclusiveStartKey it was read with; nil for the first
	First, N int         // its rows
	data     []byte      // the encoded items; nil when released
	off      []uint32    // where each item starts in data
}

// Resident tells whether the page's items are held in memory.
func (p StoredPage) Resident() bool { return p.off != nil }

// ItemStore is the loaded results, page by page. Its methods return a new
// store and never write to a page or slice another copy can see, so copies
// of the model stay independent.
type ItemStore struct {
	names *itemcodec.Names
	// nameList is the names by id as of this store's last page. Decoding
	// reads it, never names: an export decodes a copy of the store on its
	// own goroutine while Update may give new names ids.
	nameList []string
	Pages    []StoredPage
	Total    int // rows, released pages included
	InMemory int // rows whose items are held
}

// visitFunc sees each top-level attribute as a page is encoded: the item's
// index in the page, the attribute's name id, its value.
type visitFunc func(item int, id uint32, av types.AttributeValue)

// Add appends a page read with startKey as page no; visit, if not nil, sees
// its attributes.
func (s ItemStore) Add(items []dynamo.Item, startKey dynamo.Item, no int, visit visitFunc) ItemStore {
	s = s.WithNames()
	pg := StoredPage{No: no, StartKey: startKey, First: s.Total, N: len(items)}
	pg.data, pg.off = itemcodec.EncodePage(s.names, items, visit)
	s.nameList = s.names.List()
	s.Pages = append(slices.Clip(s.Pages), pg)
	s.Total += len(items)
	s.InMemory += len(items)
	return s
}

// WithNames gives the store its name table, once.
func (s ItemStore) WithNames() ItemStore {
	if s.names == nil {
		s.names = itemcodec.NewNames()
	}
	return s
}

// Release drops the items of page i, keeping its place.
func (s ItemStore) Release(i int) ItemStore {
	if !s.Pages[i].Resident() {
		return s
	}
	s.Pages = slices.Clone(s.Pages)
	s.InMemory -= s.Pages[i].N
	s.Pages[i].data, s.Pages[i].off = nil, nil
	return s
}

// Restore puts the items of released page i back, read again. If the table
// changed since and the page holds a different number of items now, the
// rows after it move.
func (s ItemStore) Restore(i int, items []dynamo.Item) ItemStore {
	if s.Pages[i].Resident() {
		return s
	}
	s.Pages = slices.Clone(s.Pages)
	pg := &s.Pages[i]
	pg.data, pg.off = itemcodec.EncodePage(s.names, items, nil)
	s.nameList = s.names.List()
	if d := len(items) - pg.N; d != 0 {
		pg.N = len(items)
		for j := i + 1; j < len(s.Pages); j++ {
			s.Pages[j].First += d
		}
		s.Total += d
	}
	s.InMemory += len(items)
	return s
}

// PageOf is the index of the page holding row r.
func (s ItemStore) PageOf(r int) int {
	i, _ := slices.BinarySearchFunc(s.Pages, r, func(p StoredPage, r int) int {
		switch {
		case r < p.First:
			return 1
		case r >= p.First+p.N:
			return -1
		}
		return 0
	})
	return i
}

// raw is the encoding of row r's item, nil when its page is released.
func (s ItemStore) raw(r int) []byte {
	if r < 0 || r >= s.Total {
		return nil
	}
	p := &s.Pages[s.PageOf(r)]
	if !p.Resident() {
		return nil
	}
	k := r - p.First
	end := len(p.data)
	if k+1 < len(p.off) {
		end = int(p.off[k+1])
	}
	return p.data[p.off[k]:end]
}

// Item decodes row r's item; false when its page is released.
func (s ItemStore) Item(r int) (dynamo.Item, bool) {
	b := s.raw(r)
	if b == nil {
		return nil, false
	}
	return itemcodec.DecodeItem(s.nameList, b), true
}

// All decodes every row's item, in order; false when a page is released,
// so the rows are not all in memory.
func (s ItemStore) All() ([]dynamo.Item, bool) {
	items := make([]dynamo.Item, 0, s.Total+1) // +1: room for a live INSERT
	for r := range s.Total {
		it, ok := s.Item(r)
		if !ok {
			return nil, false
		}
		items = append(items, it)
	}
	return items, true
}
