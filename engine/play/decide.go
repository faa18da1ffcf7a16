package play

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
)

// DecideNext decides the oldest pending input of g with dice, without
// changing g. It returns the decision (an *events.OrderAccepted or
// *events.OrderRejected) and, when the accepted facts end the game, the
// state after them and its outcome. Decisions read no clock: the runner
// stamps them with the input's own intake time.
//
// A panic of the rule system while deciding is returned as an error
// holding an *engine.PanicError (the runner rejects the input, as for any
// error of the rules): one bad input never stops the server.
//
// reg's built-in scenarios check a battle the decision would open
// (refuseUnopenable): a decision that would leave the game waiting on a
// battle that cannot open is a rejection saying why.
func (g *Game) DecideNext(reg *engine.Registry, dice engine.Dice, rolled func() []events.Die) (dec events.Payload, st engine.State, out engine.Outcome, err error) {
	defer engine.Recover(&err, "deciding")
	dec, st, out, err = g.decideNext(dice, rolled)
	if err != nil {
		return dec, st, out, err
	}
	dec, st, out = g.refuseUnopenable(reg, dec, st, out)
	return dec, st, out, nil
}

func (g *Game) decideNext(dice engine.Dice, rolled func() []events.Die) (events.Payload, engine.State, engine.Outcome, error) {
	if len(g.Pending) == 0 {
		return nil, nil, engine.Outcome{}, errors.New("no input to decide")
	}
	in := &g.Pending[0]
	p, err := events.Decode(in)
	if err != nil {
		return nil, nil, engine.Outcome{}, err
	}
	var player, text string
	switch p := p.(type) {
	case *events.OrderReceived:
		player, text = p.Player, p.Text
		if strings.HasPrefix(player, ObserverPrefix) {
			return g.reject(in, player, events.Problem{Msg: "you observe this game: pbem takes no orders or commands from observers, and nothing of your mail was read",
				Hint: "to reach the referees, write to them: " + g.RefereeContact()})
		}
		who, ok := g.PlayerByID(player)
		if !ok || who.Side == "" {
			return g.reject(in, player, events.Problem{Line: 1, Col: 1, Text: firstLine(text), Msg: fmt.Sprintf("%q plays no side in this game", player)})
		}
		if _, ok := QueryWord(text); !ok {
			if ls := commandLines(text); len(ls) > 0 && ls[0].word == WordPress {
				return g.decidePress(in, who, text, ls[0]) // talk: paused or over, it goes
			}
			if l, ls, ok := playerWord(text); ok {
				return g.decidePlayerWord(in, who, l, ls)
			}
			if g.Paused != nil && g.Ended == nil {
				return g.reject(in, player, events.Problem{Line: 1, Col: 1, Text: firstLine(text), Msg: g.pausedMsg(),
					Hint: "send your orders again once the game resumes (STATUS says when); to talk to the referees, " + g.RefereeContact()})
			}
		}
		dec, st, out, err := g.decideAs(in, player, who.Side, text, dice, rolled)
		return g.withDeadlines(dec, st, out, player, in.At), st, out, err
	case *events.DeadlinePassed:
		return g.decideDeadlinePassed(in, p, dice, rolled)
	case *events.PauseExpired:
		return g.decidePauseExpired(in, p)
	case *events.RefereeCommand:
		// A referee's game commands are the engine's; anything else goes to
		// the ruleset as an order of the side RefereeSide: rulings on steps
		// the rules hand to the referee, and corrections (SET). The
		// operator on the server may act on any game.
		if p.Referee != OperatorID && !g.IsReferee(p.Referee) {
			return g.reject(in, p.Referee, events.Problem{Line: 1, Col: 1, Text: firstLine(p.Text), Msg: fmt.Sprintf("%q is not a referee of this game", p.Referee),
				Hint: "on the server, the operator acts on any game: pbem referee GAME --as operator …"})
		}
		return g.decideReferee(in, p, dice, rolled)
	default:
		return nil, nil, engine.Outcome{}, fmt.Errorf("seq %d: %s is not an input", in.Seq, in.Type)
	}
}

