package play

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// Sealed orders: a simultaneous step (a Prompt with Sealed set, the same
// name for every side that must choose) is commit-then-reveal in the log.
// Each side's orders are checked when they come (a bad line is answered
// at once, to the sender alone) and logged as a pbem.sealed fact that only
// that side and the referees may see, with a public pbem.sealed.arrived
// saying only that they have come. A side may send again until the step
// opens; the newest orders count. When every side of the step has sent
// its orders, the same decision reveals them (pbem.revealed, opening every
// pbem.sealed of the step to everyone) and decides each side's orders in
// the order of the prompts, with the game's dice, as if they had come one
// after the other. A passed deadline's default order (the game's NMR
// policy) is sealed the same way; the referee can enter an order too.
//
// One mechanism for every rule system: a ruleset only names the step in
// its prompts and never sees a sealed order before the reveal.
const (
	FactSealed  = "pbem.sealed"         // step, reveal, side, player, text: a side's orders, hidden until the reveal
	FactArrived = "pbem.sealed.arrived" // step, reveal, side, replaced: public, that they came
	FactReveal  = "pbem.revealed"       // reveal, step: every pbem.sealed of the step opens to everyone
	FactRefused = "pbem.sealed.refused" // step, side: a side's sealed orders could not be applied when opened
)

// SealedOrder is a side's orders for a simultaneous step, logged hidden
// and not yet revealed.
type SealedOrder struct {
	Step, Reveal string // the step's name, and the reveal that opens it
	Side, Player string
	Text         string
	Seq          uint64 // the decision that sealed them
}

// sealedPrompts are the sides st asks to choose in the simultaneous step
// side is in, in the prompts' order, with the step's name ("" if side's
// step is not sealed).
func (g *Game) sealedPrompts(st engine.State, side string) (step string, sides []string) {
	ps := g.rulePrompts(st)
	for _, p := range ps {
		if !p.Referee && p.Side == side && p.Sealed != "" {
			step = p.Sealed
			break
		}
	}
	if step == "" {
		return "", nil
	}
	for _, p := range ps {
		if !p.Referee && p.Sealed == step && !contains(sides, p.Side) {
			sides = append(sides, p.Side)
		}
	}
	return step, sides
}

// revealName is the reveal that opens the step's orders: the one its
// first sealed orders named, else a new one. Reveals are never undone (a
// rollback cannot make players forget), so each is named afresh: the step
// and the number of reveals so far.
func (g *Game) revealName(step string) string {
	for _, s := range g.Sealed {
		if s.Step == step {
			return s.Reveal
		}
	}
	return fmt.Sprintf("%s #%d", step, len(g.Revealed)+1)
}

// sealedFor returns the orders side has sealed for step, if any.
func (g *Game) sealedFor(step, side string) (SealedOrder, bool) {
	for _, s := range g.Sealed {
		if s.Step == step && s.Side == side {
			return s, true
		}
	}
	return SealedOrder{}, false
}

// decideSealed takes player's orders for the simultaneous step; see the
// comment at the top of this file.
func (g *Game) decideSealed(in *events.Envelope, player, side, text, step string, sides []string, dice engine.Dice, rolled func() []events.Die) (events.Payload, engine.State, engine.Outcome, error) {
	reject := func(probs ...events.Problem) (events.Payload, engine.State, engine.Outcome, error) {
		return g.reject(in, player, probs...)
	}
	orders, probs := g.Rules.Parse(g.State, side, text)
	if len(probs) > 0 {
		return reject(probs...)
	}
	// Tried on the state as it is, with dice that record nothing: only
	// the problems count now; the orders are decided when they open.
	trial, err := g.Rules.Decide(g.State, side, orders, engine.FixedDice(1))
	if err != nil {
		return nil, nil, engine.Outcome{}, fmt.Errorf("%s decide seq %d (sealed): %w", g.Rules.Name(), in.Seq, err)
	}
	if len(trial.Problems) > 0 {
		return reject(trial.Problems...)
	}
	reveal := g.revealName(step)
	hidden := events.ToSide(side).UntilReveal(reveal)
	_, replaced := g.sealedFor(step, side)
	acc := &events.OrderAccepted{Input: in.Seq, Player: player, RulesetVersion: g.Rules.Version(), Facts: []events.Fact{
		events.NewFact(FactSealed, events.S("step", step), events.S("reveal", reveal), events.S("side", side),
			events.S("player", player), events.S("text", strings.TrimSpace(text))).To(hidden),
		events.NewFact(FactArrived, events.S("step", step), events.S("reveal", reveal), events.S("side", side), events.B("replaced", replaced)),
	}}
	texts := map[string]string{side: text}
	for _, s := range sides {
		if o, ok := g.sealedFor(step, s); ok && s != side {
			texts[s] = o.Text
		}
	}
	if len(texts) < len(sides) {
		// Others have yet to choose: how the orders were read is the
		// sender's alone until the step opens.
		acc.Echo = trial.Echo
		acc.EchoVis = make([]events.Vis, len(trial.Echo))
		for i := range acc.EchoVis {
			acc.EchoVis[i] = hidden
		}
		acc.EchoVis = events.CompactVis(acc.EchoVis)
		return acc, g.State, engine.Outcome{}, nil
	}
	// Every side has chosen: open them all and decide them in turn.
	acc.Facts = append(acc.Facts, events.NewFact(FactReveal, events.S("reveal", reveal), events.S("step", step)))
	st := g.State
	for _, s := range sides {
		acc.Echo = append(acc.Echo, fmt.Sprintf("%s's sealed orders for %s, opened:", s, step))
		acc.EchoVis = append(acc.EchoVis, events.Vis{})
		os, probs := g.Rules.Parse(st, s, texts[s])
		var d engine.Decision
		if len(probs) == 0 {
			if d, err = g.Rules.Decide(st, s, os, dice); err != nil {
				return nil, nil, engine.Outcome{}, fmt.Errorf("%s decide seq %d (sealed orders of %s): %w", g.Rules.Name(), in.Seq, s, err)
			}
			probs = d.Problems
		}
		if len(probs) > 0 {
			// Sound alone, but not after the sides before it: that side
			// orders again, now in the open (the step has been revealed).
			acc.Facts = append(acc.Facts, events.NewFact(FactRefused, events.S("step", step), events.S("side", s)))
			for _, p := range probs {
				acc.Echo = append(acc.Echo, "  refused: "+p.String())
				acc.EchoVis = append(acc.EchoVis, events.ToSide(s))
			}
			continue
		}
		if err := checkDecision(g.Rules, d); err != nil {
			return nil, nil, engine.Outcome{}, fmt.Errorf("%s decide seq %d (sealed orders of %s): %w", g.Rules.Name(), in.Seq, s, err)
		}
		for i, e := range d.Echo {
			acc.Echo = append(acc.Echo, "  "+e)
			v := events.Vis{}
			if i < len(d.EchoVis) {
				v = d.EchoVis[i]
			}
			acc.EchoVis = append(acc.EchoVis, v)
		}
		if st, err = EvolveAll(g.Rules, st, d.Facts); err != nil {
			return nil, nil, engine.Outcome{}, fmt.Errorf("%s after sealed orders of %s, seq %d: %w", g.Rules.Name(), s, in.Seq, err)
		}
		acc.Facts = append(acc.Facts, d.Facts...)
	}
	acc.EchoVis = events.CompactVis(acc.EchoVis)
	acc.Dice = rolled()
	return acc, st, g.Rules.Outcome(st), nil
}

