package play

import (
	"fmt"
	"strings"

	"pbem/engine"
)

// NeedsReferee refuses a new game that would wait for a referee it does
// not have: one whose scenario hands steps to a referee (the rule
// system's RefereeSteps), or one with deadlines whose missed ones are
// left to the referee. A game with a referee, or whose ruleset or
// scenario Create refuses anyway, passes (Create says why).
func NeedsReferee(reg *engine.Registry, ng NewGame) error {
	if len(ng.Referees) > 0 {
		return nil
	}
	rs, err := reg.Get(ng.Ruleset)
	if err != nil {
		return nil // Create says so
	}
	if stepper, ok := rs.(engine.RefereeStepper); ok {
		st, err := reg.Setup(rs, ng.Scenario, ng.Players)
		if err != nil {
			return nil // Create says so, with the scenario's name
		}
		if steps := stepper.RefereeSteps(st); len(steps) > 0 {
			return fmt.Errorf("scenario %s hands these steps to a referee, and the game has none; add one (--referee ID:ADDRESS) or play a scenario whose tables and house rules cover them:\n  - %s",
				ng.ScenarioName, strings.Join(steps, "\n  - "))
		}
	}
	if pol, err := ParsePolicy(ng.Settings); err == nil && pol.Deadline > 0 && strings.EqualFold(pol.AtDeadline, "referee") {
		return fmt.Errorf("the game has deadlines, and what happens at a missed one is left to the referee (%s=referee, the default), but the game has no referee; set an order to apply instead, e.g. --set %s=PASS",
			SettingAtDeadline, SettingAtDeadline)
	}
	return nil
}