// PausedText says who paused the game, since when and why: "by the
// referee Carol since Mon 7 Dec 2026 09:00 UTC (holidays)"; "" when the
// game is not paused.
func (g *Game) PausedText() string {
	if g.Paused == nil {
		return ""
	}
	s := g.pauseBy(g.Paused)
	if end := g.PauseEnds(); end != 0 {
		s += "; it ends by itself " + timeText(end) + " (the game's pause-max) unless a referee holds it"
	}
	return s
}

// pauseBy says who paused the game, since when and why.
func (g *Game) pauseBy(pz *Pause) string {
	by := "by the players"
	switch p, ok := g.PlayerByID(pz.By); {
	case pz.By == OperatorID:
		by = "by the operator"
	case ok:
		by = "by the referee " + p.Name
		if p.Name == "" {
			by = "by the referee " + p.ID
		}
	case pz.By != PausedByPlayers:
		by = "by " + pz.By
	}
	s := fmt.Sprintf("%s since %s", by, timeText(pz.At))
	if pz.Reason != "" {
		s += " (" + pz.Reason + ")"
	}
	return s
}

// pausedMsg says who paused the game, since when and why.
func (g *Game) pausedMsg() string {
	return "the game is paused " + g.PausedText() + "; no orders are taken until it resumes"
}

// timeText prints an intake time (unix ns) in UTC.
func timeText(ns int64) string {
	return time.Unix(0, ns).UTC().Format("Mon 2 Jan 2006 15:04 MST")
}

func (g *Game) decideAs(in *events.Envelope, player, side, text string, dice engine.Dice, rolled func() []events.Die) (events.Payload, engine.State, engine.Outcome, error) {
	reject := func(probs ...events.Problem) (events.Payload, engine.State, engine.Outcome, error) {
		return &events.OrderRejected{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(), Problems: probs}, g.State, engine.Outcome{}, nil
	}
	if q, ok := QueryWord(text); ok {
		if q == QueryGames && side != engine.RefereeSide {
			return reject(events.Problem{Line: 1, Col: 1, Text: firstLine(text), Msg: "GAMES lists the games a referee runs; players have STATUS and LOG",
				Hint: "STATUS, or LOG"})
		}
		// Words every system understands that change nothing (docs/ORDERS.md):
		// accepted with no facts; the mail composer answers them.
		return &events.OrderAccepted{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(), Echo: []string{q}}, g.State, engine.Outcome{}, nil
	}
	if g.Ended != nil {
		return reject(events.Problem{Line: 1, Col: 1, Text: firstLine(text), Msg: "the game is over: " + g.Ended.Reason})
	}
	if step, sides := g.sealedPrompts(g.State, side); step != "" {
		return g.decideSealed(in, player, side, text, step, sides, dice, rolled)
	}
	orders, probs := g.Rules.Parse(g.State, side, text)
	if len(probs) > 0 {
		return reject(probs...)
	}
	d, err := g.Rules.Decide(g.State, side, orders, dice)
	if err != nil {
		return nil, nil, engine.Outcome{}, fmt.Errorf("%s decide seq %d: %w", g.Rules.Name(), in.Seq, err)
	}
	if len(d.Problems) > 0 {
		return reject(d.Problems...)
	}
	if err := checkDecision(g.Rules, d); err != nil {
		return nil, nil, engine.Outcome{}, fmt.Errorf("%s decide seq %d: %w", g.Rules.Name(), in.Seq, err)
	}
	st, err := EvolveAll(g.Rules, g.State, d.Facts)
	if err != nil {
		return nil, nil, engine.Outcome{}, fmt.Errorf("%s after deciding seq %d: %w", g.Rules.Name(), in.Seq, err)
	}
	acc := &events.OrderAccepted{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(),
		Echo: d.Echo, EchoVis: events.CompactVis(d.EchoVis), Facts: d.Facts, Dice: rolled()}
	return acc, st, g.Rules.Outcome(st), nil
}

