package bench

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"pbem/engine/play"
	"pbem/store"
)

// The replay part's "rules' work alone" must be the rule system's whole
// work of the game and nothing less: every decision's facts applied to
// the first state end in the state a replay of the log ends in, byte for
// byte, for every rule system's demo game. Were a decision left out (a
// fact cut at a game fact, the inert ones mishandled), the figure would
// measure less than a replay must do, and the ceiling it gives would be
// too high.
func TestTheRulesWorkAloneEndsInTheReplayedState(t *testing.T) {
	a := testApp(io.Discard)
	for _, rs := range a.reg.Names() {
		t.Run(rs, func(t *testing.T) {
			dir := t.TempDir()
			model, err := playModel(a, dir, rs, demoOrders)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "replay.db")
			if err := copyGames(a.reg, path, model, 2, len(model)); err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(path, replayStoreOptions)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ids := []string{"bench-00000", "bench-00001"}
			work, err := rulesAlone(st, a.reg, ids)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				// Twice: the second time must start from the same first
				// state, not the one the first time changed in place.
				for round := range 2 {
					s, n, err := work.play(id)
					if err != nil {
						t.Fatal(err)
					}
					g, err := play.Replay(st, a.reg, id, 0)
					if err != nil {
						t.Fatal(err)
					}
					if n != int(g.Seq) || n != len(model) {
						t.Errorf("%s: %d events counted, the log has %d (the model %d)", id, n, g.Seq, len(model))
					}
					got, err := g.Rules.EncodeState(s)
					if err != nil {
						t.Fatal(err)
					}
					want, err := g.Rules.EncodeState(g.State)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s, time %d: the rules' work alone ends in another state than the replay (%d bytes against %d)", id, round+1, len(got), len(want))
					}
					if len(work[id].decisions) == 0 {
						t.Errorf("%s: no decision to apply", id)
					}
				}
			}
		})
	}
}
