package gbacw

import (
	"fmt"
	"slices"
	"sort"

	"pbem/engine"
)

// optionReading is, for each option word, the reading the package takes
// by default (the specification's, where it gives one) and what the
// option reads instead: the welcome mail lists both, and which one the
// game plays.
var optionReading = map[string][2]string{
	"b2-corps-orders":          {"orders flow corps → division → brigade: an out-of-command division leader cannot pass them down (3.2, 5.5, B2)", "the corps leader orders brigades himself"},
	"b3-oc-hexes":              {"4.1b counts the MP the army commander spent in the last Commander Movement Phase (B3)", "it counts the hexes he moved"},
	"b4-tie-previous":          {"on a tied initiative no one picks the first AM (B4)", "the side that had the initiative last turn picks it"},
	"b5-march-fixed":           {"the March AM's activations (1-4) come from the efficiency chart's march row (10.1, B5)", "a fixed number each turn"},
	"b6-trail-full":            {"a trail halves the terrain cost, rounded up on Advance and down (at least 1) on March orders (6.1, 10.5, B6)", "a trail saves nothing"},
	"b7-attack-crossings":      {"Attack orders use no road rate and cross no bridge or ford (6.2, B7)", "they may cross at bridges and fords, paying the other terrain"},
	"b8-two-plus-battery":      {"mixed stacks are one infantry or cavalry unit and one battery, or two batteries (8.2, B8)", "two infantry units may stack with a battery as well"},
	"b9-face-if-blocked":       {"a unit entering an enemy-adjacent hex may not turn, even if its front is impassable (9.2, B9)", "it may turn if its front hexes are impassable"},
	"b10-double-only":          {"recovery loses a SP on a modified dr of twice the cohesion or of 9 or more (19.3, B10)", "only on twice the cohesion or more"},
	"b11-either":               {"end-of-turn recovery both recovers a disordered unit and lowers its fatigue (19.6, B11)", "one or the other"},
	"b12-once-per-am":          {"return fire once per brigade activation (13.1, B12)", "once per activation marker"},
	"b13-enemy-in-front":       {"no reaction facing change for a unit in the front of an enemy other than the one that called for it (7.6, B13)", "none for a unit with another enemy in its own front"},
	"b14-one-firer":            {"every unit from the top of a stack that the stack's caps reach fires (11.1, 11.5a, B14)", "only the top unit of a stack fires"},
	"b14-top-non-artillery":    {"every unit from the top of a stack that the stack's caps reach fires (11.1, 11.5a, B14)", "only the top unit other than artillery fires, and the batteries the artillery cap reaches"},
	"b15-start-half":           {"collapse is below half the printed strength (20.1, B15)", "below half the strength the unit started the scenario with"},
	"b16-retreat-from-cavalry": {"no pre-shock retreat from mounted cavalry (14.3b, B16)", "a unit may retreat from mounted cavalry"},
	"b19-two-fires":            {"pre-shock fire (13.2) and the reaction fire of 14.3e are one fire (B19)", "they are two fires"},
	"b21-unit-stacked":         {"order change DRMs count the division or corps leader stacked with the brigade's leader (3.3, B21)", "stacked with any unit of the brigade"},
	"march-am-no-change":       {"the March AM's activations have their Order Change Phase, as every activation does (3.3, 10.1)", "a March brigade changes orders only in the Command Segment"},
	"retreat-is-moving":        {"a retreat or rout is not the unit's moving, for end-of-turn recovery (19.6)", "it counts as moving"},
	"prepared-fire-any":        {"the Prepared Fire bonus is the phasing unit's fire when it has not moved (11.4)", "any fire by a unit that has not moved, non-phase fire too"},
	"turns-apart":              {"the points a unit turns in one hex in a phase add up: two one-point turns cost 1 MP (7.3, 7.4)", "each turn is priced alone"},
	"shock-best-hex":           {"a shock on several hexes takes the defender's facing, terrain, works and hexside DRMs from the first hex named (14.3a)", "from the hex named that is best for the defender"},
}

// optionsOn are the option words a scenario turns on, sorted.
func optionsOn(o Options) []string {
	var on []string
	for k := range optionNames {
		if k == "b5-march-fixed" {
			if o.MarchFixed != 0 {
				on = append(on, k)
			}
			continue
		}
		p := o
		if optionNames[k](&p, "") == nil && p == o {
			on = append(on, k) // already on: setting it changed nothing
		}
	}
	sort.Strings(on)
	return on
}

// explain is engine.Explainer's: GBACW's sections of the welcome mail
// (the scenario, the readings and options it is played with, the house
// rules its charts add, what it leaves to a referee). HELP and STATUS
// are the prompts' own.
func explain(st *State, _ engine.Viewer, word string) []engine.Explanation {
	if word != engine.ExplainWelcome {
		return nil
	}
	sc := st.Scn
	scenario := []string{fmt.Sprintf("%s: %d turns, %d x %d hexes.", sc.Name, sc.Turns, sc.Grid.Cols, sc.Grid.Rows)}
	if sc.TablesFile != "" {
		scenario = append(scenario, fmt.Sprintf("Its charts are %s's: SAMPLE charts, invented for pbem, not the published ones; a section of the scenario's own replaces the sample's.", sc.TablesFile))
	}
	on := optionsOn(sc.Options)
	var readings []string
	var keys []string
	for k := range optionReading {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r := optionReading[k]
		if slices.Contains(on, k) {
			v := k
			if k == "b5-march-fixed" {
				v = fmt.Sprintf("%s=%d", k, sc.Options.MarchFixed)
			}
			readings = append(readings, fmt.Sprintf("- Option %s is ON: %s (instead of: %s).", v, r[1], r[0]))
			continue
		}
		readings = append(readings, fmt.Sprintf("- %s; option %s: %s.", upperFirst(r[0]), k, r[1]))
	}
	var house []string
	if n := sc.Tables.UDDDRM["march-shocked"]; n != 0 {
		house = append(house, fmt.Sprintf("- House rule: a March column that is shocked takes its UDD at %+d (10.8 says only \"with DRMs\" and gives no number).", n))
	}
	if len(house) == 0 {
		house = append(house, "None: the charts add no modifier the rules do not name.")
	}
	var steps []string
	if left := refereeSteps(st); len(left) == 0 {
		steps = append(steps, "No step is left to a referee: two players can finish this game alone.")
	} else {
		steps = append(steps, "Left to the referee:")
		for _, l := range left {
			steps = append(steps, "- "+l+".")
		}
	}
	out := []engine.Explanation{{Heading: "This scenario", Lines: scenario}}
	if len(sc.Muster) > 0 {
		out = append(out, engine.Explanation{Heading: engine.MusterHeading, Lines: sc.Muster})
	}
	return append(out,
		engine.Explanation{Heading: "Readings of the rules, and the options that read them otherwise", Lines: readings},
		engine.Explanation{Heading: "House rules", Lines: house},
		engine.Explanation{Heading: "The referee", Lines: steps})
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
