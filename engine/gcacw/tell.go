package gcacw

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// factSchemas are the facts GCACW decides, with their arguments (see
// engine.Schema): the runtime refuses a decision whose facts do not
// match, and the acceptance suite checks every fact of a played game.
// Each emit site and evolve.go agree with these; an argument only some
// emit sites give is optional. A roll of one die is "die", of two "dice"
// (diceArg).
func factSchemas() []engine.FactSchema {
	return []engine.FactSchema{
		// The turn sequence (GCACW 3, 4).
		engine.Schema("turn.begun", "turn:i"),
		engine.Schema("random_event.rolled", "turn:i roll:i dice:is ?event:s"),
		engine.Schema("leader.transferred", "leader:s from:s to:s ?by:s"),
		engine.Schema("leader.removed", "leader:s reason:s"),
		engine.Schema("transfer.done", "side:s"),
		engine.Schema("cycle.begun", "turn:i"),
		engine.Schema("action_phase.begun", "n:i"),
		engine.Schema("initiative.automatic", "side:s reason:s"),
		engine.Schema("initiative.rolled", "side:s die:i other:i ?tie:b ?rule:s"),
		engine.Schema("initiative.tied", "die:i"),
		engine.Schema("initiative.tie_ruled", "side:s"),
		engine.Schema("initiative.recorded", "side:s die:i"),
		engine.Schema("initiative.taken", "side:s"),
		engine.Schema("initiative.passed", "side:s ?reason:s"),
		engine.Schema("action.ended", "side:s"),
		engine.Schema("cycle.ended", "reason:s"),
		engine.Schema("reorganization.rolled", "unit:s die:i on:s organized:b"),
		engine.Schema("reorganization.ended", "turn:i"),
		engine.Schema("turn.ended", "turn:i"),
		engine.Schema("victory.counted", "usa:i csa:i detail:ss"),
		engine.Schema("game.ended", "winner:s reason:s"),
		// The queue (docs/ORDERS.md).
		engine.Schema("queue.added", "side:s n:i order:s"),
		engine.Schema("queue.cancelled", "side:s n:i"),
		engine.Schema("queue.used", "side:s n:i order:s"),
		engine.Schema("queue.dropped", "side:s n:i reason:s"),
		// A march (GCACW 5.1): by its own roll, or with an activating
		// leader's MA (leader, no dice).
		engine.Schema("march.begun", "unit:s side:s ma:i plan:s opt:b ?leader:s ?die:i ?dice:is"),
		engine.Schema("unit.fatigue_raised", "unit:s from:i fatigue:i extended:b"),
		engine.Schema("extended_march.rolled", "unit:s die:i"),
		// By the table: drm, roll, column (and drms, if any); by the
		// referee: die and result alone.
		engine.Schema("extended_march.resolved", "unit:s die:i result:s by:s ?drm:i ?roll:i ?column:s ?drms:ss"),
		engine.Schema("unit.disorganized", "unit:s reason:s"),
		engine.Schema("unit.organized", "unit:s reason:s"),
		engine.Schema("unit.exhausted", "unit:s by:s"),
		engine.Schema("unit.rested", "unit:s by:s"),
		engine.Schema("unit.fatigue_set", "unit:s fatigue:i by:s"),
		engine.Schema("strength.lost", "unit:s manpower:i left:i reason:s"),
		engine.Schema("strength.set", "unit:s left:i by:s"),
		engine.Schema("unit.eliminated", "unit:s reason:s"),
		engine.Schema("force_march.skipped", "unit:s reason:s"),
		engine.Schema("unit.force_marched", "unit:s roll:i mp:i ma:i ?die:i ?dice:is"),
		engine.Schema("unit.marched", "unit:s path:ss mp:i ma:i fatigue:i stopped:s"),
		engine.Schema("unit.placed", "unit:s hex:s by:s"),
		// The Cavalry Retreat (GCACW 5.1.2) and standing orders.
		engine.Schema("standing.set", "side:s unit:s when:s"),
		engine.Schema("cavalry_retreat.asked", "side:s unit:s units:ss ?wish:ss"),
		engine.Schema("cavalry_retreat.proposed", "unit:s path:ss"),
		engine.Schema("cavalry_retreat.done", "unit:s"),
		engine.Schema("cavalry.retreated", "unit:s path:ss by:s"),
		engine.Schema("cavalry.stayed", "unit:s reason:s"),
		engine.Schema("attacks.ruled", "allowed:b"),
		// A Leader Activation (GCACW 5.2).
		engine.Schema("leader.activated", "leader:s side:s units:ss plans:ss limit:s"),
		engine.Schema("leader.ma_rolled", "leader:s ma:i class:s ?die:i ?dice:is"),
		engine.Schema("activation.skipped", "unit:s reason:s"),
		engine.Schema("activation.ended", "leader:s"),
		// UNDO (undo.go).
		engine.Schema("undo.point", "side:s"),
		engine.Schema("undo.cleared", ""),
		engine.Schema("order.undone", "side:s"),
		// The referee: a correction (set.go), a step handed over, a ruling.
		engine.Schema("set", "target:s field:s old:s new:s"),
		engine.Schema("referee.pending", "step:s note:s ?unit:s ?leader:s ?units:ss ?die:i ?path:ss"),
		engine.Schema("referee.ruled", "step:s ?unit:s ?result:s ?hex:s ?retreats:i"),
	}
}

