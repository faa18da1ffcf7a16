package events

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// samples has one fully populated payload of every type; the round-trip
// test fails if a type is missing, so a new type cannot skip its test.
func samples() []Payload {
	return []Payload{
		&GameCreated{Ruleset: "gcacw", RulesetVersion: "1.0.0", ScenarioName: "Mill Creek",
			Scenario: []byte("map:\n2314 clear\n"),
			Players: []Player{{ID: "usa", Name: "Anna Nowak", Side: "USA", Addresses: []string{"anna@example.org", "a.nowak@example.pl"}},
				{ID: "csa", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp"}}},
			Referees:       []Player{{ID: "ref", Name: "Ref", Addresses: []string{"ref@example.org"}}},
			SeedCommitment: Hash{1, 2, 3},
			Settings:       []Setting{{"deadline", "72h"}, {"overrides", "announced"}}},
		&OrderReceived{Player: "usa", Text: "MARCH Newton 2314 2315\nPASS", MessageID: "<a@b>", Source: "mail",
			References: []string{"<g1.2@pbem>", "<g1.9@pbem>"}, Auth: "dkim example.org"},
		&OrderAccepted{Input: 7, Player: "usa", RulesetVersion: "1.0.0", Echo: []string{"MARCH Newton 2314 2315"},
			Facts: []Fact{NewFact("unit.moved", S("unit", "NEWT"), IL("path", 2314, 2315), I("mp", -3), B("forced", true), SL("notes", "a b", "ż"))},
			Dice:  []Die{{Index: 3, Purpose: "march MA", Sides: 6, Value: 4}}},
		&OrderRejected{Input: 8, Player: "csa", RulesetVersion: "1.0.0",
			Problems: []Problem{{Line: 2, Col: 7, Text: "MARCH Jakson 2414", Msg: "no unit named Jakson", Hint: "MARCH Jackson 2414"}}},
		&RefereeCommand{Referee: "ref", Text: "SET Newton fatigue 2", Reason: "misprint", MessageID: "<r@x>", Source: "mail", Refused: "no Secret line"},
		&DeadlineSet{Player: "usa", Due: 1_800_000_000_000_000_000, Default: "PASS"},
		&DeadlinePassed{Player: "usa", Due: 1_800_000_000_000_000_000, Default: "PASS"},
		&MailQueued{MailID: "<g1.5.usa@pbem>", To: []string{"anna@example.org"}, Subject: "[g1] your move",
			Template: "yourmove", ReplyTo: "pbem+g1.usa.abc@host", InReplyTo: "<x@y>", References: []string{"<g1@pbem>"},
			Body: "Board:\n  /2314 \\\n", Attachments: []Attachment{{Name: "map.txt", Body: "whole map"}}},
		&MailSent{MailID: "<m@x>", Attempt: 2, Reply: "250 ok"},
		&MailFailed{MailID: "<m@x>", Attempt: 1, Permanent: true, Error: "550 no such user"},
		&GameEnded{Reason: "last turn", Winner: "CSA", Seed: []byte{9, 8, 7}},
		&PauseExpired{At: 1_800_000_000_000_000_000, Due: 1_801_209_600_000_000_000},
		&OrderHeld{Player: "usa", Text: "TRANSFER Hale TO Lyle", MessageID: "<f@x>", References: []string{"<g1.2@pbem>"},
			Sender: "eve@example.net", Reason: "envelope sender eve@example.net is not From anna@example.org", Expires: 1_800_000_000_000_000_000},
		&OrderConfirmed{Player: "usa", Held: 12, MessageID: "<c@x>"},
		&MailRefused{Player: "usa", MessageID: "<r@x>", Kind: RefusedReplay, Reason: "a copy of seq 9", Sender: "eve@example.net"},
		&MailHeld{Reader: "usa", Kind: "report", Text: "What happened\n  Newton marches.", Board: true},
		&MailHeld{Reader: "usa", Told: "<g1.9@x>"},
	}
}

// An order.received/v1 stored before References and Auth existed decodes
// as the current payload with neither.
func TestOrderReceivedV1Upcasts(t *testing.T) {
	w := NewWriter(nil)
	for _, s := range []string{"usa", "PASS", "<a@b>", "mail"} {
		w.String(s)
	}
	e := Envelope{Game: "g1", Seq: 2, Type: TypeOrderReceivedV1, Payload: w.Bytes()}
	p, err := Decode(&e)
	if err != nil {
		t.Fatal(err)
	}
	want := &OrderReceived{Player: "usa", Text: "PASS", MessageID: "<a@b>", Source: "mail"}
	if !reflect.DeepEqual(p, want) || !IsInput(e.Type) {
		t.Fatalf("v1 decodes to %#v (input %v), want %#v", p, IsInput(e.Type), want)
	}
}

func TestRoundTripEveryType(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range samples() {
		t.Run(p.EventType(), func(t *testing.T) {
			seen[p.EventType()] = true
			env := New("g1", time.Unix(1700000000, 5), "key-"+p.EventType(), p)
			env.Chain(4, Hash{0xaa})
			got, err := Unmarshal(env.Marshal())
			if err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			if !reflect.DeepEqual(got, env) {
				t.Fatalf("envelope round trip:\n got %+v\nwant %+v", got, env)
			}
			back, err := Decode(&got)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !reflect.DeepEqual(back, p) {
				t.Fatalf("payload round trip:\n got %#v\nwant %#v", back, p)
			}
			// Canonical: encoding the decoded payload gives the same bytes.
			if string(EncodePayload(back)) != string(env.Payload) {
				t.Fatal("re-encoding changed the bytes")
			}
		})
	}
	for _, typ := range Types() {
		if !seen[typ] {
			t.Errorf("no round-trip sample for %s", typ)
		}
	}
}

func chain(t *testing.T, n int) []Envelope {
	t.Helper()
	var prev Hash
	var out []Envelope
	for i := 1; i <= n; i++ {
		e := New("g1", time.Unix(int64(i), 0), "", &OrderReceived{Player: "usa", Text: strings.Repeat("x", i)})
		e.Chain(uint64(i), prev)
		prev = e.Hash
		out = append(out, e)
	}
	return out
}

func TestVerifierLocatesFirstBrokenLink(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(es []Envelope) []Envelope
		wantSeq uint64
		reason  string
	}{
		{"intact", func(es []Envelope) []Envelope { return es }, 0, ""},
		{"payload byte flipped", func(es []Envelope) []Envelope { es[2].Payload[3] ^= 1; return es }, 3, "altered"},
		{"time changed", func(es []Envelope) []Envelope { es[4].At++; return es }, 5, "altered"},
		{"event removed", func(es []Envelope) []Envelope { return append(es[:1], es[2:]...) }, 2, "gap"},
		{"event duplicated", func(es []Envelope) []Envelope { return append(es[:3], es[2:]...) }, 4, "duplicate"},
		{"relinked after edit", func(es []Envelope) []Envelope {
			es[1].Payload = EncodePayload(&OrderReceived{Player: "csa"})
			es[1].Hash = es[1].ComputeHash()
			return es
		}, 3, "prev hash"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			es := tc.mutate(chain(t, 6))
			v := Verifier{Game: "g1"}
			var err error
			for i := range es {
				if err = v.Next(&es[i]); err != nil {
					break
				}
			}
			if tc.wantSeq == 0 {
				if err != nil {
					t.Fatalf("intact chain: %v", err)
				}
				return
			}
			var ce *ChainError
			if !errors.As(err, &ce) {
				t.Fatalf("want ChainError, got %v", err)
			}
			if ce.Seq != tc.wantSeq || !strings.Contains(ce.Error(), tc.reason) {
				t.Fatalf("got %v, want seq %d mentioning %q", ce, tc.wantSeq, tc.reason)
			}
		})
	}
}

