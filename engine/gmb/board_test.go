package gmb

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbem/engine"
)

var update = flag.Bool("update", false, "rewrite the golden boards in testdata/")

// played plays orders (pairs of player and text) on the sample with
// lcg(1) dice.
func played(t testing.TB, scn []byte, orders []string) *game {
	t.Helper()
	st, err := rules{}.Setup(scn, testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{t: t, st: st, dice: lcg(1)}
	for i := 0; i < len(orders); i += 2 {
		side := map[string]string{"anna": "Union", "taro": "Confederate", "ref": engine.RefereeSide}[orders[i]]
		g.decide(side, orders[i+1])
	}
	return g
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the board drawn now:\n%s", path, got)
	}
}

// TestBoardGolden holds the board's shape: the whole 48" table in 78
// columns with rulers every 6", bases with their front, terrain pieces
// with a legend; each side's window shows its own hand and tactic only.
func TestBoardGolden(t *testing.T) {
	setup := played(t, scenario(t), setupOrders)
	turn := played(t, battleScenario(t), append(append([]string(nil), battleSetup...), turnOrders(1)[:6]...))
	for _, tc := range []struct {
		name string
		g    *game
		v    engine.Viewer
		full bool
	}{
		{"setup-union.txt", setup, engine.Viewer{Side: "Union"}, false},
		{"setup-confederate-full.txt", setup, engine.Viewer{Side: "Confederate"}, true},
		{"setup-observer.txt", setup, engine.Viewer{}, false},
		{"turn1-union-full.txt", turn, engine.Viewer{Side: "Union"}, true},
		{"turn1-referee-full.txt", turn, engine.Viewer{Referee: true}, true},
	} {
		b := render(tc.g.st, tc.v)
		got := b.Window
		if tc.full {
			got = b.Full
		}
		for _, l := range strings.Split(got, "\n") {
			if len([]rune(l)) > 78 {
				t.Errorf("%s: a line of %d columns: %q", tc.name, len([]rune(l)), l)
			}
		}
		golden(t, tc.name, got)
	}
}
