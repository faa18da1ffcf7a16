package play_test

import (
	"path/filepath"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
	"pbem/engine/play"
	"pbem/store"
)

// A campaign whose [battles] mapping could not open its battle (a force
// the tactical scenario lacks, a force on the other side, a scenario the
// system does not have) is refused when it is created, the error naming
// the scenario's line: never a campaign that waits for ever on a battle
// that fails to open. A mapping that opens is created as before.
func TestLinkedBattleMappingCheckedWhenTheCampaignIsCreated(t *testing.T) {
	mapped := func(battle, forces string) string {
		return strings.Replace(linkedCampaign, "battle  default  hra  kettle-run  USA=Union  CSA=Confederate\nforces  referee",
			battle+"\n"+forces, 1)
	}
	for _, tc := range []struct {
		name, scenario string
		want           []string // in the error; none: created
	}{
		{"mapped forces open", mapped("battle default hra kettle-run USA=Union CSA=Confederate", `force A "Iron Brigade"`+"\n"+`force Y "Stonewall Brigade"`), nil},
		{"referee's setup opens", linkedCampaign, nil},
		{"a force the scenario lacks", mapped("battle default hra kettle-run USA=Union CSA=Confederate", `force A "Iron Brigade"`+"\n"+`force Y "Irish Brigade"`),
			[]string{"line 15", `force Y "Irish Brigade"`, "no brigade of scenario Kettle Run"}},
		{"a force on the other side", mapped("battle default hra kettle-run USA=Union CSA=Confederate", `force A "Stonewall Brigade"`),
			[]string{"line 14", `force A "Stonewall Brigade"`, "Confederate's"}},
		{"a gbacw force the scenario lacks", mapped("battle default gbacw tanners-mill USA=USA CSA=CSA", `force A "Hale's Brigade"`+"\n"+`force Y "Nobody's Brigade"`),
			[]string{"line 15", "Nobody's Brigade"}},
		{"a gmb force the scenario lacks", mapped("battle default gmb hazel-run USA=Union CSA=Confederate", `force A "XI Corps"`),
			[]string{"line 14", "XI Corps"}},
		{"a scenario the system lacks", mapped("battle default hra kettle-creek USA=Union CSA=Confederate", `force A "Iron Brigade"`),
			[]string{"line 13", "hra has no scenario kettle-creek"}},
		{"sides the scenario lacks", mapped("battle default hra kettle-run USA=North CSA=South", `force A "Iron Brigade"`),
			[]string{"line 13", "North"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			reg := engine.NewRegistry(gcacw.New, gbacw.New, hra.New, gmb.New)
			_, err = play.Create(st, reg, play.NewGame{ID: "camp", Ruleset: "gcacw", ScenarioName: "linked", Scenario: []byte(tc.scenario),
				Players: linkedPlayers, At: start, TacticalScenarios: allScenarios})
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("a mapping that opens its battle was refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("a campaign whose battle cannot open was created")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the refusal lacks %q: %v", w, err)
				}
			}
			if h, _ := st.Head("camp"); h.Seq != 0 {
				t.Errorf("the refused campaign has %d events", h.Seq)
			}
		})
	}
}