func TestFactString(t *testing.T) {
	f := NewFact("unit.moved", S("unit", "NEWT"), IL("path", 2314, 2315), I("mp", 3), B("force", false), SL("who", "Hood", "A P Hill"))
	want := `unit.moved unit=NEWT path=2314,2315 mp=3 force=false who=Hood,"A P Hill"`
	if f.String() != want {
		t.Fatalf("got  %s\nwant %s", f, want)
	}
	if f.Int("mp") != 3 || f.Str("unit") != "NEWT" || f.Bool("force") || len(f.Ints("path")) != 2 || f.Has("nope") {
		t.Fatal("accessors")
	}
}

func TestDecodeRejectsCorruptInput(t *testing.T) {
	env := New("g1", time.Unix(0, 0), "", &OrderReceived{Player: "usa", Text: "PASS"})
	env.Chain(1, Hash{})
	b := env.Marshal()
	for i := range b {
		if _, err := Unmarshal(b[:i]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", i)
		}
	}
	env.Type = "order.received/v99"
	if _, err := Decode(&env); err == nil || !strings.Contains(err.Error(), "unknown event type") {
		t.Fatalf("unknown type: %v", err)
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, p := range samples() {
		e := New("g", time.Unix(1, 0), "k", p)
		e.Chain(1, Hash{})
		f.Add(e.Marshal())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := Unmarshal(b)
		if err != nil {
			return
		}
		if string(e.Marshal()) != string(b) {
			t.Fatalf("accepted a non-canonical encoding")
		}
		if p, err := Decode(&e); err == nil && string(EncodePayload(p)) != string(e.Payload) {
			t.Fatalf("payload of %s decodes but is not canonical", e.Type)
		}
	})
}