// tell says one fact in plain words for the players' mails: units and
// leaders by the names the board gives them, hexes as printed, every die
// the fact carries. s is the state before the decision that made the
// fact; it is used for names alone (they never change), and everything
// else comes from the fact itself, since facts before it in the same
// decision may have changed the rest. (The decision's echo has lines of
// its own, echoLine: they are logged with it and stay as they were.)
func tell(s *State, f events.Fact) string {
	if s == nil {
		s = &State{}
	}
	unit := s.unitName(f.Str("unit"))
	leader := s.leaderName(f.Str("leader"))
	side := f.Str("side")
	switch f.Kind {
	case "turn.begun":
		return fmt.Sprintf("Turn %d%s begins with the Leader Transfer Phase (GCACW 3).", f.Int("turn"), s.ofTurns())
	case "random_event.rolled":
		r := fmt.Sprintf("Random Events, turn %d: %s", f.Int("turn"), rolled(f, "roll"))
		if e := f.Str("event"); e != "" {
			return r + ": " + strings.TrimSuffix(e, ".") + " (GCACW 3, phase 1)."
		}
		return r + "; the scenario has no Random Events Table, so the referee reads it (R4)."
	case "leader.transferred":
		r := fmt.Sprintf("%s moves from %s to %s", leader, s.unitName(f.Str("from")), s.unitName(f.Str("to")))
		return r + byWhom(f.Str("by"), " (GCACW 2.2j).")
	case "leader.removed":
		return fmt.Sprintf("%s leaves play: %s.", leader, f.Str("reason"))
	case "transfer.done":
		return fmt.Sprintf("%s ends its Leader Transfer Phase.", side)
	case "cycle.begun":
		return fmt.Sprintf("The action cycle of turn %d begins (GCACW 3, phase 3).", f.Int("turn"))
	case "action_phase.begun":
		return fmt.Sprintf("Action Phase %d begins.", f.Int("n"))
	case "initiative.automatic":
		return fmt.Sprintf("%s wins the initiative without a roll: %s.", side, f.Str("reason"))
	case "initiative.rolled":
		if f.Bool("tie") {
			return fmt.Sprintf("Both sides roll %d for the initiative, a tie: %s, so %s may take the initiative.", f.Int("die"), f.Str("rule"), side)
		}
		return fmt.Sprintf("%s rolls %d for the initiative, %s %d: %s may take the initiative (GCACW 4.2).", side, f.Int("die"), opponent(side), f.Int("other"), side)
	case "initiative.tied":
		return fmt.Sprintf("Both sides roll %d for the initiative, a tie the referee rules.", f.Int("die"))
	case "initiative.tie_ruled":
		return fmt.Sprintf("The referee gives the tied initiative to %s.", side)
	case "initiative.recorded":
		return fmt.Sprintf("%s's winning die, %d, is recorded (GCACW 4.2c).", side, f.Int("die"))
	case "initiative.taken":
		return fmt.Sprintf("%s takes the initiative.", side)
	case "initiative.passed":
		if r := f.Str("reason"); r != "" {
			return fmt.Sprintf("%s passes the initiative: %s.", side, r)
		}
		return fmt.Sprintf("%s passes the initiative.", side)
	case "action.ended":
		return fmt.Sprintf("%s's action is over.", side)
	case "cycle.ended":
		return fmt.Sprintf("The action cycle ends: %s.", f.Str("reason"))
	case "reorganization.rolled":
		result := "it stays disorganized"
		if f.Bool("organized") {
			result = "it is organized again"
		}
		return fmt.Sprintf("%s rolls %d to reorganize (it needs %s): %s.", unit, f.Int("die"), f.Str("on"), result)
	case "reorganization.ended":
		return fmt.Sprintf("The Reorganization Phase of turn %d ends.", f.Int("turn"))
	case "turn.ended":
		return fmt.Sprintf("Turn %d%s ends.", f.Int("turn"), s.ofTurns())
	case "victory.counted":
		return fmt.Sprintf("Victory points: USA %d, CSA %d (%s).", f.Int("usa"), f.Int("csa"), strings.Join(f.Strs("detail"), "; "))
	case "game.ended":
		if w := f.Str("winner"); w != "" {
			return fmt.Sprintf("The game is over, won by %s: %s.", w, f.Str("reason"))
		}
		return fmt.Sprintf("The game is over, a draw: %s.", f.Str("reason"))

	case "queue.added":
		return fmt.Sprintf("%s queues order #%d: %s.", side, f.Int("n"), oneLine(f.Str("order")))
	case "queue.cancelled":
		return fmt.Sprintf("%s cancels its queued order #%d.", side, f.Int("n"))
	case "queue.used":
		return fmt.Sprintf("%s plays its queued order #%d: %s.", side, f.Int("n"), oneLine(f.Str("order")))
	case "queue.dropped":
		return fmt.Sprintf("%s's queued order #%d is dropped: %s.", side, f.Int("n"), strings.TrimSuffix(f.Str("reason"), "."))

	case "march.begun":
		r := unit + " begins a march in place"
		if p := f.Str("plan"); p != "" {
			r = unit + " begins its march (" + p + ")"
		}
		if f.Bool("opt") {
			r += " at fatigue 4 (GCACW 5.1-OPT)"
		}
		if l := f.Str("leader"); l != "" {
			return fmt.Sprintf("%s with %s's MA of %d (GCACW 5.2.3).", r, s.leaderName(l), f.Int("ma"))
		}
		return fmt.Sprintf("%s and rolls %s for its Movement Allowance: MA %d (GCACW 5.1.1).", r, rolled(f, ""), f.Int("ma"))
	case "unit.fatigue_raised":
		r := fmt.Sprintf("%s's fatigue rises from %d to %d", unit, f.Int("from"), f.Int("fatigue"))
		if f.Int("from") == f.Int("fatigue") {
			r = fmt.Sprintf("%s's fatigue stays at %d", unit, f.Int("fatigue"))
		}
		if f.Bool("extended") {
			return r + ": an Extended March (GCACW 5.1-EM)."
		}
		return r + " (GCACW 5.1.2)."
	case "extended_march.rolled":
		return fmt.Sprintf("%s rolls %d for its Extended March; the scenario has no Extended March Table, so the referee reads it (R2).", unit, f.Int("die"))
	case "extended_march.resolved":
		if !f.Has("column") {
			return fmt.Sprintf("The referee reads %s's Extended March roll of %d: %s (GCACW 5.1-EM.4).", unit, f.Int("die"), emResult(f.Str("result")))
		}
		roll := fmt.Sprint(f.Int("die"))
		if d := f.Int("drm"); d != 0 {
			roll = fmt.Sprintf("%d %+d = %d", f.Int("die"), d, f.Int("roll"))
			if drms := f.Strs("drms"); len(drms) > 0 {
				roll += " (" + strings.Join(drms, ", ") + ")"
			}
		}
		return fmt.Sprintf("%s's Extended March: %s on the %s column: %s (GCACW 5.1-EM.4).", unit, roll, f.Str("column"), emResult(f.Str("result")))
	case "unit.disorganized":
		return fmt.Sprintf("%s is disorganized%s", unit, because(f.Str("reason")))
	case "unit.organized":
		return fmt.Sprintf("%s is organized again%s", unit, because(f.Str("reason")))
	case "unit.exhausted":
		return fmt.Sprintf("%s is exhausted%s", unit, because(f.Str("by")))
	case "unit.rested":
		return fmt.Sprintf("%s is no longer exhausted%s", unit, because(f.Str("by")))
	case "unit.fatigue_set":
		if f.Str("by") == "referee" {
			return fmt.Sprintf("The referee sets %s's fatigue to %d.", unit, f.Int("fatigue"))
		}
		return fmt.Sprintf("%s's fatigue is now %d: %s.", unit, f.Int("fatigue"), f.Str("by"))
	case "strength.lost":
		return fmt.Sprintf("%s loses %d Manpower, %d left: %s.", unit, f.Int("manpower"), f.Int("left"), f.Str("reason"))
	case "strength.set":
		return fmt.Sprintf("The referee sets %s's Manpower to %d.", unit, f.Int("left"))
	case "unit.eliminated":
		return fmt.Sprintf("%s is eliminated%s", unit, because(f.Str("reason")))
	case "force_march.skipped":
		return fmt.Sprintf("%s does not force march: %s.", unit, f.Str("reason"))
	case "unit.force_marched":
		return fmt.Sprintf("%s force marches and rolls %s: %d more MP, MA %d (GCACW 5.1-FM.2).", unit, rolled(f, "roll"), f.Int("mp"), f.Int("ma"))
	case "unit.marched":
		return tellMarched(unit, f)
	case "unit.placed":
		return fmt.Sprintf("The referee places %s in %s.", unit, f.Str("hex"))

	case "standing.set":
		who := "all its cavalry"
		if id := f.Str("unit"); id != "" {
			who = s.unitName(id)
		}
		if w := f.Str("when"); w != "ask" {
			return fmt.Sprintf("%s's standing order: Cavalry Retreat %s for %s (GCACW 5.1.2).", side, describeWhen(w), who)
		}
		return fmt.Sprintf("%s withdraws its standing Cavalry Retreat order for %s (GCACW 5.1.2).", side, who)
	case "cavalry_retreat.asked":
		return fmt.Sprintf("%s's march waits: %s may retreat %s before it (GCACW 5.1.2).", unit, side, s.unitNames(f.Strs("units")))
	case "cavalry_retreat.proposed":
		return fmt.Sprintf("%s's owner proposes to retreat it %s; the referee rules the retreat (R9).", unit, hexPath(f.Strs("path")))
	case "cavalry_retreat.done":
		return fmt.Sprintf("The Cavalry Retreat before %s's march is over (GCACW 5.1.2).", unit)
	case "cavalry.retreated":
		if f.Str("by") == "referee" {
			return fmt.Sprintf("The referee retreats %s %s (GCACW 5.1.2).", unit, hexPath(f.Strs("path")))
		}
		return fmt.Sprintf("%s retreats %s: %s.", unit, hexPath(f.Strs("path")), f.Str("by"))
	case "cavalry.stayed":
		return fmt.Sprintf("%s does not retreat: %s.", unit, f.Str("reason"))
	case "attacks.ruled":
		if f.Bool("allowed") {
			return "The referee allows marches that end attacking an enemy unit (GCACW 5.1.5)."
		}
		return "The referee refuses marches that end attacking an enemy unit (GCACW 5.1.5)."

	case "leader.activated":
		var parts []string
		plans := f.Strs("plans")
		for i, id := range f.Strs("units") {
			p := s.unitName(id)
			if i < len(plans) && plans[i] != "" {
				p += " (" + plans[i] + ")"
			}
			parts = append(parts, p)
		}
		r := fmt.Sprintf("%s activates %s", leader, andList(parts))
		if l := f.Str("limit"); l != "any" {
			r += fmt.Sprintf(", at most %s unit(s) (GCACW 5.2.2-OTR)", l)
		}
		return r + "."
	case "leader.ma_rolled":
		return fmt.Sprintf("%s (a%s %s leader) rolls %s for the activation: MA %d (GCACW 5.2.3).", leader, an(f.Str("class")), f.Str("class"), rolled(f, ""), f.Int("ma"))
	case "activation.skipped":
		return fmt.Sprintf("%s does not march: %s.", unit, f.Str("reason"))
	case "activation.ended":
		return fmt.Sprintf("%s's activation is over.", leader)

	case "undo.point":
		return fmt.Sprintf("%s may take this order back with UNDO until someone acts.", side)
	case "undo.cleared":
		// Always a decision's first fact: s has the undo point it ends.
		if s.Undo != nil {
			return fmt.Sprintf("%s's last order can no longer be taken back.", s.Undo.Side)
		}
		return "The last order can no longer be taken back."
	case "order.undone":
		return fmt.Sprintf("%s takes back its last order (UNDO): the game is as it was before it.", side)

	case "set":
		what := "the game's " + f.Str("field")
		if t := f.Str("target"); t != gameTarget {
			what = s.targetName(t) + "'s " + f.Str("field")
		}
		return fmt.Sprintf("The referee sets %s from %s to %s.", what, f.Str("old"), f.Str("new"))
	case "referee.pending":
		return "The referee must rule: " + strings.TrimSuffix(s.namesIn(f.Str("note")), ".") + "."
	case "referee.ruled":
		return tellRuled(s, f)
	}
	return f.String()
}

