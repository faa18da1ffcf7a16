package gcacw

import (
	"fmt"
	"strings"
)

// refereeSteps is engine.RefereeStepper's: the steps a game of this
// scenario would hand to a referee, one line each. The rules hand a step
// to the referee where the seed stops or a table it refers to is not
// loaded; a scenario covers such a step with a table or a house rule
// (house.go), and a game whose scenario leaves any step uncovered needs a
// referee ('pbem new' refuses it without one).
func refereeSteps(st *State) []string {
	sc := st.Scn
	t := sc.Tables
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	switch missing := sc.missingTECRows(); {
	case t.Terrain == nil:
		add("where each march stops: the scenario loads no Terrain Effects Chart (GCACW 2.3b, R1)")
	case len(missing) > 0:
		add("marches into or across %s: the Terrain Effects Chart has no row for %s (R1)", strings.Join(missing, ", "), map[bool]string{true: "it", false: "them"}[len(missing) == 1])
	}
	if t.Extended == nil {
		add("Extended Marches: the scenario loads no Extended March Table (GCACW 5.1-EM.3, R2)")
	}
	hasCav := false
	for _, u := range st.Units {
		hasCav = hasCav || u.Type == Cavalry
	}
	if hasCav && (t.House == nil || t.House.Retreat == nil) {
		add("how cavalry retreats before a march (Cavalry Retreat [7.7], GCACW 5.1.2, R9): its owner says whether; a cavalry-retreat house rule would say how")
	}
	if sc.Option(OptTieSpecial) {
		add("tied initiative rolls, which may end the turn or cause insubordination in this scenario (GCACW 4.2e, R6)")
	}
	if sc.Game == "BAC" || sc.Game == "AIO" {
		if len(t.Ties) == 0 {
			add("tied initiative rolls: %s's tie table is not loaded (GCACW 4.2b, R5)", sc.Game)
		}
		for _, r := range t.Ties {
			if r.Insubordination {
				add("insubordination on a tied initiative roll (GCACW 4.2b, R5)")
				break
			}
		}
	}
	if !sc.Option(OptActivationMarch) {
		add("the marches of a Leader Activation (GCACW 5.2 step 4, R16): the option activation-march would play them by 5.1")
	}
	if sc.Option(OptRandomEvents) {
		add("the effects of random events (GCACW 3, phase 1, R4)")
	}
	if len(st.Leaders) > 0 && (t.House == nil || t.House.LeaderAlone == "") {
		add("where a leader goes when its unit is eliminated (GCACW 2.2j): the house rule leader-alone would place it")
	}
	if t.Reorg == nil {
		add("the Reorganization Phase of every turn (GCACW 3, phase 4, R14): a [reorganization] table would play it")
	}
	switch v := t.Victory; {
	case v == nil:
		add("the result after the last turn (R24): the scenario states no victory conditions; a [victory] table would count them")
	case v.Referee:
		add("the result after the last turn (R24): the referee decides it, weighing the scenario's victory conditions (%s); every board shows their state", v.conditions())
	}
	if t.Combat == nil {
		add("assaults and the attacks that end a march (GCACW 5b, 5.1.5, R10): a [combat] table would resolve them")
	}
	return out
}

// missingTECRows lists what the map uses that the Terrain Effects Chart
// has no row for (nil without a chart).
func (sc *ScenarioDef) missingTECRows() []string {
	tec := sc.Tables.Terrain
	if tec == nil {
		return nil
	}
	used := sc.Map.used()
	var out []string
	for _, n := range tecNames() {
		if _, ok := tec.Cost(n, Infantry); used[n] && !ok && n != Water {
			out = append(out, n)
		}
	}
	return out
}
