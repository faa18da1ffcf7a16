package gmb

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// facts are the schemas of every fact GMB decides.
var facts = []engine.FactSchema{
	engine.Schema("table.proposed", "side:s size:s"),
	engine.Schema("table.set", "size:s how:s"),
	engine.Schema("year.proposed", "side:s year:i"),
	engine.Schema("year.set", "year:i how:s"),
	engine.Schema("step.begun", "step:s ?side:s ?n:i"),
	engine.Schema("turn.passed", "step:s side:s"),
	engine.Schema("generals.drawn", "side:s group:s formations:ss generals:ss aside:ss ?auto:b"),
	engine.Schema("army.drawn", "side:s by:s"),
	engine.Schema("general.redrawn", "side:s group:s general:s"),
	engine.Schema("general.swapped", "side:s general:s old:s"),
	engine.Schema("general.discarded", "side:s general:s"),
	engine.Schema("general.assigned", "side:s general:s formation:s"),
	engine.Schema("generals.done", "side:s"),
	engine.Schema("cards.drawn", "side:s cards:ss into:s"),
	engine.Schema("cards.dealt", "side:s n:i into:s rule:s"),
	engine.Schema("cards.kept", "side:s kept:ss returned:ss"),
	engine.Schema("hand.kept", "side:s n:i returned:i"),
	engine.Schema("battlefield.declared", "side:s field:s forced:b"),
	engine.Schema("morale.set", "side:s level:s why:s"),
	engine.Schema("initiative.rolled", "side:s dice:i successes:i bonus:i forced:i"),
	engine.Schema("initiative.tied", "roll:s"),
	engine.Schema("initiative.won", "side:s ?battlefield:s"),
	engine.Schema("list.chosen", "side:s list:s"),
	engine.Schema("points.placed", "at:is"),
	engine.Schema("terrain.placed", "id:s kind:s by:s ?poly:is ?path:is ?flags:ss ?along:s ?half:b"),
	engine.Schema("terrain.passed", "side:s"),
	engine.Schema("bridge.placed", "id:s x:i y:i over:s ?by:s"),
	engine.Schema("special.done", "side:s"),
	engine.Schema("terrain.moved", "id:s dx:i dy:i by:s"),
	engine.Schema("terrain.swapped", "a:s b:s by:s"),
	engine.Schema("forts.granted", "side:s n:i"),
	engine.Schema("forts.done", "side:s"),
	engine.Schema("base.placed", "side:s poly:is"),
	engine.Schema("tactic.chosen", "side:s tactic:s"),
	engine.Schema("tactic.made", "side:s"),
	engine.Schema("cavalry.chosen", "side:s tactic:s"),
	engine.Schema("marker.placed", "side:s corps:s x:i y:i"),
	engine.Schema("unit.placed", "unit:s x:i y:i facing:i"),
	engine.Schema("patrol.done", "side:s"),
	engine.Schema("turn.begun", "turn:i"),
	engine.Schema("corps.skipped", "side:s corps:ss"),
	engine.Schema("corps.activated", "side:s corps:s"),
	engine.Schema("combat.resolved", "corps:s"),
	engine.Schema("unit.moved", "unit:s x:i y:i facing:i dist:i range:i ?paid:s ?road:b"),
	engine.Schema("activation.ended", "side:s corps:s"),
	engine.Schema("command.tested", "general:s dice:i need:i successes:i"),
	engine.Schema("passage.made", "a:s b:s ok:b"),
	engine.Schema("cohesion.lost", "unit:s n:i"),
	engine.Schema("passages.done", "side:s"),
	engine.Schema("unit.forced", "unit:s x:i y:i dist:i how:s"),
	engine.Schema("card.played", "side:s card:s"),
	engine.Schema("referee.set", "object:s field:s value:s old:s"),
	engine.Schema("general.replaced", "side:s general:s old:s"),
	engine.Schema("objectives.set", "side:s done:is"),
	engine.Schema("tactic.revealed", "side:s tactic:s"),
	engine.Schema("reward.scored", "side:s objectives:is percent:i amount:i"),
	engine.Schema("battle.ended", "winner:s reason:s"),
}

// tableWords tells a table size as players say it: 48x48 is 48" x 48".
func tableWords(size string) string {
	w, d, ok := strings.Cut(size, "x")
	if !ok {
		return size + `"`
	}
	return w + `" x ` + d + `"`
}

func lenIn(v int64) string { return inch(table.Length(v)) }

