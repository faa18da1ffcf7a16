package gbacw

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"pbem/engine"
	"pbem/engine/hex"
)

// askedLine is a reaction question as every reader may see it: who
// answers and which reactions, not the units. A rout's hex (R11) is not
// named: the rout is not yet told, so the other side reads only that the
// game waits.
func askedLine(a *Ask) string {
	var rs []string
	for _, k := range strings.Split(a.Key, askSep) {
		r, _ := keyParts(k)
		if t := reactionTitles[r]; t != "" && !slices.Contains(rs, t) {
			rs = append(rs, t)
		}
	}
	if len(rs) == 0 {
		return fmt.Sprintf("the game waits for %s; the question is in %s's mail and on its board", a.Side, a.Side)
	}
	return fmt.Sprintf("%s: %s answers whether its units react; the question is in %s's mail and on its board", joinAnd(rs), a.Side, a.Side)
}

// reactionTitles are the reactions as the questions head them.
var reactionTitles = map[string]string{
	rFace: "7.6 Reaction facing", rReturn: "13.1 Return fire", rClosing: "13.4 Closing fire", rWithdrawF: "9.6 Withdrawal fire",
	rRetreat: "14.3b Pre-shock retreat", rPreFire: "13.2 Pre-shock fire", rWM: "9.5a Reaction withdrawal", rCounter: "16 Counter-charge",
}

// tryOrder reports whether text would be accepted from side now.
func tryOrder(st *State, side, text string) bool {
	os, probs := parseOrders(st, side, text)
	if len(probs) > 0 {
		return false
	}
	d, err := decide(st, side, os, engine.FixedDice(1))
	return err == nil && len(d.Problems) == 0
}

// standingExample is offered with every prompt of a side's own: standing
// orders may be sent any time but the Command Segment.
const standingExample = "STANDING RETURN FIRE ALL ALWAYS"

// exampleCache keeps the examples of the last states asked: a state is
// immutable and its examples a function of it, and the runtime asks for
// the prompts of one state many times (each mail, each sealed check).
// The cache holds the states it keys, so no key is ever reused.
var exampleCache struct {
	sync.Mutex
	keys  []exampleKey
	lists [][]string
}

type exampleKey struct {
	st   *State
	side string
}

func cachedExamples(st *State, side string, fn func(*State, string) []string) []string {
	k := exampleKey{st, side}
	exampleCache.Lock()
	for i, x := range exampleCache.keys {
		if x == k {
			l := exampleCache.lists[i]
			exampleCache.Unlock()
			return slices.Clone(l)
		}
	}
	exampleCache.Unlock()
	l := fn(st, side)
	exampleCache.Lock()
	defer exampleCache.Unlock()
	if len(exampleCache.keys) >= 32 {
		exampleCache.keys, exampleCache.lists = exampleCache.keys[1:], exampleCache.lists[1:]
	}
	exampleCache.keys = append(exampleCache.keys, k)
	exampleCache.lists = append(exampleCache.lists, l)
	return slices.Clone(l)
}

