package events

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// A decision with hidden facts, dice and echo lines keeps each one's
// visibility through the log, canonically; a public decision costs three
// bytes more than it did in v1.
func TestVisibilitiesRoundTripCanonically(t *testing.T) {
	acc := &OrderAccepted{Input: 4, Player: "anna", RulesetVersion: "1",
		Echo:    []string{"DRAW 2", "PASS"},
		EchoVis: []Vis{ToPlayer("anna").UntilReveal("hands"), {}},
		Facts: []Fact{
			NewFact("card.drawn", S("side", "USA"), SL("cards", "7", "3")).To(ToSide("USA").UntilReveal("hands")),
			NewFact("turn.passed", S("to", "CSA")),
			NewFact("note", S("text", "x")).To(ToReferees()),
		},
		Dice: []Die{{Index: 9, Purpose: "shuffle", Sides: 9, Value: 7, Vis: ToSide("USA")}, {Index: 10, Purpose: "march", Sides: 6, Value: 2}},
	}
	e := New("g1", time.Unix(1_800_000_000, 0), "", acc)
	if e.Type != TypeOrderAccepted {
		t.Fatalf("type %s", e.Type)
	}
	back, err := Decode(&e)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, acc) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", back, acc)
	}
	if string(EncodePayload(back)) != string(e.Payload) {
		t.Fatal("re-encoding changed the bytes")
	}
	// The fold's decoder reads the same facts (it does not need their
	// visibility) and the dice indices, and accepts the trailing lists.
	a, err := DecodeAccepted(&e)
	if err != nil || len(a.Facts) != 3 || a.NDice != 2 || a.FirstDie != 9 || !a.Contiguous {
		t.Fatalf("fold decode: %+v %v", a, err)
	}

	public := &OrderAccepted{Input: 4, Player: "anna", RulesetVersion: "1", Echo: []string{"PASS"}, Facts: []Fact{NewFact("x")}}
	v2 := EncodePayload(public)
	var v1 Writer
	public.encodeV1(&v1)
	if len(v2) != len(v1.Bytes())+3 {
		t.Fatalf("a public decision: %d bytes in v2, %d in v1", len(v2), len(v1.Bytes()))
	}
}

// An order.accepted/v1 from before visibilities decodes, through Decode
// and the fold's decoder, as a decision whose every part is public.
func TestOrderAcceptedV1IsUpcastAsPublic(t *testing.T) {
	old := &OrderAccepted{Input: 2, Player: "taro", RulesetVersion: "0.1", Echo: []string{"MARCH A 1605"},
		Facts: []Fact{NewFact("unit.moved", S("unit", "A"), IL("path", 1604, 1605))},
		Dice:  []Die{{Index: 0, Purpose: "ma", Sides: 6, Value: 3}}}
	var w Writer
	old.encodeV1(&w)
	e := Envelope{Game: "g1", Seq: 2, Type: TypeOrderAcceptedV1, Payload: w.Bytes()}
	got, err := Decode(&e)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, old) {
		t.Fatalf("upcast %#v, want %#v", got, old)
	}
	if !IsAccepted(e.Type) || internType([]byte(TypeOrderAcceptedV1)) != TypeOrderAcceptedV1 {
		t.Fatal("v1 is not recognised as an order.accepted")
	}
	if a, err := DecodeAccepted(&e); err != nil || len(a.Facts) != 1 || a.NDice != 1 {
		t.Fatalf("fold decode of v1: %+v %v", a, err)
	}
}

