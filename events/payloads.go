package events

import (
	"fmt"
	"unicode/utf8"
)

// Event type names carry a version. A stored event is never rewritten: a new
// meaning gets a new version, and Decode upcasts older versions to the
// current payload type.
const (
	TypeGameCreated    = "game.created/v1"
	TypeOrderReceived  = "order.received/v2"
	TypeOrderAccepted  = "order.accepted/v2"
	TypeOrderRejected  = "order.rejected/v1"
	TypeRefereeCommand = "referee.command/v3"
	TypeDeadlineSet    = "deadline.set/v1"
	TypeDeadlinePassed = "deadline.passed/v1"
	TypeMailQueued     = "mail.queued/v1"
	TypeMailSent       = "mail.sent/v1"
	TypeMailFailed     = "mail.failed/v1"
	TypeGameEnded      = "game.ended/v1"
	TypePauseExpired   = "pause.expired/v1"
	TypeOrderHeld      = "order.held/v1"
	TypeOrderConfirmed = "order.confirmed/v1"
	TypeMailRefused    = "mail.refused/v1"
	TypeMailHeld       = "mail.held/v1"

	// TypeOrderAcceptedV1 is an order.accepted of before visibilities:
	// every fact, die and echo line of it is public. Decode upcasts it to
	// an *OrderAccepted.
	TypeOrderAcceptedV1 = "order.accepted/v1"
	// TypeRefereeCommandV1 is a referee.command of before Refused: the
	// intake took only commands it trusted. Decode upcasts it to a
	// *RefereeCommand with Refused empty.
	TypeRefereeCommandV1 = "referee.command/v1"
	// TypeRefereeCommandV2 is a referee.command of before Seen: nothing
	// said which state the referee answered. Decode upcasts it to a
	// *RefereeCommand with Seen 0.
	TypeRefereeCommandV2 = "referee.command/v2"
	// TypeOrderReceivedV1 is order.received before it kept the mail's
	// References and authentication; Decode upcasts it.
	TypeOrderReceivedV1 = "order.received/v1"
)

// IsRefereeCommand reports whether typ is a referee.command of any version.
func IsRefereeCommand(typ string) bool {
	return typ == TypeRefereeCommand || typ == TypeRefereeCommandV2 || typ == TypeRefereeCommandV1
}

// IsAccepted reports whether typ is an order.accepted of any version.
func IsAccepted(typ string) bool { return typ == TypeOrderAccepted || typ == TypeOrderAcceptedV1 }

// Payload is the typed content of an event. The set is closed: every type
// is listed in Decode.
type Payload interface {
	EventType() string
	encode(w *Writer)
	decode(r *Reader)
}

// EncodePayload returns the canonical bytes of p.
func EncodePayload(p Payload) []byte {
	w := NewWriter(make([]byte, 0, 128))
	p.encode(w)
	return w.Bytes()
}

// Decode returns the typed payload of e, upcasting older versions.
func Decode(e *Envelope) (Payload, error) {
	p := newPayload(e.Type)
	if p == nil {
		return nil, fmt.Errorf("game %s seq %d: unknown event type %q", e.Game, e.Seq, e.Type)
	}
	r := NewReader(e.Payload)
	switch e.Type {
	case TypeOrderAcceptedV1:
		p.(*OrderAccepted).decodeV1(r)
	case TypeRefereeCommandV1:
		p.(*RefereeCommand).decodeV1(r)
	case TypeRefereeCommandV2:
		p.(*RefereeCommand).decodeV2(r)
	case TypeOrderReceivedV1:
		p.(*OrderReceived).decodeV1(r)
	default:
		p.decode(r)
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("game %s seq %d (%s): %w", e.Game, e.Seq, e.Type, err)
	}
	return p, nil
}

