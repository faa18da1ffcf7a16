package engine

import "fmt"

// Helpers for a ruleset's adapter: the engine hands a ruleset back only
// the states and orders the ruleset made, typed as State and Order, and
// these turn them back into the ruleset's own types.

// StateAs returns s as the ruleset's own state type S. Any other type is
// a programming error (the engine never mixes rulesets' states), so it
// panics, naming the ruleset.
func StateAs[S any](ruleset string, s State) S {
	st, ok := s.(S)
	if !ok {
		panic(fmt.Sprintf("%s: state of type %T", ruleset, s))
	}
	return st
}

// OrdersOf returns a ruleset's parsed orders as the engine's.
func OrdersOf[O any](os []O) []Order {
	out := make([]Order, len(os))
	for i, o := range os {
		out[i] = o
	}
	return out
}

// OrdersAs returns the engine's orders as the ruleset's own type O.
func OrdersAs[O any](ruleset string, orders []Order) ([]O, error) {
	out := make([]O, 0, len(orders))
	for _, o := range orders {
		oo, ok := o.(O)
		if !ok {
			return nil, fmt.Errorf("%s: order of type %T", ruleset, o)
		}
		out = append(out, oo)
	}
	return out, nil
}
