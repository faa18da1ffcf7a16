package enginetest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// Mailer is what the leak test needs of the runtime's mail renderer: the
// mails a decision causes (the runner's play.Notifier) and a new game's
// welcome mails. pbem's mail composer (mail/compose) is one; the rule
// systems' tests pass it in, so that the test kit of the rule contract
// does not depend on the mail layer.
type Mailer interface {
	play.Notifier
	Welcome(g *play.Game) ([]events.Payload, error)
}

// Leak is the acceptance suite's leak test. It plays s as it is, and
// again with one side's secret changed: each of s.Secrets (other orders
// for a sealed choice, say), and, for each viewer, every die that viewer
// may not see thrown from another seed (another hand dealt, other hidden
// draws). It collects everything each other viewer receives — every mail
// to them, their board (ASCII, and drawn as SVG when the rule system
// is an engine.Drawer) and prompts after every event, the log as pbem log
// --as shows it to them, and their answers to HELP and STATUS — and
// checks it is byte for byte the same in both games up to the first
// reveal after the two games part (a pbem.revealed fact, or the game's
// end). A variant that changes nothing is an error: it tests nothing.
// Mails are rendered by mail. Each variant is a parallel subtest with a
// game and store of its own.
func Leak(t *testing.T, reg *engine.Registry, mail Mailer, s Script) {
	t.Helper()
	if mail == nil {
		t.Fatal("the leak test needs the mail renderer (enginetest.Mailer): without it no mail is compared")
	}
	leak(t, reg, mail, s, mailedPlay(t, reg, mail, s))
}

// mailedSeed is the dice seed of the games of s the leak and volume tests
// play with mails: the one base game they share (mailedPlay), and their
// variants.
func mailedSeed(s Script) []byte {
	seed := sha256.Sum256([]byte("enginetest leak " + s.Name))
	return seed[:]
}

// mailedPlay plays s as it is, with its mails rendered by mail, under the
// default mail volume and mailedSeed: the leak test's base game, and the
// volume test's game of the default volume. Its store lives as long as t.
func mailedPlay(t testing.TB, reg *engine.Registry, mail Mailer, s Script) *Played {
	t.Helper()
	return playScript(t, reg, s, playOptions{mail: mail, seed: mailedSeed(s)})
}

// leak is Leak with the base game played already (mailedPlay).
func leak(t *testing.T, reg *engine.Registry, mail Mailer, s Script, played *Played) {
	t.Helper()
	seed := mailedSeed(s)
	other := sha256.Sum256([]byte("enginetest leak, another seed " + s.Name))
	base := &materials{Played: played, reg: reg, mail: mail}
	for _, v := range leakViewers(s) {
		what := "dice hidden from " + viewerName(v) + " thrown from another seed"
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			// Dice hidden from v come from another seed.
			hidden := func(vis events.Vis) []byte {
				if v.Sees(vis) {
					return nil
				}
				return other[:]
			}
			alt := &materials{Played: playScript(t, reg, s, playOptions{mail: mail, seed: seed, hidden: hidden}), reg: reg, mail: mail}
			compareMaterial(t, what, v, base, alt, false, false)
		})
	}
	for _, sec := range s.Secrets {
		what := fmt.Sprintf("secret %q of %s", sec.Name, sec.Side)
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			alt := &materials{Played: playScript(t, reg, s, playOptions{mail: mail, seed: seed, orders: sec.Orders}), reg: reg, mail: mail}
			vs := leakViewers(s)
			if len(sec.Readers) > 0 && !sec.RefereesRead {
				for _, r := range s.Referees {
					vs = append(vs, engine.Viewer{Player: r.ID, Referee: true})
				}
			}
			for _, v := range vs {
				switch {
				case len(sec.Readers) > 0 && slices.Contains(sec.Readers, v.Player):
					continue
				case len(sec.Readers) == 0 && v.Side == sec.Side:
					continue
				}
				compareMaterial(t, what, v, base, alt, true, len(sec.Readers) > 0)
			}
		})
	}
}

// materials is a played game of the leak test and what each viewer
// receives of it, worked out once per viewer (the game as the script
// plays it is compared with every variant).
type materials struct {
	*Played
	reg  *engine.Registry
	mail Mailer

	mu  sync.Mutex
	got map[engine.Viewer]*viewerMaterial
}

type viewerMaterial struct {
	once  sync.Once
	items []item
	err   error
}

// item is one thing a viewer receives, at a seq.
type item struct {
	seq  uint64
	text string
}

// of is everything v receives of the game, in order.
func (m *materials) of(v engine.Viewer) ([]item, error) {
	m.mu.Lock()
	if m.got == nil {
		m.got = map[engine.Viewer]*viewerMaterial{}
	}
	vm := m.got[v]
	if vm == nil {
		vm = &viewerMaterial{}
		m.got[v] = vm
	}
	m.mu.Unlock()
	vm.once.Do(func() { vm.items, vm.err = material(m.reg, m.mail, m.Played, v, 1, noEnd) })
	return vm.items, vm.err
}