// DecodeCreatedView decodes a game.created event as Decode does, except
// that the scenario is not copied: Scenario holds e.Payload's bytes, and
// the caller must replace it before they go (a replay keeps one copy of
// each scenario for all its games; see engine.Registry).
func DecodeCreatedView(e *Envelope) (*GameCreated, error) {
	if e.Type != TypeGameCreated {
		return nil, decodeErr(e, "not "+TypeGameCreated)
	}
	p := &GameCreated{}
	r := NewReader(e.Payload)
	p.decodeView(r, true)
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("game %s seq %d (%s): %w", e.Game, e.Seq, e.Type, err)
	}
	return p, nil
}

// newPayload maps a type name to an empty payload. When a type gains a v2,
// its v1 name keeps a decoder here that returns the v2 payload (an upcaster).
func newPayload(typ string) Payload {
	switch typ {
	case TypeGameCreated:
		return &GameCreated{}
	case TypeOrderReceived, TypeOrderReceivedV1:
		return &OrderReceived{}
	case TypeOrderAccepted, TypeOrderAcceptedV1:
		return &OrderAccepted{}
	case TypeOrderRejected:
		return &OrderRejected{}
	case TypeRefereeCommand, TypeRefereeCommandV2, TypeRefereeCommandV1:
		return &RefereeCommand{}
	case TypeDeadlineSet:
		return &DeadlineSet{}
	case TypeDeadlinePassed:
		return &DeadlinePassed{}
	case TypeMailQueued:
		return &MailQueued{}
	case TypeMailSent:
		return &MailSent{}
	case TypeMailFailed:
		return &MailFailed{}
	case TypeGameEnded:
		return &GameEnded{}
	case TypePauseExpired:
		return &PauseExpired{}
	case TypeOrderHeld:
		return &OrderHeld{}
	case TypeOrderConfirmed:
		return &OrderConfirmed{}
	case TypeMailRefused:
		return &MailRefused{}
	case TypeMailHeld:
		return &MailHeld{}
	}
	return nil
}

// PeekMailID returns the MailID of a mail.queued, mail.sent or mail.failed
// event without decoding the rest (a queued mail's body is most of the
// log's bytes, and the fold needs only its id).
func PeekMailID(e *Envelope) (string, error) {
	id, err := PeekMailIDView(e)
	return string(id), err
}

// PeekMailIDView is PeekMailID without a copy: the bytes are e.Payload's,
// and valid as long as they are.
func PeekMailIDView(e *Envelope) ([]byte, error) {
	switch e.Type {
	case TypeMailQueued, TypeMailSent, TypeMailFailed:
	default:
		return nil, fmt.Errorf("game %s seq %d: %s has no mail id", e.Game, e.Seq, e.Type)
	}
	r := NewReader(e.Payload)
	id := r.stringView()
	if r.err == nil && !utf8.Valid(id) {
		r.fail("utf-8 string")
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("game %s seq %d: %w", e.Game, e.Seq, err)
	}
	return id, nil
}

// internType returns the constant for a known type name, or "". (A
// switch, which compiles to a search by length and bytes: every event
// read goes through here.)
func internType(b []byte) string {
	switch string(b) {
	case TypeGameCreated:
		return TypeGameCreated
	case TypeOrderReceived:
		return TypeOrderReceived
	case TypeOrderAccepted:
		return TypeOrderAccepted
	case TypeOrderAcceptedV1:
		return TypeOrderAcceptedV1
	case TypeOrderRejected:
		return TypeOrderRejected
	case TypeRefereeCommand:
		return TypeRefereeCommand
	case TypeRefereeCommandV2:
		return TypeRefereeCommandV2
	case TypeRefereeCommandV1:
		return TypeRefereeCommandV1
	case TypePauseExpired:
		return TypePauseExpired
	case TypeDeadlineSet:
		return TypeDeadlineSet
	case TypeDeadlinePassed:
		return TypeDeadlinePassed
	case TypeMailQueued:
		return TypeMailQueued
	case TypeMailSent:
		return TypeMailSent
	case TypeMailFailed:
		return TypeMailFailed
	case TypeGameEnded:
		return TypeGameEnded
	case TypeOrderHeld:
		return TypeOrderHeld
	case TypeOrderConfirmed:
		return TypeOrderConfirmed
	case TypeMailRefused:
		return TypeMailRefused
	case TypeMailHeld:
		return TypeMailHeld
	case TypeOrderReceivedV1:
		return TypeOrderReceivedV1
	}
	return ""
}

