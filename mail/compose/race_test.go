package compose_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// race is a minimal ruleset that exists only in tests, copied from
// engine/minimal_test.go: two sides take turns adding to their score, by a
// number (ADD 1..3) or by a die (ROLL); the first to reach the scenario's
// target wins. This copy adds a step for the referee (DISPUTE, settled by
// the referee's RULE SIDE N) and boards that differ by viewer, so that
// the mails of every kind can be seen.
type race struct{}

type raceState struct {
	Target   int            `json:"target"`
	Turn     string         `json:"turn"`
	Sides    []string       `json:"sides"`
	Score    map[string]int `json:"score"`
	Disputed string         `json:"disputed,omitempty"` // side awaiting a ruling
}

func (race) Name() string    { return "race" }
func (race) Version() string { return "test-1" }

func (race) Setup(scenario []byte, players []events.Player) (engine.State, error) {
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(scenario), "target ")))
	if err != nil || n < 1 {
		return nil, fmt.Errorf("scenario must say 'target N': %q", scenario)
	}
	s := &raceState{Target: n, Score: map[string]int{}}
	for _, p := range players {
		s.Sides = append(s.Sides, p.Side)
		s.Score[p.Side] = 0
	}
	s.Turn = s.Sides[0]
	return s, nil
}

type raceOrder struct {
	Roll    bool
	Add     int
	Dispute bool
	Rule    string // side a ruling gives Add to
}

func (race) Parse(st engine.State, side, text string) ([]engine.Order, []events.Problem) {
	var out []engine.Order
	var probs []events.Problem
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case side == engine.RefereeSide && strings.EqualFold(f[0], "RULE") && len(f) == 3:
			n, err := strconv.Atoi(f[2])
			if err != nil || n < 0 || n > 3 {
				probs = append(probs, events.Problem{Line: i + 1, Col: strings.LastIndex(line, f[2]) + 1, Text: line, Msg: "a ruling adds 0 to 3", Hint: "RULE " + f[1] + " 1"})
				continue
			}
			out = append(out, raceOrder{Rule: strings.ToUpper(f[1]), Add: n})
		case side != engine.RefereeSide && strings.EqualFold(f[0], "DISPUTE") && len(f) == 1:
			out = append(out, raceOrder{Dispute: true})
		case side != engine.RefereeSide && strings.EqualFold(f[0], "ROLL") && len(f) == 1:
			out = append(out, raceOrder{Roll: true})
		case side != engine.RefereeSide && strings.EqualFold(f[0], "ADD") && len(f) == 2:
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 3 {
				probs = append(probs, events.Problem{Line: i + 1, Col: strings.Index(line, f[1]) + 1, Text: line, Msg: "ADD takes 1, 2 or 3", Hint: "ADD 2"})
				continue
			}
			out = append(out, raceOrder{Add: n})
		default:
			probs = append(probs, events.Problem{Line: i + 1, Col: 1, Text: line, Msg: "unknown order", Hint: "ROLL or ADD 2"})
		}
	}
	if len(out) != 1 && len(probs) == 0 {
		probs = append(probs, events.Problem{Line: 1, Col: 1, Msg: "send exactly one order", Hint: "ROLL"})
	}
	return out, probs
}

func (race) Decide(st engine.State, side string, orders []engine.Order, d engine.Dice) (engine.Decision, error) {
	s := st.(*raceState)
	o := orders[0].(raceOrder)
	if side == engine.RefereeSide {
		if s.Disputed == "" {
			return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "there is no dispute to rule on"}}}, nil
		}
		return engine.Decision{Echo: []string{fmt.Sprintf("RULE: %s gets %d", o.Rule, o.Add)},
			Facts: []events.Fact{events.NewFact("dispute.settled", events.S("side", o.Rule), events.I("n", int64(o.Add)))}}, nil
	}
	if s.Disputed != "" {
		return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "the referee must first rule on the dispute"}}}, nil
	}
	if s.Turn != side {
		return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "it is " + s.Turn + "'s turn"}}}, nil
	}
	if o.Dispute {
		return engine.Decision{Echo: []string{"DISPUTE"}, Facts: []events.Fact{events.NewFact("dispute.raised", events.S("side", side))}}, nil
	}
	n := o.Add
	echo := fmt.Sprintf("ADD %d", n)
	if o.Roll {
		n = d.Roll("race step", 6)
		echo = "ROLL"
	}
	return engine.Decision{Echo: []string{echo}, Facts: []events.Fact{events.NewFact("score.added", events.S("side", side), events.I("n", int64(n)))}}, nil
}

func (race) Evolve(st engine.State, f events.Fact) (engine.State, error) {
	s := st.(*raceState)
	next := &raceState{Target: s.Target, Turn: s.Turn, Sides: s.Sides, Score: map[string]int{}, Disputed: s.Disputed}
	for k, v := range s.Score {
		next.Score[k] = v
	}
	switch f.Kind {
	case "score.added":
		next.Score[f.Str("side")] += int(f.Int("n"))
		for i, sd := range s.Sides {
			if sd == s.Turn {
				next.Turn = s.Sides[(i+1)%len(s.Sides)]
			}
		}
	case "dispute.raised":
		next.Disputed = f.Str("side")
	case "dispute.settled":
		next.Score[f.Str("side")] += int(f.Int("n"))
		next.Disputed = ""
	default:
		return nil, fmt.Errorf("unknown fact %s", f.Kind)
	}
	return next, nil
}

func (race) Prompt(st engine.State) []engine.Prompt {
	s := st.(*raceState)
	if s.Disputed != "" {
		return []engine.Prompt{{Referee: true, What: "rule on " + s.Disputed + "'s dispute", Examples: []string{"RULE " + s.Disputed + " 1", "RULE " + s.Disputed + " 0"}}}
	}
	return []engine.Prompt{{Side: s.Turn, What: "your turn", Examples: []string{"ROLL", "ADD 2"}}}
}

type raceView struct {
	s *raceState
	v engine.Viewer
}

func (race) View(st engine.State, v engine.Viewer) engine.View { return raceView{st.(*raceState), v} }

func (race) Render(v engine.View) engine.Board {
	rv := v.(raceView)
	var b strings.Builder
	if rv.v.Referee {
		b.WriteString("(referee's view)\n")
	}
	for _, sd := range rv.s.Sides {
		mark := ""
		if sd == rv.v.Side {
			mark = "  <- you"
		}
		fmt.Fprintf(&b, "%-6s |%-12s| %2d%s\n", sd, strings.Repeat("#", rv.s.Score[sd]), rv.s.Score[sd], mark)
	}
	return engine.Board{Window: b.String(), Full: b.String() + fmt.Sprintf("target %d\n", rv.s.Target)}
}

func (race) Outcome(st engine.State) engine.Outcome {
	s := st.(*raceState)
	for _, sd := range s.Sides {
		if s.Score[sd] >= s.Target {
			return engine.Outcome{Over: true, Winner: sd, Reason: sd + " reached the target"}
		}
	}
	return engine.Outcome{}
}

func (race) EncodeState(st engine.State) ([]byte, error) { return json.Marshal(st) }
func (race) DecodeState(b []byte, _ engine.State) (engine.State, error) {
	var s raceState
	return &s, json.Unmarshal(b, &s)
}

func raceRegistry() *engine.Registry {
	return engine.NewRegistry(func() engine.Ruleset { return race{} })
}

var (
	racePlayers = []events.Player{
		{ID: "north", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
		{ID: "south", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp", "taro@work.example.jp"}},
	}
	raceReferees = []events.Player{{ID: "umpire", Name: "Carol", Addresses: []string{"carol@example.net"}}}
)
