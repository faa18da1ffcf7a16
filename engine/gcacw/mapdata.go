package gcacw

import (
	"slices"
	"sort"

	"pbem/engine/hex"
)

// GCACW 2.3a: the nine main terrain types, plus water hexes (Ambiguity
// A21: "water hexes" of 2.4d are marked in the map data).
const (
	Clear            = "clear"
	Rolling          = "rolling"
	Rough            = "rough"
	Woods            = "woods"
	City             = "city"
	Swamp            = "swamp"
	ProvisionalSwamp = "provisional-swamp"
	Hill             = "hill"
	Mountain         = "mountain"
	Water            = "water"
)

// TerrainTypes lists the terrain types a hex line may name, in the order
// of GCACW 2.3a (water last).
var TerrainTypes = []string{Clear, Rolling, Rough, Woods, City, Swamp, ProvisionalSwamp, Hill, Mountain, Water}

// GCACW 2.3f: hexside features.
const (
	RiverMajor   = "river-major"
	RiverMinor   = "river-minor"
	Creek        = "creek"
	Ridge        = "ridge"
	Ford         = "ford"
	Bridge       = "bridge"
	Ferry        = "ferry"
	Dam          = "dam"
	CountyBorder = "county-border"
)

// HexsideFeatures lists the hexside features of GCACW 2.3f.
var HexsideFeatures = []string{RiverMajor, RiverMinor, Creek, Ridge, Ford, Bridge, Ferry, Dam, CountyBorder}

// GCACW 2.3g: in-hex features. Pikes, roads and trails (and railroads,
// which 2.4c names) are drawn as routes from hex to hex, because their
// effects (2.4c, 2.4e, movement) depend on which hexsides they cross; the
// in-hex mark follows from the route.
const (
	Village   = "village"
	RRStation = "rr-station"
	Landing   = "landing"
	Redoubt   = "redoubt"
	Pike      = "pike"
	Road      = "road"
	Trail     = "trail"
	Railroad  = "railroad"
)

// HexFeatures lists the in-hex features a hex line may name.
var HexFeatures = []string{Village, RRStation, Landing, Redoubt}

// RouteKinds lists the routes: in-hex features of 2.3g (pike, road,
// trail) and the railroad of 2.4c, drawn from hex to hex.
var RouteKinds = []string{Pike, Road, Trail, Railroad}

// Map is the scenario's map: the printed rectangle, the terrain of every
// hex, the hexside features and the routes. It is never changed after
// Setup.
type Map struct {
	First   hex.Hex    `json:"first"`
	Last    hex.Hex    `json:"last"`
	Hexes   []HexData  `json:"hexes"`  // every hex of the rectangle, column-major
	Sides   []SideData `json:"sides"`  // hexsides with features, sorted
	Routes  []Route    `json:"routes"` // in scenario order
	hexIdx  map[hex.Hex]int
	sideIdx map[hex.Hexside]int
	routeAt map[hex.Hexside][]string // route kinds crossing a hexside, sorted
	onRoute map[hex.Hex][]string     // route kinds through a hex, sorted
}

// HexData is one hex of the map.
type HexData struct {
	Hex      hex.Hex  `json:"hex"`
	Terrain  string   `json:"terrain"`
	Features []string `json:"features,omitempty"`
	Name     string   `json:"name,omitempty"`
	// Partial marks a partial hex at the map edge: off-map (GCACW 2.3e).
	Partial bool `json:"partial,omitempty"`
}

// SideData is one hexside with features.
type SideData struct {
	Side     hex.Hexside `json:"side"`
	Features []string    `json:"features"`
	Name     string      `json:"name,omitempty"`
	Line     int         `json:"-"`
}

// Route is a pike, road, trail or railroad: consecutive adjacent hexes.
type Route struct {
	Kind  string    `json:"kind"`
	Hexes []hex.Hex `json:"hexes"`
	Name  string    `json:"name,omitempty"`
	Line  int       `json:"-"`
}

// Grid returns the printed rectangle.
func (m *Map) Grid() hex.Grid {
	return hex.Grid{FirstCol: m.First.Col, FirstRow: m.First.Row, Cols: m.Last.Col - m.First.Col + 1, Rows: m.Last.Row - m.First.Row + 1}
}

