package play

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"pbem/engine"
	"pbem/events"
)

// bufferPool holds the buffers of finished folds for the next: a replay
// then allocates facts and arguments only for a decision bigger than any
// an earlier fold met.
var bufferPool = sync.Pool{New: func() any { return new(events.FoldBuffer) }}

// fold folds game's log after g.Seq into g, up to seq at (0: to the end).
// On an error g is half folded (its state may be part of a decision
// ahead of g.Seq): the caller drops it. A panic anywhere in it (each
// event's is caught where it is applied, the reading back here) is
// returned as an error: a game that cannot be loaded fails alone.
func fold(src Source, reg *engine.Registry, g *Game, at uint64) (err error) {
	defer engine.Recover(&err, "loading the game")
	f := folding{buf: bufferPool.Get().(*events.FoldBuffer), from: g.Seq}
	defer bufferPool.Put(f.buf)
	if g.Rules != nil { // a loaded snapshot, or a fold catching up
		f.inert = InertFacts(g.Rules)
	}
	err = src.Read(g.ID, g.Seq+1, func(e *events.Envelope) error {
		if at != 0 && e.Seq > at {
			return errStop
		}
		return g.step(reg, e, &f)
	})
	if err != nil && !errors.Is(err, errStop) {
		return fmt.Errorf("load %s: %w", g.ID, err)
	}
	if at != 0 && g.Seq < at {
		return fmt.Errorf("load %s: log ends at %d, before %d", g.ID, g.Seq, at)
	}
	// The mails still unsent keep copies of their ids, in a new list (the
	// old one's array still holds the mails sent, cut from its front), so
	// that the game keeps none of the fold's chunks. The parts still held
	// and the inputs still undecided get back, from the log, the texts and
	// payloads the fold left out.
	if f.ids.Len() > 0 {
		var out []QueuedMail
		for _, m := range g.Outbox {
			m.MailID = strings.Clone(m.MailID)
			out = append(out, m)
		}
		g.Outbox = out
	}
	if err := readBack(src, g, f.from); err != nil {
		return fmt.Errorf("load %s: %w", g.ID, err)
	}
	return nil
}

// readBackGap is the most events between two a fold reads back that are
// read over rather than sought afresh: a seek is a read transaction of
// its own, worth a few dozen events read and passed over.
const readBackGap = 32

