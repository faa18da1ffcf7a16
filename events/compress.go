package events

import (
	"bytes"
	"compress/flate"
	"fmt"
	"hash/maphash"
	"io"
	"sync"
)

// Queued mails carry their rendered text (boards, whole maps): most of a
// game's bytes. They are stored deflated, at a fixed level, which is
// deterministic: the same text always gives the same bytes, so the
// encoding stays canonical and hashable. Replay never inflates them.

const deflateLevel = flate.BestCompression

// maxInflated bounds a decompressed text, against corrupt or hostile input.
const maxInflated = 16 << 20

func deflate(s string) []byte {
	if s == "" {
		return nil
	}
	var buf bytes.Buffer
	d := deflaters.Get().(*deflater)
	d.out = &buf
	d.w.Reset(d) // as a new writer: the same bytes
	io.WriteString(d.w, s)
	d.w.Close()
	d.out = nil // keeps nothing of buf
	deflaters.Put(d)
	canon.add(buf.Bytes())
	return buf.Bytes()
}

// A deflater is a flate writer that writes to out, which is set for
// each text and cleared after it: the writer keeps nothing of a text
// without a second Reset (each clears about 600 KB of tables, a third
// of deflating a mail).
type deflater struct {
	w   *flate.Writer
	out *bytes.Buffer
}

func (d *deflater) Write(p []byte) (int, error) { return d.out.Write(p) }

// deflaters and readers are reused: a new flate writer allocates its
// compression tables (about a megabyte), and every decoded text is
// deflated again to check its form. A writer Reset writes exactly what a
// new one writes.
var (
	deflaters = sync.Pool{New: func() any {
		d := &deflater{}
		w, err := flate.NewWriter(d, deflateLevel)
		if err != nil {
			panic(err) // only for an invalid level
		}
		d.w = w
		return d
	}}
	readers = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

// inflate decompresses b and checks that b is exactly what deflate makes of
// the result (so only canonical encodings decode).
func inflate(b []byte) (string, error) {
	if len(b) == 0 {
		return "", nil
	}
	r := readers.Get().(io.ReadCloser)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(b), nil); err != nil {
		return "", fmt.Errorf("%w: deflated text: %v", ErrCorrupt, err)
	}
	out, err := io.ReadAll(io.LimitReader(r, maxInflated+1))
	r.(flate.Resetter).Reset(bytes.NewReader(nil), nil) // keeps nothing of b
	readers.Put(r)
	if err != nil {
		return "", fmt.Errorf("%w: deflated text: %v", ErrCorrupt, err)
	}
	if len(out) > maxInflated {
		return "", fmt.Errorf("%w: deflated text over %d bytes", ErrCorrupt, maxInflated)
	}
	if !canon.has(b) && !bytes.Equal(deflate(string(out)), b) {
		return "", fmt.Errorf("%w: deflated text not in canonical form", ErrCorrupt)
	}
	return string(out), nil
}

// canon remembers the last deflated texts known to be canonical, those
// deflate made: a queued mail's text is decoded soon after it is
// composed (by the outbox, the bus's subscribers), each time checked by
// deflating it again, as costly as composing it. A text is remembered
// whole and matched byte for byte, so a text it does not hold is checked
// as before.
var canon = canonTexts{seed: maphash.MakeSeed()}

// canonKept and canonMax bound what canon holds: the last canonKept
// texts of at most canonMax bytes each (at most 1 MiB).
const (
	canonKept = 128
	canonMax  = 8 << 10
)

type canonTexts struct {
	mu   sync.Mutex
	seed maphash.Seed
	sums [canonKept]uint64
	kept [canonKept][]byte
	next int
}

func (c *canonTexts) add(b []byte) {
	if len(b) > canonMax {
		return
	}
	sum := maphash.Bytes(c.seed, b)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sums[c.next] = sum
	c.kept[c.next] = b // deflate's result, never written to after
	c.next = (c.next + 1) % canonKept
}

func (c *canonTexts) has(b []byte) bool {
	if len(b) > canonMax {
		return false
	}
	sum := maphash.Bytes(c.seed, b)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, s := range c.sums {
		if s == sum && bytes.Equal(c.kept[i], b) {
			return true
		}
	}
	return false
}

// DeflatedString writes s deflated.
func (w *Writer) DeflatedString(s string) { w.Blob(deflate(s)) }

// DeflatedString reads a string written by Writer.DeflatedString.
func (r *Reader) DeflatedString() string {
	b := r.BlobView()
	if r.err != nil {
		return ""
	}
	s, err := inflate(b)
	if err != nil {
		if r.err == nil {
			r.err = err
		}
		return ""
	}
	return s
}

// Deflated is a text as Writer.DeflatedString stores it, kept compressed
// until it is read: a fold that keeps a text it rarely reads (a part of a
// report held for a digest) holds a fraction of its size and never
// inflates it. Its zero value is the empty text.
type Deflated string

// Deflate compresses s as Writer.DeflatedString stores it.
func Deflate(s string) Deflated { return Deflated(deflate(s)) }

// Text inflates d, with the checks decoding makes: a damaged or
// non-canonical text is an error wrapping ErrCorrupt.
func (d Deflated) Text() (string, error) { return inflate([]byte(d)) }

// DeflatedText reads a string written by Writer.DeflatedString without
// inflating it: the bytes are copied, and checked only when Text reads
// them.
func (r *Reader) DeflatedText() Deflated {
	return Deflated(r.BlobView())
}

// WriteDeflated writes d's bytes as Writer.DeflatedString wrote them.
func (w *Writer) WriteDeflated(d Deflated) { w.Uvarint(uint64(len(d))); w.b = append(w.b, d...) }