func TestOverlongVarintsAreRejected(t *testing.T) {
	// 0 written in two bytes (0x80 0x00) instead of one: not canonical.
	for _, b := range [][]byte{{0x80, 0x00}, {0xff, 0x80, 0x00}} {
		r := NewReader(b)
		r.Uvarint()
		if r.Err() == nil {
			t.Errorf("uvarint % x accepted", b)
		}
		r = NewReader(b)
		r.Varint()
		if r.Err() == nil {
			t.Errorf("varint % x accepted", b)
		}
	}
	if r := NewReader([]byte{0x80, 0x01}); r.Uvarint() != 128 || r.Err() != nil {
		t.Fatal("canonical 128 rejected")
	}
}

func TestQueuedMailTextIsStoredDeflatedAndCanonical(t *testing.T) {
	board := strings.Repeat("  /2314 \\       /2514 \\       /2714 \\\n /  . .  \\_____/  ^ ^  \\_____/  T T  \\\n", 60)
	q := &MailQueued{MailID: "<g.1@x>", Body: "Your move.\n" + board, Attachments: []Attachment{{Name: "map.txt", Body: board + board}}}
	enc := EncodePayload(q)
	if len(enc)*5 > len(q.Body)+len(q.Attachments[0].Body) {
		t.Fatalf("stored %d bytes for %d bytes of text: not compressed", len(enc), len(q.Body)+len(q.Attachments[0].Body))
	}
	e := Envelope{Game: "g", Seq: 1, Type: TypeMailQueued, Payload: enc}
	back, err := Decode(&e)
	if err != nil || back.(*MailQueued).Body != q.Body || back.(*MailQueued).Attachments[0].Body != q.Attachments[0].Body {
		t.Fatalf("round trip: %v", err)
	}
	if id, err := PeekMailID(&e); err != nil || id != "<g.1@x>" {
		t.Fatalf("peek: %q %v", id, err)
	}
	// A valid deflate stream that deflate would not have made is not
	// canonical, even just after deflate made the canonical one of the
	// same text (it remembers what it made, byte for byte).
	if text, err := Deflate("hello").Text(); err != nil || text != "hello" {
		t.Fatalf("canonical hello: %q %v", text, err)
	}
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.NoCompression)
	fw.Write([]byte("hello"))
	fw.Close()
	w := NewWriter(nil)
	w.Blob(buf.Bytes())
	if r := NewReader(w.Bytes()); r.DeflatedString() != "" || r.Err() == nil {
		t.Fatal("accepted a non-canonical deflate stream")
	}
}

