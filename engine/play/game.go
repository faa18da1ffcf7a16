package play

import (
	"errors"
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// Game is one game folded from its log: the engine's own bookkeeping
// (inputs not yet decided, dice used, mails not yet sent, deadlines) and
// the ruleset's state. A Game is owned by one goroutine at a time.
type Game struct {
	ID      string
	Seq     uint64      // last event folded
	Hash    events.Hash // its hash
	Created *events.GameCreated
	Rules   engine.Ruleset
	State   engine.State
	// Rolls is the index of the next die: every die of every decision so far
	// was drawn in order from the game's dice stream.
	Rolls uint64
	// Pending are inputs not yet decided, in log order.
	Pending []events.Envelope
	// Outbox are mails queued and not yet sent (nor failed for good), by seq.
	Outbox []QueuedMail
	// Deadlines by player, sorted by player id.
	Deadlines []Deadline
	Ended     *events.GameEnded

	// Players and Referees are the game's seats as they are now (a
	// referee may replace a player); Observers get the game's mails
	// without playing; Settings are the game's settings as they are now.
	Players   []events.Player
	Referees  []events.Player
	Observers []string
	Settings  []events.Setting
	// Paused is the pause in force, if any; Asks are the requests every
	// side must make (a pause, a resume, a draw, a referee) that some
	// sides made and that have not yet been granted or expired.
	Paused *Pause
	Asks   []Ask
	// Keys are the seats whose reply key (and a referee's secret) changed
	// hands: a REPLACE gives the seat a new key epoch, so the mails the
	// old holder has stop working. Sorted by id; a seat not listed is at
	// epoch 0.
	Keys []SeatKey
	// Absences are the players' declared absences (one per player, the
	// latest), during which their deadlines do not run. Sorted by player.
	Absences []Absence
	// Branches are the stretches of the log rollbacks closed, in order.
	Branches []Branch
	// Recent are the seqs of the last accepted decisions that changed the
	// game (at most 32), for ROLLBACK <n> ACTIONS.
	Recent []uint64
	// Sealed are the orders sides have sealed for a simultaneous step not
	// yet revealed; Revealed are the reveals so far, sorted (what they
	// opened stays open, even after a rollback).
	Sealed   []SealedOrder
	Revealed []string
	// Held are the parts of reports not yet mailed to their readers (the
	// mail volume they chose), in log order: the next mail to each reader
	// tells theirs (see HeldFor).
	Held []Held

	// History gives the game as it was at an earlier seq (a rollback needs
	// it). Load and Replay set it; it is not part of the game's state.
	History History

	// prompted are the ruleset's prompts of the states last asked about
	// (rulePrompts); not part of the game's state.
	prompted [2]promptMemo
}

// History gives a game as it was at an earlier seq.
type History interface {
	At(seq uint64) (*Game, error)
}

// LogHistory is the History of game read from src: the game folded up
// to the seq asked for (snapshot + tail), as Load gives it.
func LogHistory(src Source, reg *engine.Registry, game string) History {
	return sourceHistory{src, reg, game}
}

type sourceHistory struct {
	src  Source
	reg  *engine.Registry
	game string
}

func (h sourceHistory) At(seq uint64) (*Game, error) { return Load(h.src, h.reg, h.game, seq) }

// QueuedMail is a mail in the outbox, with the failed attempts so far.
type QueuedMail struct {
	Seq      uint64
	MailID   string
	Attempts int
}

// ErrFold is wrapped by errors that mean the log does not fold: it is out
// of order, or an event contradicts what came before.
var ErrFold = errors.New("log does not fold")

// PlayerByID returns the player or referee with the id, as the seat is
// now (a referee may have replaced the player's address).
func (g *Game) PlayerByID(id string) (events.Player, bool) {
	if p, _ := g.seat(id); p != nil {
		return *p, true
	}
	return events.Player{}, false
}

// IsReferee reports whether id is one of the game's referees.
func (g *Game) IsReferee(id string) bool {
	_, ref := g.seat(id)
	return ref
}

// settle removes the input a decision is about, which must be the oldest
// undecided one: inputs are decided in log order.
func (g *Game) settle(input uint64) error {
	if len(g.Pending) == 0 || g.Pending[0].Seq != input {
		oldest := uint64(0)
		if len(g.Pending) > 0 {
			oldest = g.Pending[0].Seq
		}
		return fmt.Errorf("%w: decision for input %d, but the oldest undecided input is %d", ErrFold, input, oldest)
	}
	// Cut from the front, and appended to only past the end, so a copy
	// of g never sees its inputs change (as Recent).
	g.Pending = g.Pending[1:]
	return nil
}

// dropMail takes the mail with the id out of the outbox. Mails are mostly
// sent in the order they were queued, so that one is cut from the front;
// one from further in is dropped by copying the rest, so that a copy of g
// never sees its outbox change.
func dropMail[S ~string | ~[]byte](g *Game, id S) {
	for i, m := range g.Outbox {
		if m.MailID == string(id) {
			if i == 0 {
				g.Outbox = g.Outbox[1:]
			} else {
				g.Outbox = append(g.Outbox[:i:i], g.Outbox[i+1:]...)
			}
			return
		}
	}
}

// snapshotVersion is the first byte of an encoded snapshot.
const snapshotVersion = 8

// MarshalSnapshot encodes g (engine bookkeeping and ruleset state).
func (g *Game) MarshalSnapshot() (_ []byte, err error) {
	defer engine.Recover(&err, "encoding the state")
	st, err := g.Rules.EncodeState(g.State)
	if err != nil {
		return nil, fmt.Errorf("encode %s state: %w", g.Rules.Name(), err)
	}
	w := events.NewWriter(make([]byte, 0, 256+len(st)))
	w.Fixed([]byte{snapshotVersion})
	w.String(g.Rules.Name())
	w.String(g.Rules.Version())
	w.String(g.ID)
	w.Uvarint(g.Seq)
	w.Fixed(g.Hash[:])
	w.Blob(events.EncodePayload(g.Created))
	w.Uvarint(g.Rolls)
	w.Uvarint(uint64(len(g.Pending)))
	for i := range g.Pending {
		w.Blob(g.Pending[i].Marshal())
	}
	w.Uvarint(uint64(len(g.Outbox)))
	for _, m := range g.Outbox {
		w.Uvarint(m.Seq)
		w.String(m.MailID)
		w.Int(m.Attempts)
	}
	w.Uvarint(uint64(len(g.Deadlines)))
	for _, d := range g.Deadlines {
		w.String(d.Player)
		w.Varint(d.Due)
		w.String(d.Default)
		w.Bool(d.Passed)
		w.Bool(d.Reminded)
	}
	w.Bool(g.Ended != nil)
	if g.Ended != nil {
		w.Blob(events.EncodePayload(g.Ended))
	}
	writePlayers(w, g.Players)
	writePlayers(w, g.Referees)
	w.Strings(g.Observers)
	w.Uvarint(uint64(len(g.Settings)))
	for _, s := range g.Settings {
		w.String(s.Key)
		w.String(s.Value)
	}
	w.Bool(g.Paused != nil)
	if g.Paused != nil {
		w.String(g.Paused.By)
		w.Varint(g.Paused.At)
		w.String(g.Paused.Reason)
	}
	w.Uvarint(uint64(len(g.Asks)))
	for _, a := range g.Asks {
		w.String(a.Kind)
		w.String(a.Side)
		w.String(a.Text)
	}
	w.Uvarint(uint64(len(g.Keys)))
	for _, k := range g.Keys {
		w.String(k.ID)
		w.Uvarint(k.Epoch)
	}
	w.Uvarint(uint64(len(g.Absences)))
	for _, a := range g.Absences {
		w.String(a.Player)
		w.Varint(a.From)
		w.Varint(a.To)
	}
	w.Uvarint(uint64(len(g.Branches)))
	for _, b := range g.Branches {
		w.Uvarint(b.From)
		w.Uvarint(b.To)
		w.Uvarint(b.By)
		w.String(b.Withdraws)
	}
	w.Uvarint(uint64(len(g.Recent)))
	for _, r := range g.Recent {
		w.Uvarint(r)
	}
	w.Uvarint(uint64(len(g.Sealed)))
	for _, s := range g.Sealed {
		w.String(s.Step)
		w.String(s.Reveal)
		w.String(s.Side)
		w.String(s.Player)
		w.String(s.Text)
		w.Uvarint(s.Seq)
	}
	w.Strings(g.Revealed)
	w.Uvarint(uint64(len(g.Held)))
	for _, h := range g.Held {
		w.Uvarint(h.Seq)
		w.String(h.Reader)
		w.String(h.Kind)
		w.WriteDeflated(h.Deflated)
		w.Bool(h.Board)
	}
	w.Blob(st)
	return w.Bytes(), nil
}

func writePlayers(w *events.Writer, ps []events.Player) {
	w.Uvarint(uint64(len(ps)))
	for _, p := range ps {
		w.String(p.ID)
		w.String(p.Name)
		w.String(p.Side)
		w.Strings(p.Addresses)
	}
}

func readPlayers(r *events.Reader) []events.Player {
	n := r.Uvarint()
	var out []events.Player
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		out = append(out, events.Player{ID: r.String(), Name: r.String(), Side: r.String(), Addresses: r.Strings()})
	}
	return out
}

