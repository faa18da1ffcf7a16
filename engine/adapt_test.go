package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"pbem/engine"
)

type ownOrder struct{ text string }

type ownState struct{ Target int }

func TestAdapterHelpersKeepTheRulesetsOwnTypes(t *testing.T) {
	orders := engine.OrdersOf([]ownOrder{{"ADD 1"}, {"ADD 2"}})
	back, err := engine.OrdersAs[ownOrder]("race", orders)
	if err != nil || len(back) != 2 || back[1].text != "ADD 2" {
		t.Fatalf("round trip: %v %v", back, err)
	}
	if _, err := engine.OrdersAs[ownOrder]("race", []engine.Order{ownOrder{"ADD 1"}, "ADD 2"}); err == nil || err.Error() != "race: order of type string" {
		t.Fatalf("another ruleset's order: %v", err)
	}
	st := &ownState{Target: 5}
	if got := engine.StateAs[*ownState]("race", engine.State(st)); got != st {
		t.Fatal("state not returned as itself")
	}
	defer func() {
		if r := fmt.Sprint(recover()); !strings.Contains(r, "race: state of type int") {
			t.Fatalf("another ruleset's state: %s", r)
		}
	}()
	engine.StateAs[*ownState]("race", engine.State(7))
}