// tellMarched tells a unit.marched fact: the path, the MP, and why the
// march stopped (walk's reasons).
func tellMarched(unit string, f events.Fact) string {
	path := f.Strs("path")
	r := unit + " marches " + hexPath(path)
	if len(path) == 1 {
		r = unit + " marches in place in " + path[0]
	}
	mp := fmt.Sprintf("%d of %d MP", f.Int("mp"), f.Int("ma"))
	stop := f.Str("stopped")
	if stop == "ruled by the referee" {
		mp = fmt.Sprintf("MA %d", f.Int("ma"))
	}
	r += fmt.Sprintf(" (%s, fatigue %d)", mp, f.Int("fatigue"))
	switch {
	case stop == "end of path":
		return r + " to the end of its path."
	case stop == "end of path, all MP spent":
		return r + " to the end of its path, every MP spent."
	case stop == "ruled by the referee":
		return r + " and stops where the referee ruled."
	case strings.HasPrefix(stop, "out of MP: "):
		return r + " until it is out of MP: " + strings.TrimPrefix(stop, "out of MP: ") + "."
	case strings.HasPrefix(stop, "attack "):
		return r + " and attacks the enemy in " + strings.TrimPrefix(stop, "attack ") + " (GCACW 5.1.5)."
	case strings.HasPrefix(stop, "STOP AT "):
		return r + " and stops at " + strings.TrimPrefix(stop, "STOP AT ") + ", as ordered."
	case strings.HasPrefix(stop, "entered enemy ZOC at "):
		return r + " and stops on entering enemy ZOC at " + strings.TrimPrefix(stop, "entered enemy ZOC at ") + ", as ordered."
	}
	return r + " and stops: " + stop + "."
}