// noEnd is a seq past every log's end.
const noEnd = uint64(1<<63 - 1)

// between is what v receives from seq from up to (not including) seq
// until. Only the game compared with every variant keeps all it
// receives (of); a variant's is worked out for the window alone.
func (m *materials) between(t *testing.T, v engine.Viewer, from, until uint64, keep bool) []string {
	t.Helper()
	var items []item
	var err error
	if keep {
		items, err = m.of(v)
	} else {
		items, err = material(m.reg, m.mail, m.Played, v, from, until)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range items {
		if it.seq >= from && it.seq < until {
			out = append(out, it.text)
		}
	}
	return out
}

// leakViewers are the viewers whose material must not move: each player,
// and an observer (who sees only what is public).
func leakViewers(s Script) []engine.Viewer {
	var vs []engine.Viewer
	for _, p := range s.Players {
		if p.Side != "" {
			vs = append(vs, engine.Viewer{Player: p.ID, Side: p.Side})
		}
	}
	return append(vs, engine.Viewer{})
}

func viewerName(v engine.Viewer) string {
	if v.Referee {
		return "the referee " + v.Player
	}
	if v.Player == "" {
		return "an observer"
	}
	return v.Player + " (" + v.Side + ")"
}

// compareMaterial checks v's material is the same in a and b until the
// first reveal after the two logs part (to the end, when kept: press is
// never revealed).
func compareMaterial(t *testing.T, what string, v engine.Viewer, a, b *materials, mustPart, kept bool) {
	t.Helper()
	part := 0
	for part < len(a.Log) && part < len(b.Log) && bytes.Equal(a.Log[part].Payload, b.Log[part].Payload) && a.Log[part].Type == b.Log[part].Type {
		part++
	}
	if part == len(a.Log) && part == len(b.Log) {
		if mustPart {
			t.Fatalf("%s: the game is the same with it; the variant tests nothing", what)
		}
		return
	}
	until := noEnd
	for _, p := range []*materials{a, b} {
		for i := part; i < len(p.Log) && !kept; i++ {
			if revealsAt(&p.Log[i]) {
				until = min(until, endingDecision(p.Log, i))
				break
			}
		}
	}
	// Up to where the logs part the two games are one: what v receives
	// of the events before (a function of the log so far, which the
	// replay checks show is deterministic) is the same in both, and a
	// leak can show only from the first event that differs. Only that
	// window is compared, and worked out for the variant b.
	from := uint64(part) + 1 // the seq of the first event that differs
	ma, mb := a.between(t, v, from, until, true), b.between(t, v, from, until, false)
	for i := 0; i < len(ma) || i < len(mb); i++ {
		switch {
		case i >= len(ma):
			t.Fatalf("%s: %s receives more before seq %d:\n%s", what, viewerName(v), until, mb[i])
		case i >= len(mb):
			t.Fatalf("%s: %s receives less before seq %d; missing:\n%s", what, viewerName(v), until, ma[i])
		case ma[i] != mb[i]:
			t.Fatalf("%s: %s learns it before seq %d (the reveal):\n--- one game\n%s\n--- the other\n%s", what, viewerName(v), until, ma[i], mb[i])
		}
	}
}

// revealsAt reports whether e opens something hidden: a decision with a
// pbem.revealed fact, or the game's end.
func revealsAt(e *events.Envelope) bool {
	switch {
	case e.Type == events.TypeGameEnded:
		return true
	case events.IsAccepted(e.Type):
		p, err := events.Decode(e)
		return err == nil && slices.ContainsFunc(p.(*events.OrderAccepted).Facts, func(f events.Fact) bool { return f.Kind == play.FactReveal })
	}
	return false
}

// endingDecision is where the reveal at log[i] begins: the game's end
// opens everything from the decision that ended it (its own mails are cut
// as after the end, play.Sight.After), so a rule system may tell what
// the end reveals in that decision (a secret tactic, the score).
func endingDecision(log []events.Envelope, i int) uint64 {
	if log[i].Type != events.TypeGameEnded {
		return log[i].Seq
	}
	for j := i - 1; j >= 0; j-- {
		switch t := log[j].Type; {
		case events.IsAccepted(t):
			return log[j].Seq
		case t == events.TypeOrderReceived, t == events.TypeRefereeCommand, t == events.TypeOrderRejected:
			return log[i].Seq // the game ended by a command of the runtime's
		}
	}
	return log[i].Seq
}

// errWindowDone stops a game's material at the end of its window.
var errWindowDone = errors.New("the window is done")

// material is what v receives of a played game from seq from up to (not
// including) seq until, item by item, each marked with its kind and seq.
// The board and prompts are compared with those at seq from-1 (an item
// only when they change).
func material(reg *engine.Registry, mail Mailer, p *Played, v engine.Viewer, from, until uint64) ([]item, error) {
	var out []item
	var addrs []string
	for _, pl := range append(slices.Clip(p.Script.Players), p.Script.Referees...) {
		if pl.ID == v.Player {
			addrs = pl.Addresses
		}
	}
	lastBoard := ""
	var boards boardMemo
	err := play.CutLog(p.Store, reg, p.Log[0].Game, v, func(g *play.Game, e *events.Envelope, cut events.Payload) error {
		switch {
		case e.Seq >= until:
			return errWindowDone
		case e.Seq+1 < from:
			return nil // before the window: only folded
		case e.Seq+1 == from:
			if g.Rules != nil {
				lastBoard = boards.of(g, v) // what the window's first board is compared with
			}
			return nil
		}
		at := fmt.Sprintf("seq %d ", e.Seq)
		add := func(s string) { out = append(out, item{e.Seq, at + s}) }
		if cut != nil {
			add("log: " + play.LogEntry(e, cut))
		}
		if m, ok := cut.(*events.MailQueued); ok && slices.ContainsFunc(m.To, func(a string) bool { return slices.Contains(addrs, a) }) {
			add("mail: " + mailText(m))
		}
		if h, ok := cut.(*events.MailHeld); ok {
			// A part of a report held for the viewer's next mail (the
			// mail volume): what a digest will tell them.
			add("held: " + h.Kind + "\n" + h.Text)
		}
		if g.Rules == nil {
			return nil
		}
		if now := boards.of(g, v); now != lastBoard {
			add("board and prompts:\n" + now)
			lastBoard = now
		}
		if v.Player != "" && !v.Referee && (events.IsAccepted(e.Type) || e.Type == events.TypeGameCreated) {
			for _, word := range []string{play.QueryHelp, play.QueryStatus} {
				ms, err := answer(mail, g, v.Player, word)
				if err != nil {
					return err
				}
				for _, m := range ms {
					add(word + ": " + mailText(m))
				}
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errWindowDone) {
		return nil, fmt.Errorf("what %s receives: %w", viewerName(v), err)
	}
	return out, nil
}

// boardMemo is a viewer's board (ASCII, and drawn) and prompts as the
// leak test compares them, kept for the state and sealed orders they were
// made of. A fold by Apply makes a new state for each decision and never
// changes one it made (the suite's Evolve checks hold every rule system
// to that), and the board and prompts are of the state and the sealed
// orders alone: while neither changes — the inputs, mails and deadlines
// between decisions — they are not made again.
type boardMemo struct {
	st     engine.State
	sealed []play.SealedOrder
	text   string
}

func (m *boardMemo) of(g *play.Game, v engine.Viewer) string {
	if m.text != "" && sameState(m.st, g.State) && slices.Equal(m.sealed, g.Sealed) {
		return m.text
	}
	board := g.Rules.Render(g.Rules.View(g.State, v))
	var prompts strings.Builder
	for _, pr := range g.Prompts(g.State, nil) {
		fmt.Fprintf(&prompts, "%s %v: %s\n", pr.Side, pr.Referee, pr.What)
		if pr.Side != "" && pr.Side == v.Side {
			fmt.Fprintf(&prompts, "  %s\n", strings.Join(pr.Examples, " | "))
		}
	}
	m.st, m.sealed = g.State, slices.Clone(g.Sealed)
	m.text = board.Window + "\n" + board.Full + "\n" + string(drawn(g.Rules, g.State, v)) + prompts.String()
	return m.text
}

// sameState reports whether a and b are the same state: the same
// pointer (a state that is not a pointer is never taken for the same).
func sameState(a, b engine.State) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.IsValid() && vb.IsValid() && va.Kind() == reflect.Pointer && va.Type() == vb.Type() && va.Pointer() == vb.Pointer()
}

// answer is what pbem would mail player for a query word sent now.
func answer(mail Mailer, g *play.Game, player, word string) ([]*events.MailQueued, error) {
	in := events.New(g.ID, time.Date(1863, 7, 1, 0, 0, 0, 0, time.UTC), "", &events.OrderReceived{Player: player, Text: word, MessageID: "<leak@test>", Source: "test"})
	in.Chain(g.Seq+1, g.Hash)
	d := &events.OrderAccepted{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(), Echo: []string{word}}
	ps, err := mail.Mails(g, g.State, &in, d, nil)
	if err != nil {
		return nil, err
	}
	var out []*events.MailQueued
	for _, p := range ps {
		if m, ok := p.(*events.MailQueued); ok {
			out = append(out, m)
		}
	}
	return out, nil
}

func mailText(m *events.MailQueued) string {
	var b strings.Builder
	fmt.Fprintf(&b, "to %s: %s\n%s", strings.Join(m.To, ", "), m.Subject, m.Body)
	for _, a := range m.Attachments {
		fmt.Fprintf(&b, "\n--- %s\n%s", a.Name, a.Body)
	}
	return b.String()
}
