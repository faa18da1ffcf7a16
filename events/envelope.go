// Package events defines pbem's event log: one envelope for every event,
// hash-chained per game, the typed payloads that go inside it, and the
// canonical binary codec both are written in.
//
// The log is the truth. Everything else (game state, boards, mails) is
// derived from it and can be rebuilt by replaying it. Events are never
// changed once stored; a new meaning gets a new type or version (see
// Upcast).
package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"
	"unicode/utf8"
)

// HashSize is the size of an event hash (SHA-256).
const HashSize = sha256.Size

// Hash is the SHA-256 of an event, chaining it to its predecessor.
type Hash [HashSize]byte

// String renders the first 12 hex digits, enough to tell hashes apart in a log.
func (h Hash) String() string { return hex.EncodeToString(h[:6]) }

// Hex renders the whole hash.
func (h Hash) Hex() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is the zero hash (the predecessor of event 1).
func (h Hash) IsZero() bool { return h == Hash{} }

// envelopeVersion is the first byte of every stored envelope, so the
// envelope layout itself can evolve.
const envelopeVersion = 1

// Envelope wraps every event. Seq runs 1, 2, 3 … per game with no gaps.
// At is the time recorded when the input was taken in (unix nanoseconds,
// UTC); replay uses it and never reads the clock. Key is the idempotency
// key of an input (a Message-ID, a referee command id), or empty.
type Envelope struct {
	Game    string
	Seq     uint64
	Type    string
	At      int64
	Key     string
	Payload []byte // canonical encoding of the typed payload
	Prev    Hash
	Hash    Hash
}

// Time returns At as a UTC time.
func (e *Envelope) Time() time.Time { return time.Unix(0, e.At).UTC() }

// New builds an unchained envelope for payload p. Chain sets Seq, Prev and Hash.
func New(game string, at time.Time, key string, p Payload) Envelope {
	return Envelope{Game: game, Type: p.EventType(), At: at.UnixNano(), Key: key, Payload: EncodePayload(p)}
}

// canonical appends the hashed part of the envelope: everything but the hashes.
func (e *Envelope) canonical(w *Writer) {
	w.String(e.Game)
	w.Uvarint(e.Seq)
	w.String(e.Type)
	w.Varint(e.At)
	w.String(e.Key)
	w.Blob(e.Payload)
}

// ComputeHash returns SHA-256(prev hash ‖ canonical bytes), the hash this
// envelope must carry.
func (e *Envelope) ComputeHash() Hash {
	w := NewWriter(make([]byte, 0, HashSize+e.canonicalSize()))
	w.Fixed(e.Prev[:])
	e.canonical(w)
	return sha256.Sum256(w.Bytes())
}

// Chain gives e the sequence number seq and links it after prev.
func (e *Envelope) Chain(seq uint64, prev Hash) {
	e.Seq = seq
	e.Prev = prev
	e.Hash = e.ComputeHash()
}

// canonicalSize is at least the length of e's canonical bytes (a varint
// is at most 10 bytes), so that one buffer holds them.
func (e *Envelope) canonicalSize() int {
	return len(e.Game) + len(e.Type) + len(e.Key) + len(e.Payload) + 6*binary.MaxVarintLen64
}

// MarshalChained chains e after prev as seq, as Chain does, and returns
// its stored form, as Marshal would: the canonical bytes are encoded once
// (Chain and Marshal each encode them), into a buffer of the right size,
// and hashed where they lie, with prev written for the moment where the
// hash goes (prev, then the canonical bytes: what the hash covers). The
// store chains every event it appends this way, inside its commit.
func (e *Envelope) MarshalChained(seq uint64, prev Hash) []byte {
	e.Seq, e.Prev = seq, prev
	w := NewWriter(make([]byte, 0, 1+2*HashSize+e.canonicalSize()))
	w.Fixed([]byte{envelopeVersion})
	w.Fixed(prev[:])
	w.Fixed(prev[:]) // the hash's place, for now
	e.canonical(w)
	b := w.Bytes()
	e.Hash = sha256.Sum256(b[1+HashSize:])
	copy(b[1+HashSize:], e.Hash[:])
	return b
}

