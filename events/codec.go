package events

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"unicode/utf8"
)

// The canonical encoding is a small, hand-written binary format: unsigned
// and signed varints, and length-prefixed strings and byte slices, written
// in the order the fields are declared. It is canonical by construction (one
// value has exactly one encoding), so the bytes can be hashed, and it decodes
// an order of magnitude faster than encoding/json, which bounds replay speed.

// ErrCorrupt is wrapped by every decoding error: the bytes are not a valid
// encoding of what the reader expected.
var ErrCorrupt = errors.New("corrupt encoding")

// maxLen bounds any length prefix, so corrupt input cannot make a decoder
// allocate gigabytes.
const maxLen = 64 << 20

// Writer appends canonical encodings to a byte slice.
type Writer struct{ b []byte }

// NewWriter returns a Writer appending to buf (which may be nil).
func NewWriter(buf []byte) *Writer { return &Writer{b: buf[:0]} }

// Bytes returns what was written.
func (w *Writer) Bytes() []byte { return w.b }

// Uvarint writes an unsigned integer.
func (w *Writer) Uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

// Varint writes a signed integer.
func (w *Writer) Varint(v int64) { w.b = binary.AppendVarint(w.b, v) }

// Int writes an int as a signed varint.
func (w *Writer) Int(v int) { w.Varint(int64(v)) }

// Bool writes a boolean as one byte.
func (w *Writer) Bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// String writes a length-prefixed string.
func (w *Writer) String(s string) {
	w.Uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// Blob writes a length-prefixed byte slice.
func (w *Writer) Blob(p []byte) {
	w.Uvarint(uint64(len(p)))
	w.b = append(w.b, p...)
}

// Fixed writes bytes with no length prefix (for fixed-size values such as hashes).
func (w *Writer) Fixed(p []byte) { w.b = append(w.b, p...) }

// Strings writes a counted list of strings.
func (w *Writer) Strings(ss []string) {
	w.Uvarint(uint64(len(ss)))
	for _, s := range ss {
		w.String(s)
	}
}

// Ints writes a counted list of signed integers.
func (w *Writer) Ints(vs []int64) {
	w.Uvarint(uint64(len(vs)))
	for _, v := range vs {
		w.Varint(v)
	}
}

// Reader decodes canonical encodings. The first error sticks: later reads
// return zero values, and Err reports it, so decoders read straight through
// and check once.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader reads from b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err returns the first error met, if any.
func (r *Reader) Err() error { return r.err }

// Len returns the number of bytes not yet read (a record that gained
// trailing fields reads them only when they are there).
func (r *Reader) Len() int { return len(r.b) - r.off }

// Done reports an error unless every byte was consumed without error.
func (r *Reader) Done() error {
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		return fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(r.b)-r.off)
	}
	return nil
}

// fail records the first error and moves to the end of the input, so
// that every later read returns a zero value.
func (r *Reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: bad %s at byte %d", ErrCorrupt, what, r.off)
	}
	r.off = len(r.b)
}

// Uvarint reads an unsigned integer.
func (r *Reader) Uvarint() uint64 {
	// Most values (lengths, counts, small numbers) take one byte: read
	// those here, where the call can be inlined.
	// (After an error off is at the end, so this reads nothing.)
	if off := r.off; off < len(r.b) && r.b[off] < 0x80 {
		r.off = off + 1
		return uint64(r.b[off])
	}
	return r.uvarint()
}

func (r *Reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, p := uvarintAt(r.b, r.off)
	if p < 0 {
		r.fail("uvarint")
		return 0
	}
	r.off = p
	return v
}

// Varint reads a signed integer.
func (r *Reader) Varint() int64 {
	if off := r.off; off < len(r.b) && r.b[off] < 0x80 { // one byte, as Uvarint
		r.off = off + 1
		return unzigzag(uint64(r.b[off]))
	}
	return r.varint()
}

func (r *Reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	u, p := uvarintAt(r.b, r.off)
	if p < 0 {
		r.fail("varint")
		return 0
	}
	r.off = p
	return unzigzag(u)
}

// unzigzag turns a varint's unsigned form back into the signed value.
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// uvarintAt reads the canonical uvarint at b[p:] and returns it and the
// offset after it, or p < 0 if there is none (cut short, over 64 bits or
// overlong: a zero last byte is a non-canonical form). The Reader and
// Decoder.decodeCommon read every multi-byte varint through it.
func uvarintAt(b []byte, p int) (uint64, int) {
	if p < len(b) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	if p+1 < len(b) && b[p+1] < 0x80 { // two bytes: a sequence number, a length
		if b[p+1] == 0 {
			return 0, -1 // overlong
		}
		return uint64(b[p]&0x7f) | uint64(b[p+1])<<7, p + 2
	}
	if p >= len(b) {
		return 0, -1
	}
	v, n := uvarint(b[p:])
	if n <= 0 || (n > 1 && b[p+n-1] == 0) {
		return 0, -1
	}
	return v, p + n
}

