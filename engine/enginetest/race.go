package enginetest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/events"
)

// Race is the reference rule system: small enough to read in one sitting,
// yet it uses every part of the contract, so the runtime, the mail
// composer and the acceptance suite are tested on it rather than on a
// game anyone would ship. It is written with engine.Adapt, as a new rule
// system would be.
//
// Sides take turns adding to their score, by a number (ADD 1..3) or by a
// die (ROLL); the first to reach the scenario's target wins. A side may
// DISPUTE, and then the referee RULEs how much it gets. With "hand N" in
// the scenario it has hidden information too: the first side DEALs each
// side N cards from its own deck of nine (1–9), shuffled with dice only
// that side sees, each hand and deck seen only by its side; after every round of
// moves, while cards remain, both sides BID a card at once (a sealed
// step), and when the bids open the higher card adds its value to its
// side's score.
//
// The scenario is text: "target 12", and optionally a line "hand 3".
func Race() engine.Ruleset { return engine.Adapt[*RaceState, raceOrder](race{}) }

// RaceRegistry is a registry holding Race alone.
func RaceRegistry() *engine.Registry { return engine.NewRegistry(Race) }

// RaceState is the state of a Race game.
type RaceState struct {
	Target   int            `json:"target"`
	Turn     string         `json:"turn"`
	Sides    []string       `json:"sides"`
	Score    map[string]int `json:"score"`
	Disputed string         `json:"disputed,omitempty"` // side awaiting a ruling

	HandSize int                 `json:"hand_size,omitempty"`
	Dealt    bool                `json:"dealt,omitempty"`
	Hands    map[string][]string `json:"hands,omitempty"`
	Decks    map[string][]string `json:"decks,omitempty"` // each side's deck, left after the deal
	Moves    int                 `json:"moves,omitempty"` // moves since the last bids
	Round    int                 `json:"round,omitempty"` // bids opened so far
	Bidding  bool                `json:"bidding,omitempty"`
	Bids     map[string]string   `json:"bids,omitempty"` // bids of the open round, once decided
}

type race struct{}

type raceOrder struct {
	Roll    bool
	Add     int
	Dispute bool
	Rule    string // side a ruling gives Add to
	Deal    bool
	Bid     string // HIGH, LOW or a card
}

func (race) Name() string    { return "race" }
func (race) Version() string { return "test-2" }

func (race) Setup(scenario []byte, players []events.Player) (*RaceState, error) {
	s := &RaceState{Score: map[string]int{}}
	for _, line := range strings.Split(string(scenario), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		n, err := 0, fmt.Errorf("line %q", line)
		if len(f) == 2 {
			n, err = strconv.Atoi(f[1])
		}
		switch {
		case err == nil && f[0] == "target" && n >= 1:
			s.Target = n
		case err == nil && f[0] == "hand" && n >= 1 && n <= 4:
			s.HandSize = n
		default:
			return nil, fmt.Errorf("scenario must say 'target N' and may say 'hand N' (1-4): %q", line)
		}
	}
	if s.Target == 0 {
		return nil, fmt.Errorf("scenario must say 'target N': %q", scenario)
	}
	for _, p := range players {
		if p.Side != "" && !slices.Contains(s.Sides, p.Side) {
			s.Sides = append(s.Sides, p.Side)
			s.Score[p.Side] = 0
		}
	}
	if len(s.Sides) == 0 {
		return nil, fmt.Errorf("race needs a player with a side")
	}
	s.Turn = s.Sides[0]
	return s, nil
}

func (race) Parse(_ *RaceState, side, text string) ([]raceOrder, []events.Problem) {
	var out []raceOrder
	var probs []events.Problem
	ref := side == engine.RefereeSide
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		word := ""
		if len(f) > 0 {
			word = strings.ToUpper(f[0])
		}
		switch {
		case len(f) == 0:
		case ref && word == "RULE" && len(f) == 3:
			n, err := strconv.Atoi(f[2])
			if err != nil || n < 0 || n > 3 {
				probs = append(probs, events.Problem{Line: i + 1, Col: strings.LastIndex(line, f[2]) + 1, Text: line, Msg: "a ruling adds 0 to 3", Hint: "RULE " + f[1] + " 1"})
				continue
			}
			out = append(out, raceOrder{Rule: strings.ToUpper(f[1]), Add: n})
		case !ref && word == "DISPUTE" && len(f) == 1:
			out = append(out, raceOrder{Dispute: true})
		case !ref && word == "ROLL" && len(f) == 1:
			out = append(out, raceOrder{Roll: true})
		case !ref && word == "DEAL" && len(f) == 1:
			out = append(out, raceOrder{Deal: true})
		case !ref && word == "BID" && len(f) == 2:
			out = append(out, raceOrder{Bid: strings.ToUpper(f[1])})
		case !ref && word == "ADD" && len(f) == 2:
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

func refuse(msg string) (engine.Decision, error) {
	return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: msg}}}, nil
}

