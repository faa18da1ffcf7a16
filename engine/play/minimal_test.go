package play_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// race is a minimal ruleset that exists only in tests: two sides take turns
// adding to their score, by a number (ADD 1..3) or by a die (ROLL); the
// first to reach the scenario's target wins. It exercises every part of the
// Ruleset interface without being a game anyone would ship.
type race struct{}

type raceState struct {
	Target int            `json:"target"`
	Turn   string         `json:"turn"`
	Sides  []string       `json:"sides"`
	Score  map[string]int `json:"score"`
	Log    []string       `json:"log"`
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
	Roll bool
	Add  int
}

func (race) Parse(st engine.State, side, text string) ([]engine.Order, []events.Problem) {
	var out []engine.Order
	var probs []events.Problem
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case strings.EqualFold(f[0], "ROLL") && len(f) == 1:
			out = append(out, raceOrder{Roll: true})
		case strings.EqualFold(f[0], "ADD") && len(f) == 2:
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
	if s.Turn != side {
		return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "it is " + s.Turn + "'s turn"}}}, nil
	}
	o := orders[0].(raceOrder)
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
	if f.Kind != "score.added" {
		return nil, fmt.Errorf("unknown fact %s", f.Kind)
	}
	next := &raceState{Target: s.Target, Sides: s.Sides, Score: map[string]int{}, Log: append(s.Log[:len(s.Log):len(s.Log)], f.String())}
	for k, v := range s.Score {
		next.Score[k] = v
	}
	next.Score[f.Str("side")] += int(f.Int("n"))
	for i, sd := range s.Sides {
		if sd == s.Turn {
			next.Turn = s.Sides[(i+1)%len(s.Sides)]
		}
	}
	return next, nil
}

func (race) Prompt(st engine.State) []engine.Prompt {
	s := st.(*raceState)
	return []engine.Prompt{{Side: s.Turn, What: "your turn", Examples: []string{"ROLL", "ADD 2"}}}
}

func (race) View(st engine.State, v engine.Viewer) engine.View { return st }

func (race) Render(v engine.View) engine.Board {
	s := v.(*raceState)
	var b strings.Builder
	for _, sd := range s.Sides {
		fmt.Fprintf(&b, "%-6s %s\n", sd, strings.Repeat("#", s.Score[sd]))
	}
	return engine.Board{Window: b.String(), Full: b.String() + fmt.Sprintf("target %d\n", s.Target)}
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

var racePlayers = []events.Player{
	{ID: "north", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
	{ID: "south", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp"}},
}
