package hex_test

import (
	"fmt"
	"strings"

	"pbem/engine/hex"
)

func ExampleParse() {
	h, err := hex.Parse("2314")
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Col, h.Row, h)
	var ns []string
	for d, n := range h.Neighbors() {
		ns = append(ns, fmt.Sprint(hex.Direction(d), " ", n))
	}
	fmt.Println(strings.Join(ns, ", "))
	_, err = hex.Parse("705")
	fmt.Println(err)
	// Output:
	// 23 14 2314
	// N 2313, NE 2413, SE 2414, S 2315, SW 2214, NW 2213
	// hex "705": invalid syntax: want 4 digits, column then row (e.g. 2314), got 3 characters
}

func ExampleSide() {
	a, b := hex.MustParse("2314"), hex.MustParse("2414")
	rivers := map[hex.Hexside]bool{hex.Side(a, hex.SE): true}
	fmt.Println(hex.Side(b, hex.NW), rivers[hex.Side(b, hex.NW)])
	// Output: 2314/2414 true
}

// A GCACW command radius (GCACW 2.5g): three hexes from the leader, terrain
// ignored, but not into enemy units or enemy ZOC.
func ExampleReachable() {
	grid := hex.Grid{FirstCol: 1, FirstRow: 1, Cols: 45, Rows: 35}
	enemy := hex.MustParse("2416")
	blocked := func(h hex.Hex) bool {
		return !grid.InBounds(h) || h == enemy || hex.Adjacent(h, enemy)
	}
	r, err := hex.Reachable(hex.MustParse("2315"), 3, func(from, to hex.Hex) (int, bool) {
		return 1, !blocked(to)
	})
	if err != nil {
		panic(err)
	}
	// 2317 is in the enemy's ZOC; 2318 is three hexes away, but the way
	// round the ZOC takes four.
	for _, t := range []string{"2214", "2216", "2317", "2318"} {
		h := hex.MustParse(t)
		fmt.Println(t, r.Contains(h), r.Path(h))
	}
	// Output:
	// 2214 true [2315 2214]
	// 2216 true [2315 2215 2216]
	// 2317 false []
	// 2318 false []
}

func ExampleDraw() {
	cells := map[hex.Hex]hex.Cell{
		hex.MustParse("2314"): {Fill: ". .", Label: "NEWT*"},
		hex.MustParse("2414"): {Fill: "^ ^", Label: "1CAV"},
		hex.MustParse("2315"): {Fill: "T T", Label: "JACK"},
		hex.MustParse("2415"): {Fill: ". ."},
	}
	river := map[hex.Hexside]bool{
		hex.Side(hex.MustParse("2314"), hex.SE): true,
		hex.Side(hex.MustParse("2414"), hex.S):  true,
	}
	win := hex.Window{Col: 23, Row: 14, Cols: 2, Rows: 2}
	lines := hex.Draw(win,
		func(h hex.Hex) hex.Cell { return cells[h] },
		func(s hex.Hexside) (rune, bool) { return '~', river[s] })
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	//    _____
	//   /2314 \
	//  /  . .  \_____
	//  \ NEWT* ~2414 \
	//   \_____~  ^ ^  \
	//   /2315 \ 1CAV  /
	//  /  T T  \~~~~~/
	//  \ JACK  /2415 \
	//   \_____/  . .  \
	//         \       /
	//          \_____/
}