// Marshal returns the stored form: version, prev, hash, canonical bytes.
// The hashes come first so that reading an event's header touches one
// place: a replay never has to reach past a large payload it skips.
func (e *Envelope) Marshal() []byte {
	w := NewWriter(make([]byte, 0, 1+2*HashSize+e.canonicalSize()))
	w.Fixed([]byte{envelopeVersion})
	w.Fixed(e.Prev[:])
	w.Fixed(e.Hash[:])
	e.canonical(w)
	return w.Bytes()
}

// Unmarshal decodes the stored form. It does not recompute the hash; Verify does.
func Unmarshal(b []byte) (Envelope, error) {
	e, err := UnmarshalView(b)
	if err == nil {
		e.Payload = append([]byte(nil), e.Payload...)
	}
	return e, err
}

// UnmarshalView is Unmarshal without copying the payload: e.Payload aliases
// b, so e is valid only as long as b is (within a bbolt read transaction).
// Replay decodes each event at once and keeps nothing, so it need not copy.
func UnmarshalView(b []byte) (Envelope, error) {
	var d Decoder
	return d.UnmarshalView(b)
}

// Decoder decodes a run of envelopes (one game's log, say) without
// allocating the strings they repeat: the game id is reused while it stays
// the same, and type names are the package's constants.
type Decoder struct{ game string }

// UnmarshalView is the package's UnmarshalView, reusing strings.
func (d *Decoder) UnmarshalView(b []byte) (Envelope, error) {
	var e Envelope
	err := d.DecodeView(b, &e)
	return e, err
}

// DecodeView is UnmarshalView into *e, every field of which it sets (all
// zero on an error): a reader of a whole log decodes each event over the
// one before, without an envelope's copy for each.
func (d *Decoder) DecodeView(b []byte, e *Envelope) error {
	if d.decodeCommon(b, e) {
		return nil
	}
	return d.decodeView(b, e)
}

// decodeCommon decodes b into *e, as decodeView does, if b is an envelope
// of the common shape (the decoder's game, a known type, every varint in
// the run of bytes uvarint reads at once), and reports whether it did. It
// reads the fields straight from b, where decodeView's Reader checks each
// read and names what failed: on a replay that took half the time of
// decoding a header. Anything else, a damaged envelope among them, is
// left to decodeView, so the two accept the same envelopes and give the
// same fields (FuzzDecodeView holds them to it).
func (d *Decoder) decodeCommon(b []byte, e *Envelope) bool {
	const head = 1 + 2*HashSize
	if len(b) <= head || b[0] != envelopeVersion || d.game == "" {
		return false
	}
	p := head
	n := int(b[p]) // the game's length, if under 128 (one byte); a longer one is read by decodeView
	p++
	if n >= 0x80 || n != len(d.game) || n > len(b)-p || string(b[p:p+n]) != d.game {
		return false
	}
	p += n
	seq, p := uvarintAt(b, p)
	if p < 0 || p >= len(b) {
		return false
	}
	n = int(b[p]) // the type's length: every known type's is under 128
	p++
	if n >= 0x80 || n > len(b)-p {
		return false
	}
	typ := internType(b[p : p+n])
	if typ == "" {
		return false
	}
	p += n
	at, p := uvarintAt(b, p)
	if p < 0 {
		return false
	}
	kn, p := uvarintAt(b, p)
	if p < 0 || kn > uint64(len(b)-p) {
		return false
	}
	key := b[p : p+int(kn)]
	p += int(kn)
	pn, p := uvarintAt(b, p)
	if p < 0 || pn != uint64(len(b)-p) || pn > maxLen {
		return false
	}
	if len(key) > 0 {
		if !utf8.Valid(key) {
			return false
		}
		e.Key = string(key)
	} else {
		e.Key = ""
	}
	e.Prev, e.Hash = Hash(b[1:1+HashSize]), Hash(b[1+HashSize:head])
	e.Game, e.Seq, e.Type = d.game, seq, typ
	e.At = unzigzag(at)
	if pn == 0 {
		e.Payload = nil
	} else {
		e.Payload = b[p:len(b):len(b)]
	}
	return true
}