// deck is the cards a deal shuffles.
var deck = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

func (race) Decide(s *RaceState, side string, orders []raceOrder, d engine.Dice) (engine.Decision, error) {
	o := orders[0]
	if side == engine.RefereeSide {
		if s.Disputed == "" {
			return refuse("there is no dispute to rule on")
		}
		return engine.Decision{Echo: []string{fmt.Sprintf("RULE: %s gets %d", o.Rule, o.Add)},
			Facts: []events.Fact{events.NewFact("dispute.settled", events.S("side", o.Rule), events.I("n", int64(o.Add)))}}, nil
	}
	switch {
	case s.Disputed != "":
		return refuse("the referee must first rule on the dispute")
	case s.HandSize > 0 && !s.Dealt:
		if !o.Deal || side != s.Sides[0] {
			return refuse(s.Sides[0] + " must first DEAL the hands")
		}
		// Each side's own deck, shuffled with dice only that side sees:
		// its hand and the rest of its deck are its own.
		var fs []events.Fact
		for _, sd := range s.Sides {
			own := events.ToSide(sd)
			hand, rest := engine.Deal(d.As(own), "shuffle "+sd+"'s deck", deck, s.HandSize)
			fs = append(fs, events.NewFact("hand.dealt", events.S("side", sd), events.SL("cards", hand...)).To(own),
				events.NewFact("deck.left", events.S("side", sd), events.SL("cards", rest...)).To(own))
		}
		fs = append(fs, events.NewFact("hands.dealt", events.I("size", int64(s.HandSize))))
		return engine.Decision{Echo: []string{"DEAL"}, Facts: fs}, nil
	case o.Deal:
		return refuse("the hands are dealt already")
	case s.Bidding:
		if o.Bid == "" {
			return refuse("bid a card first: BID HIGH, BID LOW or BID <card>")
		}
		if _, done := s.Bids[side]; done {
			return refuse(side + " has bid this round already")
		}
		hand := s.Hands[side]
		card := o.Bid
		switch o.Bid {
		case "HIGH":
			card = slices.MaxFunc(hand, cmpCard)
		case "LOW":
			card = slices.MinFunc(hand, cmpCard)
		default:
			if !slices.Contains(hand, card) {
				return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 5, Msg: "you hold no card " + card, Hint: "BID HIGH"}}}, nil
			}
		}
		fs := []events.Fact{events.NewFact("card.bid", events.S("side", side), events.S("card", card))}
		if len(s.Bids)+1 == len(s.Sides) {
			bids := map[string]string{side: card}
			for k, v := range s.Bids {
				bids[k] = v
			}
			winner, best, tie := "", 0, false
			for _, sd := range s.Sides {
				n, _ := strconv.Atoi(bids[sd])
				switch {
				case n > best:
					winner, best, tie = sd, n, false
				case n == best:
					tie = true
				}
			}
			if tie {
				winner, best = "", 0
			}
			fs = append(fs, events.NewFact("bids.resolved", events.S("winner", winner), events.I("n", int64(best))))
		}
		return engine.Decision{Echo: []string{"BID " + o.Bid + " (" + card + ")"}, Facts: fs}, nil
	case o.Bid != "":
		return refuse("there is no bidding now")
	case s.Turn != side:
		return refuse("it is " + s.Turn + "'s turn")
	case o.Dispute:
		return engine.Decision{Echo: []string{"DISPUTE"}, Facts: []events.Fact{events.NewFact("dispute.raised", events.S("side", side))}}, nil
	}
	n := o.Add
	echo := fmt.Sprintf("ADD %d", n)
	if o.Roll {
		n = d.Roll("race step", 6)
		echo = "ROLL"
	}
	fs := []events.Fact{events.NewFact("score.added", events.S("side", side), events.I("n", int64(n)))}
	if s.HandSize > 0 && s.Moves+1 == len(s.Sides) && len(s.Hands[side]) > 0 && s.Score[side]+n < s.Target {
		fs = append(fs, events.NewFact("bids.opened", events.I("round", int64(s.Round+1))))
	}
	return engine.Decision{Echo: []string{echo}, Facts: fs}, nil
}