func TestDecodeAcceptedMatchesDecode(t *testing.T) {
	for _, p := range samples() {
		acc, ok := p.(*OrderAccepted)
		if !ok {
			continue
		}
		acc.Dice = append(acc.Dice, Die{Index: 4, Purpose: "x", Sides: 6, Value: 2})
		e := New("g", time.Unix(0, 0), "", acc)
		a, err := DecodeAccepted(&e)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Facts, acc.Facts) || a.Input != acc.Input || a.NDice != 2 || a.FirstDie != 3 || a.LastIndex != 4 || !a.Contiguous {
			t.Fatalf("%+v", a)
		}
		e.Payload = e.Payload[:len(e.Payload)-1]
		if _, err := DecodeAccepted(&e); err == nil {
			t.Fatal("truncated payload decoded")
		}
	}
}

// The reader's word-at-a-time varint gives what encoding/binary gives, for
// every length, truncation and overflow, wherever the value ends.
func TestUvarintAgreesWithEncodingBinary(t *testing.T) {
	var inputs [][]byte
	for bitsN := 0; bitsN <= 64; bitsN++ {
		for _, v := range []uint64{1<<bitsN - 1, 1 << bitsN, 1<<bitsN + 1} {
			enc := binary.AppendUvarint(nil, v)
			for cut := 0; cut <= len(enc); cut++ { // truncated, then whole
				inputs = append(inputs, enc[:cut])
			}
			inputs = append(inputs, append(enc, 0x05, 0x80, 0x7f, 0, 0, 0, 0, 0, 0, 0))
		}
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rnd.IntN(14))
		for i := range b {
			b[i] = byte(rnd.Uint32())
			if rnd.IntN(3) > 0 {
				b[i] |= 0x80 // long runs of continuation bytes, up to overflow
			}
		}
		inputs = append(inputs, b)
	}
	for _, b := range inputs {
		wv, wn := binary.Uvarint(b)
		gv, gn := uvarint(b)
		if (wn > 0) != (gn > 0) || wn > 0 && (gv != wv || gn != wn) {
			t.Fatalf("% x: got %d (%d bytes), encoding/binary %d (%d bytes)", b, gv, gn, wv, wn)
		}
		sv, sn := binary.Varint(b)
		r := NewReader(b)
		if got := r.Varint(); sn > 0 && (b[sn-1] != 0 || sn == 1) && (r.Err() != nil || got != sv) {
			t.Fatalf("% x: varint %d (%v), encoding/binary %d", b, got, r.Err(), sv)
		}
	}
}

// Reading an envelope gives its type as the package's constant (no copy
// of the name), for every current type.
func TestEveryTypeNameIsInterned(t *testing.T) {
	for _, typ := range Types() {
		b := []byte(typ)
		if got := internType(b); got != typ || unsafe.StringData(got) != unsafe.StringData(typ) {
			t.Errorf("%s: interned as %q", typ, got)
		}
	}
	if got := internType([]byte("mail.sent/v2")); got != "" {
		t.Errorf("an unknown type interned as %q", got)
	}
}

// A replay decodes game.created without copying the scenario: the result
// equals Decode's, its scenario lies in the event's own bytes, and any
// other type is refused.
func TestDecodeCreatedViewMatchesDecodeWithoutACopy(t *testing.T) {
	created := samples()[0].(*GameCreated)
	e := New("g1", time.Unix(1_800_000_000, 0), "", created)
	want, err := Decode(&e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeCreatedView(&e)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("view decode:\n%+v\n%v\nDecode:\n%+v", got, err, want)
	}
	start := uintptr(unsafe.Pointer(&e.Payload[0]))
	if p := uintptr(unsafe.Pointer(&got.Scenario[0])); p < start || p >= start+uintptr(len(e.Payload)) {
		t.Fatal("the scenario was copied")
	}
	other := New("g1", time.Unix(1_800_000_000, 0), "", &GameEnded{Reason: "done"})
	if _, err := DecodeCreatedView(&other); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a game.ended decoded as game.created: %v", err)
	}
}

// A referee.command/v1 from before Refused decodes as a trusted command,
// and is an input like v2.
func TestRefereeCommandV1IsUpcastAsTrusted(t *testing.T) {
	old := &RefereeCommand{Referee: "ref", Text: "PAUSE", Reason: "rain", MessageID: "<r@x>", Source: "mail"}
	var w Writer
	w.String(old.Referee)
	w.String(old.Text)
	w.String(old.Reason)
	w.String(old.MessageID)
	w.String(old.Source)
	e := Envelope{Game: "g1", Seq: 2, Type: TypeRefereeCommandV1, Payload: w.Bytes()}
	got, err := Decode(&e)
	if err != nil || !reflect.DeepEqual(got, old) {
		t.Fatalf("v1 decode: %+v %v", got, err)
	}
	if !IsInput(e.Type) || !IsRefereeCommand(e.Type) || internType([]byte(TypeRefereeCommandV1)) != TypeRefereeCommandV1 {
		t.Fatal("v1 is not recognised as a referee command input")
	}
}

