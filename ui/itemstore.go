package ui

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// The items pane keeps what it loaded in a compact form: each page is one
// byte buffer holding its items one after the other, each item its raw
// attribute values with a type tag and a length, and the top-level
// attribute names replaced by small ids shared by the whole store. The SDK's
// maps cost about four times the raw bytes; this costs about the raw bytes.
// Items are decoded only where they are needed: the rows on screen, the
// detail pane, the filter (which reads the encoded strings in place).
//
// Encoding of an item: uvarint attribute count, then per attribute (in name
// order) uvarint name id and the value. A value is a tag byte and:
//
//	S, N, B          uvarint length, bytes (numbers keep their exact digits)
//	BOOL, NULL       nothing (the tag says true or false)
//	SS, NS, BS       uvarint count, then each as uvarint length, bytes
//	L                uvarint count, then each value
//	M                uvarint count, then each as uvarint length, key bytes, value
//	unknown          the SDK's tag and value as two length-prefixed strings
const (
	tagS byte = iota + 1
	tagN
	tagB
	tagTrue
	tagFalse
	tagNull      // NULL true, the only NULL DynamoDB sends
	tagNullFalse // NULL false: not DynamoDB's, kept so that decoding is exact
	tagSS
	tagNS
	tagBS
	tagL
	tagM
	tagUnknown
	tagNil // a nil value inside a list or map
)

// nameTable interns top-level attribute names. It only ever grows, so every
// copy of the pane may share it: an id, once given, names one attribute for
// good.
type nameTable struct {
	ids   map[string]uint32
	names []string
}

func (t *nameTable) id(name string) uint32 {
	if id, ok := t.ids[name]; ok {
		return id
	}
	id := uint32(len(t.names))
	t.names = append(t.names, name)
	t.ids[name] = id
	return id
}

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
	names *nameTable
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
	pg.data, pg.off = encodePage(s.names, items, visit)
	s.nameList = s.names.names
	s.pages = append(slices.Clip(s.pages), pg)
	s.total += len(items)
	s.inMemory += len(items)
	return s
}

// withNames gives the store its name table, once.
func (s itemStore) withNames() itemStore {
	if s.names == nil {
		s.names = &nameTable{ids: map[string]uint32{}}
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
	pg.data, pg.off = encodePage(s.names, items, nil)
	s.nameList = s.names.names
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
	return decodeItem(s.nameList, b), true
}

// scratch is where pages are encoded before they are copied to a buffer of
// their exact size: growing a megabyte by appends would allocate it twice.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// encodePage encodes items into one buffer sized to fit. Top-level
// attributes go in map order: an item's encoding need not be canonical.
func encodePage(names *nameTable, items []dynamo.Item, visit visitFunc) ([]byte, []uint32) {
	off := make([]uint32, len(items))
	sp := scratch.Get().(*[]byte)
	buf := (*sp)[:0]
	for i, it := range items {
		off[i] = uint32(len(buf))
		buf = binary.AppendUvarint(buf, uint64(len(it)))
		for k, av := range it {
			id := names.id(k)
			buf = binary.AppendUvarint(buf, uint64(id))
			buf = appendValue(buf, av)
			if visit != nil {
				visit(i, id, av)
			}
		}
	}
	data := make([]byte, len(buf))
	copy(data, buf)
	*sp = buf
	scratch.Put(sp)
	return data, off
}

// encodeItem is one item alone, as a page stores it.
func encodeItem(names *nameTable, it dynamo.Item) []byte {
	b, _ := encodePage(names, []dynamo.Item{it}, nil)
	return b
}

func appendBytes[T string | []byte](b []byte, s T) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings[T string | []byte](b []byte, tag byte, ss []T) []byte {
	b = append(b, tag)
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendBytes(b, s)
	}
	return b
}

