package gcacw

import (
	"fmt"
	"strings"
)

// leaderClass names the rows of the leader MA table of GCACW 5.2.3.
func leaderClass(l *Leader) string {
	switch {
	case l.Cavalry && l.Kind == CorpsLeader:
		return "cavalry corps"
	case l.Cavalry:
		return "cavalry division"
	}
	return "infantry"
}

// leaderMA returns a leader's MA from its dice (GCACW 5.2.3). Union:
// infantry leaders 1d6+1 (SIV, OTR, AGA: 1d6, minimum 2), cavalry division
// 2d6+1, cavalry corps 2d6+2. Confederate: infantry 1d6+2 (OTR, AGA:
// 1d6+1), cavalry division 2d6+2, cavalry corps 2d6+3. ("OTA" in the seed
// is read as OTR: Ambiguity A1.)
func leaderMA(game string, l *Leader, sum int) int {
	switch leaderClass(l) {
	case "cavalry corps":
		if l.Side == USA {
			return sum + 2
		}
		return sum + 3
	case "cavalry division":
		if l.Side == USA {
			return sum + 1
		}
		return sum + 2
	}
	if l.Side == USA {
		if game == "SIV" || game == "OTR" || game == "AGA" {
			return max(sum, 2)
		}
		return sum + 1
	}
	if game == "OTR" || game == "AGA" {
		return sum + 1
	}
	return sum + 2
}

func leaderDice(l *Leader) int {
	if l.Cavalry {
		return 2
	}
	return 1
}

// mayActivate says why leader l may not activate unit u (GCACW 5.2.2),
// or "": u must be commanded by l (not outside any command structure,
// 5.2.2a) — or be artillery and l not a cavalry leader (5.2.2b) — and be
// within l's command radius (2.5; for the artillery too: Ambiguity A15),
// at fatigue 3 or less (5.2.2), or at 4 and organized under the optional
// rule (5.2.2-OPT).
func (s *State) mayActivate(l *Leader, u *Unit) string { return s.mayActivateIn(l, u, s.radiusOf(l)) }

// mayActivateIn is mayActivate with l's command radius r (radiusOf), for
// a caller asking about many of l's units.
func (s *State) mayActivateIn(l *Leader, u *Unit, r *leaderRadius) string {
	switch {
	case u.Side != l.Side:
		return fmt.Sprintf("%s is not your unit", u.Name)
	case u.Eliminated:
		return fmt.Sprintf("%s has been eliminated", u.Name)
	case !s.commands(l, u) && u.Type == Artillery && l.Cavalry:
		return fmt.Sprintf("%s is artillery outside %s's command, and %s is a cavalry leader (GCACW 5.2.2b)", u.Name, l.Name, l.Name)
	case !s.commands(l, u) && u.Type != Artillery:
		if len(u.In) == 0 || u.Side == USA && u.Type == Cavalry && unionCavalryUncommanded(s.Scn.Game) {
			return fmt.Sprintf("%s belongs to no command structure and can only march alone (GCACW 5.2.2a)", u.Name)
		}
		return fmt.Sprintf("%s is not under %s's command (%s commands %s)", u.Name, l.Name, l.Name, l.Commands)
	// GCACW 2.5a: the leader traces its command radius to the unit; for
	// artillery outside the leader's command, unless the scenario reads
	// Ambiguity A15 as "anywhere".
	case !r.contains(u) && !(u.Type == Artillery && !s.commands(l, u) && s.Scn.Reading(ReadA15) == "anywhere"):
		return fmt.Sprintf("%s is not within %s's command radius (GCACW 2.5)", u.Name, l.Name)
	case u.Fatigue <= 3:
		return ""
	case s.Scn.Option(OptFatigue4) && !u.Disorganized:
		return "" // GCACW 5.2.2-OPT
	}
	return fmt.Sprintf("%s is at fatigue %d: a leader activates units at fatigue 3 or less (GCACW 5.2.2)", u.Name, u.Fatigue)
}