// A referee.command/v2 from before Seen decodes with Seen 0 (no state
// named: no relative ruling is refused for it), and is an input like v3.
func TestRefereeCommandV2IsUpcastWithNothingSeen(t *testing.T) {
	old := &RefereeCommand{Referee: "ref", Text: "ROLLBACK 1 ACTIONS", Reason: "slip", MessageID: "<r@x>", Source: "mail", Refused: ""}
	var w Writer
	w.String(old.Referee)
	w.String(old.Text)
	w.String(old.Reason)
	w.String(old.MessageID)
	w.String(old.Source)
	w.String(old.Refused)
	e := Envelope{Game: "g1", Seq: 2, Type: TypeRefereeCommandV2, Payload: w.Bytes()}
	got, err := Decode(&e)
	if err != nil || !reflect.DeepEqual(got, old) {
		t.Fatalf("v2 decode: %+v %v", got, err)
	}
	if !IsInput(e.Type) || !IsRefereeCommand(e.Type) || internType([]byte(TypeRefereeCommandV2)) != TypeRefereeCommandV2 {
		t.Fatal("v2 is not recognised as a referee command input")
	}
	// And v3 keeps what the referee saw.
	now := &RefereeCommand{Referee: "ref", Text: "ROLLBACK 1 ACTIONS", Source: "mail", Seen: 41}
	e3 := New("g1", time.Unix(1_800_000_000, 0), "", now)
	if got, err := Decode(&e3); err != nil || got.(*RefereeCommand).Seen != 41 {
		t.Fatalf("v3 round trip: %+v %v", got, err)
	}
}

// MarshalChained stores what Chain and then Marshal store, byte for byte,
// and leaves the envelope chained as Chain does: for an empty key and
// payload, long ones, and seqs whose varints take one to ten bytes.
func TestMarshalChainedStoresWhatChainAndMarshalStore(t *testing.T) {
	long := strings.Repeat("Jackson's men are close; hold the ford. ", 200)
	cases := []struct {
		name string
		e    Envelope
		seq  uint64
		prev Hash
	}{
		{"empty key and payload", Envelope{Game: "g", Type: TypeMailSent, At: 0}, 1, Hash{}},
		{"an order", New("bull-run", time.Unix(1_700_000_000, 5), "<a@b>", &OrderReceived{Player: "usa", Text: "MARCH Newton 2314", MessageID: "<a@b>", Source: "mail"}), 127, Hash{0xaa, 0x01}},
		{"a long key and payload", New(strings.Repeat("g", 300), time.Unix(-5, 0), strings.Repeat("<k>", 100), &OrderReceived{Player: "csa", Text: long}), 1 << 40, Hash{0xff}},
		{"the largest seq", Envelope{Game: "g", Type: TypeMailQueued, At: -1 << 62, Payload: []byte{1, 2, 3}}, ^uint64(0), Hash{1, 2, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.e
			want.Chain(c.seq, c.prev)
			got := c.e
			b := got.MarshalChained(c.seq, c.prev)
			if !bytes.Equal(b, want.Marshal()) {
				t.Fatalf("stored bytes differ:\n got %x\nwant %x", b, want.Marshal())
			}
			if got.Seq != want.Seq || got.Prev != want.Prev || got.Hash != want.Hash {
				t.Fatalf("chained as seq %d prev %s hash %s, want %d %s %s", got.Seq, got.Prev, got.Hash, want.Seq, want.Prev, want.Hash)
			}
			back, err := Unmarshal(b)
			if err != nil || back.ComputeHash() != got.Hash {
				t.Fatalf("read back: %v, hash %s, want %s", err, back.ComputeHash(), got.Hash)
			}
		})
	}
}
