package itemcodec

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The compact binary form the UI's items pane keeps loaded items in: each
// page is one byte buffer holding its items one after the other, each item
// its raw attribute values with a type tag and a length, and the top-level
// attribute names replaced by small ids (Names) shared by the whole store.
// The SDK's maps cost about four times the raw bytes; this costs about the
// raw bytes. Items are decoded only where they are needed: the rows on
// screen, the detail pane, the filter (which reads the encoded strings in
// place with a Decoder).
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
	// TagS and TagN tag string and number values, which a filter reads in
	// place (Decoder.Bytes).
	TagS byte = iota + 1
	TagN
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

// Names interns top-level attribute names. It only ever grows, so every
// copy of a store may share it: an id, once given, names one attribute for
// good.
type Names struct {
	ids   map[string]uint32
	names []string
}

// NewNames is an empty name table.
func NewNames() *Names { return &Names{ids: map[string]uint32{}} }

// ID is name's id, given now if the name is new.
func (t *Names) ID(name string) uint32 {
	if id, ok := t.ids[name]; ok {
		return id
	}
	id := uint32(len(t.names))
	t.names = append(t.names, name)
	t.ids[name] = id
	return id
}

// List is the names by id so far. Later ids are appended, never written
// over, so a list taken now stays valid for what was encoded before.
func (t *Names) List() []string { return t.names }

// scratch is where pages are encoded before they are copied to a buffer of
// their exact size: growing a megabyte by appends would allocate it twice.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// EncodePage encodes items into one buffer sized to fit and returns it with
// where each item starts; visit, if not nil, sees each top-level attribute:
// the item's index in the page, the name's id, the value. Top-level
// attributes go in map order: an item's encoding need not be canonical.
func EncodePage(names *Names, items []Item, visit func(item int, id uint32, av types.AttributeValue)) ([]byte, []uint32) {
	off := make([]uint32, len(items))
	sp := scratch.Get().(*[]byte)
	buf := (*sp)[:0]
	for i, it := range items {
		off[i] = uint32(len(buf))
		buf = binary.AppendUvarint(buf, uint64(len(it)))
		for k, av := range it {
			id := names.ID(k)
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

// EncodeItem is one item alone, as a page stores it.
func EncodeItem(names *Names, it Item) []byte {
	b, _ := EncodePage(names, []Item{it}, nil)
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
		return appendBytes(append(b, TagS), v.Value)
	case *types.AttributeValueMemberN:
		return appendBytes(append(b, TagN), v.Value)
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

// Decoder reads an encoding EncodePage wrote; it trusts it.
type Decoder struct {
	b []byte
	i int
}

// NewDecoder reads the encoding of one item, which starts with its
// attribute count (Uvarint).
func NewDecoder(b []byte) Decoder { return Decoder{b: b} }

// Uvarint reads a count or a length.
func (d *Decoder) Uvarint() int {
	v, n := binary.Uvarint(d.b[d.i:])
	d.i += n
	return int(v)
}

// Bytes reads a length-prefixed string, number or binary value in place.
func (d *Decoder) Bytes() []byte {
	n := d.Uvarint()
	s := d.b[d.i : d.i+n : d.i+n]
	d.i += n
	return s
}

// Attr reads the next top-level attribute's name id and value tag, leaving
// the value to read or skip.
func (d *Decoder) Attr() (id int, tag byte) {
	id = d.Uvarint()
	tag = d.b[d.i]
	d.i++
	return id, tag
}

// Skip passes over a value whose tag was read.
func (d *Decoder) Skip(tag byte) {
	switch tag {
	case TagS, TagN, tagB:
		d.i += d.Uvarint()
	case tagSS, tagNS, tagBS:
		for range d.Uvarint() {
			d.i += d.Uvarint()
		}
	case tagL:
		for range d.Uvarint() {
			t := d.b[d.i]
			d.i++
			d.Skip(t)
		}
	case tagM:
		for range d.Uvarint() {
			d.i += d.Uvarint()
			t := d.b[d.i]
			d.i++
			d.Skip(t)
		}
	case tagUnknown:
		d.i += d.Uvarint()
		d.i += d.Uvarint()
	}
}

func (d *Decoder) value() types.AttributeValue {
	t := d.b[d.i]
	d.i++
	return d.valueOf(t)
}

func (d *Decoder) valueOf(tag byte) types.AttributeValue {
	switch tag {
	case TagS:
		return &types.AttributeValueMemberS{Value: string(d.Bytes())}
	case TagN:
		return &types.AttributeValueMemberN{Value: string(d.Bytes())}
	case tagB:
		return &types.AttributeValueMemberB{Value: slices.Clone(d.Bytes())}
	case tagTrue, tagFalse:
		return &types.AttributeValueMemberBOOL{Value: tag == tagTrue}
	case tagNull, tagNullFalse:
		return &types.AttributeValueMemberNULL{Value: tag == tagNull}
	case tagSS, tagNS:
		ss := make([]string, d.Uvarint())
		for i := range ss {
			ss[i] = string(d.Bytes())
		}
		if tag == tagSS {
			return &types.AttributeValueMemberSS{Value: ss}
		}
		return &types.AttributeValueMemberNS{Value: ss}
	case tagBS:
		bs := make([][]byte, d.Uvarint())
		for i := range bs {
			bs[i] = slices.Clone(d.Bytes())
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case tagL:
		l := make([]types.AttributeValue, d.Uvarint())
		for i := range l {
			l[i] = d.value()
		}
		return &types.AttributeValueMemberL{Value: l}
	case tagM:
		n := d.Uvarint()
		m := make(map[string]types.AttributeValue, n)
		for range n {
			k := string(d.Bytes())
			m[k] = d.value()
		}
		return &types.AttributeValueMemberM{Value: m}
	case tagUnknown:
		t := string(d.Bytes())
		return &types.UnknownUnionMember{Tag: t, Value: slices.Clone(d.Bytes())}
	}
	return nil
}

// DecodeItem decodes one item; names is Names.List as of its encoding.
func DecodeItem(names []string, b []byte) Item {
	d := Decoder{b: b}
	n := d.Uvarint()
	it := make(Item, n)
	for range n {
		id, tag := d.Attr()
		it[names[id]] = d.valueOf(tag)
	}
	return it
}

// DecodeAttr decodes one top-level attribute of an encoded item, by name id.
func DecodeAttr(b []byte, want int) (types.AttributeValue, bool) {
	d := Decoder{b: b}
	for range d.Uvarint() {
		id, tag := d.Attr()
		if id == want {
			return d.valueOf(tag), true
		}
		d.Skip(tag)
	}
	return nil, false
}