// stepNames say what each step handed to the referee is.
var stepNames = map[string]string{
	StepExtended:    "the Extended March",
	StepMove:        "where the march stops",
	StepRetreat:     "the Cavalry Retreat",
	StepTie:         "the tied initiative",
	StepInsub:       "the insubordination of a tie",
	StepActivation:  "the Leader Activation",
	StepEvent:       "the random event",
	StepLeaderAlone: "the leaders left alone",
	StepReorg:       "the Reorganization Phase",
	StepVictory:     "the victory",
	StepAttack:      "the attack at the end of the march",
}

// tellRuled tells a referee.ruled fact: the step the referee has ruled
// on (the facts after it say how).
func tellRuled(s *State, f events.Fact) string {
	step, ok := stepNames[f.Str("step")]
	if !ok {
		step = "the step " + f.Str("step")
	}
	switch f.Str("step") {
	case StepMove:
		return fmt.Sprintf("The referee rules that %s's march stops in %s.", s.unitName(f.Str("unit")), f.Str("hex"))
	case StepExtended:
		return fmt.Sprintf("The referee rules %s's Extended March: %s.", s.unitName(f.Str("unit")), emResult(f.Str("result")))
	case StepTie:
		if f.Str("result") == "END" {
			return "The referee rules that the tied initiative ends the action cycle (GCACW 4.2e)."
		}
		return fmt.Sprintf("The referee rules the tied initiative for %s.", f.Str("result"))
	case StepRetreat:
		switch {
		case f.Str("result") == "none":
			return "The referee rules that no cavalry retreats (GCACW 5.1.2)."
		case f.Has("retreats"):
			return fmt.Sprintf("The referee rules the Cavalry Retreat: %d unit(s) retreat (GCACW 5.1.2).", f.Int("retreats"))
		}
	}
	return "The referee has ruled on " + step + "."
}

