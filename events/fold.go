package events

import (
	"sync"
	"sync/atomic"
)

// Replay decodes every decision of a game's log; these helpers decode only
// what a fold uses, and share the short strings facts repeat (argument
// keys, fact kinds, unit codes) instead of allocating each anew.

// intern holds short strings seen in facts, as an immutable map replaced
// whole when a word is added (copy on write): lookups, the common case,
// take no lock and allocate nothing. It is bounded: past its size strings
// are simply allocated.
var (
	intern   atomic.Pointer[map[string]string]
	internMu sync.Mutex // serialises additions
)

func init() { intern.Store(&map[string]string{}) }

const (
	internMax    = 1 << 14
	internMaxLen = 24
)

func (r *Reader) internString() string {
	b := r.stringView()
	if r.err != nil {
		return ""
	}
	if len(b) > internMaxLen {
		if !validUTF8(b) {
			r.fail("utf-8 string")
			return ""
		}
		return string(b)
	}
	if s, ok := (*intern.Load())[string(b)]; ok { // no allocation for the lookup
		return s
	}
	if !validUTF8(b) {
		r.fail("utf-8 string")
		return ""
	}
	s := string(b)
	internMu.Lock()
	if old := *intern.Load(); len(old) < internMax {
		if _, ok := old[s]; !ok {
			m := make(map[string]string, len(old)+1)
			for k, v := range old {
				m[k] = v
			}
			m[s] = s
			intern.Store(&m)
		}
	}
	internMu.Unlock()
	return s
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
// decides, its facts, and the indices of its dice, skipping the rest.
func DecodeAccepted(e *Envelope) (Accepted, error) {
	var a Accepted
	if e.Type != TypeOrderAccepted {
		return a, decodeErr(e, "not "+TypeOrderAccepted)
	}
	r := NewReader(e.Payload)
	a.Input = r.Uvarint()
	r.stringView() // player
	r.stringView() // ruleset version
	for n := r.count(); n > 0 && r.err == nil; n-- {
		r.stringView() // echo
	}
	if n := r.count(); n > 0 {
		a.Facts = make([]Fact, n)
		var args []Arg // one backing array for every fact's arguments
		for i := range a.Facts {
			f := &a.Facts[i]
			f.Kind = r.internString()
			if m := r.count(); m > 0 {
				if cap(args)-len(args) < m {
					args = make([]Arg, 0, max(m, 8*n))
				}
				start := len(args)
				args = args[:start+m]
				f.Args = args[start : start+m : start+m]
				for j := range f.Args {
					f.Args[j].decodeWith(r, r.internString)
				}
			}
		}
	}
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
	if err := r.Done(); err != nil {
		return Accepted{}, decodeErr(e, err.Error())
	}
	return a, nil
}
