package events

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync/atomic"
)

// Replay decodes every decision of a game's log; these helpers decode only
// what a fold uses, and share the short strings facts repeat (argument
// keys, fact kinds, unit codes) instead of allocating each anew.
//
// Why not another codec: the stored format is already a compact binary
// one (varints and length-prefixed strings) and must stay byte for byte
// as it is, so the fold reads it with as little work as it allows: the
// decision's echo and dice are skipped, a fact's arguments are cut from
// one array per decision, its strings come from the intern table (no
// allocation for a string seen before), and one-byte lengths, kinds and
// numbers are read inline.

// intern holds short strings seen in facts (argument keys, fact kinds,
// unit codes, sides, and the lines of orders and reasons up to
// internMaxLen bytes that a game's facts repeat, as a program held again
// and again does), so that replaying a log allocates each once rather
// than once per fact, and games loaded side by side share them. It is a
// fixed table of slots, each holding one string with its first and last
// eight bytes as words; a string goes in one of two slots chosen by a hash
// of those words and, when both are taken by others, replaces the first.
// A lookup reads the words, hashes them, loads at most two slots and
// compares words (and, past eight bytes, the string): no lock, no
// allocation. The table's size is fixed, so it is bounded whatever the
// logs hold, and what a lookup returns depends only on the bytes read: a
// string equal to them.
var internTab [internSlots]atomic.Pointer[internEntry]

// internEntry is one interned string. For a fact kind it also remembers
// the argument keys facts of that kind have had (up to maxKindKeys), in
// the order first seen: facts of one kind name their arguments alike, so
// a key is found by comparing it with a few strings, in the order they
// most likely come, which costs less than a lookup.
type internEntry struct {
	head, tail uint64
	s          string
	keys       atomic.Pointer[[]string]
}

const maxKindKeys = 16

const (
	internBits  = 12
	internSlots = 1 << internBits
	// internMaxLen is the longest string interned: at most 4096
	// strings of 64 bytes, a bounded 0.5 MB, whatever the logs hold.
	internMaxLen = 64
)

// internWords returns b's first and last eight bytes as little-endian
// words, or for a shorter b its bytes zero-padded and its length (which
// together tell such strings apart).
func internWords(b []byte) (head, tail uint64) {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
	}
	if cap(b) >= 8 { // read a whole word (b is cut from a longer input) and mask
		return binary.LittleEndian.Uint64(b[:8]) & (1<<(8*len(b)) - 1), uint64(len(b))
	}
	var w [8]byte
	copy(w[:], b)
	return binary.LittleEndian.Uint64(w[:]), uint64(len(b))
}

// intern returns the entry of the string b (1 to internMaxLen bytes),
// adding it if need be, or nil if b is not UTF-8.
func intern(b []byte) *internEntry {
	head, tail := internWords(b)
	h := (head ^ (tail+uint64(len(b)))*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	i := h >> (64 - internBits)
	p := internTab[i].Load()
	if p != nil && p.head == head && p.tail == tail && len(p.s) == len(b) && (len(b) <= 8 || p.s == string(b)) {
		return p
	}
	j := (i + 1) & (internSlots - 1)
	q := internTab[j].Load()
	if q != nil && q.head == head && q.tail == tail && len(q.s) == len(b) && (len(b) <= 8 || q.s == string(b)) {
		return q
	}
	if !validUTF8(b) {
		return nil
	}
	e := &internEntry{head: head, tail: tail, s: string(b)}
	if p != nil && q == nil {
		i = j
	}
	internTab[i].Store(e)
	return e
}

// view reads a length-prefixed string's bytes without copying them: a
// one-byte length inline, anything else through stringView.
func (r *Reader) view() []byte {
	if off := r.off; off < len(r.b) {
		if n := int(r.b[off]); n < 0x80 && n < len(r.b)-off {
			r.off = off + 1 + n
			return r.b[off+1 : off+1+n]
		}
	}
	return r.stringView()
}

// str makes a string of b, read by view: interned if short, checked to
// be UTF-8.
func (r *Reader) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) <= internMaxLen {
		if e := intern(b); e != nil {
			return e.s
		}
	} else if validUTF8(b) {
		return string(b)
	}
	r.fail("utf-8 string")
	return ""
}

// Accepted is what a fold needs of an order.accepted event.
type Accepted struct {
	Input     uint64
	Facts     []Fact
	FirstDie  uint64 // index of the first die rolled (if NDice > 0)
	NDice     int
	LastIndex uint64
	// Contiguous is false if the dice indices are not FirstDie, FirstDie+1, …
	Contiguous bool
}

// DecodeAccepted decodes an order.accepted event for a fold: the input it
// decides, its facts, and the indices of its dice, skipping the rest. The
// facts it returns are the caller's to keep.
func DecodeAccepted(e *Envelope) (Accepted, error) { return decodeAccepted(e, nil) }