func ptOf(f events.Fact) string {
	return fmtPt(table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y"))))
}

// stepSentence tells what a step asks, for step.begun: every step has
// its sentence (TestEveryFactIsToldInWords), none is told by its name.
func stepSentence(st *State, step, side string, n int) string {
	switch step {
	case StepTable:
		return "Each side says the table size it wants (13.1)."
	case StepYear:
		if st.Scn.Year == -1 {
			return "The referee chooses the year of the battle (13.4a)."
		}
		return "Each side says the year of its army; the battle is fought in the later (13.4)."
	case StepDraw:
		return "Each side draws the other's generals, openly (13.5a)."
	case StepGenerals:
		return "Each side may redraw, assigns its generals and confirms them (13.5g-h)."
	case StepCards:
		if side != "" {
			return fmt.Sprintf("%s keeps 3 of its 4 battle cards (13.7f, option neutral-card keep-3).", side)
		}
		return "Each side keeps 3 of its 5 battle cards; the other 2 go back into its deck (13.6a)."
	case StepDeclare:
		return "Each side declares its battlefield, and a forced march if it made one, sealed: they open together (13.7b, 13.8d, G9)."
	case StepList:
		return fmt.Sprintf("%s chooses whose terrain list is used (13.8a, 13.10c).", side)
	case StepLinear:
		return fmt.Sprintf("Linear terrain first, one piece at a time, %s first; %d left in the pool (13.10g-j).", side, n)
	case StepBridges:
		return fmt.Sprintf("%s places %s on the river (13.10q).", side, plural(n, "bridge", "bridges"))
	case StepNormal:
		return fmt.Sprintf("Normal terrain, one piece at a time, %s first (13.10k).", side)
	case StepFences:
		return fmt.Sprintf("Fences and walls along roads, railways and fields, %s first; %d in the pool (13.10p).", side, n)
	case StepSpecial:
		return fmt.Sprintf("Special terrain from traits and cards, %s first (13.10l).", side)
	case StepSwap:
		return fmt.Sprintf("%s, on the Offensive battlefield, may swap two terrain pieces (13.7f).", side)
	case StepFortify:
		return fmt.Sprintf("Field fortifications, %s first (13.10m).", side)
	case StepTactic:
		return "Each side chooses its army tactic, in secret until the battle ends (13.12)."
	case StepCavalry:
		return "Each side with cavalry chooses its cavalry tactic, sealed: they open together (13.13)."
	case StepPatrol:
		return "Each side places a patrol marker for each corps, sealed: they open together (13.14)."
	case StepInitiative:
		return "The initiative roll is tied again and again: the referee says who wins it (R1)."
	case StepActivate:
		return fmt.Sprintf("%s activates a corps.", side)
	case StepCombat:
		return "The referee rules the corps' attacks and both rounds of combat (7.1b; chapters 8-9)."
	case StepMove:
		return fmt.Sprintf("%s moves the corps' units (7.1b).", side)
	case StepPassage:
		return fmt.Sprintf("Reorganization, step 1: %s's passages of lines (7.6).", side)
	case StepEnd:
		return "The last turn is over: the referee scores the objectives and ends the battle (13.12c)."
	case StepOver:
		return "The battle is over."
	}
	return ""
}

func describe(st *State, f events.Fact) string {
	s, side := f.Str, f.Str("side")
	switch f.Kind {
	case "table.proposed":
		return fmt.Sprintf("%s asks for a %s table.", side, tableWords(s("size")))
	case "table.set":
		switch s("how") {
		case "agreed":
			return fmt.Sprintf("Both sides agree on a %s table (13.1).", tableWords(s("size")))
		case "recommended":
			return fmt.Sprintf("The sides disagree; the battle is on the %s table 13.1 recommends for the armies' size.", tableWords(s("size")))
		}
		return fmt.Sprintf("The table is %s (13.1).", tableWords(s("size")))
	case "year.proposed":
		return fmt.Sprintf("%s's army is of %d.", side, f.Int("year"))
	case "year.set":
		switch s("how") {
		case "later":
			return fmt.Sprintf("The armies are of different years: the battle is fought in the later, %d (13.4c).", f.Int("year"))
		case "referee":
			return fmt.Sprintf("The referee sets the year of the battle: %d (13.4a).", f.Int("year"))
		}
		return fmt.Sprintf("The battle is fought in %d (13.4).", f.Int("year"))
	case "step.begun":
		return stepSentence(st, s("step"), side, int(f.Int("n")))
	case "turn.passed":
		return fmt.Sprintf("%s to place next.", side)
	case "generals.drawn":
		var ps []string
		for i, g := range f.Strs("generals") {
			fm := f.Strs("formations")[i]
			if fm == ArmyFormation {
				fm = "the army"
			}
			ps = append(ps, g+" ("+fm+")")
		}
		if f.Bool("auto") {
			return fmt.Sprintf("%s's %s: %s, the only one, is assigned without a draw (13.5d).", side, s("group"), listWords(ps))
		}
		return fmt.Sprintf("%s's %s drawn: %s (13.5d).", side, s("group"), listWords(ps))
	case "army.drawn":
		return fmt.Sprintf("%s has drawn %s's generals.", s("by"), side)
	case "general.redrawn":
		return fmt.Sprintf("%s redraws among its %s: %s (13.5g).", side, s("group"), s("general"))
	case "general.swapped":
		return fmt.Sprintf("%s takes %s's place; %s is set aside (13.5g).", s("general"), s("old"), s("old"))
	case "general.discarded":
		return fmt.Sprintf("%s discards %s (13.5g).", side, s("general"))
	case "general.assigned":
		return fmt.Sprintf("%s assigns %s to %s (13.5h).", side, s("general"), s("formation"))
	case "generals.done":
		return fmt.Sprintf("%s confirms its generals.", side)
	case "cards.drawn":
		return fmt.Sprintf("%s draws %s.", side, strings.Join(f.Strs("cards"), "; "))
	case "cards.dealt":
		n := int(f.Int("n"))
		if n == 0 {
			return fmt.Sprintf("%s's battle-card deck is empty: it draws nothing (%s).", side, s("rule"))
		}
		return fmt.Sprintf("%s draws %s, face down (%s).", side, plural(n, "battle card", "battle cards"), s("rule"))
	case "cards.kept":
		return fmt.Sprintf("%s keeps %s and shuffles %s back into its deck (13.6a).", side, strings.Join(f.Strs("kept"), "; "), strings.Join(f.Strs("returned"), "; "))
	case "hand.kept":
		return fmt.Sprintf("%s keeps %s and shuffles %d back into its deck.", side, plural(int(f.Int("n")), "battle card", "battle cards"), f.Int("returned"))
	case "battlefield.declared":
		m := ""
		if f.Bool("forced") {
			m = ", with a forced march (13.8d: 4 more dice, morale one level lower)"
		}
		return fmt.Sprintf("%s declares the %s battlefield%s.", side, s("field"), m)
	case "morale.set":
		return fmt.Sprintf("%s's army morale is %s: %s.", side, s("level"), s("why"))
	case "initiative.rolled":
		extra := ""
		if b, fm := f.Int("bonus"), f.Int("forced"); b+fm > 0 {
			extra = fmt.Sprintf(" (%d of them for its commander and battlefield, 13.8b; %d for the forced march)", b, fm)
		}
		return fmt.Sprintf("%s rolls %d dice%s: %s.", side, f.Int("dice"), extra, plural(int(f.Int("successes")), "success", "successes"))
	case "initiative.tied":
		return "A tie: the dice are rolled again (R1)."
	case "initiative.won":
		if f.Has("battlefield") {
			return fmt.Sprintf("%s wins the initiative and the battlefield: it is Player A, and the battle is on its %s battlefield (13.7c, 13.8a).", side, s("battlefield"))
		}
		return fmt.Sprintf("%s has the initiative.", side)
	case "list.chosen":
		return fmt.Sprintf("%s chooses the %s terrain list (13.10c).", side, s("list"))
	case "points.placed":
		var ps []string
		for i, p := range intsPoly(f.Ints("at")) {
			ps = append(ps, fmt.Sprintf("SP%d at %s", i+1, fmtPt(p)))
		}
		return "The strategic points: " + strings.Join(ps, ", ") + " (13.9b)."
	case "terrain.placed":
		what := s("kind")
		if f.Has("flags") && len(f.Strs("flags")) > 0 {
			what = strings.Join(f.Strs("flags"), " ") + " " + what
		}
		if f.Has("path") {
			pts := intsPoly(f.Ints("path"))
			if f.Has("along") {
				return fmt.Sprintf("%s places %s along %s (13.10p).", s("by"), s("id"), s("along"))
			}
			return fmt.Sprintf("%s places %s (%s), %s long, through %s.", s("by"), s("id"), what, inch(table.Polyline(pts).Len()), fmtPath(pts))
		}
		pg := table.Polygon(intsPoly(f.Ints("poly")))
		half := ""
		if f.Bool("half") {
			half = ", half a piece (13.10f)"
		}
		return fmt.Sprintf("%s places %s centred at %s%s.", s("by"), s("id"), fmtPt(pg.Centroid()), half)
	case "terrain.passed":
		return fmt.Sprintf("%s passes (13.10j).", side)
	case "bridge.placed":
		if s("by") == "" {
			return fmt.Sprintf("%s at %s, where a road crosses %s (13.10q).", strings.ToUpper(s("id")[:1])+s("id")[1:], ptOf(f), s("over"))
		}
		return fmt.Sprintf("%s places %s on %s at %s (13.10q).", s("by"), s("id"), s("over"), ptOf(f))
	case "special.done":
		return fmt.Sprintf("%s is done with special terrain.", side)
	case "terrain.moved":
		return fmt.Sprintf("%s moves %s by %s east and %s north (13.10l).", s("by"), s("id"), lenIn(f.Int("dx")), lenIn(f.Int("dy")))
	case "terrain.swapped":
		return fmt.Sprintf("%s swaps %s and %s by their centres (13.7f).", s("by"), s("a"), s("b"))
	case "forts.granted":
		return fmt.Sprintf("%s gets %s of field fortifications for the Defensive battlefield (13.7f).", side, plural(int(f.Int("n")), "free section", "free sections"))
	case "forts.done":
		return fmt.Sprintf("%s places no more fortifications.", side)
	case "base.placed":
		return fmt.Sprintf("%s's operational base stands at the middle of its table edge (13.11).", side)
	case "tactic.chosen":
		return fmt.Sprintf("%s chooses the %s army tactic, in secret (13.12).", side, s("tactic"))
	case "tactic.made":
		return fmt.Sprintf("%s has chosen its army tactic; it stays secret until the battle ends (13.12b).", side)
	case "cavalry.chosen":
		return fmt.Sprintf("%s's cavalry tactic: %s (13.13).", side, s("tactic"))
	case "marker.placed":
		return fmt.Sprintf("%s places the patrol marker of %s at %s (13.14).", side, s("corps"), ptOf(f))
	case "unit.placed":
		return fmt.Sprintf("%s deploys at %s, facing %s.", s("unit"), ptOf(f), table.Angle(f.Int("facing")))
	case "patrol.done":
		return fmt.Sprintf("%s's patrol markers are placed.", side)
	case "turn.begun":
		return fmt.Sprintf("Turn %d begins.", f.Int("turn"))
	case "corps.skipped":
		if len(f.Strs("corps")) == 0 {
			return fmt.Sprintf("%s activates no more this turn.", side)
		}
		return fmt.Sprintf("%s activates no more this turn: %s stay inactive.", side, listWords(f.Strs("corps")))
	case "corps.activated":
		return fmt.Sprintf("%s activates %s.", side, s("corps"))
	case "combat.resolved":
		return fmt.Sprintf("The referee has ruled %s's combat.", s("corps"))
	case "unit.moved":
		how := ""
		if f.Has("paid") {
			how = fmt.Sprintf("; 3\" paid for %s (7.2c-d)", s("paid"))
		}
		if f.Bool("road") {
			how += "; along the road (7.2i)"
		}
		return fmt.Sprintf("%s moves %s of its %s to %s, facing %s%s.", s("unit"), lenIn(f.Int("dist")), lenIn(f.Int("range")), ptOf(f), table.Angle(f.Int("facing")), how)
	case "activation.ended":
		return fmt.Sprintf("%s's activation of %s ends.", side, s("corps"))
	case "command.tested":
		return fmt.Sprintf("%s's command test: %s of %s needed.", s("general"), plural(int(f.Int("successes")), "success", "successes"), plural(int(f.Int("need")), "success", "successes"))
	case "passage.made":
		if f.Bool("ok") {
			return fmt.Sprintf("%s and %s pass through each other's lines and swap places (7.6).", s("a"), s("b"))
		}
		return fmt.Sprintf("The passage of %s and %s fails: both stay (7.6d).", s("a"), s("b"))
	case "cohesion.lost":
		return fmt.Sprintf("%s loses %s.", s("unit"), plural(int(f.Int("n")), "cohesion point", "cohesion points"))
	case "passages.done":
		return fmt.Sprintf("%s's passages of lines are done.", side)
	case "unit.forced":
		return fmt.Sprintf("%s makes a forced move %s of %s, whatever the terrain (7.5).", s("unit"), s("how"), lenIn(f.Int("dist")))
	case "card.played":
		return fmt.Sprintf("%s plays the battle card %s; the referee rules its effect.", side, s("card"))
	case "referee.set":
		return fmt.Sprintf("The referee sets %s's %s to %s (was %s).", s("object"), strings.ToLower(s("field")), s("value"), s("old"))
	case "general.replaced":
		return fmt.Sprintf("%s takes over from %s (13.5i, 4.15).", s("general"), s("old"))
	case "objectives.set":
		var ns []string
		for _, n := range f.Ints("done") {
			ns = append(ns, fmt.Sprint(n))
		}
		return fmt.Sprintf("The referee notes %s's objectives achieved: %s.", side, listWords(ns))
	case "tactic.revealed":
		return fmt.Sprintf("%s's army tactic was %s (13.12b).", side, s("tactic"))
	case "reward.scored":
		return fmt.Sprintf("%s earns %d%% of its army's value: $%d (13.12c).", side, f.Int("percent"), f.Int("amount"))
	case "battle.ended":
		if s("winner") == "" {
			return "The battle ends in a draw: " + s("reason") + "."
		}
		return fmt.Sprintf("The battle ends: %s wins by %s.", s("winner"), s("reason"))
	}
	return ""
}