// Types lists every current event type, in a fixed order.
func Types() []string {
	return []string{TypeGameCreated, TypeOrderReceived, TypeOrderAccepted, TypeOrderRejected,
		TypeRefereeCommand, TypeDeadlineSet, TypeDeadlinePassed, TypeMailQueued, TypeMailSent,
		TypeMailFailed, TypeGameEnded, TypePauseExpired, TypeOrderHeld, TypeOrderConfirmed, TypeMailRefused, TypeMailHeld}
}

// IsInput reports whether events of this type are inputs the engine must
// decide (an order, a referee command, a deadline that passed, a pause
// that ran out).
func IsInput(typ string) bool {
	switch typ {
	case TypeOrderReceived, TypeOrderReceivedV1, TypeRefereeCommand, TypeRefereeCommandV2, TypeRefereeCommandV1, TypeDeadlinePassed, TypePauseExpired:
		return true
	}
	return false
}

// Player is a participant: a player with a side, or a referee or observer
// (empty Side). Addresses are the mail addresses it may write from.
type Player struct {
	ID        string
	Name      string
	Side      string
	Addresses []string
}

func encodePlayers(w *Writer, ps []Player) {
	w.Uvarint(uint64(len(ps)))
	for _, p := range ps {
		w.String(p.ID)
		w.String(p.Name)
		w.String(p.Side)
		w.Strings(p.Addresses)
	}
}

func decodePlayers(r *Reader) []Player {
	n := r.count()
	if n == 0 {
		return nil
	}
	ps := make([]Player, n)
	for i := range ps {
		ps[i].ID = r.String()
		ps[i].Name = r.String()
		ps[i].Side = r.String()
		ps[i].Addresses = r.Strings()
	}
	return ps
}

// Setting is one named game setting (deadline policy, silent overrides …),
// kept as text so new settings need no new event version.
type Setting struct{ Key, Value string }

// GameCreated starts a game. The scenario's bytes are in the log, so a
// replay needs nothing else. Only the SHA-256 commitment of the dice seed is
// logged; the seed itself is revealed by GameEnded.
type GameCreated struct {
	Ruleset        string
	RulesetVersion string
	ScenarioName   string
	Scenario       []byte
	Players        []Player
	Referees       []Player
	SeedCommitment Hash
	Settings       []Setting
}

// EventType implements Payload.
func (*GameCreated) EventType() string { return TypeGameCreated }

func (p *GameCreated) encode(w *Writer) {
	w.String(p.Ruleset)
	w.String(p.RulesetVersion)
	w.String(p.ScenarioName)
	w.Blob(p.Scenario)
	encodePlayers(w, p.Players)
	encodePlayers(w, p.Referees)
	w.Fixed(p.SeedCommitment[:])
	w.Uvarint(uint64(len(p.Settings)))
	for _, s := range p.Settings {
		w.String(s.Key)
		w.String(s.Value)
	}
}

func (p *GameCreated) decode(r *Reader) { p.decodeView(r, false) }

// decodeView decodes p, its Scenario aliasing r's bytes if view.
func (p *GameCreated) decodeView(r *Reader, view bool) {
	p.Ruleset = r.String()
	p.RulesetVersion = r.String()
	p.ScenarioName = r.String()
	if view {
		p.Scenario = r.BlobView()
	} else {
		p.Scenario = r.Blob()
	}
	p.Players = decodePlayers(r)
	p.Referees = decodePlayers(r)
	r.Fixed(p.SeedCommitment[:])
	if n := r.count(); n > 0 {
		p.Settings = make([]Setting, n)
		for i := range p.Settings {
			p.Settings[i].Key = r.String()
			p.Settings[i].Value = r.String()
		}
	}
}

