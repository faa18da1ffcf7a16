package gcacw

import (
	"fmt"
	"strings"

	"pbem/events"
)

// Die lines in the shape every rule system writes (docs: the die-line
// format shared by the rule systems): the dice, their sum, each modifier
// with its source and rule, and the result, so that a player can check
// the arithmetic: "rolls 5 + 3 = 8, +1 Confederate cavalry (5.1.1) = 9".

// dieLine writes dice and modifiers: "4", "5 + 3 = 8", "4, +1 x (5.1.1)
// = 5"; mods are "+K source" each, none of them zero.
func dieLine(vals []int64, mods ...string) string {
	var ds []string
	sum := int64(0)
	for _, v := range vals {
		ds = append(ds, fmt.Sprint(v))
		sum += v
	}
	s := strings.Join(ds, " + ")
	if len(vals) > 1 {
		s += fmt.Sprintf(" = %d", sum)
	}
	total := sum
	var ms []string
	for _, m := range mods {
		var k int64
		if _, err := fmt.Sscanf(m, "%d", &k); err != nil || k == 0 {
			continue
		}
		total += k
		ms = append(ms, m)
	}
	if len(ms) == 0 {
		return s
	}
	return fmt.Sprintf("%s, %s = %d", s, strings.Join(ms, ", "), total)
}

// factDice are a fact's dice: its die, or its dice.
func factDice(f events.Fact) []int64 {
	if aDice.In(f) {
		return aDice.Of(f)
	}
	return []int64{aDie.Of(f)}
}

func sum64(vs []int64) int64 {
	n := int64(0)
	for _, v := range vs {
		n += v
	}
	return n
}

// marchRoll is the die line of a march's MA (GCACW 5.1.1): the
// Confederate +1, or the raise to a minimum of 2.
func marchRoll(s *State, f events.Fact) string {
	ds := factDice(f)
	d := aMa.Of(f) - sum64(ds)
	src := "Confederate (5.1.1)"
	if u := s.unit(aUnit.Of(f)); u != nil && (u.Side == USA || u.Type != Cavalry && s.Scn != nil && (s.Scn.Game == "OTR" || s.Scn.Game == "AGA")) {
		src = "up to the minimum MA of 2 (5.1.1)"
	}
	return dieLine(ds, fmt.Sprintf("%+d %s", d, src))
}

// forceRoll is the die line of a Force March's extra MP (GCACW
// 5.1-FM.2): the roll less 1, raised to the minimum.
func forceRoll(f events.Fact) string {
	ds := factDice(f)
	roll := sum64(ds)
	mods := []string{"-1 Force March (5.1-FM.2)"}
	if up := aMp.Of(f) - (roll - 1); up > 0 {
		mods = append(mods, fmt.Sprintf("%+d up to the minimum of %d MP (5.1-FM.2)", up, aMp.Of(f)))
	}
	return dieLine(ds, mods...)
}

// leaderRoll is the die line of a leader's MA (GCACW 5.2.3).
func leaderRoll(s *State, f events.Fact) string {
	ds := factDice(f)
	d := aMa.Of(f) - sum64(ds)
	src := fmt.Sprintf("%s leader (5.2.3)", aClass.Of(f))
	if l := s.leader(aLeader.Of(f)); l != nil {
		side := "Confederate"
		if l.Side == USA {
			side = "Union"
		}
		src = fmt.Sprintf("%s %s leader (5.2.3)", side, aClass.Of(f))
		if l.Side == USA && aClass.Of(f) == "infantry" && s.Scn != nil && (s.Scn.Game == "SIV" || s.Scn.Game == "OTR" || s.Scn.Game == "AGA") {
			src = "up to the minimum MA of 2 (5.2.3)"
		}
	}
	return dieLine(ds, fmt.Sprintf("%+d %s", d, src))
}

// emRoll is the die line of an Extended March read on the table: the
// table's modifiers, each with its source.
func emRoll(f events.Fact) string {
	var mods []string
	for _, d := range aDrms.Of(f) {
		mods = append(mods, d+" (Extended March Table)")
	}
	line := dieLine([]int64{aDie.Of(f)}, mods...)
	if len(mods) == 0 && aDrm.Of(f) != 0 {
		line = dieLine([]int64{aDie.Of(f)}, fmt.Sprintf("%+d the table's modifiers", aDrm.Of(f)))
	}
	return line
}

// maMod is the echo's modifier of a march's MA (GCACW 5.1.1), where the
// state is not at hand: the difference, named by the rule.
func maMod(f events.Fact) string {
	return fmt.Sprintf("%+d side and unit type (5.1.1)", aMa.Of(f)-sum64(factDice(f)))
}