// A FoldBuffer is the memory a fold decodes decisions into: each decode
// cuts its facts, arguments and lists from the buffer's arrays, and Reset
// lets the next decodes reuse them. A whole-game replay then allocates
// them only while a stretch of the log is bigger than any before it. Its
// zero value is ready to use; it is not safe for concurrent use.
type FoldBuffer struct {
	facts            []Fact
	args             []Arg
	strs             []string
	ints             []int64
	nf, na, ns, nInt int // how much of each array is in use
}

// Reset makes the whole buffer free again: what earlier decodes returned
// must no longer be used. Resetting a nil buffer does nothing.
func (b *FoldBuffer) Reset() {
	if b != nil {
		b.nf, b.na, b.ns, b.nInt = 0, 0, 0, 0
	}
}

// DecodeAccepted decodes as the function of that name does, into b: the
// facts, their arguments and their lists are valid until b.Reset. The
// strings in them are ordinary strings and may be kept. A nil buffer
// decodes into memory the caller keeps, as the function does.
//
// Facts of a kind in skip (a ruleset's inert facts, which its Evolve
// leaves the state as it is) are checked as the others are but left out
// of Facts: a fold need not decode them.
func (b *FoldBuffer) DecodeAccepted(e *Envelope, skip ...string) (Accepted, error) {
	return decodeAccepted(e, b, skip...)
}

// cut returns n elements of *arr from *used on, first replacing *arr by a
// larger array if it has too few left (what was cut before stays valid:
// it keeps the old array).
func cut[T any](arr *[]T, used *int, n int) []T {
	if len(*arr)-*used < n {
		*arr = make([]T, max(n, 2*len(*arr), 16))
		*used = 0
	}
	s := (*arr)[*used : *used+n : *used+n]
	*used += n
	return s
}

func decodeAccepted(e *Envelope, buf *FoldBuffer, skip ...string) (Accepted, error) {
	var a Accepted
	if !IsAccepted(e.Type) {
		return a, decodeErr(e, "not "+TypeOrderAccepted)
	}
	r := NewReader(e.Payload)
	a.Input = r.Uvarint()
	r.stringView() // player
	r.stringView() // ruleset version
	echoes := r.count()
	for n := echoes; n > 0 && r.err == nil; n-- {
		r.stringView() // echo
	}
	var nFacts int
	a.Facts, nFacts = r.foldFacts(buf, skip)
	a.Contiguous = true
	for i, n := 0, r.count(); i < n && r.err == nil; i++ {
		idx := r.Uvarint()
		r.stringView() // purpose
		r.Int()        // sides
		r.Int()        // value
		if i == 0 {
			a.FirstDie = idx
		} else if idx != a.LastIndex+1 {
			a.Contiguous = false
		}
		a.LastIndex = idx
		a.NDice++
	}
	if e.Type == TypeOrderAccepted {
		// v2: the visibilities of echo, facts and dice, which a fold does
		// not need (it folds every fact, whoever may see it).
		skipVisList(r, echoes)
		skipVisList(r, nFacts)
		skipVisList(r, a.NDice)
	}
	if err := r.Done(); err != nil {
		return Accepted{}, decodeErr(e, err.Error())
	}
	return a, nil
}

