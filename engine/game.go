package engine

import (
	"errors"
	"fmt"
	"sort"

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
	Rules   Ruleset
	State   State
	// Rolls is the index of the next die: every die of every decision so far
	// was drawn in order from the game's dice stream.
	Rolls uint64
	// Pending are inputs not yet decided, in log order.
	Pending []events.Envelope
	// Outbox are mails queued and not yet sent (nor failed for good), by seq.
	Outbox []QueuedMail
	// Deadlines by player, sorted by player id.
	Deadlines []events.DeadlineSet
	Ended     *events.GameEnded
}

// QueuedMail is a mail in the outbox, with the failed attempts so far.
type QueuedMail struct {
	Seq      uint64
	MailID   string
	Attempts int
}

// ErrFold is wrapped by errors that mean the log does not fold: it is out
// of order, or an event contradicts what came before.
var ErrFold = errors.New("log does not fold")

// PlayerByID returns the player or referee with the id.
func (g *Game) PlayerByID(id string) (events.Player, bool) {
	if g.Created == nil {
		return events.Player{}, false
	}
	for _, p := range g.Created.Players {
		if p.ID == id {
			return p, true
		}
	}
	for _, p := range g.Created.Referees {
		if p.ID == id {
			return p, true
		}
	}
	return events.Player{}, false
}

// Apply folds the next event of the log into g.
func (g *Game) Apply(reg *Registry, e *events.Envelope) error {
	if e.Seq != g.Seq+1 || e.Prev != g.Hash {
		return fmt.Errorf("%w: game %s at seq %d cannot take seq %d (prev %s, want %s)", ErrFold, g.ID, g.Seq, e.Seq, e.Prev, g.Hash)
	}
	if err := g.apply(reg, e); err != nil {
		return fmt.Errorf("game %s seq %d (%s): %w", g.ID, e.Seq, e.Type, err)
	}
	g.Seq, g.Hash = e.Seq, e.Hash
	return nil
}

func (g *Game) apply(reg *Registry, e *events.Envelope) error {
	if g.Created == nil && e.Type != events.TypeGameCreated {
		return fmt.Errorf("%w: first event must be %s", ErrFold, events.TypeGameCreated)
	}
	if events.IsInput(e.Type) {
		g.Pending = append(g.Pending, e.Clone())
		return nil
	}
	switch e.Type {
	case events.TypeOrderAccepted:
		// The fold needs the input, the facts and the dice indices only.
		a, err := events.DecodeAccepted(e)
		if err != nil {
			return err
		}
		if err := g.settle(a.Input); err != nil {
			return err
		}
		if a.NDice > 0 {
			if a.FirstDie != g.Rolls || !a.Contiguous {
				return fmt.Errorf("%w: dice indices %d..%d, the stream is at %d", ErrFold, a.FirstDie, a.LastIndex, g.Rolls)
			}
			g.Rolls += uint64(a.NDice)
		}
		st, err := evolveAll(g.Rules, g.State, a.Facts)
		if err != nil {
			return err
		}
		g.State = st
		return nil
	case events.TypeMailQueued, events.TypeMailSent:
		// Only the mail id matters to the fold: skip decoding the body.
		id, err := events.PeekMailID(e)
		if err != nil {
			return err
		}
		if e.Type == events.TypeMailQueued {
			g.Outbox = append(g.Outbox, QueuedMail{Seq: e.Seq, MailID: id})
		} else {
			g.dropMail(id)
		}
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.GameCreated:
		if g.Created != nil {
			return fmt.Errorf("%w: game created twice", ErrFold)
		}
		rs, err := reg.Get(p.Ruleset)
		if err != nil {
			return err
		}
		st, err := reg.Setup(rs, p.Scenario, p.Players)
		if err != nil {
			return fmt.Errorf("setup %s: %w", p.Ruleset, err)
		}
		g.ID, g.Created, g.Rules, g.State = e.Game, p, rs, st
	case *events.OrderRejected:
		return g.settle(p.Input)
	case *events.MailFailed:
		if p.Permanent {
			g.dropMail(p.MailID)
		} else {
			for i := range g.Outbox {
				if g.Outbox[i].MailID == p.MailID {
					g.Outbox[i].Attempts = max(g.Outbox[i].Attempts, p.Attempt)
				}
			}
		}
	case *events.DeadlineSet:
		i := sort.Search(len(g.Deadlines), func(i int) bool { return g.Deadlines[i].Player >= p.Player })
		if i < len(g.Deadlines) && g.Deadlines[i].Player == p.Player {
			g.Deadlines[i] = *p
		} else {
			g.Deadlines = append(g.Deadlines, events.DeadlineSet{})
			copy(g.Deadlines[i+1:], g.Deadlines[i:])
			g.Deadlines[i] = *p
		}
	case *events.GameEnded:
		g.Ended = p
	default:
		return fmt.Errorf("%w: no fold for %s", ErrFold, e.Type)
	}
	return nil
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
	g.Pending = g.Pending[1:]
	if len(g.Pending) == 0 {
		g.Pending = nil
	}
	return nil
}

func (g *Game) dropMail(id string) {
	for i, m := range g.Outbox {
		if m.MailID == id {
			g.Outbox = append(g.Outbox[:i:i], g.Outbox[i+1:]...)
			return
		}
	}
}

// snapshotVersion is the first byte of an encoded snapshot.
const snapshotVersion = 2

// MarshalSnapshot encodes g (engine bookkeeping and ruleset state).
func (g *Game) MarshalSnapshot() ([]byte, error) {
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
	}
	w.Bool(g.Ended != nil)
	if g.Ended != nil {
		w.Blob(events.EncodePayload(g.Ended))
	}
	w.Blob(st)
	return w.Bytes(), nil
}

// errStaleSnapshot means a snapshot was written by another ruleset version
// or snapshot layout;
// it is ignored and the log replayed instead.
var errStaleSnapshot = errors.New("snapshot from another ruleset version")

// UnmarshalSnapshot restores a game saved by MarshalSnapshot.
func UnmarshalSnapshot(reg *Registry, b []byte) (*Game, error) {
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
	created := events.Envelope{Type: events.TypeGameCreated, Payload: r.Blob()}
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
		g.Deadlines = append(g.Deadlines, events.DeadlineSet{Player: r.String(), Due: r.Varint(), Default: r.String()})
	}
	var ended events.Envelope
	if r.Bool() {
		ended = events.Envelope{Type: events.TypeGameEnded, Payload: r.Blob()}
	}
	st := r.Blob()
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("decode snapshot: %w", err)
	}
	p, err := events.Decode(&created)
	if err != nil {
		return nil, err
	}
	g.Created = p.(*events.GameCreated)
	if ended.Type != "" {
		p, err := events.Decode(&ended)
		if err != nil {
			return nil, err
		}
		g.Ended = p.(*events.GameEnded)
	}
	initial, err := reg.Setup(rs, g.Created.Scenario, g.Created.Players)
	if err != nil {
		return nil, fmt.Errorf("setup %s: %w", name, err)
	}
	if g.State, err = rs.DecodeState(st, initial); err != nil {
		return nil, fmt.Errorf("decode %s state: %w", name, err)
	}
	return g, nil
}