// emResult says what an Extended March result does (GCACW 5.1-EM.4).
func emResult(res string) string {
	switch res {
	case "NE":
		return "no effect"
	case "D":
		return "D, disorganized"
	case "1", "2", "3":
		return res + ", a loss of " + res + " Manpower"
	}
	return res
}

// rolled says the dice of a fact: "4", or "2 + 5 = 7"; with total, the
// argument that holds their sum.
func rolled(f events.Fact, total string) string {
	if !f.Has("dice") {
		return fmt.Sprint(f.Int("die"))
	}
	var ds []string
	sum := int64(0)
	for _, v := range f.Ints("dice") {
		ds = append(ds, fmt.Sprint(v))
		sum += v
	}
	if total != "" {
		sum = f.Int(total)
	}
	return fmt.Sprintf("%s = %d", strings.Join(ds, " + "), sum)
}

// byWhom ends a sentence with who made the change, if not the rules
// (cited by end): "(by the referee)", or a house rule's reason.
func byWhom(by, end string) string {
	switch by {
	case "":
		return end
	case "referee":
		return ", by the referee's ruling."
	}
	return ": " + strings.TrimSuffix(by, ".") + "."
}

// because ends a sentence with its reason: ": force march (GCACW
// 5.1-FM.1)." or, for the referee's, " by the referee.".
func because(reason string) string {
	if reason == "" || reason == "referee" {
		return " by the referee."
	}
	return ": " + strings.TrimSuffix(reason, ".") + "."
}