// readBack fills in the texts of g's held parts and the payloads of its
// pending inputs past seq from, which a fold leaves out: most parts are
// told and most inputs decided a few events later, and copying each when
// it is folded was a tenth of a gmb replay's time. Each is read from the
// log, in runs of nearby events, and must be the event the fold met.
func readBack(src Source, g *Game, from uint64) error {
	h, p := 0, 0
	for h < len(g.Held) && g.Held[h].Seq <= from {
		h++
	}
	for p < len(g.Pending) && g.Pending[p].Seq <= from {
		p++
	}
	held, pending := g.Held[h:], g.Pending[p:]
	want := mergeSeqs(held, pending)
	for len(want) > 0 {
		run := 1
		for run < len(want) && want[run]-want[run-1] <= readBackGap {
			run++
		}
		last, next := want[run-1], 0
		err := src.Read(g.ID, want[0], func(e *events.Envelope) error {
			if e.Seq > last {
				return errStop
			}
			if e.Seq != want[next] {
				return nil
			}
			next++
			switch {
			case len(held) > 0 && held[0].Seq == e.Seq:
				v, err := events.DecodeMailHeldView(e)
				if err != nil {
					return err
				}
				held[0].Deflated = events.Deflated(string(v.Text))
				held = held[1:]
			case len(pending) > 0 && pending[0].Seq == e.Seq:
				if e.Type != pending[0].Type || e.Hash != pending[0].Hash {
					return fmt.Errorf("%w: the input at seq %d is no longer the one folded", ErrFold, e.Seq)
				}
				pending[0].Payload = append([]byte(nil), e.Payload...)
				pending = pending[1:]
			}
			if e.Seq == last {
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			return fmt.Errorf("read back seq %d..%d: %w", want[0], last, err)
		}
		if next < run {
			return fmt.Errorf("%w: read back: the log has no seq %d", ErrFold, want[next])
		}
		want = want[run:]
	}
	return nil
}

// mergeSeqs returns the seqs of held and pending, each in log order, as
// one list in log order.
func mergeSeqs(held []Held, pending []events.Envelope) []uint64 {
	if len(held)+len(pending) == 0 {
		return nil
	}
	out := make([]uint64, 0, len(held)+len(pending))
	for len(held) > 0 || len(pending) > 0 {
		if len(pending) == 0 || len(held) > 0 && held[0].Seq < pending[0].Seq {
			out, held = append(out, held[0].Seq), held[1:]
		} else {
			out, pending = append(out, pending[0].Seq), pending[1:]
		}
	}
	return out
}

// A folding is what a fold of many events carries from one to the next.
type folding struct {
	// buf holds the facts of the decision being folded: rulesets keep
	// nothing of the facts they evolve (enginetest checks), so one buffer
	// serves them all.
	buf *events.FoldBuffer
	// owns says that g.State was made by this fold's last decision and no
	// one else has seen it: the next decision may change it in place
	// (EvolveOwned) rather than copy it. A fold's states between
	// its events are never seen, as Apply's are (the runner shows each).
	owns bool
	// inert are the ruleset's inert kinds of fact (InertFacts),
	// which the fold checks but neither decodes nor evolves.
	inert []string
	// ids holds the ids of the mails queued in the fold, many to a
	// chunk: most are sent a few events later, and a string each would
	// be an allocation each (a third of a GBACW game's events).
	ids strings.Builder
	// names are the readers and kinds of the held parts: a game has a
	// few of each, met again and again.
	names []string
	// from is the seq the fold started after: the game's held parts and
	// pending inputs past it have no text and no payload until the fold
	// ends (readBack).
	from uint64
	// pending and outbox are the arrays the fold made for g.Pending and
	// g.Outbox (see appendOwned).
	pending []events.Envelope
	outbox  []QueuedMail
}

// mailID returns id as a string cut from the fold's chunk of ids (or a
// new chunk when it is full). What a chunk holds is never written again:
// the strings cut from it stay as they are.
func (f *folding) mailID(id []byte) string {
	if f.ids.Cap()-f.ids.Len() < len(id) {
		last := f.ids.Cap()
		f.ids = strings.Builder{}
		f.ids.Grow(chunkSize(last, len(id)))
	}
	start := f.ids.Len()
	f.ids.Write(id)
	return f.ids.String()[start:]
}

// chunkSize is the size of a fold's next chunk of ids after one of size
// last, for an id of need bytes: small at first, since loading a game
// folds the few events past its snapshot, and larger as a long fold goes
// on.
func chunkSize(last, need int) int { return max(need, min(max(2*last, 512), 8192)) }

// maxNames bounds the names a fold keeps: a log with more (a damaged
// one) costs an allocation for each, as without.
const maxNames = 32

// name returns b as a string, the same one each time it meets the same
// bytes.
func (f *folding) name(b []byte) string {
	for _, n := range f.names {
		if n == string(b) { // no allocation for the comparison
			return n
		}
	}
	s := string(b)
	if len(f.names) < maxNames {
		f.names = append(f.names, s)
	}
	return s
}

// appendRoomy appends v to s, making room for several more when s is
// full: the fold cuts Pending and Outbox from the front as inputs are
// decided and mails sent, and without the room an empty one would take a
// new array of one for every input or mail.
func appendRoomy[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = append(make([]T, 0, max(8, 2*len(s))), s...)
	}
	return append(s, v)
}

// appendOwned is appendRoomy within a fold, which owns the arrays it
// makes (*own, the newest): once s is empty, s starts again at the front
// of that array rather than go on to a new one. appendRoomy cannot: a copy
// of the game may share s's array and see its front change, but no copy
// of a game is made while it is folded.
func appendOwned[T any](s []T, own *[]T, v T) []T {
	if len(s) == 0 && cap(*own) > 0 {
		s = (*own)[:0]
	}
	if len(s) == cap(s) {
		s = append(make([]T, 0, max(8, 2*len(s))), s...)
		*own = s[:0]
	}
	return append(s, v)
}

// Apply folds the next event of the log into g.
func (g *Game) Apply(reg *engine.Registry, e *events.Envelope) error { return g.step(reg, e, nil) }

// step is Apply within a fold of many events if f is not nil. A panic
// of the rule system (its Setup or Evolve) is returned as an error
// holding an *engine.PanicError: the game does not fold, and the runner
// marks it failing, while every other game goes on.
func (g *Game) step(reg *engine.Registry, e *events.Envelope, f *folding) error {
	if e.Seq != g.Seq+1 || e.Prev != g.Hash {
		return fmt.Errorf("%w: game %s at seq %d cannot take seq %d (prev %s, want %s)", ErrFold, g.ID, g.Seq, e.Seq, e.Prev, g.Hash)
	}
	if err := g.apply(reg, e, f); err != nil {
		return fmt.Errorf("game %s seq %d (%s): %w", g.ID, e.Seq, e.Type, err)
	}
	g.Seq, g.Hash = e.Seq, e.Hash
	return nil
}

// apply folds e into g, a panic returned as an error. (The deferred
// recovery sits alone in a function of one return, where the compiler
// inlines it: around applyEvent's many, it took a tenth of a replay's
// bookkeeping.)
func (g *Game) apply(reg *engine.Registry, e *events.Envelope, f *folding) (err error) {
	defer engine.Recover(&err, "folding")
	return g.applyEvent(reg, e, f)
}

func (g *Game) applyEvent(reg *engine.Registry, e *events.Envelope, f *folding) (err error) {
	if g.Created == nil && e.Type != events.TypeGameCreated {
		return fmt.Errorf("%w: first event must be %s", ErrFold, events.TypeGameCreated)
	}
	// The mails first: they are most of a log's events.
	switch e.Type {
	case events.TypeMailHeld:
		// The text is kept deflated for the digest that tells it.
		v, err := events.DecodeMailHeldView(e)
		if err != nil {
			return err
		}
		switch {
		case f == nil && len(v.Told) > 0:
			g.told(string(v.Reader))
		case f == nil:
			g.hold(Held{Seq: e.Seq, Reader: string(v.Reader), Kind: string(v.Kind), Deflated: events.Deflated(v.Text), Board: v.Board})
		case len(v.Told) > 0:
			g.told(f.name(v.Reader))
		default:
			g.hold(Held{Seq: e.Seq, Reader: f.name(v.Reader), Kind: f.name(v.Kind), Board: v.Board}) // text read back if still held
		}
		return nil
	case events.TypeMailQueued, events.TypeMailSent:
		// Only the mail id matters to the fold: skip decoding the body.
		id, err := events.PeekMailIDView(e)
		if err != nil {
			return err
		}
		if e.Type == events.TypeMailSent {
			dropMail(g, id)
			return nil
		}
		if f != nil {
			g.Outbox = appendOwned(g.Outbox, &f.outbox, QueuedMail{Seq: e.Seq, MailID: f.mailID(id)})
		} else {
			g.Outbox = appendRoomy(g.Outbox, QueuedMail{Seq: e.Seq, MailID: string(id)})
		}
		if player, due, ok := ParseReminderKey(e.Key); ok {
			for i := range g.Deadlines {
				if g.Deadlines[i].Player == player && g.Deadlines[i].Due == due {
					g.Deadlines[i].Reminded = true
				}
			}
		}
		return nil
	}
	if events.IsInput(e.Type) {
		if e.Type == events.TypeDeadlinePassed {
			p, err := events.Decode(e)
			if err != nil {
				return err
			}
			dp := p.(*events.DeadlinePassed)
			for i := range g.Deadlines {
				if g.Deadlines[i].Player == dp.Player && g.Deadlines[i].Due == dp.Due {
					g.Deadlines[i].Passed = true
				}
			}
		}
		in := *e
		if f != nil {
			in.Payload = nil // read back at the fold's end if still pending
			g.Pending = appendOwned(g.Pending, &f.pending, in)
		} else {
			in.Payload = append([]byte(nil), e.Payload...)
			g.Pending = appendRoomy(g.Pending, in)
		}
		return nil
	}
	switch e.Type {
	case events.TypeOrderAccepted, events.TypeOrderAcceptedV1:
		// The fold needs the input, the facts and the dice indices only.
		var buf *events.FoldBuffer
		var inert []string
		if f != nil {
			buf, inert = f.buf, f.inert
		}
		buf.Reset()
		a, err := buf.DecodeAccepted(e, inert...)
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
		return g.applyFacts(reg, e.Seq, a.Input, a.Facts, f)
	case events.TypeOrderHeld, events.TypeOrderConfirmed, events.TypeMailRefused:
		// The intake's record of a mail that was held, confirmed or
		// refused: the game is unchanged (a confirmed order follows as an
		// order.received), and the mails it causes are mail.queued events.
		return nil
	}
	var p events.Payload
	if e.Type == events.TypeGameCreated {
		// In place: the game keeps the registry's copy of the scenario.
		p, err = events.DecodeCreatedView(e)
	} else {
		p, err = events.Decode(e)
	}
	if err != nil {
		return err
	}
	switch d := p.(type) {
	case *events.GameCreated:
		if g.Created != nil {
			return fmt.Errorf("%w: game created twice", ErrFold)
		}
		rs, err := reg.Get(d.Ruleset)
		if err != nil {
			return err
		}
		st, scenario, err := reg.SetupShared(rs, d.Scenario, d.Players)
		if err != nil {
			return fmt.Errorf("setup %s: %w", d.Ruleset, err)
		}
		d.Scenario = scenario // the same bytes, shared by the scenario's games
		g.ID, g.Created, g.Rules, g.State = e.Game, d, rs, st
		if f != nil {
			f.inert = InertFacts(rs)
		}
		g.Players, g.Referees = clonePlayers(d.Players), clonePlayers(d.Referees)
		g.Settings = append([]events.Setting(nil), d.Settings...)
		for _, f := range g.deadlineFactsFresh(st, e.At, g.Policy()) {
			if err := g.applyGameFact(reg, e.Seq, e.Seq, f); err != nil {
				return err
			}
		}
	case *events.OrderRejected:
		return g.settle(d.Input)
	case *events.MailFailed:
		if d.Permanent {
			dropMail(g, d.MailID)
		} else {
			for i := range g.Outbox {
				if g.Outbox[i].MailID == d.MailID {
					g.Outbox[i].Attempts = max(g.Outbox[i].Attempts, d.Attempt)
				}
			}
		}
	case *events.DeadlineSet:
		g.setDeadline(Deadline{Player: d.Player, Due: d.Due, Default: d.Default})
	case *events.GameEnded:
		g.Ended = d
	default:
		return fmt.Errorf("%w: no fold for %s", ErrFold, e.Type)
	}
	return nil
}