// Bytes that are not the one encoding of a decision's visibilities are
// refused: a list of the wrong length, a list of public ones (written as
// 0), a reveal on a public fact, an unknown scope.
func TestVisibilityListsAreCanonical(t *testing.T) {
	base := &OrderAccepted{Input: 1, Facts: []Fact{NewFact("a"), NewFact("b")}}
	enc := func(tail func(w *Writer)) Envelope {
		var w Writer
		base.encodeV1(&w)
		w.Uvarint(0) // echo
		tail(&w)
		w.Uvarint(0) // dice
		return Envelope{Game: "g", Seq: 1, Type: TypeOrderAccepted, Payload: w.Bytes()}
	}
	cases := map[string]func(w *Writer){
		"wrong length": func(w *Writer) { w.Uvarint(1); ToSide("USA").encode(w) },
		"all public":   func(w *Writer) { w.Uvarint(2); Vis{}.encode(w); Vis{}.encode(w) },
		"public with a reveal": func(w *Writer) {
			w.Uvarint(2)
			Vis{Until: "x"}.encode(w)
			ToSide("USA").encode(w)
		},
		"unknown scope":  func(w *Writer) { w.Uvarint(2); Vis{To: "everyone"}.encode(w); Vis{}.encode(w) },
		"a side unnamed": func(w *Writer) { w.Uvarint(2); Vis{To: "side:"}.encode(w); Vis{}.encode(w) },
		"not utf-8":      func(w *Writer) { w.Uvarint(2); ToSide("US\xff").encode(w); Vis{}.encode(w) },
		"kept with a reveal": func(w *Writer) {
			w.Uvarint(2)
			Vis{To: "kept:anna", Until: "bids-2"}.encode(w)
			Vis{}.encode(w)
		},
		"alone unnamed": func(w *Writer) { w.Uvarint(2); Vis{To: "alone:"}.encode(w); Vis{}.encode(w) },
		"a reveal not utf-8": func(w *Writer) {
			w.Uvarint(2)
			ToReferees().UntilReveal("\xff").encode(w)
			Vis{}.encode(w)
		},
	}
	for _, good := range [][2]Vis{{ToSide("USA"), {}}, {ToReferees(), ToPlayer("p1").UntilReveal("volleys-3")}, {ToPlayerKept("anna"), ToPlayerAlone("bob")}} {
		e := enc(func(w *Writer) { w.Uvarint(2); good[0].encode(w); good[1].encode(w) })
		if _, err := Decode(&e); err != nil {
			t.Errorf("%v: Decode gave %v", good, err)
		}
		if _, err := DecodeAccepted(&e); err != nil {
			t.Errorf("%v: DecodeAccepted gave %v", good, err)
		}
	}
	for name, tail := range cases {
		e := enc(tail)
		if _, err := Decode(&e); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Decode gave %v", name, err)
		}
		if _, err := DecodeAccepted(&e); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: DecodeAccepted gave %v", name, err)
		}
	}
}

func TestVisOpenAndString(t *testing.T) {
	tests := []struct {
		v            Vis
		player, side string
		open         bool
		str          string
	}{
		{Vis{}, "", "", true, ""},
		{ToSide("USA"), "anna", "USA", true, "[to side:USA]"},
		{ToSide("USA"), "taro", "CSA", false, "[to side:USA]"},
		{ToSide("USA"), "", "", false, "[to side:USA]"},
		{ToPlayer("anna").UntilReveal("bids-2"), "anna", "USA", true, "[to player:anna until bids-2]"},
		{ToPlayer("anna"), "bob", "USA", false, "[to player:anna]"},
		{ToReferees(), "anna", "USA", false, "[to referees]"},
		{ToPlayerKept("anna"), "anna", "USA", true, "[to kept:anna]"},
		{ToPlayerKept("anna"), "bob", "USA", false, "[to kept:anna]"},
		{ToPlayerAlone("bob"), "bob", "CSA", true, "[to alone:bob]"},
		{ToPlayerAlone("bob"), "", "", false, "[to alone:bob]"},
	}
	for _, tc := range tests {
		if got := tc.v.Open(tc.player, tc.side); got != tc.open {
			t.Errorf("%+v open to %s/%s: %v", tc.v, tc.player, tc.side, got)
		}
		if got := tc.v.String(); got != tc.str {
			t.Errorf("%+v: %q", tc.v, got)
		}
	}
	// Press is kept for good; the referees read it only when kept for them.
	if !ToPlayerKept("a").Kept() || !ToPlayerAlone("a").Kept() || ToPlayer("a").Kept() || (Vis{}).Kept() {
		t.Error("Kept is wrong")
	}
	if ToPlayerAlone("a").RefereesSee() || !ToPlayerKept("a").RefereesSee() || !ToSide("USA").RefereesSee() {
		t.Error("RefereesSee is wrong")
	}
	if (Vis{}).UntilReveal("x") != (Vis{}) {
		t.Error("a public Vis took a reveal")
	}
}
