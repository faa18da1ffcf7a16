package events

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// decodeSeeds are stored envelopes of every shape the common path reads
// and of several it leaves to the Reader: sequence numbers and times of
// every varint length, empty and long keys, empty and long payloads.
func decodeSeeds() [][]byte {
	var out [][]byte
	for i, p := range samples() {
		for _, seq := range []uint64{1, 127, 128, 16383, 16384, 1 << 40} {
			key := []string{"", "<m1@example.org>", strings.Repeat("k", 200)}[i%3]
			e := New("game-1", time.Unix(int64(i)*1e6, 0), key, p)
			e.Chain(seq, Hash{byte(i)})
			out = append(out, e.Marshal())
		}
	}
	e := Envelope{Game: "game-1", Type: TypeMailSent, At: -5, Payload: bytes.Repeat([]byte{1}, 20000)}
	e.Chain(3, Hash{})
	out = append(out, e.Marshal())
	e.Payload = nil
	e.Chain(4, Hash{})
	return append(out, e.Marshal())
}

// The common envelope is decoded by the straight path, and to the same
// fields as the Reader's.
func TestACommonEnvelopeIsDecodedStraight(t *testing.T) {
	for _, b := range decodeSeeds() {
		d := Decoder{game: "game-1"}
		var got, want Envelope
		if !d.decodeCommon(b, &got) {
			t.Fatalf("% x: left to the Reader", b[:80])
		}
		if err := d.decodeView(b, &want); err != nil {
			t.Fatal(err)
		}
		if !sameEnvelope(&got, &want) {
			t.Fatalf("straight %+v, Reader %+v", got, want)
		}
	}
}

func sameEnvelope(a, b *Envelope) bool {
	return a.Game == b.Game && a.Seq == b.Seq && a.Type == b.Type && a.At == b.At && a.Key == b.Key &&
		bytes.Equal(a.Payload, b.Payload) && (a.Payload == nil) == (b.Payload == nil) && a.Prev == b.Prev && a.Hash == b.Hash
}

// FuzzDecodeView holds DecodeView's two paths to one reading: whatever
// the straight path accepts, the Reader accepts too, with the same fields.
func FuzzDecodeView(f *testing.F) {
	for _, b := range decodeSeeds() {
		f.Add(b, "game-1")
		f.Add(b[:len(b)-1], "game-1")
		f.Add(b, "game-2")
	}
	f.Fuzz(func(t *testing.T, b []byte, game string) {
		d := Decoder{game: game}
		var got, want Envelope
		if !d.decodeCommon(b, &got) {
			return
		}
		if err := d.decodeView(b, &want); err != nil {
			t.Fatalf("the straight path accepted what the Reader refuses: %v", err)
		}
		if !sameEnvelope(&got, &want) {
			t.Fatalf("straight %+v, Reader %+v", got, want)
		}
	})
}