func prompts(st *State) []engine.Prompt {
	var out []engine.Prompt
	if st.Ruling != nil {
		out = append(out, engine.Prompt{Referee: true, What: st.Ruling.What, Examples: st.Ruling.Examples})
	}
	switch st.Phase {
	case PhaseStart:
		out = append(out, engine.Prompt{Side: USA, What: "begin the game: BEGIN rolls the first turn's initiative and draws its activation markers (either side may send it)", Examples: []string{"BEGIN"}})
	case PhaseCommand:
		for _, side := range Sides {
			if slices.Contains(st.Done, side) {
				continue
			}
			what := fmt.Sprintf("turn %d, Command Segment (3.2): Division Orders (ORDER <brigade> ATTACK|ADVANCE|MARCH|RESERVE), Reinforcement Orders, reserves", st.Turn)
			if st.picker() == side {
				what += ", and as you have the initiative the AM activated first (FIRST <division> or FIRST MARCH, 4.2)"
			}
			what += "; DONE if nothing. Sealed: neither side reads the other's orders before both have sent them."
			out = append(out, engine.Prompt{Side: side, What: what, Examples: cachedExamples(st, side, commandExamples), Sealed: fmt.Sprintf("command segment of turn %d", st.Turn)})
		}
	case PhaseActivation:
		if a := st.asked(); a != nil && st.Ruling == nil {
			what := a.What
			if a.Side != "" {
				// Every reader sees a prompt's line: the question itself
				// (the asked side's units, "your") is in the asked side's
				// mail and board alone.
				what = askedLine(a)
			}
			out = append(out, engine.Prompt{Side: a.Side, Referee: a.Side == "", What: what, Examples: a.Examples})
			break
		}
		if st.Act != nil && st.Ruling == nil {
			_, am, _ := strings.Cut(st.Act.AM, "|")
			what := fmt.Sprintf("turn %d, activation of %s (3.3): orders for %s (CHANGE, COORDINATE, then <unit>: MOVE, FACE, FIRE, SHOCK, RECOVER ...), or DONE",
				st.Turn, am, joinAnd(st.Act.Acting))
			out = append(out, engine.Prompt{Side: st.Act.Side, What: what, Examples: cachedExamples(st, st.Act.Side, activationExamples)})
		}
	case PhaseCommanders:
		for _, side := range Sides {
			if !slices.Contains(st.Done, side) {
				out = append(out, engine.Prompt{Side: side, What: fmt.Sprintf("turn %d, End of Turn (3.4): move your army and corps commanders (MA 40, 17.2), RELEASE reserves, or DONE", st.Turn),
					Examples: commanderExamples(st, side)})
			}
		}
	case PhaseVerdict:
		out = append(out, engine.Prompt{Referee: true, What: "the last turn is over and the scenario sets no victory conditions (R18): declare the result",
			Examples: []string{"END WINNER USA", "END WINNER CSA", "END DRAW"}})
	}
	// An example of a long path (a cavalry's MOVE) is wrapped as the
	// order language allows, so its mail keeps within 78 columns.
	// (A fresh list: a question's examples belong to the state.)
	for i := range out {
		if out[i].Examples == nil {
			continue
		}
		ex := make([]string, len(out[i].Examples))
		for j, e := range out[i].Examples {
			ex[j] = engine.ContinueLong(e, engine.ExampleWidth)
		}
		out[i].Examples = ex
	}
	return out
}

// picker is the side that picks the first AM (4.2, B4).
func (s *State) picker() string {
	if s.Initiative == "" && s.Scn.Options.TiePrevious {
		return s.Previous
	}
	return s.Initiative
}

// commandExamples: every infantry brigade that may be ordered to attack,
// every cavalry brigade to advance, and the first AM; then DONE.
func commandExamples(st *State, side string) []string {
	var lines []string
	for _, b := range st.Scn.Brigades {
		if st.Scn.sideOfBrigade(b.Name) != side || !st.brigade(b.Name).Arrived {
			continue
		}
		want := Attack
		for _, u := range st.unitsOf(b.Name) {
			if st.isCavalry(u) {
				want = Advance
			}
		}
		if st.brigade(b.Name).Order == want {
			continue
		}
		l := "ORDER " + b.Name + " " + strings.ToUpper(want)
		if tryOrder(st, side, strings.Join(append(slices.Clone(lines), l), "\n")) {
			lines = append(lines, l)
		}
	}
	if st.picker() == side {
		for _, d := range st.Scn.Divisions {
			l := "FIRST " + d.Name
			if st.Scn.sideOfDivision(d.Name) == side && tryOrder(st, side, strings.Join(append(slices.Clone(lines), l), "\n")) {
				lines = append(lines, l)
				break
			}
		}
	}
	var out []string
	if len(lines) > 0 {
		out = append(out, strings.Join(lines, "\n"))
	}
	return append(out, "DONE")
}

func commanderExamples(st *State, side string) []string {
	out := []string{"DONE"}
	for _, c := range st.Scn.Corps {
		l := st.leader(c.Leader)
		if c.Side != side || !l.onMap() {
			continue
		}
		// Toward the division leaders' middle.
		for _, d := range st.Scn.Divisions {
			if dl := st.leader(d.Leader); d.Corps == c.Name && dl.onMap() && dl.Hex != l.Hex {
				ex := fmt.Sprintf("%s: MOVE TO %s", l.Name, dl.Hex)
				if tryOrder(st, side, ex) {
					out = append(out, ex)
				}
				break
			}
		}
	}
	return out
}

