package events

import (
	"fmt"
	"slices"
	"testing"
)

// FuzzFoldDecoders: the decoders a replay uses instead of Decode (they
// skip what a fold does not need and read bytes inline) never panic on a
// damaged payload, and where Decode reads a payload they read the same
// thing from it: the same facts and dice, the same held mail, the same
// mail id, the same game.
func FuzzFoldDecoders(f *testing.F) {
	for _, p := range samples() {
		f.Add(p.EventType(), EncodePayload(p))
	}
	f.Add(TypeOrderAcceptedV1, EncodePayload(&OrderAccepted{Input: 3, Player: "csa", Facts: []Fact{NewFact("k", I("a", 1), S("b", "c"))}})[:12])
	var buf FoldBuffer
	f.Fuzz(func(t *testing.T, typ string, payload []byte) {
		e := &Envelope{Game: "g", Seq: 1, Type: typ, Payload: payload}
		full, fullErr := Decode(e)
		switch {
		case IsAccepted(typ):
			a, err := DecodeAccepted(e)
			buf.Reset()
			b, errB := buf.DecodeAccepted(e)
			buf.Reset()
			_, errSkip := buf.DecodeAccepted(e, "unit.moved", "k")
			if (err == nil) != (errB == nil) || (err == nil) != (errSkip == nil) {
				t.Fatalf("%s: DecodeAccepted %v, into a buffer %v, skipping kinds %v", typ, err, errB, errSkip)
			}
			if fullErr != nil {
				return
			}
			if err != nil {
				t.Fatalf("%s: Decode reads it, DecodeAccepted says %v", typ, err)
			}
			oa := full.(*OrderAccepted)
			if a.Input != oa.Input || a.NDice != len(oa.Dice) {
				t.Fatalf("input %d, %d dice; Decode: input %d, %d dice", a.Input, a.NDice, oa.Input, len(oa.Dice))
			}
			if a.NDice > 0 && (a.FirstDie != oa.Dice[0].Index || a.LastIndex != oa.Dice[len(oa.Dice)-1].Index) {
				t.Fatalf("dice %d..%d; Decode: %d..%d", a.FirstDie, a.LastIndex, oa.Dice[0].Index, oa.Dice[len(oa.Dice)-1].Index)
			}
			want := factsText(oa.Facts)
			if got := factsText(a.Facts); got != want {
				t.Fatalf("facts %s; Decode: %s", got, want)
			}
			if got := factsText(b.Facts); got != want {
				t.Fatalf("facts into a buffer %s; Decode: %s", got, want)
			}
		case typ == TypeMailHeld:
			v, err := DecodeMailHeldView(e)
			if fullErr != nil || err != nil {
				if fullErr == nil {
					t.Fatalf("Decode reads it, DecodeMailHeldView says %v", err)
				}
				return
			}
			mh := full.(*MailHeld)
			got, err := Deflated(v.Text).Text()
			if err != nil || got != mh.Text || string(v.Reader) != mh.Reader || string(v.Kind) != mh.Kind || v.Board != mh.Board || string(v.Told) != mh.Told {
				t.Fatalf("as views %+v, text %q (%v); Decode %+v", v, got, err, mh)
			}
		case typ == TypeMailQueued || typ == TypeMailSent || typ == TypeMailFailed:
			id, err := PeekMailIDView(e)
			if fullErr == nil && err != nil {
				t.Fatalf("Decode reads it, PeekMailIDView says %v", err)
			}
			if fullErr == nil {
				if want := fmt.Sprint(mailIDOf(full)); string(id) != want {
					t.Fatalf("mail id %q; Decode: %q", id, want)
				}
			}
		case typ == TypeGameCreated:
			g, err := DecodeCreatedView(e)
			if fullErr == nil && (err != nil || fmt.Sprint(g) != fmt.Sprint(full)) {
				t.Fatalf("in place %+v (%v); Decode %+v", g, err, full)
			}
		}
	})
}

// factsText is facts as a comparable text: kinds and arguments, with no
// difference between an empty list and none.
func factsText(fs []Fact) string {
	var s []string
	for _, f := range fs {
		line := f.Kind
		for _, a := range f.Args {
			line += fmt.Sprintf(" %s:%d:%d:%q:%v:%q", a.Key, a.Kind, a.Int, a.Str, slices.Clip(a.Ints), a.Strs)
		}
		s = append(s, line)
	}
	return fmt.Sprint(s)
}

// mailIDOf is the mail id of a decoded mail event.
func mailIDOf(p Payload) string {
	switch m := p.(type) {
	case *MailQueued:
		return m.MailID
	case *MailSent:
		return m.MailID
	case *MailFailed:
		return m.MailID
	}
	return ""
}