// hexPath writes hexes as a path: "1606–1605–1604".
func hexPath(hs []string) string { return strings.Join(hs, "–") }

// oneLine is an order's text on one line.
func oneLine(order string) string { return strings.Join(strings.Fields(order), " ") }

// andList joins "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// an is the article's ending for a word: "n" before a vowel.
func an(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "n"
	}
	return ""
}

// unitName is a unit's name as the board gives it, or id if there is no
// such unit.
func (s *State) unitName(id string) string {
	if u := s.unit(id); u != nil {
		return u.Name
	}
	return id
}

// leaderName is a leader's name as the board gives it, or id.
func (s *State) leaderName(id string) string {
	if l := s.leader(id); l != nil {
		return l.Name
	}
	return id
}

// unitNames lists units by name: "Starling and 12th Calder Cavalry".
func (s *State) unitNames(ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = s.unitName(id)
	}
	return andList(names)
}

// namesIn writes a referee's note for the players: each unit or leader
// code in it (the referee's RULE orders use codes) as its name.
func (s *State) namesIn(note string) string {
	var b strings.Builder
	word := func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
	rs := []rune(note)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && word(rs[j]) {
			j++
		}
		if j == i {
			b.WriteRune(rs[i])
			i++
			continue
		}
		w := string(rs[i:j])
		switch {
		case s.unit(w) != nil:
			w = s.unit(w).Name
		case s.leader(w) != nil:
			w = s.leader(w).Name
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

// ofTurns is " of N", the scenario's last turn, for "Turn 2 of 3".
func (s *State) ofTurns() string {
	if s.Scn == nil || s.Scn.Turns == 0 {
		return ""
	}
	return fmt.Sprintf(" of %d", s.Scn.Turns)
}
