package compose_test

import (
	"strings"
	"testing"

	"pbem/engine/play"
	"pbem/events"
)

// A battle fought out for a campaign says, in every mail, which campaign
// and which assault it belongs to; a game that is no battle says nothing
// of the kind.
func TestLinkedBattleMailsNameTheirCampaignAndAssault(t *testing.T) {
	s, _ := deskServer(t, events.Setting{Key: play.SettingParent, Value: "camp t1-a1-0504"}, events.Setting{Key: play.SettingParentWhat, Value: "the assault on 0504"})
	welcome := mailsIn(t, mustEvents(t, s.st, 1))
	wantIn(t, bodyTo(t, welcome, "anna@example.org").Body, "This game is the assault on 0504 (battle t1-a1-0504) of campaign camp, fought out as a battle; its result goes back to the campaign when it ends.")
	ms := s.input(&events.OrderReceived{Player: "north", Text: "ADD 2"})
	wantIn(t, bodyTo(t, ms, "taro@example.jp").Body, "of campaign camp, fought out as a battle")

	plain, _ := deskServer(t)
	if b := bodyTo(t, mailsIn(t, mustEvents(t, plain.st, 1)), "anna@example.org").Body; strings.Contains(b, "campaign") {
		t.Errorf("a game that is no battle names a campaign:\n%s", b)
	}
}