func appendValue(b []byte, av types.AttributeValue) []byte {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return appendBytes(append(b, tagS), v.Value)
	case *types.AttributeValueMemberN:
		return appendBytes(append(b, tagN), v.Value)
	case *types.AttributeValueMemberB:
		return appendBytes(append(b, tagB), v.Value)
	case *types.AttributeValueMemberBOOL:
		if v.Value {
			return append(b, tagTrue)
		}
		return append(b, tagFalse)
	case *types.AttributeValueMemberNULL:
		if v.Value {
			return append(b, tagNull)
		}
		return append(b, tagNullFalse)
	case *types.AttributeValueMemberSS:
		return appendStrings(b, tagSS, v.Value)
	case *types.AttributeValueMemberNS:
		return appendStrings(b, tagNS, v.Value)
	case *types.AttributeValueMemberBS:
		return appendStrings(b, tagBS, v.Value)
	case *types.AttributeValueMemberL:
		b = append(b, tagL)
		b = binary.AppendUvarint(b, uint64(len(v.Value)))
		for _, e := range v.Value {
			b = appendValue(b, e)
		}
		return b
	case *types.AttributeValueMemberM:
		b = append(b, tagM)
		b = binary.AppendUvarint(b, uint64(len(v.Value)))
		keys := make([]string, 0, len(v.Value))
		for k := range v.Value {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = appendBytes(b, k)
			b = appendValue(b, v.Value[k])
		}
		return b
	case *types.UnknownUnionMember:
		return appendBytes(appendBytes(append(b, tagUnknown), v.Tag), v.Value)
	}
	return append(b, tagNil)
}

// decoder reads an encoding this file wrote; it trusts it.
type decoder struct {
	b []byte
	i int
}

func (d *decoder) uvarint() int {
	v, n := binary.Uvarint(d.b[d.i:])
	d.i += n
	return int(v)
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	s := d.b[d.i : d.i+n : d.i+n]
	d.i += n
	return s
}

// attr reads the next top-level attribute's name id and value tag, leaving
// the value to read or skip.
func (d *decoder) attr() (id int, tag byte) {
	id = d.uvarint()
	tag = d.b[d.i]
	d.i++
	return id, tag
}

// skip passes over a value whose tag was read.
func (d *decoder) skip(tag byte) {
	switch tag {
	case tagS, tagN, tagB:
		d.i += d.uvarint()
	case tagSS, tagNS, tagBS:
		for range d.uvarint() {
			d.i += d.uvarint()
		}
	case tagL:
		for range d.uvarint() {
			t := d.b[d.i]
			d.i++
			d.skip(t)
		}
	case tagM:
		for range d.uvarint() {
			d.i += d.uvarint()
			t := d.b[d.i]
			d.i++
			d.skip(t)
		}
	case tagUnknown:
		d.i += d.uvarint()
		d.i += d.uvarint()
	}
}

func (d *decoder) value() types.AttributeValue {
	t := d.b[d.i]
	d.i++
	return d.valueOf(t)
}

func (d *decoder) valueOf(tag byte) types.AttributeValue {
	switch tag {
	case tagS:
		return &types.AttributeValueMemberS{Value: string(d.bytes())}
	case tagN:
		return &types.AttributeValueMemberN{Value: string(d.bytes())}
	case tagB:
		return &types.AttributeValueMemberB{Value: slices.Clone(d.bytes())}
	case tagTrue, tagFalse:
		return &types.AttributeValueMemberBOOL{Value: tag == tagTrue}
	case tagNull, tagNullFalse:
		return &types.AttributeValueMemberNULL{Value: tag == tagNull}
	case tagSS, tagNS:
		ss := make([]string, d.uvarint())
		for i := range ss {
			ss[i] = string(d.bytes())
		}
		if tag == tagSS {
			return &types.AttributeValueMemberSS{Value: ss}
		}
		return &types.AttributeValueMemberNS{Value: ss}
	case tagBS:
		bs := make([][]byte, d.uvarint())
		for i := range bs {
			bs[i] = slices.Clone(d.bytes())
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case tagL:
		l := make([]types.AttributeValue, d.uvarint())
		for i := range l {
			l[i] = d.value()
		}
		return &types.AttributeValueMemberL{Value: l}
	case tagM:
		n := d.uvarint()
		m := make(map[string]types.AttributeValue, n)
		for range n {
			k := string(d.bytes())
			m[k] = d.value()
		}
		return &types.AttributeValueMemberM{Value: m}
	case tagUnknown:
		t := string(d.bytes())
		return &types.UnknownUnionMember{Tag: t, Value: slices.Clone(d.bytes())}
	}
	return nil
}

func decodeItem(names []string, b []byte) dynamo.Item {
	d := decoder{b: b}
	n := d.uvarint()
	it := make(dynamo.Item, n)
	for range n {
		id, tag := d.attr()
		it[names[id]] = d.valueOf(tag)
	}
	return it
}

// decodeAttr decodes one top-level attribute of an encoded item, by name id.
func decodeAttr(b []byte, want int) (types.AttributeValue, bool) {
	d := decoder{b: b}
	for range d.uvarint() {
		id, tag := d.attr()
		if id == want {
			return d.valueOf(tag), true
		}
		d.skip(tag)
	}
	return nil, false
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
