package events

import (
	"bytes"
	"compress/flate"
	"fmt"
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
	w := writers.Get().(*flate.Writer)
	w.Reset(&buf) // as a new writer: the same bytes
	io.WriteString(w, s)
	w.Close()
	w.Reset(io.Discard) // keeps nothing of buf
	writers.Put(w)
	return buf.Bytes()
}

// writers and readers are reused: a new flate writer allocates its
// compression tables (about a megabyte), and every decoded text is
// deflated again to check its form. A writer Reset writes exactly what a
// new one writes.
var (
	writers = sync.Pool{New: func() any {
		w, err := flate.NewWriter(io.Discard, deflateLevel)
		if err != nil {
			panic(err) // only for an invalid level
		}
		return w
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
	if !bytes.Equal(deflate(string(out)), b) {
		return "", fmt.Errorf("%w: deflated text not in canonical form", ErrCorrupt)
	}
	return string(out), nil
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