// decodeView is DecodeView through a Reader, for every envelope.
func (d *Decoder) decodeView(b []byte, e *Envelope) error {
	if len(b) == 0 || b[0] != envelopeVersion {
		*e = Envelope{}
		return fmt.Errorf("%w: unknown envelope version", ErrCorrupt)
	}
	if len(b) < 1+2*HashSize {
		*e = Envelope{}
		return fmt.Errorf("decode envelope: %w: envelope cut short", ErrCorrupt)
	}
	// The hashes as arrays: moved as words, not by a copy's call.
	e.Prev, e.Hash = Hash(b[1:1+HashSize]), Hash(b[1+HashSize:1+2*HashSize])
	r := NewReader(b[1+2*HashSize:])
	e.Game = ""
	if g := r.stringView(); r.err == nil {
		if string(g) != d.game { // no allocation for the comparison
			if !utf8.Valid(g) {
				r.fail("utf-8 string")
			}
			d.game = string(g)
		}
		e.Game = d.game
	}
	e.Seq = r.Uvarint()
	e.Type = ""
	if t := r.stringView(); r.err == nil {
		e.Type = internType(t)
		if e.Type == "" {
			if !utf8.Valid(t) {
				r.fail("utf-8 string")
			}
			e.Type = string(t)
		}
	}
	e.At = r.Varint()
	e.Key = ""
	if k := r.stringView(); r.err == nil && len(k) > 0 {
		if !utf8.Valid(k) {
			r.fail("utf-8 string")
		}
		e.Key = string(k)
	}
	e.Payload = r.BlobView()
	if err := r.Done(); err != nil {
		*e = Envelope{}
		return fmt.Errorf("decode envelope: %w", err)
	}
	return nil
}

// KeyView returns the idempotency key of a stored envelope without
// decoding the rest of it (nil for an envelope without one): the store
// reads it when it looks for a key among the events it has not indexed
// yet. The key aliases b.
func KeyView(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] != envelopeVersion {
		return nil, fmt.Errorf("%w: unknown envelope version", ErrCorrupt)
	}
	if len(b) < 1+2*HashSize {
		return nil, fmt.Errorf("%w: envelope cut short", ErrCorrupt)
	}
	r := NewReader(b[1+2*HashSize:])
	r.stringView() // game
	r.Uvarint()    // seq
	r.stringView() // type
	r.Varint()     // at
	k := r.stringView()
	if r.err != nil {
		return nil, fmt.Errorf("decode envelope key: %w", r.err)
	}
	if len(k) == 0 {
		return nil, nil
	}
	return k, nil
}

// Clone returns a copy of e that shares no memory with it.
func (e *Envelope) Clone() Envelope {
	c := *e
	c.Payload = append([]byte(nil), e.Payload...)
	return c
}

// ChainError locates the first broken link of a game's chain.
type ChainError struct {
	Game   string
	Seq    uint64
	Reason string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("game %s: chain broken at seq %d: %s", e.Game, e.Seq, e.Reason)
}

// Verifier walks a game's chain one event at a time.
type Verifier struct {
	Game string
	seq  uint64
	last Hash
}

// Next checks e against the events seen so far and returns a *ChainError
// at the first broken link.
func (v *Verifier) Next(e *Envelope) error {
	want := v.seq + 1
	switch {
	case e.Game != v.Game:
		return &ChainError{v.Game, want, fmt.Sprintf("event belongs to game %q", e.Game)}
	case e.Seq != want:
		return &ChainError{v.Game, want, fmt.Sprintf("found seq %d (a gap or a duplicate)", e.Seq)}
	case e.Prev != v.last:
		return &ChainError{v.Game, want, fmt.Sprintf("prev hash %s does not match event %d's hash %s", e.Prev, v.seq, v.last)}
	}
	if h := e.ComputeHash(); !bytes.Equal(h[:], e.Hash[:]) {
		return &ChainError{v.Game, want, fmt.Sprintf("stored hash %s, content hashes to %s (the event was altered)", e.Hash, h)}
	}
	v.seq, v.last = e.Seq, e.Hash
	return nil
}

// Seq returns the sequence number of the last verified event.
func (v *Verifier) Seq() uint64 { return v.seq }
