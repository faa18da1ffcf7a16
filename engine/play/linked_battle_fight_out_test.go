package play_test

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
	"pbem/engine/play"
	"pbem/events"
)

// refereeRuledCampaign is linkedCampaign without its [battles]: every
// assault waits for the referee, who may have it fought out (RULE FIGHT
// OUT) in any tactical system's scenario he names.
var refereeRuledCampaign = linkedCampaign[:strings.Index(linkedCampaign, "[battles]")]

// lastRefusal is the problems of the last decision of game, if it was a
// refusal.
func (lt *linkedTable) lastRefusal(game string) ([]events.Problem, bool) {
	var last events.Payload
	_ = lt.st.Read(game, 1, func(e *events.Envelope) error {
		switch e.Type {
		case events.TypeOrderAccepted, events.TypeOrderRejected:
			last, _ = events.Decode(e)
		}
		return nil
	})
	rej, ok := last.(*events.OrderRejected)
	if !ok {
		return nil, false
	}
	return rej.Problems, true
}

// A referee's RULE FIGHT OUT that names a battle which cannot open (a
// scenario the tactical system does not have, sides that are not its
// sides) is refused with what is wrong, nothing is added to the
// campaign, and the assault still waits for his ruling; a corrected
// RULE FIGHT OUT then opens the battle and the game goes on. Before, the
// ruling was taken and the campaign waited for ever on a battle the
// runner failed to open at every tick, and the referee was never told.
func TestLinkedBattleRefereesFightOutThatCannotOpenIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, ruling string
		want         []string
	}{
		{"no such scenario", "RULE FIGHT OUT %s IN hra kettle-hill",
			[]string{"cannot be fought out as a battle of hra, scenario kettle-hill", "hra has no scenario of that name (its scenarios: ", "kettle-run"}},
		{"sides the scenario does not have", "RULE FIGHT OUT %s IN hra kettle-run USA=Blue CSA=Grey",
			[]string{"cannot be fought out as a battle of hra, scenario kettle-run", "Blue"}},
		{"another system's scenario", "RULE FIGHT OUT %s IN gmb kettle-run",
			[]string{"cannot be fought out as a battle of gmb, scenario kettle-run", "gmb has no scenario of that name (its scenarios: ", "hazel-run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := engine.NewRegistryOf(gcacw.System(), gbacw.System(), hra.System(), gmb.System())
			lt := newLinkedTableOf(t, refereeRuledCampaign, reg, allScenarios)
			attacker := lt.openAssault()
			at := map[string]string{gcacw.USA: "0504", gcacw.CSA: "0505"}[attacker]
			camp := lt.load("camp")
			if ps := camp.Rules.Prompt(camp.State); len(ps) != 1 || !ps[0].Referee {
				t.Fatalf("the assault does not wait for the referee: %+v", camp.Rules.Prompt(camp.State))
			}
			before, _ := lt.st.Head("camp")

			lt.operator("camp", strings.Replace(tc.ruling, "%s", at, 1))
			probs, refused := lt.lastRefusal("camp")
			if !refused {
				t.Fatalf("the ruling was taken; the campaign now waits on %+v", play.Battles(lt.load("camp")))
			}
			var text []string
			for _, p := range probs {
				text = append(text, p.Msg+" / "+p.Hint)
			}
			all := strings.Join(text, "\n")
			for _, w := range append(tc.want, "the assault on "+at, "the assault still waits for your ruling", "RULE FIGHT OUT again") {
				if !strings.Contains(all, w) {
					t.Errorf("the refusal does not say %q:\n%s", w, all)
				}
			}
			camp = lt.load("camp")
			if bs := play.Battles(camp); len(bs) != 0 {
				t.Errorf("the campaign waits on a battle after a refused ruling: %+v", bs)
			}
			if ps := camp.Rules.Prompt(camp.State); len(ps) != 1 || !ps[0].Referee {
				t.Errorf("after the refusal the campaign asks %+v, want the referee's ruling still", ps)
			}
			// Nothing but the command and its refusal was added.
			if h, _ := lt.st.Head("camp"); h.Seq != before.Seq+2 {
				t.Errorf("the campaign's log grew by %d events for a refused ruling, want 2 (the command, its refusal)", h.Seq-before.Seq)
			}

			lt.operator("camp", "RULE FIGHT OUT "+at+" IN hra kettle-run")
			camp = lt.load("camp")
			bs := play.Battles(camp)
			if len(bs) != 1 || bs[0].Scenario != "kettle-run" {
				t.Fatalf("after the corrected ruling the campaign waits on %+v", bs)
			}
			id := play.BattleID(camp, bs[0])
			lt.waitFor(id, "the battle's creation", func(g *play.Game) bool { return g.Created != nil })
			lt.auditAndVerify("camp", id)
		})
	}
}