// foldFacts reads a counted list of facts as decodeFacts does, with few
// allocations: the facts' arguments are cut from shared arrays, as are
// the elements of string and integer lists, and short strings are
// interned. Nothing returned aliases the input, so the facts outlive the
// bytes they were read from. With a buffer, the arrays are the buffer's;
// without one, they are sized by a first pass over the bytes and belong
// to the caller. Facts of a kind in skip are checked and left out; n is
// how many the list holds, those too.
func (r *Reader) foldFacts(buf *FoldBuffer, skip []string) (facts []Fact, n int) {
	n = r.count()
	if n == 0 {
		return nil, 0
	}
	if buf == nil {
		// Count the arguments and list elements first (a pass over the
		// bytes costs less than the memory a guess would waste), then cut
		// them all from one array each.
		c := *r
		nArgs, nStrs, nInts := c.countFacts(n)
		buf = &FoldBuffer{facts: make([]Fact, n)}
		if nArgs > 0 {
			buf.args = make([]Arg, nArgs)
		}
		if nStrs > 0 {
			buf.strs = make([]string, nStrs)
		}
		if nInts > 0 {
			buf.ints = make([]int64, nInts)
		}
	}
	fs := cut(&buf.facts, &buf.nf, n)
	// Each fact and argument is written field by field, and a field that
	// is to be empty only if it is not already: while the collector runs,
	// each pointer written costs a barrier, and writing a whole struct
	// (or clearing one) takes the slow bulk path for all its pointers.
	kept := 0
	for range n {
		i := kept
		kb := r.view()
		var kind *internEntry
		var kindName string
		if len(kb) > 0 && len(kb) <= internMaxLen {
			if kind = intern(kb); kind != nil {
				kindName = kind.s
			} else {
				r.fail("utf-8 string")
			}
		} else {
			kindName = r.str(kb)
		}
		m := r.count()
		if len(skip) > 0 && slices.Contains(skip, kindName) {
			r.skipArgs(m)
			continue
		}
		kept++
		f := &fs[i]
		f.Kind = kindName
		if f.Vis != (Vis{}) {
			f.Vis = Vis{}
		}
		if m == 0 {
			if f.Args != nil {
				f.Args = nil
			}
			continue
		}
		args := cut(&buf.args, &buf.na, m)
		f.Args = args
		var keys []string // the keys facts of this kind have had
		if kind != nil {
			if p := kind.keys.Load(); p != nil {
				keys = *p
			}
		}
		added := false
		next := 0 // where the next key most likely is in keys
		for j := range args {
			var key string
			b := r.view()
			if next < len(keys) && keys[next] == string(b) {
				key = keys[next]
				next++
			} else if x := indexOf(keys, b); x >= 0 {
				key = keys[x]
				next = x + 1
			} else {
				key = r.str(b)
				if len(keys) < maxKindKeys && r.err == nil {
					keys = append(keys[:len(keys):len(keys)], key)
					added = true
				}
			}
			var ak ArgKind
			if off := r.off; off < len(r.b) && r.b[off] < 0x80 {
				ak = ArgKind(r.b[off])
				r.off++
			} else {
				ak = ArgKind(r.Uvarint())
			}
			a := &args[j]
			a.Key, a.Kind, a.Int = key, ak, 0
			var str string
			var ints []int64
			var strs []string
			switch ak {
			case ArgInt:
				a.Int = r.Varint()
			case ArgBool:
				a.Int = r.Varint()
				if a.Int != 0 && a.Int != 1 {
					r.fail("bool argument")
				}
			case ArgStr:
				str = r.str(r.view())
			case ArgInts:
				if k := r.count(); k > 0 {
					ints = cut(&buf.ints, &buf.nInt, k)
					for x := range ints {
						ints[x] = r.Varint()
					}
				}
			case ArgStrs:
				if k := r.count(); k > 0 {
					strs = cut(&buf.strs, &buf.ns, k)
					for x := range strs {
						strs[x] = r.str(r.view())
					}
				}
			default:
				r.fail(fmt.Sprintf("argument kind %d", ak))
			}
			if str != "" || a.Str != "" {
				a.Str = str
			}
			if ints != nil || a.Ints != nil {
				a.Ints = ints
			}
			if strs != nil || a.Strs != nil {
				a.Strs = strs
			}
		}
		if r.err != nil {
			return nil, n
		}
		if added && kind != nil {
			ks := keys
			kind.keys.Store(&ks)
		}
	}
	if r.err != nil {
		return nil, n
	}
	return fs[:kept:kept], n
}

// skipArgs reads m arguments of a fact, checking them as foldFacts does,
// and keeps nothing.
func (r *Reader) skipArgs(m int) {
	for ; m > 0 && r.err == nil; m-- {
		if !validUTF8(r.view()) { // the key
			r.fail("utf-8 string")
		}
		switch ArgKind(r.Uvarint()) {
		case ArgInt:
			r.Varint()
		case ArgBool:
			if v := r.Varint(); v != 0 && v != 1 {
				r.fail("bool argument")
			}
		case ArgStr:
			if !validUTF8(r.view()) {
				r.fail("utf-8 string")
			}
		case ArgInts:
			for k := r.count(); k > 0 && r.err == nil; k-- {
				r.Varint()
			}
		case ArgStrs:
			for k := r.count(); k > 0 && r.err == nil; k-- {
				if !validUTF8(r.view()) {
					r.fail("utf-8 string")
				}
			}
		default:
			r.fail("argument kind")
		}
	}
}

// indexOf returns the index of the string b in ss, or -1.
func indexOf(ss []string, b []byte) int {
	for i, s := range ss {
		if s == string(b) { // no allocation for the comparison
			return i
		}
	}
	return -1
}

// countFacts walks n facts without keeping them and returns how many
// arguments, string-list elements and integer-list elements they hold.
func (r *Reader) countFacts(n int) (nArgs, nStrs, nInts int) {
	for ; n > 0 && r.err == nil; n-- {
		r.view() // kind
		m := r.count()
		nArgs += m
		for ; m > 0 && r.err == nil; m-- {
			r.view() // key
			switch r.Uvarint() {
			case uint64(ArgInt), uint64(ArgBool):
				r.Varint()
			case uint64(ArgStr):
				r.view()
			case uint64(ArgInts):
				k := r.count()
				nInts += k
				for ; k > 0 && r.err == nil; k-- {
					r.Varint()
				}
			case uint64(ArgStrs):
				k := r.count()
				nStrs += k
				for ; k > 0 && r.err == nil; k-- {
					r.view()
				}
			default:
				return nArgs, nStrs, nInts // the decoding pass says what is wrong
			}
		}
	}
	return nArgs, nStrs, nInts
}