// activationExamples builds an activation's orders greedily, each line
// tried with the ones before it: a disordered unit recovers; a unit
// that can fire fires at the nearest enemy; else it moves toward the
// nearest enemy and, on Attack orders, shocks what it reaches. Then
// DONE, and a standing order.
func activationExamples(st *State, side string) []string {
	var lines []string
	try := func(cand ...string) bool {
		text := strings.Join(append(slices.Clone(lines), cand...), "\n")
		if tryOrder(st, side, text) {
			lines = append(lines, cand...)
			return true
		}
		return false
	}
	for _, b := range st.Act.Acting {
		for _, u := range st.unitsOf(b) {
			if !u.onMap() || slices.Contains(st.Act.Skipping, u.Name) {
				continue
			}
			march := strings.HasSuffix(st.Act.AM, "|March")
			if march != (u.Order == March) {
				continue
			}
			if u.Disordered || u.Routed {
				if try(u.Name + ": RECOVER") {
					continue
				}
			}
			if !march && u.Order == Attack && !st.isArt(u) {
				// On Attack orders next to the enemy: shock, for the charge
				// bonus (14.3h).
				shocked := false
				for _, n := range u.Hex.Neighbors() {
					if len(st.enemiesAt(n, side)) > 0 && inFront(u, n) && try(u.Name+": SHOCK "+n.String()+" ADVANCE") {
						shocked = true
						break
					}
				}
				if shocked {
					continue
				}
			}
			if !march {
				if t, ok := st.nearestTarget(u); ok && try(u.Name+": FIRE AT "+t.String()) {
					continue
				}
			}
			for _, path := range st.approach(u) {
				mv := u.Name + ": MOVE " + hexList(path)
				if try(mv) {
					break
				}
				// On Attack orders a move next to the enemy must shock (14.2a).
				end := path[len(path)-1]
				done := false
				var all []string
				for _, n := range end.Neighbors() {
					if len(st.enemiesAt(n, side)) == 0 {
						continue
					}
					all = append(all, n.String())
					if try(mv, u.Name+": SHOCK "+n.String()) {
						done = true
						break
					}
				}
				// Two enemy hexes in its front: one shock takes both (14.3a).
				if !done && len(all) > 1 && try(mv, u.Name+": SHOCK "+strings.Join(all, " AND ")) {
					done = true
				}
				if done {
					break
				}
			}
		}
	}
	var out []string
	if len(lines) > 0 {
		out = append(out, strings.Join(lines, "\n"))
	}
	return append(out, "DONE", standingExample)
}

func hexList(hs []hex.Hex) string {
	var ss []string
	for _, h := range hs {
		ss = append(ss, h.String())
	}
	return strings.Join(ss, " ")
}

// nearestTarget is the nearest enemy hex u may fire at now.
func (s *State) nearestTarget(u *Unit) (hex.Hex, bool) {
	best, bd := hex.Hex{}, 1<<30
	for i := range s.Units {
		e := s.Units[i]
		if !e.onMap() || e.Side == u.Side {
			continue
		}
		if why, _ := s.fireWhy(u, e.Hex, "phase"); why == "" {
			if d := hex.Distance(u.Hex, e.Hex); d < bd {
				best, bd = e.Hex, d
			}
		}
	}
	return best, bd < 1<<30
}

// approach lists paths toward the nearest enemy u may take this phase,
// the nearest to it first (three at most).
func (s *State) approach(u *Unit) [][]hex.Hex {
	var target hex.Hex
	bd := 1 << 30
	for i := range s.Units {
		e := s.Units[i]
		if e.onMap() && e.Side != u.Side {
			if d := hex.Distance(u.Hex, e.Hex); d < bd {
				target, bd = e.Hex, d
			}
		}
	}
	if bd == 1<<30 || bd <= 1 {
		return nil
	}
	paths, _ := s.search(u, nil)
	var ends []hex.Hex
	for h := range paths {
		if hex.Distance(h, target) < bd {
			ends = append(ends, h)
		}
	}
	slices.SortFunc(ends, func(a, b hex.Hex) int {
		if da, db := hex.Distance(a, target), hex.Distance(b, target); da != db {
			return da - db
		}
		if la, lb := len(paths[a]), len(paths[b]); la != lb {
			return la - lb
		}
		return hex.Compare(a, b)
	})
	var out [][]hex.Hex
	for _, h := range ends[:min(3, len(ends))] {
		out = append(out, paths[h])
	}
	return out
}
