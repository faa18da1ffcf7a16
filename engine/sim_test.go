package engine_test

import (
	"errors"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

type counter struct{ N int }

func evolveCounter(c counter, f events.Fact) (counter, error) {
	if f.Kind != "add" {
		return c, errors.New("unknown fact")
	}
	return counter{c.N + int(f.Int("n"))}, nil
}

// Each fact is applied as it is made, so the next rule reads the state
// after it; problems reject the whole action; a fact that does not evolve
// stops the decision with an error.
func TestDecideAppliesEachFactAsItIsMade(t *testing.T) {
	d, err := engine.Decide(counter{1}, engine.FixedDice(4), evolveCounter, func(m *engine.Sim[counter]) []events.Problem {
		m.Emit("add", events.I("n", int64(m.Dice.Roll("x", 6))))
		m.EmitTo(events.ToSide("USA"), "add", events.I("n", int64(m.State.N))) // reads 5
		m.Say("added twice")
		m.SayTo(events.ToSide("USA"), "to USA alone")
		return nil
	})
	if err != nil || len(d.Facts) != 2 || d.Facts[1].Int("n") != 5 || d.Facts[1].Vis != events.ToSide("USA") ||
		len(d.Echo) != 2 || d.EchoVis[1] != events.ToSide("USA") || !d.EchoVis[0].Public() {
		t.Fatalf("%+v %v", d, err)
	}
	public, _ := engine.Decide(counter{}, engine.FixedDice(1), evolveCounter, func(m *engine.Sim[counter]) []events.Problem {
		m.Say("seen by all")
		return nil
	})
	if public.EchoVis != nil {
		t.Fatalf("an all-public echo keeps visibilities: %+v", public)
	}
	rej, err := engine.Decide(counter{}, engine.FixedDice(1), evolveCounter, func(m *engine.Sim[counter]) []events.Problem {
		m.Emit("add", events.I("n", 1))
		return []events.Problem{{Line: 1, Col: 1, Msg: "no"}}
	})
	if err != nil || len(rej.Facts) != 0 || len(rej.Problems) != 1 {
		t.Fatalf("rejected: %+v %v", rej, err)
	}
	_, err = engine.Decide(counter{}, engine.FixedDice(1), evolveCounter, func(m *engine.Sim[counter]) []events.Problem {
		m.Emit("subtract")
		t.Fatal("the decision went on after a fact that does not evolve")
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "unknown fact") {
		t.Fatalf("a fact that does not evolve: %v", err)
	}
}

// Deal shuffles a deck with the dice it is given: the same rolls give the
// same hand, the deck given is left as it was, and every card is dealt
// once.
func TestDealDrawsEveryCardOnce(t *testing.T) {
	deck := []string{"a", "b", "c", "d", "e"}
	rolls := []int{2, 1, 3, 1}
	i := 0
	dice := engine.DiceFunc(func(_ string, sides int) int { v := min(rolls[i], sides); i++; return v })
	hand, rest := engine.Deal(dice, "deal", deck, 2)
	if strings.Join(deck, "") != "abcde" {
		t.Fatalf("the deck was changed: %v", deck)
	}
	all := strings.Join(append(append([]string(nil), hand...), rest...), "")
	if len(hand) != 2 || len(rest) != 3 || len(all) != 5 || strings.Count(all, "a")+strings.Count(all, "b")+strings.Count(all, "c")+strings.Count(all, "d")+strings.Count(all, "e") != 5 {
		t.Fatalf("hand %v rest %v", hand, rest)
	}
	if i != 4 {
		t.Fatalf("a deck of 5 took %d rolls, want 4", i)
	}
}