// Setting returns the value of the named setting, or "".
func (p *GameCreated) Setting(key string) string {
	for _, s := range p.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// OrderReceived is a player's order as it arrived: the player's new text
// (quotes and signature already stripped), and where it came from. For a
// mail, References are the mail's own References (oldest first, so the
// answer can carry the whole chain, RFC 5322 §3.6.4) and Auth says how its
// sender was authenticated ("dkim example.org", "dmarc example.org",
// "confirmed by code", "" for none).
type OrderReceived struct {
	Player     string
	Text       string
	MessageID  string
	Source     string // "mail", "cli"
	References []string
	Auth       string
}

// EventType implements Payload.
func (*OrderReceived) EventType() string { return TypeOrderReceived }

func (p *OrderReceived) encode(w *Writer) {
	w.String(p.Player)
	w.String(p.Text)
	w.String(p.MessageID)
	w.String(p.Source)
	w.Strings(p.References)
	w.String(p.Auth)
}

func (p *OrderReceived) decode(r *Reader) {
	p.decodeV1(r)
	p.References = r.Strings()
	p.Auth = r.String()
}

// decodeV1 reads an order.received/v1 payload (no References, no Auth).
func (p *OrderReceived) decodeV1(r *Reader) {
	p.Player = r.String()
	p.Text = r.String()
	p.MessageID = r.String()
	p.Source = r.String()
}

// OrderHeld is a player's order that was not applied because its mail
// could not be shown to come from the player (it was not authenticated,
// and its envelope sender or Sender differs from its From): it waits for
// the player to confirm it, from the registered address, with the one-time
// code mailed there, until Expires (unix ns; compared with the intake time
// of the confirming mail, so a replay needs no clock). The code is not in
// the log: it is derived from the server's secret and the held mail's
// Message-ID.
type OrderHeld struct {
	Player     string
	Text       string
	MessageID  string
	References []string
	Sender     string // the envelope sender (or Sender:) that differed
	Reason     string
	Expires    int64
}

// EventType implements Payload.
func (*OrderHeld) EventType() string { return TypeOrderHeld }

func (p *OrderHeld) encode(w *Writer) {
	w.String(p.Player)
	w.String(p.Text)
	w.String(p.MessageID)
	w.Strings(p.References)
	w.String(p.Sender)
	w.String(p.Reason)
	w.Varint(p.Expires)
}

func (p *OrderHeld) decode(r *Reader) {
	p.Player = r.String()
	p.Text = r.String()
	p.MessageID = r.String()
	p.References = r.Strings()
	p.Sender = r.String()
	p.Reason = r.String()
	p.Expires = r.Varint()
}

// OrderConfirmed records that the player confirmed the order held at seq
// Held, by a mail (MessageID) carrying its code; the order follows it as
// an order.received in the same append.
type OrderConfirmed struct {
	Player    string
	Held      uint64
	MessageID string
}

// EventType implements Payload.
func (*OrderConfirmed) EventType() string { return TypeOrderConfirmed }

func (p *OrderConfirmed) encode(w *Writer) {
	w.String(p.Player)
	w.Uvarint(p.Held)
	w.String(p.MessageID)
}

func (p *OrderConfirmed) decode(r *Reader) {
	p.Player = r.String()
	p.Held = r.Uvarint()
	p.MessageID = r.String()
}

// MailHeld is what a reader was not mailed at once, because of the mail
// volume they chose (MAIL MOVE or MAIL TURN): the part of the report of one
// decision that reader may see, rendered for them, kept in the log until a
// mail tells it (a digest). Text is that part; Board says the board
// changed for the reader in that decision. A MailHeld with Told set says
// the mail Told (a Message-ID) told every part held for Reader before it:
// the parts are dropped from the game's state.
type MailHeld struct {
	Reader string
	Kind   string
	Text   string
	Board  bool
	Told   string
}

// EventType implements Payload.
func (*MailHeld) EventType() string { return TypeMailHeld }

func (p *MailHeld) encode(w *Writer) {
	w.String(p.Reader)
	w.String(p.Kind)
	w.DeflatedString(p.Text)
	w.Bool(p.Board)
	w.String(p.Told)
}

func (p *MailHeld) decode(r *Reader) {
	v := r.mailHeld()
	if r.err != nil {
		return
	}
	p.Reader, p.Kind, p.Board, p.Told = string(v.Reader), string(v.Kind), v.Board, string(v.Told)
	if p.Text, r.err = Deflated(v.Text).Text(); r.err != nil {
		p.Text = ""
	}
}

// MailHeldView is a mail.held event's fields as views of its bytes: valid
// only as long as the event's bytes are, and copied by whoever keeps
// them. Text is deflated, unchecked until inflated (see Deflated).
type MailHeldView struct {
	Reader, Kind, Told []byte
	Text               []byte
	Board              bool
}

// mailHeld reads a mail.held payload's fields as views, its strings
// checked to be UTF-8 and its text left deflated: the one reading of
// them, for Decode and DecodeMailHeldView alike.
func (r *Reader) mailHeld() MailHeldView {
	var v MailHeldView
	v.Reader = r.stringView()
	v.Kind = r.stringView()
	v.Text = r.BlobView()
	v.Board = r.Bool()
	v.Told = r.stringView()
	if r.err == nil && !(utf8.Valid(v.Reader) && utf8.Valid(v.Kind) && utf8.Valid(v.Told)) {
		r.fail("utf-8 string")
	}
	return v
}

// DecodeMailHeldView decodes a mail.held event as Decode does (the same
// checks), except that its text is left deflated, unchecked until read
// (a game keeps it for a later digest and rarely reads it), and nothing is
// copied: a fold of many events keeps the few names it meets once, and
// the texts of only the parts still held when it ends.
func DecodeMailHeldView(e *Envelope) (MailHeldView, error) {
	if e.Type != TypeMailHeld {
		return MailHeldView{}, decodeErr(e, "not "+TypeMailHeld)
	}
	r := NewReader(e.Payload)
	v := r.mailHeld()
	if err := r.Done(); err != nil {
		return MailHeldView{}, fmt.Errorf("game %s seq %d (%s): %w", e.Game, e.Seq, e.Type, err)
	}
	return v, nil
}

// The kinds of MailRefused.
const (
	RefusedTooLarge     = "too-large"     // over the size limits
	RefusedKeyQuoted    = "key-quoted"    // the Key line only quoted
	RefusedNoKey        = "no-key"        // no reply address and no Key line, from a registered address
	RefusedReused       = "reused-id"     // a Message-ID already taken, other content
	RefusedReplay       = "replay"        // an accepted mail sent again
	RefusedRateLimited  = "rate-limited"  // over the player's rate limit
	RefusedUnauthorised = "unauthorised"  // strict: not authenticated
	RefusedCode         = "code"          // a confirmation with a wrong or expired code
	RefusedHeldTooMany  = "held-too-many" // too many orders waiting for confirmation
)

// MailRefused records a mail from a registered player's address that was
// not applied, and why; the mail telling the player follows it (or not,
// when the player was told already within the window). Kind is one of the
// Refused… constants; Sender is the envelope sender when it differed from
// the player's address.
type MailRefused struct {
	Player    string
	MessageID string
	Kind      string
	Reason    string
	Sender    string
}

// EventType implements Payload.
func (*MailRefused) EventType() string { return TypeMailRefused }

func (p *MailRefused) encode(w *Writer) {
	w.String(p.Player)
	w.String(p.MessageID)
	w.String(p.Kind)
	w.String(p.Reason)
	w.String(p.Sender)
}

func (p *MailRefused) decode(r *Reader) {
	p.Player = r.String()
	p.MessageID = r.String()
	p.Kind = r.String()
	p.Reason = r.String()
	p.Sender = r.String()
}

// OrderAccepted is the decision on the input at seq Input: the facts it
// produced, every die rolled for it, how each line was read, and which
// ruleset version decided it (the audit re-decides with that version).
// Each fact and die carries its visibility; EchoVis, when not empty, is
// the visibility of each echo line (empty: every line is public).
type OrderAccepted struct {
	Input          uint64
	Player         string
	RulesetVersion string
	Echo           []string
	EchoVis        []Vis
	Facts          []Fact
	Dice           []Die
}

// EchoLineVis is the visibility of echo line i.
func (p *OrderAccepted) EchoLineVis(i int) Vis {
	if i < len(p.EchoVis) {
		return p.EchoVis[i]
	}
	return Vis{}
}

// EventType implements Payload.
func (*OrderAccepted) EventType() string { return TypeOrderAccepted }

// The v2 encoding is v1's (input, player, version, echo, facts, dice)
// followed by the visibilities of the echo lines, the facts and the dice,
// each list one zero byte when all of it is public: a fold reads v1's
// part as it always did and skips the rest.
func (p *OrderAccepted) encode(w *Writer) {
	p.encodeV1(w)
	encodeVisList(w, len(p.Echo), p.EchoLineVis)
	encodeVisList(w, len(p.Facts), func(i int) Vis { return p.Facts[i].Vis })
	encodeVisList(w, len(p.Dice), func(i int) Vis { return p.Dice[i].Vis })
}

func (p *OrderAccepted) encodeV1(w *Writer) {
	w.Uvarint(p.Input)
	w.String(p.Player)
	w.String(p.RulesetVersion)
	w.Strings(p.Echo)
	encodeFacts(w, p.Facts)
	encodeDice(w, p.Dice)
}

func (p *OrderAccepted) decode(r *Reader) {
	p.decodeV1(r)
	decodeVisList(r, len(p.Echo), func(i int, v Vis) {
		if p.EchoVis == nil {
			p.EchoVis = make([]Vis, len(p.Echo))
		}
		p.EchoVis[i] = v
	})
	decodeVisList(r, len(p.Facts), func(i int, v Vis) { p.Facts[i].Vis = v })
	decodeVisList(r, len(p.Dice), func(i int, v Vis) { p.Dice[i].Vis = v })
}

func (p *OrderAccepted) decodeV1(r *Reader) {
	p.Input = r.Uvarint()
	p.Player = r.String()
	p.RulesetVersion = r.String()
	p.Echo = r.Strings()
	p.Facts = decodeFacts(r)
	p.Dice = decodeDice(r)
}

// Problem is one thing wrong with an order: the line (1-based, as the
// player wrote it), the column (1-based, in runes), the line's text, what
// is wrong and, where one exists, the nearest valid form.
type Problem struct {
	Line int
	Col  int
	Text string
	Msg  string
	Hint string
}

func (p Problem) String() string {
	s := fmt.Sprintf("line %d col %d: %s", p.Line, p.Col, p.Msg)
	if p.Hint != "" {
		s += " (try: " + p.Hint + ")"
	}
	return s
}

// OrderRejected is the decision that the input at seq Input is not applied.
type OrderRejected struct {
	Input          uint64
	Player         string
	RulesetVersion string
	Problems       []Problem
}

// EventType implements Payload.
func (*OrderRejected) EventType() string { return TypeOrderRejected }

func (p *OrderRejected) encode(w *Writer) {
	w.Uvarint(p.Input)
	w.String(p.Player)
	w.String(p.RulesetVersion)
	w.Uvarint(uint64(len(p.Problems)))
	for _, q := range p.Problems {
		w.Int(q.Line)
		w.Int(q.Col)
		w.String(q.Text)
		w.String(q.Msg)
		w.String(q.Hint)
	}
}

func (p *OrderRejected) decode(r *Reader) {
	p.Input = r.Uvarint()
	p.Player = r.String()
	p.RulesetVersion = r.String()
	if n := r.count(); n > 0 {
		p.Problems = make([]Problem, n)
		for i := range p.Problems {
			q := &p.Problems[i]
			q.Line = r.Int()
			q.Col = r.Int()
			q.Text = r.String()
			q.Msg = r.String()
			q.Hint = r.String()
		}
	}
}

// RefereeCommand is an input from a referee: the command text, who gave it
// and why, and where it came from. Refused, when set, says why the intake
// did not trust the mail (no Secret line, a wrong one): the command is
// logged so that the referee is answered, and the engine applies nothing
// of it.
type RefereeCommand struct {
	Referee   string
	Text      string
	Reason    string
	MessageID string
	Source    string // "mail", "cli"
	Refused   string
	// Seen is the seq of the game's mail the referee answered (from the
	// mail's In-Reply-To or References), or 0: the state the command
	// was written against, so that a relative ruling (ROLLBACK n
	// ACTIONS) is refused when the game changed since.
	Seen uint64
}

// EventType implements Payload.
func (*RefereeCommand) EventType() string { return TypeRefereeCommand }

func (p *RefereeCommand) encode(w *Writer) {
	w.String(p.Referee)
	w.String(p.Text)
	w.String(p.Reason)
	w.String(p.MessageID)
	w.String(p.Source)
	w.String(p.Refused)
	w.Uvarint(p.Seen)
}

func (p *RefereeCommand) decode(r *Reader) {
	p.decodeV2(r)
	p.Seen = r.Uvarint()
}

// decodeV2 reads v2's fields, which v3 begins with.
func (p *RefereeCommand) decodeV2(r *Reader) {
	p.decodeV1(r)
	p.Refused = r.String()
}

// decodeV1 reads v1's fields, which v2 begins with.
func (p *RefereeCommand) decodeV1(r *Reader) {
	p.Referee = r.String()
	p.Text = r.String()
	p.Reason = r.String()
	p.MessageID = r.String()
	p.Source = r.String()
}

// DeadlineSet records when Player must next act (unix nanoseconds) and what
// happens if they do not (Default, e.g. "PASS" or "referee").
type DeadlineSet struct {
	Player  string
	Due     int64
	Default string
}

// EventType implements Payload.
func (*DeadlineSet) EventType() string { return TypeDeadlineSet }

func (p *DeadlineSet) encode(w *Writer) { w.String(p.Player); w.Varint(p.Due); w.String(p.Default) }
func (p *DeadlineSet) decode(r *Reader) {
	p.Player = r.String()
	p.Due = r.Varint()
	p.Default = r.String()
}

// DeadlinePassed is the input written by the server's clock when a deadline
// ran out, so that replay never reads a clock.
type DeadlinePassed struct {
	Player  string
	Due     int64
	Default string
}

// EventType implements Payload.
func (*DeadlinePassed) EventType() string { return TypeDeadlinePassed }

func (p *DeadlinePassed) encode(w *Writer) { w.String(p.Player); w.Varint(p.Due); w.String(p.Default) }
func (p *DeadlinePassed) decode(r *Reader) {
	p.Player = r.String()
	p.Due = r.Varint()
	p.Default = r.String()
}

// PauseExpired is the input written by the server's clock when a pause
// the players asked for has lasted as long as the game's pause-max allows
// (a referee's pause never runs out): At is when that pause began, Due
// when it ran out.
type PauseExpired struct {
	At  int64
	Due int64
}

// EventType implements Payload.
func (*PauseExpired) EventType() string { return TypePauseExpired }

func (p *PauseExpired) encode(w *Writer) { w.Varint(p.At); w.Varint(p.Due) }
func (p *PauseExpired) decode(r *Reader) {
	p.At = r.Varint()
	p.Due = r.Varint()
}

// Attachment is a text file sent with a mail (the whole map, for instance).
type Attachment struct {
	Name string
	Body string
}

// MailQueued is a mail to send, rendered in full when the decision that
// caused it was committed (a transactional outbox): sending it later needs
// nothing but this event, and a resend carries the same MailID (Message-ID).
// Body and attachments are stored deflated (see compress.go).
type MailQueued struct {
	MailID      string
	To          []string
	Subject     string
	Template    string
	ReplyTo     string
	InReplyTo   string
	References  []string
	Body        string
	Attachments []Attachment
}

// EventType implements Payload.
func (*MailQueued) EventType() string { return TypeMailQueued }

func (p *MailQueued) encode(w *Writer) {
	w.String(p.MailID)
	w.Strings(p.To)
	w.String(p.Subject)
	w.String(p.Template)
	w.String(p.ReplyTo)
	w.String(p.InReplyTo)
	w.Strings(p.References)
	w.DeflatedString(p.Body)
	w.Uvarint(uint64(len(p.Attachments)))
	for _, a := range p.Attachments {
		w.String(a.Name)
		w.DeflatedString(a.Body)
	}
}

func (p *MailQueued) decode(r *Reader) {
	p.MailID = r.String()
	p.To = r.Strings()
	p.Subject = r.String()
	p.Template = r.String()
	p.ReplyTo = r.String()
	p.InReplyTo = r.String()
	p.References = r.Strings()
	p.Body = r.DeflatedString()
	if n := r.count(); n > 0 {
		p.Attachments = make([]Attachment, n)
		for i := range p.Attachments {
			p.Attachments[i].Name = r.String()
			p.Attachments[i].Body = r.DeflatedString()
		}
	}
}

// MailSent records that the mail server accepted MailID.
type MailSent struct {
	MailID  string
	Attempt int
	Reply   string
}

// EventType implements Payload.
func (*MailSent) EventType() string { return TypeMailSent }

func (p *MailSent) encode(w *Writer) { w.String(p.MailID); w.Int(p.Attempt); w.String(p.Reply) }
func (p *MailSent) decode(r *Reader) {
	p.MailID = r.String()
	p.Attempt = r.Int()
	p.Reply = r.String()
}

// MailFailed records a failed delivery attempt; Permanent means no retry.
type MailFailed struct {
	MailID    string
	Attempt   int
	Permanent bool
	Error     string
}

// EventType implements Payload.
func (*MailFailed) EventType() string { return TypeMailFailed }

func (p *MailFailed) encode(w *Writer) {
	w.String(p.MailID)
	w.Int(p.Attempt)
	w.Bool(p.Permanent)
	w.String(p.Error)
}

func (p *MailFailed) decode(r *Reader) {
	p.MailID = r.String()
	p.Attempt = r.Int()
	p.Permanent = r.Bool()
	p.Error = r.String()
}

// GameEnded closes a game and reveals the dice seed, so anyone holding the
// log can recompute every roll and check it against the commitment.
type GameEnded struct {
	Reason string
	Winner string
	Seed   []byte
}

// EventType implements Payload.
func (*GameEnded) EventType() string { return TypeGameEnded }

func (p *GameEnded) encode(w *Writer) { w.String(p.Reason); w.String(p.Winner); w.Blob(p.Seed) }
func (p *GameEnded) decode(r *Reader) {
	p.Reason = r.String()
	p.Winner = r.String()
	p.Seed = r.Blob()
}

func decodeErr(e *Envelope, msg string) error {
	return fmt.Errorf("game %s seq %d (%s): %w: %s", e.Game, e.Seq, e.Type, ErrCorrupt, msg)
}