// The query words every rule system understands (docs/ORDERS.md): they ask for
// information and change nothing.
const (
	QueryHelp      = "HELP"
	QueryBoard     = "BOARD"
	QueryBoardFull = "BOARD FULL"
	QueryStatus    = "STATUS"
	// QueryLog is LOG or LOG <n>: the last n actions (default
	// LogDefault), each as the sender may see it.
	QueryLog = "LOG"
	// QueryGames lists a referee's games: whose move, deadlines, pauses
	// and rulings waited for (for referees only).
	QueryGames = "GAMES"
	LogDefault = 20
	LogMax     = 200
)

// LogCount is how many actions a LOG query asks for (0 if q is none).
func LogCount(q string) int {
	rest, ok := strings.CutPrefix(q, QueryLog)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(rest))
	if err != nil || n < 1 {
		return LogDefault
	}
	return min(n, LogMax)
}

// QueryWord reports whether text is one query word alone (blank lines and
// # comments aside), and which, in its canonical form.
func QueryWord(text string) (string, bool) {
	var only string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if only != "" {
			return "", false
		}
		only = strings.ToUpper(strings.Join(strings.Fields(l), " "))
	}
	switch only {
	case QueryHelp, QueryBoard, QueryBoardFull, QueryStatus, QueryLog, QueryGames:
		return only, true
	}
	if n, ok := strings.CutPrefix(only, QueryLog+" "); ok {
		if k, err := strconv.Atoi(n); err == nil && k > 0 {
			return QueryLog + " " + strconv.Itoa(min(k, LogMax)), true
		}
	}
	return "", false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Source is where games are loaded from (the store).
type Source interface {
	Read(game string, from uint64, fn func(*events.Envelope) error) error
	Snapshot(game string, atOrBefore uint64) (uint64, []byte, bool, error)
}

var errStop = errors.New("stop")

// Load folds game up to seq at (0: to the end) from its newest usable
// snapshot at or before at, plus the tail of the log.
func Load(src Source, reg *engine.Registry, game string, at uint64) (*Game, error) {
	g, _, err := load(src, reg, game, at)
	return g, err
}

// load is Load, and it says the seq of the snapshot it started from (0:
// none, the game was replayed from its first event).
func load(src Source, reg *engine.Registry, game string, at uint64) (*Game, uint64, error) {
	seq, data, ok, err := src.Snapshot(game, at)
	if err != nil {
		return nil, 0, fmt.Errorf("load %s: %w", game, err)
	}
	if ok {
		g, err := UnmarshalSnapshot(reg, data)
		switch {
		case err == nil && g.Seq == seq:
			g.History = sourceHistory{src, reg, game}
			g, err := folded(g, fold(src, reg, g, at))
			return g, seq, err
		case err != nil && !errors.Is(err, errStaleSnapshot):
			return nil, 0, fmt.Errorf("load %s snapshot %d: %w", game, seq, err)
		}
		// A snapshot of another ruleset version: replay from the start.
	}
	g, err := Replay(src, reg, game, at)
	return g, 0, err
}

// Replay folds game from its first event up to seq at (0: to the end),
// ignoring snapshots.
func Replay(src Source, reg *engine.Registry, game string, at uint64) (*Game, error) {
	g := &Game{ID: game, History: sourceHistory{src, reg, game}}
	return folded(g, fold(src, reg, g, at))
}

// folded returns g and the error of its fold, or an error if the fold
// found no game.created: a damaged store can yield an empty or headless
// log, and a Game without its ruleset must never reach a caller.
func folded(g *Game, err error) (*Game, error) {
	if err == nil && (g.Created == nil || g.Rules == nil) {
		err = fmt.Errorf("game %s: its log holds no game.created event (damaged, or not a game)", g.ID)
	}
	return g, err
}
