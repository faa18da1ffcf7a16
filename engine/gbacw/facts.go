package gbacw

import (
	"fmt"
	"regexp"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// The facts GBACW decides, each kind with its arguments: the rules build
// a fact with m.emit(kind, field.Arg(v)...) and read it with field.Of(f),
// so a misspelt kind or argument does not compile; the schemas the
// runtime checks every decision's facts against (engine.Teller's Facts)
// are made from the same declarations.

// The kinds of fact, as the log names them.
const (
	kTurnBegun          = "turn.begun"
	kInitiativeRolled   = "initiative.rolled"
	kUnitArrived        = "unit.arrived"
	kLeaderArrived      = "leader.arrived"
	kBrigadeArrived     = "brigade.arrived"
	kCommandTraced      = "command.traced"
	kDivisionAms        = "division.ams"
	kMarchAms           = "march.ams"
	kMarchAgain         = "march.again"
	kRulingAsked        = "ruling.asked"
	kRulingGiven        = "ruling.given"
	kPhaseSet           = "phase.set"
	kSideDone           = "side.done"
	kReleaseOrdered     = "release.ordered"
	kBrigadeOrdered     = "brigade.ordered"
	kAmFirst            = "am.first"
	kPoolFilled         = "pool.filled"
	kAmDrawn            = "am.drawn"
	kAmEnded            = "am.ended"
	kProgSet            = "prog.set"
	kProgAsked          = "prog.asked"
	kProgHeld           = "prog.held"
	kProgAnswered       = "prog.answered"
	kOrderRolled        = "order.rolled"
	kCoordinationRolled = "coordination.rolled"
	kGroupBegun         = "group.begun"
	kUnitMoved          = "unit.moved"
	kUnitFaced          = "unit.faced"
	kStackSet           = "stack.set"
	kUnitMarked         = "unit.marked"
	kUddRolled          = "udd.rolled"
	kUnitDisordered     = "unit.disordered"
	kUnitRecovered      = "unit.recovered"
	kUnitRallied        = "unit.rallied"
	kUnitLost           = "unit.lost"
	kUnitRouted         = "unit.routed"
	kUnitRemoved        = "unit.removed"
	kUnitFatigue        = "unit.fatigue"
	kUnitWorks          = "unit.works"
	kWorksBuilt         = "works.built"
	kLeaderMoved        = "leader.moved"
	kOcMoved            = "oc.moved"
	kLeaderKilled       = "leader.killed"
	kLeaderReplaced     = "leader.replaced"
	kFireResolved       = "fire.resolved"
	kShockDeclared      = "shock.declared"
	kShockResolved      = "shock.resolved"
	kStandingSet        = "standing.set"
	kBrigadeCi          = "brigade.ci"
	kDivisionCi         = "division.ci"
	kGameOver           = "game.over"
	kRefereeSet         = "referee.set"
)

// factSet holds every kind of fact GBACW decides; the fields are the
// arguments the kinds carry, each with its type, built with Arg and read
// with Of.
var (
	factSet = engine.NewFactSet("gbacw")

	aActing    = factSet.Strs("acting")
	aAm        = factSet.Str("am")
	aAms       = factSet.Strs("ams")
	aAnswer    = factSet.Str("answer")
	aAsp       = factSet.Int("asp")
	aAt        = factSet.Int("at")
	aAlso      = factSet.Ints("also")
	aAttackers = factSet.Strs("attackers")
	aBrigade   = factSet.Str("brigade")
	aBrigades  = factSet.Strs("brigades")
	aCi        = factSet.Bool("ci")
	aCol       = factSet.Str("col")
	aCsa       = factSet.Int("csa")
	aCsaDrm    = factSet.Int("csa_drm")
	aDefenders = factSet.Strs("defenders")
	aDivision  = factSet.Str("division")
	aDr        = factSet.Int("dr")
	aDrm       = factSet.Int("drm")
	aDsp       = factSet.Int("dsp")
	aExamples  = factSet.Strs("examples")
	aExtended  = factSet.Bool("extended")
	aForced    = factSet.Bool("forced")
	aFacing    = factSet.Int("facing")
	aFacings   = factSet.Ints("facings")
	aFatigue   = factSet.Int("fatigue")
	aField     = factSet.Str("field")
	aFirer     = factSet.Str("firer")
	aFlag      = factSet.Str("flag")
	aHex       = factSet.Int("hex")
	aHexes     = factSet.Int("hexes")
	aHow       = factSet.Str("how")
	aKey       = factSet.Str("key")
	aKind      = factSet.Str("kind")
	aLeader    = factSet.Str("leader")
	aLost      = factSet.Int("lost")
	aMoved     = factSet.Bool("moved")
	aMp        = factSet.Int("mp")
	aN         = factSet.Int("n")
	aNeed      = factSet.Int("need")
	aOdds      = factSet.Str("odds")
	aOk        = factSet.Bool("ok")
	aOn        = factSet.Bool("on")
	aOrder     = factSet.Str("order")
	aOut       = factSet.Strs("out")
	aPhase     = factSet.Str("phase")
	aRange     = factSet.Int("range")
	aReaction  = factSet.Str("reaction")
	aResult    = factSet.Str("result")
	aRolls     = factSet.Ints("rolls")
	aMods      = factSet.Strs("mods")     // the DRMs of a roll, each "+1 source (rule)"
	aUsaMods   = factSet.Strs("usa_mods") // of the initiative roll
	aCsaMods   = factSet.Strs("csa_mods")
	aRule      = factSet.Str("rule")
	aScope     = factSet.Str("scope")
	aSide      = factSet.Str("side")
	aSkipping  = factSet.Strs("skipping")
	aSp        = factSet.Int("sp")
	aStep      = factSet.Int("step")
	aTarget    = factSet.Str("target")
	aText      = factSet.Strs("text")
	aTo        = factSet.Str("to")
	aTurn      = factSet.Int("turn")
	aUnit      = factSet.Str("unit")
	aUnits     = factSet.Strs("units")
	aUsa       = factSet.Int("usa")
	aUsaDrm    = factSet.Int("usa_drm")
	aValue     = factSet.Str("value")
	aVp        = factSet.Ints("vp")
	aWas       = factSet.Str("was")
	aWhat      = factSet.Str("what")
	aWhy       = factSet.Str("why")
	aWinner    = factSet.Str("winner")
	aWorks     = factSet.Int("works")
)

// Each kind with its arguments, in the order its facts carry them;
// engine.Opt marks one that some facts of the kind leave out.
var _ = []string{
	factSet.Kind(kTurnBegun, aTurn),
	factSet.Kind(kInitiativeRolled, aUsa, aCsa, aUsaDrm, aCsaDrm, aSide, engine.Opt(aUsaMods), engine.Opt(aCsaMods)),
	factSet.Kind(kUnitArrived, aUnit),
	factSet.Kind(kLeaderArrived, aLeader),
	factSet.Kind(kBrigadeArrived, aBrigade),
	factSet.Kind(kCommandTraced, aSide, aOut),
	factSet.Kind(kDivisionAms, aDivision, aN, aDr, aWhy),
	factSet.Kind(kMarchAms, aSide, aN, aDr),
	factSet.Kind(kMarchAgain, aSide, aN),
	factSet.Kind(kRulingAsked, aKey, aWhat, aExamples),
	factSet.Kind(kRulingGiven, aKey, aValue),
	factSet.Kind(kPhaseSet, aPhase),
	factSet.Kind(kSideDone, aSide),
	factSet.Kind(kReleaseOrdered, aBrigade, aOrder),
	factSet.Kind(kBrigadeOrdered, aBrigade, aOrder, aUnits, aFacings, aHow),
	factSet.Kind(kAmFirst, aSide, aAm),
	factSet.Kind(kPoolFilled, aAms),
	factSet.Kind(kAmDrawn, aAm, aDr, aActing, aSkipping),
	factSet.Kind(kAmEnded, aAm),
	factSet.Kind(kProgSet, aSide, aText),
	factSet.Kind(kProgAsked, aSide, aKey, aWhat, aExamples),
	factSet.Kind(kProgHeld, aAt, aStep, aText, aRolls),
	factSet.Kind(kProgAnswered, aKey, aAnswer),
	factSet.Kind(kOrderRolled, aBrigade, aTo, aDr, aDrm, aNeed, aOk, engine.Opt(aMods)),
	factSet.Kind(kCoordinationRolled, aBrigades, aDr, aNeed, aOk),
	factSet.Kind(kGroupBegun, aBrigades),
	factSet.Kind(kUnitMoved, aUnit, aHex, aFacing, aMp, aExtended, engine.Opt(aForced)),
	factSet.Kind(kUnitFaced, aUnit, aFacing, aMp, aMoved),
	factSet.Kind(kStackSet, aHex, aUnits),
	factSet.Kind(kUnitMarked, aUnit, aFlag, aOn),
	factSet.Kind(kUddRolled, aUnit, aWhy, aDr, aDrm, aNeed, aOk, engine.Opt(aMods)),
	factSet.Kind(kUnitDisordered, aUnit, aWhy),
	factSet.Kind(kUnitRecovered, aUnit, aWhy),
	factSet.Kind(kUnitRallied, aUnit, aWhy),
	factSet.Kind(kUnitLost, aUnit, aSp, aLost, aWhy),
	factSet.Kind(kUnitRouted, aUnit, aWhy),
	factSet.Kind(kUnitRemoved, aUnit, aWhy),
	factSet.Kind(kUnitFatigue, aUnit, aFatigue, aWhy),
	factSet.Kind(kUnitWorks, aUnit, aWorks),
	factSet.Kind(kWorksBuilt, aHex),
	factSet.Kind(kLeaderMoved, aLeader, aHex, aMp),
	factSet.Kind(kOcMoved, aSide, aMp, aHexes),
	factSet.Kind(kLeaderKilled, aLeader, aWhy),
	factSet.Kind(kLeaderReplaced, aLeader, aHex),
	factSet.Kind(kFireResolved, aFirer, aTarget, aSp, aRange, aCol, aDr, aDrm, aResult, aKind, engine.Opt(aMods)),
	factSet.Kind(kShockDeclared, aAttackers, aHex, engine.Opt(aAlso)),
	factSet.Kind(kShockResolved, aAttackers, aDefenders, aAsp, aDsp, aOdds, aDr, aDrm, aResult, engine.Opt(aMods)),
	factSet.Kind(kStandingSet, aSide, aScope, aReaction, aRule),
	factSet.Kind(kBrigadeCi, aBrigade, aCi),
	factSet.Kind(kDivisionCi, aDivision, aCi),
	factSet.Kind(kGameOver, aWinner, aResult, aVp),
	factSet.Kind(kRefereeSet, aTarget, aField, aValue, aWas),
}

func yes(b bool, y, n string) string {
	if b {
		return y
	}
	return n
}

// describe tells a fact in words (engine.Teller); st is the state before
// the decision that made it.
func describe(st *State, f events.Fact) string {
	u, l := aUnit.OfAny(f), aLeader.OfAny(f)
	switch f.Kind {
	case kTurnBegun:
		return fmt.Sprintf("Turn %d begins.", aTurn.Of(f))
	case kInitiativeRolled:
		who := "neither side has the initiative (a tie, 3.1)"
		if s := aSide.Of(f); s != "" {
			who = s + " has the initiative"
		}
		return fmt.Sprintf("Initiative (4.1): %s; %s: %s.", dieLine("USA", aUsa.Of(f), aUsaDrm.Of(f), aUsaMods.Of(f), "initiative DRMs (4.1)"),
			dieLine("CSA", aCsa.Of(f), aCsaDrm.Of(f), aCsaMods.Of(f), "initiative DRMs (4.1)"), who)
	case kUnitArrived:
		return u + " arrives as a reinforcement (3.2.4)."
	case kLeaderArrived:
		return l + " arrives with his brigade."
	case kBrigadeArrived:
		return aBrigade.Of(f) + " has arrived."
	case kCommandTraced:
		if len(aOut.Of(f)) == 0 {
			return fmt.Sprintf("Chain of command (5): every %s leader and unit is in command.", aSide.Of(f))
		}
		return fmt.Sprintf("Chain of command (5): out of command for %s: %s.", aSide.Of(f), joinAnd(aOut.Of(f)))
	case kDivisionAms:
		if aN.Of(f) < 0 {
			return fmt.Sprintf("%s's activation markers: the referee rules them.", aDivision.Of(f))
		}
		s := fmt.Sprintf("%s has %d activation marker%s", aDivision.Of(f), aN.Of(f), yes(aN.Of(f) == 1, "", "s"))
		if aDr.Of(f) >= 0 {
			s += fmt.Sprintf(" (the efficiency draw rolls %d)", aDr.Of(f))
		}
		if w := aWhy.Of(f); w != "" {
			s += "; " + w
		}
		return s + "."
	case kMarchAms:
		if aN.Of(f) < 0 {
			return fmt.Sprintf("%s's March AM: the referee rules how often it activates.", aSide.Of(f))
		}
		return fmt.Sprintf("%s's March AM activates its March columns %d time%s this turn (10.1).", aSide.Of(f), aN.Of(f), yes(aN.Of(f) == 1, "", "s"))
	case kMarchAgain:
		return fmt.Sprintf("%s's March AM activates its March columns again (10.1): %d activation%s left this turn, this one included.", aSide.Of(f), aN.Of(f), yes(aN.Of(f) == 1, "", "s"))
	case kRulingAsked:
		return "The referee is asked: " + aWhat.Of(f) + "."
	case kRulingGiven:
		return "The referee has ruled the " + aValue.Of(f) + "."
	case kPhaseSet:
		return phaseWords(aPhase.Of(f))
	case kSideDone:
		return aSide.Of(f) + " is done for this segment."
	case kReleaseOrdered:
		return fmt.Sprintf("%s is to be released from reserve on %s orders (3.4.2).", aBrigade.Of(f), aOrder.Of(f))
	case kBrigadeOrdered:
		return fmt.Sprintf("%s is on %s orders (%s).", aBrigade.Of(f), aOrder.Of(f), aHow.Of(f))
	case kAmFirst:
		_, am, _ := strings.Cut(aAm.Of(f), "|")
		return fmt.Sprintf("%s, with the initiative, activates %s first (4.2).", aSide.Of(f), am)
	case kPoolFilled:
		return fmt.Sprintf("%d activation markers go into the pool (3.3).", len(aAms.Of(f)))
	case kAmDrawn:
		side, am, _ := strings.Cut(aAm.Of(f), "|")
		how := "chosen first"
		if aDr.Of(f) == 0 && am == "March" {
			how = "activated again (10.1)"
		}
		if aDr.Of(f) > 0 {
			how = fmt.Sprintf("drawn from the pool (die %d)", aDr.Of(f))
		}
		s := fmt.Sprintf("%s's %s AM is %s", side, am, how)
		if sk := aSkipping.Of(f); len(sk) > 0 {
			s += "; out of command, these skip it: " + joinAnd(sk)
		}
		return s + "."
	case kAmEnded:
		side, am, _ := strings.Cut(aAm.Of(f), "|")
		if am == "March" {
			return side + "'s March activation is over."
		}
		return am + "'s activation is over."
	case kProgSet:
		return fmt.Sprintf("%s's orders for this activation: %s.", aSide.Of(f), strings.Join(progLines(aText.Of(f)), "; "))
	case kProgAsked:
		if aSide.Of(f) == "" {
			return "The game waits for the referee: " + sentence(aWhat.Of(f))
		}
		return fmt.Sprintf("The game waits for %s: %s", aSide.Of(f), sentence(aWhat.Of(f)))
	case kProgHeld:
		return fmt.Sprintf("The orders sent wait at order %d: %s.", aAt.Of(f)+1, strings.Join(progLines(aText.Of(f)), "; "))
	case kProgAnswered:
		return answerWords(st, aKey.Of(f), aAnswer.Of(f))
	case kOrderRolled:
		if aDr.Of(f) < 0 {
			return fmt.Sprintf("%s's order change to %s: the referee rules it %s.", aBrigade.Of(f), aTo.Of(f), yes(aOk.Of(f), "succeeds", "fails"))
		}
		return fmt.Sprintf("%s tries to change to %s orders (3.3): %s against %d needed on the order change chart (R6): %s.", aBrigade.Of(f), aTo.Of(f),
			dieLine(aBrigade.Of(f), aDr.Of(f), aDrm.Of(f), aMods.Of(f), "leaders stacked (3.3)"), aNeed.Of(f), yes(aOk.Of(f), "it does", "it fails"))
	case kCoordinationRolled:
		if aDr.Of(f) < 0 {
			return fmt.Sprintf("Coordination of %s: the referee rules it %s.", joinAnd(aBrigades.Of(f)), yes(aOk.Of(f), "succeeds", "fails"))
		}
		return fmt.Sprintf("Coordination of %s (3.3): %s against %d needed on the coordination chart (R7): %s.", joinAnd(aBrigades.Of(f)),
			dieLine(aBrigades.Of(f)[0], aDr.Of(f), 0, nil, ""), aNeed.Of(f), yes(aOk.Of(f), "they act together", "each acts alone"))
	case kGroupBegun:
		return fmt.Sprintf("%s's Action Phase.", joinAnd(aBrigades.Of(f)))
	case kUnitMoved:
		return fmt.Sprintf("%s moves to %s, facing %s (%s MP spent).", u, intHex(aHex.Of(f)), facingWord(st, u, aFacing.Of(f)), halfMP(int(aMp.Of(f))))
	case kUnitFaced:
		return fmt.Sprintf("%s faces %s%s.", u, facingWord(st, u, aFacing.Of(f)), yes(aMoved.Of(f), " (it pays 1 MP: 7.4)", ""))
	case kStackSet:
		return fmt.Sprintf("The stack at %s, top first: %s.", intHex(aHex.Of(f)), strings.Join(aUnits.Of(f), ", "))
	case kUnitMarked:
		return markText(u, aFlag.Of(f), aOn.Of(f))
	case kUddRolled:
		return fmt.Sprintf("UDD (1.2), %s: %s against cohesion %d: %s.", aWhy.Of(f), dieLine(u, aDr.Of(f), aDrm.Of(f), aMods.Of(f), "DRMs"), aNeed.Of(f), yes(aOk.Of(f), "passed", "failed"))
	case kUnitDisordered:
		return fmt.Sprintf("%s is disordered (%s).", u, aWhy.Of(f))
	case kUnitRecovered:
		return fmt.Sprintf("%s recovers its order (%s).", u, aWhy.Of(f))
	case kUnitRallied:
		return fmt.Sprintf("%s rallies from its rout (%s).", u, aWhy.Of(f))
	case kUnitLost:
		return fmt.Sprintf("%s loses %d SP (%s): %d left.", u, aLost.Of(f), aWhy.Of(f), aSp.Of(f))
	case kUnitRouted:
		return fmt.Sprintf("%s routs (%s).", u, aWhy.Of(f))
	case kUnitRemoved:
		return fmt.Sprintf("%s is gone (%s).", u, aWhy.Of(f))
	case kUnitFatigue:
		return fmt.Sprintf("%s's fatigue is now %d (%s).", u, aFatigue.Of(f), aWhy.Of(f))
	case kUnitWorks:
		return fmt.Sprintf("%s has worked %d turn(s) on its works.", u, aWorks.Of(f))
	case kWorksBuilt:
		return fmt.Sprintf("Works stand at %s.", intHex(aHex.Of(f)))
	case kLeaderMoved:
		return fmt.Sprintf("%s goes to %s.", l, intHex(aHex.Of(f)))
	case kOcMoved:
		return fmt.Sprintf("%s's army commander has moved %s MP this phase (4.1b).", aSide.Of(f), halfMP(int(aMp.Of(f))))
	case kLeaderKilled:
		return fmt.Sprintf("%s is killed (%s).", l, aWhy.Of(f))
	case kLeaderReplaced:
		return fmt.Sprintf("%s's replacement takes command at %s (17.7).", l, intHex(aHex.Of(f)))
	case kFireResolved:
		col := "on the Fire Results Table (R2), column " + aCol.Of(f)
		if aCol.Of(f) == "ruled" {
			col = "and with no Fire Results Table (R2) the referee rules"
		}
		return fmt.Sprintf("%s fires %d SP at %s (%s fire, %d hex%s): %s %s: %s.", aFirer.Of(f), aSp.Of(f), aTarget.Of(f), aKind.Of(f),
			aRange.Of(f), yes(aRange.Of(f) == 1, "", "es"), dieLine(aFirer.Of(f), aDr.Of(f), aDrm.Of(f), aMods.Of(f), "fire DRMs (R2)"), col, resultWords(aResult.Of(f)))
	case kShockDeclared:
		hs := []string{intHex(aHex.Of(f)).String()}
		for _, n := range aAlso.Of(f) {
			hs = append(hs, intHex(n).String())
		}
		return fmt.Sprintf("%s will shock %s (14.3a).", joinAnd(aAttackers.Of(f)), joinAnd(hs))
	case kShockResolved:
		odds := "on the Shock Results Table (R3), odds " + aOdds.Of(f)
		if aOdds.Of(f) == "ruled" {
			odds = "and with no Shock Results Table (R3) the referee rules"
		}
		return fmt.Sprintf("Shock: %s (%d SP) against %s (%d SP): %s %s: %s.", joinAnd(aAttackers.Of(f)), aAsp.Of(f), joinAnd(aDefenders.Of(f)), aDsp.Of(f),
			dieLine(aAttackers.Of(f)[0], aDr.Of(f), aDrm.Of(f), aMods.Of(f), "shock DRMs (R3)"), odds, shockWords(aResult.Of(f)))
	case kStandingSet:
		x := Standing{Side: aSide.Of(f), Scope: aScope.Of(f), Reaction: aReaction.Of(f), Rule: aRule.Of(f)}
		if x.Rule == "" {
			x.Rule = "ALWAYS" // not told: only the scope and reaction are
			w := standingText(x)
			return fmt.Sprintf("%s takes back its standing order %s: asked by mail from now on.", x.Side, strings.TrimSuffix(w, " ALWAYS"))
		}
		return fmt.Sprintf("%s's standing order: %s.", x.Side, standingText(x))
	case kBrigadeCi:
		return fmt.Sprintf("%s is %s (20.2).", aBrigade.Of(f), yes(aCi.Of(f), "combat ineffective", "combat effective again"))
	case kDivisionCi:
		return fmt.Sprintf("%s is %s (20.3).", aDivision.Of(f), yes(aCi.Of(f), "combat ineffective", "combat effective again"))
	case kGameOver:
		return "The game is over: " + aResult.Of(f) + "."
	case kRefereeSet:
		return fmt.Sprintf("The referee sets %s's %s to %s (was %s).", aTarget.Of(f), aField.Of(f), aValue.Of(f), aWas.Of(f))
	}
	return ""
}

// sentence ends s with a full stop unless it ends a sentence already.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// dieLine is a roll in the die-line shape every rule system writes:
// "<who> rolls D, +K source (rule), ... = RESULT". mods are the DRMs,
// each "+K source"; a fact written before they were recorded gives only
// their total, told as one modifier from other.
func dieLine(who string, dr, drm int64, mods []string, other string) string {
	s := fmt.Sprintf("%s rolls %d", who, dr)
	if len(mods) == 0 && drm != 0 {
		mods = []string{fmt.Sprintf("%+d %s", drm, other)}
	}
	for _, m := range mods {
		s += ", " + m
	}
	if len(mods) > 0 {
		s += fmt.Sprintf(" = %d", dr+drm)
	}
	return s
}

// mod is one DRM of a roll: its value and source, "+1 prepared fire
// (11.4)" as dieLine writes it (a source holds no "," nor "=").
type mod struct {
	n   int
	src string
}

// modTexts writes the DRMs that are not 0, and their total.
func modTexts(ms []mod) ([]string, int) {
	var out []string
	total := 0
	for _, m := range ms {
		if m.n != 0 {
			out = append(out, fmt.Sprintf("%+d %s", m.n, m.src))
			total += m.n
		}
	}
	return out, total
}

// facingWord names a unit's facing as the fact gives it: a side for a
// March column.
func facingWord(st *State, unit string, f int64) string {
	side := false
	if u := st.unit(unit); u != nil {
		side = u.onSide()
	}
	return facingName(int(f), side)
}

// resultWords tells a fire result (R2) in words. Every result a game
// logs has been checked (a table's at setup, a referee's ruling when it
// is given), so the last line is not reached by a played game.
func resultWords(code string) string {
	res, err := parseFireResult(code)
	if err != nil {
		return "a result the charts do not have"
	}
	var parts []string
	if res.Loss > 0 {
		parts = append(parts, fmt.Sprintf("%d SP lost", res.Loss))
	}
	if res.Check {
		parts = append(parts, "a disorder check")
	}
	if len(parts) == 0 {
		return "no effect"
	}
	return strings.Join(parts, " and ")
}

// shockWords tells a shock result (R3) in words: what befalls the
// attackers, then the defenders.
func shockWords(code string) string {
	res, err := parseShockResult(code)
	if err != nil {
		return "a result the charts do not have"
	}
	side := func(who string, loss int, dis, ret bool) string {
		var parts []string
		if loss > 0 {
			parts = append(parts, fmt.Sprintf("lose %d SP", loss))
		}
		if dis {
			parts = append(parts, "are disordered")
		}
		if ret {
			parts = append(parts, "retreat")
		}
		if len(parts) == 0 {
			return ""
		}
		return "the " + who + " " + joinAnd(parts)
	}
	var out []string
	for _, s := range []string{side("attackers", res.ALoss, res.ADis, res.ARet), side("defenders", res.DLoss, res.DDis, res.DRet)} {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "no effect"
	}
	return strings.Join(out, "; ")
}

// phaseWords tells the segment a game enters.
func phaseWords(phase string) string {
	switch phase {
	case PhaseCommand:
		return "The Command Segment (3.2): each side sends its orders, sealed."
	case PhaseActivation:
		return "The Activation Segment (3.3) begins."
	case PhaseCommanders:
		return "The End of Turn Segment (3.4): commanders move."
	case PhaseVerdict:
		return "The last turn is over: the referee declares the result."
	case PhaseStart:
		return "The game waits for its first turn to begin."
	case PhaseOver:
		return "The game is over."
	}
	return "The game moves on to another segment of the turn."
}

// reactionNames are the reactions as a sentence names them.
var reactionNames = map[string]string{
	rFace: "reaction facing change", rReturn: "return fire", rClosing: "closing fire", rWithdrawF: "withdrawal fire",
	rRetreat: "pre-shock retreat", rPreFire: "pre-shock fire", rPreFire + " 2": "second pre-shock fire",
	rWM: "reaction withdrawal", rCounter: "counter-charge", rRout: "choice of the rout hex",
}

func reactionName(r string) string {
	if n, ok := reactionNames[r]; ok {
		return n
	}
	return "reaction"
}

// answerWords tells the answer to what a step of an activation waited
// for (key, as the step filed it): a side's reaction, or the referee's
// ruling. st is the state before, which still holds the question.
func answerWords(st *State, key, answer string) string {
	what, who := keyParts(key)
	if answer == "" {
		return "A standing order sent since answers what was asked."
	}
	if what == oRule {
		kind, _, _ := strings.Cut(who, "|")
		switch kind {
		case "fire":
			return "The referee rules the fire's result: " + resultWords(answer) + "."
		case "shock":
			return "The referee rules the shock's result: " + shockWords(answer) + "."
		case "change":
			return "The referee rules the order change " + yes(answer == "SUCCEEDS", "a success.", "a failure.")
		case "coordinate":
			return "The referee rules the coordination " + yes(answer == "SUCCEEDS", "a success.", "a failure.")
		case "build":
			return "The referee rules the works " + yes(answer == "BUILT", "built.", "not yet built.")
		}
		return "The referee gives the ruling asked for."
	}
	side := "The side asked"
	if a := st.asked(); a != nil && a.Side != "" {
		side = a.Side
	}
	if what == rRout {
		// The owner's choice of the rout hex (R11).
		if _, h, ok := strings.Cut(answer, ":"); ok && strings.HasPrefix(answer, "yes") {
			return fmt.Sprintf("%s answers: %s routs to %s.", side, who, h)
		}
		return fmt.Sprintf("%s answers: %s routs to %s, the hex first in order.", side, who, firstHex(key))
	}
	if strings.HasPrefix(answer, "yes") {
		return fmt.Sprintf("%s answers: %s makes its %s.", side, who, reactionName(what))
	}
	return fmt.Sprintf("%s answers: %s makes no %s.", side, who, reactionName(what))
}

func markText(u, flag string, on bool) string {
	if r, ok := strings.CutPrefix(flag, "used:"); ok {
		if r == "noshock" {
			return u + " drops out of the shock."
		}
		return fmt.Sprintf("%s has used its %s this phase.", u, reactionName(r))
	}
	switch flag {
	case "fired":
		return u + " has fired this phase."
	case "shocked":
		return u + " has shocked this phase."
	case "moved":
		return u + " has moved this phase."
	case "wm":
		return u + " has made a withdrawal movement (9.5)."
	case "recover":
		return u + " tries to recover."
	case "build":
		return u + " is building."
	case "charged":
		return u + " charges."
	case "switched":
		return u + " mounts or dismounts this phase (16.2)."
	case "mounted":
		return u + yes(on, " is mounted.", " is dismounted.")
	case "blown":
		return u + yes(on, " is blown.", " has its breath back.")
	case "refused":
		return u + yes(on, " refuses its flank.", " no longer refuses its flank.")
	}
	return u + "'s marker changes."
}

// progLines are a program's orders as written (markers left out).
func progLines(text []string) []string {
	var out []string
	for _, t := range text {
		if n, body, _ := strings.Cut(t, "|"); n != "" {
			out = append(out, playerLine(body))
		}
	}
	return out
}

// moveFrom is the program's own note of where a move began ("MOVE FROM
// 0605 0705"), which the player did not write and does not read.
var moveFrom = regexp.MustCompile(`: MOVE FROM \d{4} `)

// playerLine writes a program line as the player wrote it.
func playerLine(body string) string {
	return moveFrom.ReplaceAllString(body, ": MOVE ")
}
