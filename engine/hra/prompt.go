package hra

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
)

// tryOrder reports whether text would be accepted from side now.
func tryOrder(st *State, side, text string) bool {
	os, probs := parseOrders(st, side, text)
	if len(probs) > 0 {
		return false
	}
	d, err := decide(st, side, os, engine.FixedDice(3))
	return err == nil && len(d.Problems) == 0
}

func prompts(st *State) []engine.Prompt {
	switch st.Phase {
	case PhaseStart:
		return []engine.Prompt{{Side: Union, What: "begin the game: roll the generals' status and every unit's supply (HRA 3c, 3e)", Examples: []string{"BEGIN"}}}
	case PhaseGenerals:
		var out []engine.Prompt
		for _, side := range Sides {
			pool := st.Generals[side]
			if len(pool) == 0 {
				continue
			}
			var mine []string
			for _, b := range st.Brigades {
				if b.Side == side {
					mine = append(mine, b.Name)
				}
			}
			best := slices.Clone(pool)
			slices.SortFunc(best, func(a, b int) int { return b - a })
			var each []string
			for i, b := range mine {
				each = append(each, fmt.Sprintf("%s %d", b, best[i%len(best)]))
			}
			out = append(out, engine.Prompt{Side: side,
				What:     fmt.Sprintf("assign your generals (status %s) to your brigades: the best general to the first brigade you name, or each brigade with its status (HRA 3c)", joinInts(pool)),
				Examples: []string{"GENERALS " + strings.Join(mine, ", "), "GENERALS " + strings.Join(each, ", ")},
				// Each side assigns without seeing the other's choice.
				Sealed: "generals"})
		}
		return out
	case PhaseOrders:
		if st.Initiative == "" {
			return []engine.Prompt{{Referee: true, What: "the initiative dice tied 100 times: decide who has it (H12)", Examples: []string{"SET INITIATIVE Union", "SET INITIATIVE Confederate"}}}
		}
		return []engine.Prompt{{Side: st.ToAct, What: fmt.Sprintf("round %d, Phase II: give orders to one of your brigades (HRA 4.II)", st.Round), Examples: orderExamples(st, st.ToAct)}}
	case PhaseFire:
		var out []engine.Prompt
		for _, side := range Sides {
			if !contains(st.Declared, side) {
				out = append(out, engine.Prompt{Side: side, What: fmt.Sprintf("round %d, Phase III: declare your volleys (HRA 4.III.a); optionally PICK <unit>, ... for the confrontations you pick first (HRA 4.III.c) and RETREAT ORDER <unit>, ... for next Phase I's forced moves (HRA 4.I.b)", st.Round), Examples: fireExamples(st, side),
					// Sealed and revealed together (HRA 4.III.a, H23): the
					// runtime holds each side's declarations hidden until
					// both are in.
					Sealed: fmt.Sprintf("volleys of round %d", st.Round)})
			}
		}
		return out
	}
	return nil
}

// orderExamples are orders legal now: an advance towards the enemy for the
// first brigade that needs orders, then a hold.
func orderExamples(st *State, side string) []string {
	var out []string
	for i := range st.Brigades {
		b := &st.Brigades[i]
		if b.Side != side || !st.needsOrders(b) {
			continue
		}
		var units []string
		for _, u := range st.brigadeUnits(b.Name) {
			if st.autoHold(u) == "" && st.freeHold(u) == "" {
				units = append(units, u.Name)
			}
		}
		for _, d := range []string{"6", "4", "2", "1"} {
			if ex := b.Name + ": ADVANCE " + d; tryOrder(st, side, ex) {
				out = append(out, ex)
				break
			}
			// Those that can advance, the others hold (two orders).
			var movers, rest []string
			for _, un := range units {
				u := st.unit(un)
				if _, err := st.march(u, []step{{Kind: stAdvance, Dist: table.CM(int64(d[0] - '0'))}}, &dicer{}); err == nil {
					movers = append(movers, un)
				} else {
					rest = append(rest, un)
				}
			}
			if len(movers) > 0 && len(rest) > 0 {
				ex := strings.Join(movers, ", ") + ": ADVANCE " + d
				if tryOrder(st, side, ex) {
					out = append(out, ex)
					break
				}
			}
		}
		hold := b.Name + ": HOLD"
		if tryOrder(st, side, hold) {
			out = append(out, hold)
		}
		if len(units) >= 2 && st.status(b) >= 2 {
			ex := units[0] + ": WHEEL LEFT 30, ADVANCE 3"
			if tryOrder(st, side, ex) {
				out = append(out, ex)
			}
		}
		break
	}
	if len(out) == 0 {
		out = append(out, exampleFor(st, side))
	}
	return out
}

// fireExamples: every unit that can fire, at its nearest target; or none.
func fireExamples(st *State, side string) []string {
	var lines []string
	seen := map[string]bool{}
	for _, v := range st.legalVolleys(side) {
		if !seen[v.Firer] {
			seen[v.Firer] = true
			lines = append(lines, "FIRE "+v.Firer+" AT "+v.Target)
		}
	}
	var out []string
	if len(lines) > 0 {
		out = append(out, strings.Join(lines, "\n"))
	}
	// A defender attacked by several units must name its extra volley's
	// target (HRA 11f): FIRE NONE would be refused.
	choose := false
	for i := range st.Units {
		u := &st.Units[i]
		choose = choose || (u.Side == side && len(st.newAttackers(u.Name)) > 1)
	}
	if !choose {
		out = append(out, "FIRE NONE")
	}
	// The same volleys, the last firer's confrontation picked first (HRA 4.III.c).
	if len(lines) >= 2 {
		var firers []string
		for _, l := range lines {
			f, _, _ := strings.Cut(strings.TrimPrefix(l, "FIRE "), " AT ")
			firers = append(firers, f)
		}
		out = append(out, strings.Join(lines, "\n")+"\nPICK "+firers[len(firers)-1])
	}
	return out
}