// index builds the lookup tables (never encoded; rebuilt after decoding).
func (m *Map) index() {
	m.hexIdx = make(map[hex.Hex]int, len(m.Hexes))
	for i, h := range m.Hexes {
		m.hexIdx[h.Hex] = i
	}
	m.sideIdx = make(map[hex.Hexside]int, len(m.Sides))
	for i, s := range m.Sides {
		m.sideIdx[s.Side] = i
	}
	m.routeAt = map[hex.Hexside][]string{}
	m.onRoute = map[hex.Hex][]string{}
	add := func(l []string, k string) []string {
		if slices.Contains(l, k) {
			return l
		}
		l = append(l, k)
		sort.Strings(l)
		return l
	}
	for _, r := range m.Routes {
		for i, h := range r.Hexes {
			m.onRoute[h] = add(m.onRoute[h], r.Kind)
			if i > 0 {
				s, err := hex.Between(r.Hexes[i-1], h)
				if err == nil {
					m.routeAt[s] = add(m.routeAt[s], r.Kind)
				}
			}
		}
	}
}

// Hex returns the data of h, and false if h is outside the rectangle.
func (m *Map) Hex(h hex.Hex) (HexData, bool) {
	i, ok := m.hexIdx[h]
	if !ok {
		return HexData{}, false
	}
	return m.Hexes[i], true
}

// OnMap reports whether h is a playable hex: inside the rectangle and not
// a partial hex (GCACW 2.3e).
func (m *Map) OnMap(h hex.Hex) bool {
	d, ok := m.Hex(h)
	return ok && !d.Partial
}

// Terrain returns the terrain of h ("" off the rectangle).
func (m *Map) Terrain(h hex.Hex) string {
	d, _ := m.Hex(h)
	return d.Terrain
}

// SideFeatures returns the features of hexside s (nil if none).
func (m *Map) SideFeatures(s hex.Hexside) []string {
	if i, ok := m.sideIdx[s]; ok {
		return m.Sides[i].Features
	}
	return nil
}

// SideHas reports whether hexside s has feature f.
func (m *Map) SideHas(s hex.Hexside, f string) bool {
	return slices.Contains(m.SideFeatures(s), f)
}

// RoutesAcross returns the route kinds that cross hexside s, sorted.
func (m *Map) RoutesAcross(s hex.Hexside) []string { return m.routeAt[s] }

// RoutesThrough returns the route kinds that run through h, sorted.
func (m *Map) RoutesThrough(h hex.Hex) []string { return m.onRoute[h] }

// Connected reports whether a road, pike, railroad or trail crosses the
// hexside between a and b, connecting the two hexes (GCACW 2.4c, 2.4e).
func (m *Map) Connected(a, b hex.Hex) bool {
	s, err := hex.Between(a, b)
	return err == nil && len(m.routeAt[s]) > 0
}

// River reports whether s is a major or minor river hexside (GCACW 2.4b).
func (m *Map) River(s hex.Hexside) bool {
	return m.SideHas(s, RiverMajor) || m.SideHas(s, RiverMinor)
}

// RiverCrossing reports whether s has a ford, dam, ferry or bridge (GCACW
// 2.4b).
func (m *Map) RiverCrossing(s hex.Hexside) bool {
	for _, f := range []string{Ford, Dam, Ferry, Bridge} {
		if m.SideHas(s, f) {
			return true
		}
	}
	return false
}

// used returns the names of what the map uses: the terrain types and
// in-hex features of its playable hexes, the features of its hexsides and
// its kinds of route (only looked up, never iterated).
func (m *Map) used() map[string]bool { return m.usedIn(func(hex.Hex) bool { return true }) }

// usedIn is used for the part of the map whose hexes are in: what its
// hexes hold, the hexsides of any of them, and the routes through them.
func (m *Map) usedIn(in func(hex.Hex) bool) map[string]bool {
	used := map[string]bool{}
	for _, h := range m.Hexes {
		if h.Partial || !in(h.Hex) {
			continue
		}
		used[h.Terrain] = true
		for _, f := range h.Features {
			used[f] = true
		}
	}
	for _, sd := range m.Sides {
		if a, b := sd.Side.Hexes(); !in(a) && !in(b) {
			continue
		}
		for _, f := range sd.Features {
			used[f] = true
		}
	}
	for _, r := range m.Routes {
		if slices.ContainsFunc(r.Hexes, in) {
			used[r.Kind] = true
		}
	}
	return used
}

// WoodsHexside reports whether s is a woods hexside: at least one of the
// two hexes it separates is a woods hex (GCACW 2.3h).
func (m *Map) WoodsHexside(s hex.Hexside) bool {
	a, b := s.Hexes()
	return m.Terrain(a) == Woods || m.Terrain(b) == Woods
}