// checkDecision checks what a ruleset decided before it is logged: no
// fact of the runtime's own, every fact as its schema says, every
// visibility well formed, one echo visibility a line if any.
func checkDecision(rs engine.Ruleset, d engine.Decision) error {
	if len(d.EchoVis) != 0 && len(d.EchoVis) != len(d.Echo) {
		return fmt.Errorf("%d echo visibilities for %d echo lines", len(d.EchoVis), len(d.Echo))
	}
	for _, v := range d.EchoVis {
		if err := v.Valid(); err != nil {
			return fmt.Errorf("echo: %w", err)
		}
	}
	schemas := engine.SchemasOf(rs)
	for _, f := range d.Facts {
		if engine.IsGameFact(f) {
			// The prefix is the runtime's: such a fact would not fold.
			return fmt.Errorf("fact %s uses the runtime's %q prefix", f.Kind, engine.GameFactPrefix)
		}
		if err := f.Vis.Valid(); err != nil {
			return fmt.Errorf("fact %s: %w", f.Kind, err)
		}
		if schemas != nil {
			if err := schemas.Check(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// applySealed folds the runtime's facts of sealed orders.
func (g *Game) applySealed(seq uint64, f events.Fact) {
	switch f.Kind {
	case FactSealed:
		o := SealedOrder{Step: f.Str("step"), Reveal: f.Str("reveal"), Side: f.Str("side"), Player: f.Str("player"), Text: f.Str("text"), Seq: seq}
		keep := make([]SealedOrder, 0, len(g.Sealed)+1)
		for _, s := range g.Sealed {
			if s.Step != o.Step || s.Side != o.Side {
				keep = append(keep, s)
			}
		}
		g.Sealed = append(keep, o)
	case FactReveal:
		name := f.Str("reveal")
		g.Revealed = addSorted(g.Revealed, name)
		var keep []SealedOrder
		for _, s := range g.Sealed {
			if s.Reveal != name {
				keep = append(keep, s)
			}
		}
		g.Sealed = keep
	}
}

// sealedSides are the sides whose orders for a simultaneous step are in,
// once facts are applied too (a side that has chosen must not be asked
// again, nor get a deadline for it).
func (g *Game) sealedSides(facts []events.Fact) []string {
	type in struct{ side, reveal string }
	var all []in
	for _, s := range g.Sealed {
		all = append(all, in{s.Side, s.Reveal})
	}
	for _, f := range facts {
		switch f.Kind {
		case FactSealed:
			all = append(all, in{f.Str("side"), f.Str("reveal")})
		case FactReveal:
			keep := all[:0:0]
			for _, x := range all {
				if x.reveal != f.Str("reveal") {
					keep = append(keep, x)
				}
			}
			all = keep
		}
	}
	var sides []string
	for _, x := range all {
		sides = addSorted(sides, x.side)
	}
	return sides
}

// Prompts are who must act in st and what they may send, as the ruleset
// says, but for the sides whose sealed orders for their step are in (once
// the facts of d, if any, are applied): they have acted and wait for the
// others.
func (g *Game) Prompts(st engine.State, d *events.OrderAccepted) []engine.Prompt {
	var facts []events.Fact
	if d != nil {
		facts = d.Facts
	}
	ps := g.rulePrompts(st)
	done := g.sealedSides(facts)
	if len(done) == 0 {
		return ps
	}
	out := ps[:0:0]
	for _, p := range ps {
		if p.Sealed == "" || !contains(done, p.Side) {
			out = append(out, p)
		}
	}
	return out
}