func cmpCard(a, b string) int {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x - y
}

func (r race) Evolve(s *RaceState, f events.Fact) (*RaceState, error) {
	next := *s
	next.Score = map[string]int{}
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
		next.Moves = s.Moves + 1
	case "dispute.raised":
		next.Disputed = f.Str("side")
	case "dispute.settled":
		next.Score[f.Str("side")] += int(f.Int("n"))
		next.Disputed = ""
	case "hand.dealt":
		next.Hands = map[string][]string{}
		for k, v := range s.Hands {
			next.Hands[k] = v
		}
		next.Hands[f.Str("side")] = slices.Clone(f.Strs("cards"))
	case "deck.left":
		next.Decks = map[string][]string{}
		for k, v := range s.Decks {
			next.Decks[k] = v
		}
		next.Decks[f.Str("side")] = slices.Clone(f.Strs("cards"))
	case "hands.dealt":
		next.Dealt = true
	case "bids.opened":
		next.Bidding, next.Moves, next.Round, next.Bids = true, 0, int(f.Int("round")), nil
	case "card.bid":
		side, card := f.Str("side"), f.Str("card")
		next.Hands = map[string][]string{}
		for k, v := range s.Hands {
			next.Hands[k] = v
		}
		next.Hands[side] = slices.DeleteFunc(slices.Clone(s.Hands[side]), func(c string) bool { return c == card })
		next.Bids = map[string]string{side: card}
		for k, v := range s.Bids {
			next.Bids[k] = v
		}
	case "bids.resolved":
		if w := f.Str("winner"); w != "" {
			next.Score[w] += int(f.Int("n"))
		}
		next.Bidding, next.Bids = false, nil
	default:
		return nil, fmt.Errorf("race: unknown fact %s", f.Kind)
	}
	return &next, nil
}

func (race) Facts() []engine.FactSchema {
	return []engine.FactSchema{
		engine.Schema("score.added", "side:s n:i"),
		engine.Schema("dispute.raised", "side:s"),
		engine.Schema("dispute.settled", "side:s n:i"),
		engine.Schema("hand.dealt", "side:s cards:ss"),
		engine.Schema("deck.left", "side:s cards:ss"),
		engine.Schema("hands.dealt", "size:i"),
		engine.Schema("bids.opened", "round:i"),
		engine.Schema("card.bid", "side:s card:s"),
		engine.Schema("bids.resolved", "winner:s n:i"),
	}
}

func (race) Describe(s *RaceState, f events.Fact) string {
	switch f.Kind {
	case "score.added":
		return fmt.Sprintf("%s adds %d.", f.Str("side"), f.Int("n"))
	case "dispute.raised":
		return fmt.Sprintf("%s disputes the last move; the referee will rule.", f.Str("side"))
	case "dispute.settled":
		return fmt.Sprintf("The referee rules: %s gets %d.", f.Str("side"), f.Int("n"))
	case "hand.dealt":
		return fmt.Sprintf("%s is dealt %s.", f.Str("side"), strings.Join(f.Strs("cards"), ", "))
	case "deck.left":
		return fmt.Sprintf("Left in %s's deck: %s.", f.Str("side"), strings.Join(f.Strs("cards"), ", "))
	case "hands.dealt":
		return fmt.Sprintf("Each side is dealt %d cards, face down.", f.Int("size"))
	case "bids.opened":
		return fmt.Sprintf("Round %d of bids: each side bids a card, sealed.", f.Int("round"))
	case "card.bid":
		return fmt.Sprintf("%s bids %s.", f.Str("side"), f.Str("card"))
	case "bids.resolved":
		if f.Str("winner") == "" {
			return "The bids tie: no one scores."
		}
		return fmt.Sprintf("%s wins the bids and adds %d.", f.Str("winner"), f.Int("n"))
	}
	return ""
}