// errStaleSnapshot means a snapshot was written by another ruleset version
// or snapshot layout;
// it is ignored and the log replayed instead.
var errStaleSnapshot = errors.New("snapshot from another ruleset version")

// UnmarshalSnapshot restores a game saved by MarshalSnapshot.
func UnmarshalSnapshot(reg *engine.Registry, b []byte) (_ *Game, err error) {
	defer engine.Recover(&err, "decoding a snapshot")
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty snapshot", events.ErrCorrupt)
	}
	if b[0] != snapshotVersion {
		// Written by another version of pbem: replay the log instead.
		return nil, errStaleSnapshot
	}
	r := events.NewReader(b[1:])
	name, version := r.String(), r.String()
	if r.Err() != nil {
		return nil, r.Err()
	}
	rs, err := reg.Get(name)
	if err != nil {
		return nil, err
	}
	if rs.Version() != version {
		return nil, errStaleSnapshot
	}
	g := &Game{Rules: rs, ID: r.String(), Seq: r.Uvarint()}
	r.Fixed(g.Hash[:])
	// Decoding copies what it keeps, so the payloads are read in place.
	created := events.Envelope{Type: events.TypeGameCreated, Payload: r.BlobView()}
	g.Rolls = r.Uvarint()
	n := r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		e, err := events.Unmarshal(r.Blob())
		if err != nil {
			return nil, fmt.Errorf("snapshot pending input: %w", err)
		}
		g.Pending = append(g.Pending, e)
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Outbox = append(g.Outbox, QueuedMail{Seq: r.Uvarint(), MailID: r.String(), Attempts: r.Int()})
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Deadlines = append(g.Deadlines, Deadline{Player: r.String(), Due: r.Varint(), Default: r.String(), Passed: r.Bool(), Reminded: r.Bool()})
	}
	var ended events.Envelope
	if r.Bool() {
		ended = events.Envelope{Type: events.TypeGameEnded, Payload: r.BlobView()}
	}
	g.Players = readPlayers(r)
	g.Referees = readPlayers(r)
	g.Observers = r.Strings()
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Settings = append(g.Settings, events.Setting{Key: r.String(), Value: r.String()})
	}
	if r.Bool() {
		g.Paused = &Pause{By: r.String(), At: r.Varint(), Reason: r.String()}
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Asks = append(g.Asks, Ask{Kind: r.String(), Side: r.String(), Text: r.String()})
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Keys = append(g.Keys, SeatKey{ID: r.String(), Epoch: r.Uvarint()})
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Absences = append(g.Absences, Absence{Player: r.String(), From: r.Varint(), To: r.Varint()})
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Branches = append(g.Branches, Branch{From: r.Uvarint(), To: r.Uvarint(), By: r.Uvarint(), Withdraws: r.String()})
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Recent = append(g.Recent, r.Uvarint())
	}
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Sealed = append(g.Sealed, SealedOrder{Step: r.String(), Reveal: r.String(), Side: r.String(), Player: r.String(), Text: r.String(), Seq: r.Uvarint()})
	}
	g.Revealed = r.Strings()
	n = r.Uvarint()
	for i := uint64(0); i < n && r.Err() == nil; i++ {
		g.Held = append(g.Held, Held{Seq: r.Uvarint(), Reader: r.String(), Kind: r.String(), Deflated: r.DeflatedText(), Board: r.Bool()})
	}
	st := r.Blob()
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("decode snapshot: %w", err)
	}
	// In place: the game keeps the registry's copy of the scenario (below).
	if g.Created, err = events.DecodeCreatedView(&created); err != nil {
		return nil, err
	}
	if ended.Type != "" {
		p, err := events.Decode(&ended)
		if err != nil {
			return nil, err
		}
		g.Ended = p.(*events.GameEnded)
	}
	initial, scenario, err := reg.SetupShared(rs, g.Created.Scenario, g.Created.Players)
	if err != nil {
		return nil, fmt.Errorf("setup %s: %w", name, err)
	}
	g.Created.Scenario = scenario // the same bytes, shared by the scenario's games
	if g.State, err = rs.DecodeState(st, initial); err != nil {
		return nil, fmt.Errorf("decode %s state: %w", name, err)
	}
	return g, nil
}