// leaderEligible says why a leader cannot be activated, or "" (GCACW 5.2c,
// 5.2d): it must be a district, corps or division leader, with at least one
// subordinate unit within its command radius at fatigue 3 or less.
func (s *State) leaderEligible(l *Leader) string {
	if l.Kind == ArmyLeader {
		return fmt.Sprintf("%s is an Army Leader: only district, corps and division leaders are activated (GCACW 5.2c)", l.Name)
	}
	if _, ok := s.leaderHex(l); !ok {
		return fmt.Sprintf("%s has no unit to stand with", l.Name)
	}
	// Ambiguity A18, read as "counts": under the optional rule an
	// organized fatigue-4 unit makes its leader eligible too.
	fatigue4 := s.Scn.Option(OptFatigue4) && s.Scn.Reading(ReadA18) == "counts"
	radius := s.radiusOf(l)
	for _, u := range s.live() {
		if s.commands(l, u) && (u.Fatigue <= 3 || fatigue4 && !u.Disorganized) && radius.contains(u) {
			return ""
		}
	}
	return fmt.Sprintf("%s has no subordinate unit within its command radius at fatigue 3 or less (GCACW 5.2d)", l.Name)
}

// activationLimit returns how many units the leader may activate, 0 for
// any number (GCACW 5.2.2-OTR): in OTR, a Union player who won the
// initiative by the roll activates 1 unit on a die of 1-4, 2 on a 5 and
// any number on a 6; through a Confederate pass or without a roll, any.
func (s *State) activationLimit(side string) int {
	if s.Scn.Game != "OTR" || side != USA || s.Cycle.Via != "roll" || s.Cycle.Winner != USA {
		return 0
	}
	switch d := s.Cycle.DieUSA; {
	case d <= 4:
		return 1
	case d == 5:
		return 2
	}
	return 0
}

// doActivate performs a Leader Activation (GCACW 5.2.1-5.2.3).
func (m sim) doActivate(side string, o Order) {
	m.take(side)
	l := m.State.leader(o.Leader)
	var ids, plans []string
	for _, e := range o.Entries {
		ids = append(ids, e.Unit)
		plans = append(plans, e.Plan.String())
	}
	limit := "any"
	if n := m.State.activationLimit(side); n > 0 {
		limit = fmt.Sprint(n)
	}
	m.Emit(kLeaderActivated, aLeader.Arg(l.ID), aSide.Arg(side), aUnits.Arg(ids...), aPlans.Arg(plans...), aLimit.Arg(limit))
	// GCACW 5.2.3: the leader's MA.
	sum, vals := m.roll("leader MA "+l.ID, leaderDice(l))
	ma := leaderMA(m.State.Scn.Game, l, sum)
	m.Emit(kLeaderMaRolled, aLeader.Arg(l.ID), diceArg(vals), aMa.Arg(int64(ma)), aClass.Arg(leaderClass(l)))
	if !m.State.Scn.Option(OptActivationMarch) {
		// GCACW 5.2.4 is not in the rules (R16): the referee rules it.
		m.Emit(kRefereePending, aStep.Arg(StepActivation), aLeader.Arg(l.ID), aUnits.Arg(ids...),
			aNote.Arg(fmt.Sprintf("%s activated %s with MA %d; the rest of the Leader Activation procedure (5.2 step 4) is not in the rules: rule the marches (RULE MARCH/FATIGUE/…), then RULE DONE", l.ID, strings.Join(ids, ", "), ma)))
		return
	}
	m.continueActivation()
}

// continueActivation marches the next activated unit, or ends the
// activation and the action (GCACW 5.2a: one after another).
func (m sim) continueActivation() {
	a := m.State.Act
	for a.Done < len(a.Units) {
		u := m.State.unit(a.Units[a.Done])
		if u.Eliminated {
			m.Emit(kActivationSkipped, aUnit.Arg(u.ID), aReason.Arg("eliminated before its march"))
			a = m.State.Act
			continue
		}
		m.beginActivatedMarch(u.ID, a.Plans[a.Done])
		return // continueMarch calls back here when the march is over
	}
	m.Emit(kActivationEnded, aLeader.Arg(a.Leader))
	m.endAction()
}