func (race) Prompt(s *RaceState) []engine.Prompt {
	switch {
	case s.Disputed != "":
		return []engine.Prompt{{Referee: true, What: "rule on " + s.Disputed + "'s dispute", Examples: []string{"RULE " + s.Disputed + " 1", "RULE " + s.Disputed + " 0"}}}
	case s.HandSize > 0 && !s.Dealt:
		return []engine.Prompt{{Side: s.Sides[0], What: "deal the hands", Examples: []string{"DEAL"}}}
	case s.Bidding:
		var out []engine.Prompt
		step := fmt.Sprintf("bids of round %d", s.Round)
		for _, sd := range s.Sides {
			if _, done := s.Bids[sd]; !done {
				out = append(out, engine.Prompt{Side: sd, What: "bid a card from your hand", Examples: []string{"BID HIGH", "BID LOW"}, Sealed: step})
			}
		}
		return out
	}
	return []engine.Prompt{{Side: s.Turn, What: "your turn", Examples: []string{"ROLL", "ADD 2"}}}
}

type raceView struct {
	s *RaceState
	v engine.Viewer
}

// View: a viewer sees every score, their own side's hand, how many cards
// the others hold, and (a referee) every hand and the deck.
func (race) View(s *RaceState, v engine.Viewer) engine.View { return raceView{s, v} }

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
		fmt.Fprintf(&b, "%-6s |%-12s| %2d%s\n", sd, strings.Repeat("#", min(rv.s.Score[sd], 40)), rv.s.Score[sd], mark)
	}
	if rv.s.Dealt {
		for _, sd := range rv.s.Sides {
			hand := rv.s.Hands[sd]
			if rv.v.Referee || sd == rv.v.Side {
				fmt.Fprintf(&b, "%-6s holds %s\n", sd, strings.Join(hand, " "))
			} else {
				fmt.Fprintf(&b, "%-6s holds %d card(s)\n", sd, len(hand))
			}
		}
		for _, sd := range rv.s.Sides {
			if rv.v.Referee || sd == rv.v.Side {
				fmt.Fprintf(&b, "%-6s deck %s\n", sd, strings.Join(rv.s.Decks[sd], " "))
			}
		}
	}
	return engine.Board{Window: b.String(), Full: b.String() + fmt.Sprintf("target %d\n", rv.s.Target)}
}

// Draw draws what Render writes: each side's score as a bar, the
// viewer's own hand face up and the others' as card backs.
func (race) Draw(v engine.View) *draw.Scene {
	rv := v.(raceView)
	sc := &draw.Scene{W: 320, H: float64(30 + 40*len(rv.s.Sides)), Background: draw.RGB(255, 255, 255)}
	for i, sd := range rv.s.Sides {
		y := float64(20 + 40*i)
		g := &draw.Group{ID: "side-" + sd, Class: "side"}
		g.Add(draw.Label(draw.Pt(8, y+12), sd, 12, draw.RGB(0, 0, 0), draw.Start))
		g.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(60, 90, 170)}, X: 60, Y: y, W: float64(min(rv.s.Score[sd], 40)) * 4, H: 14})
		if rv.s.Dealt {
			for j, c := range rv.s.Hands[sd] {
				x := 60 + float64(j)*22
				if rv.v.Referee || sd == rv.v.Side {
					g.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(255, 255, 255), Stroke: draw.RGB(0, 0, 0)}, X: x, Y: y + 16, W: 20, H: 14})
					g.Add(draw.Label(draw.Pt(x+10, y+27), c, 9, draw.RGB(0, 0, 0), draw.Middle))
				} else {
					g.Add(&draw.Rect{Style: draw.Style{Fill: draw.RGB(150, 40, 40), Stroke: draw.RGB(0, 0, 0)}, X: x, Y: y + 16, W: 20, H: 14})
				}
			}
		}
		sc.Add(g)
	}
	return sc
}

func (race) Outcome(s *RaceState) engine.Outcome {
	for _, sd := range s.Sides {
		if s.Score[sd] >= s.Target {
			return engine.Outcome{Over: true, Winner: sd, Reason: sd + " reached the target"}
		}
	}
	return engine.Outcome{}
}

func (race) Turn(s *RaceState) int { return 1 + s.Round }

// Extras: race draws its board; its state is coded as the adapter's
// default JSON.
func (r race) Extras() engine.Extras[*RaceState] { return engine.Extras[*RaceState]{Draw: r.Draw} }

// RacePlayers are two players for Race games in tests.
var RacePlayers = []events.Player{
	{ID: "north", Name: "Anna", Side: "USA", Addresses: []string{"anna@example.org"}},
	{ID: "south", Name: "Taro", Side: "CSA", Addresses: []string{"taro@example.jp", "taro@work.example.jp"}},
}

// RaceReferees is a referee for Race games in tests.
var RaceReferees = []events.Player{{ID: "umpire", Name: "Carol", Addresses: []string{"carol@example.net"}}}