// uvarint is binary.Uvarint, reading the bytes of a value up to 8 bytes
// long as one word: a replay reads a long varint in every event (its
// time, in nanoseconds, takes 9 bytes), and byte by byte that took 22 ns
// of the 90 that decoding an envelope takes; this takes 9.
func uvarint(b []byte) (uint64, int) {
	if len(b) < 8 {
		return binary.Uvarint(b)
	}
	w := binary.LittleEndian.Uint64(b)
	if m := ^w & 0x8080808080808080; m != 0 { // a last byte among the first 8
		n := bits.TrailingZeros64(m)/8 + 1
		return compact7(w & (1<<(8*n) - 1)), n // for n == 8 the mask is all ones
	}
	if len(b) < 9 {
		return 0, 0
	}
	v := compact7(w)
	if c := b[8]; c < 0x80 {
		return v | uint64(c)<<56, 9
	}
	if len(b) < 10 {
		return 0, 0
	}
	if d := b[9]; d > 1 {
		return 0, -10 // over 64 bits
	}
	return v | uint64(b[8]&0x7f)<<56 | uint64(b[9])<<63, 10
}

// compact7 joins the low 7 bits of each byte of w, first byte lowest.
// It joins pairs of bytes, then pairs of those, then the two halves: 11
// operations where a shift and a mask for each byte took 23.
func compact7(w uint64) uint64 {
	w &= 0x7f7f7f7f7f7f7f7f
	w = w&0x007f007f007f007f | w>>1&0x3f803f803f803f80    // 14 bits in each 16
	w = w&0x00003fff00003fff | w>>2&0x0fffc0000fffc000    // 28 bits in each 32
	return w&0x000000000fffffff | w>>4&0x00fffffff0000000 // 56 bits
}

// Int reads an int written by Writer.Int.
func (r *Reader) Int() int {
	v := r.Varint()
	if v > math.MaxInt32 || v < math.MinInt32 {
		r.fail("int")
		return 0
	}
	return int(v)
}

// Bool reads a boolean.
func (r *Reader) Bool() bool {
	if r.err != nil {
		return false
	}
	if r.off >= len(r.b) || r.b[r.off] > 1 {
		r.fail("bool")
		return false
	}
	v := r.b[r.off] == 1
	r.off++
	return v
}

func (r *Reader) length() int {
	n := r.Uvarint()
	if r.err != nil {
		return 0
	}
	if n > maxLen || n > uint64(len(r.b)-r.off) {
		r.fail("length")
		return 0
	}
	return int(n)
}

// stringView reads a length-prefixed string's bytes without copying or
// checking them.
func (r *Reader) stringView() []byte {
	n := r.length()
	if r.err != nil {
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

// String reads a length-prefixed string, which must be valid UTF-8.
func (r *Reader) String() string {
	n := r.length()
	if r.err != nil {
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	if !utf8.ValidString(s) {
		r.fail("utf-8 string")
		return ""
	}
	r.off += n
	return s
}

// Blob reads a length-prefixed byte slice (a copy, so it outlives the input).
func (r *Reader) Blob() []byte {
	n := r.length()
	if r.err != nil || n == 0 {
		return nil
	}
	p := make([]byte, n)
	copy(p, r.b[r.off:r.off+n])
	r.off += n
	return p
}

// BlobView reads a length-prefixed byte slice without copying it: the
// result aliases the input.
func (r *Reader) BlobView() []byte {
	n := r.length()
	if r.err != nil || n == 0 {
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

// Fixed reads exactly len(dst) bytes into dst.
func (r *Reader) Fixed(dst []byte) {
	if r.err != nil {
		return
	}
	if len(r.b)-r.off < len(dst) {
		r.fail("fixed bytes")
		return
	}
	copy(dst, r.b[r.off:])
	r.off += len(dst)
}

func (r *Reader) count() int {
	n := r.Uvarint()
	// Every element takes at least one byte, which bounds a sane count.
	if n > uint64(len(r.b)-r.off) {
		r.fail("count")
		return 0
	}
	return int(n)
}

// Strings reads a counted list of strings.
func (r *Reader) Strings() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.String()
	}
	return out
}

// Ints reads a counted list of signed integers.
func (r *Reader) Ints() []int64 {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = r.Varint()
	}
	return out
}

func validUTF8(b []byte) bool { return utf8.Valid(b) }
