package table

import (
	"pbem/internal/golden"
	"strings"
	"testing"
)

// hraScene is a 120 × 80 cm HRA table: a wood, a hill, a road, a stream
// and a fence, four units and a label.
func hraScene() Scene {
	return Scene{
		Width: CM(120), Height: CM(80),
		Areas: []Area{
			{Name: "woods", Fill: 'T', Shape: Polygon{p(10, 50), p(30, 70), p(40, 55), p(25, 40)}},
			{Name: "hill", Fill: ':', Shape: Polygon{p(70, 10), p(100, 10), p(105, 30), p(75, 35)}},
			{Name: "farm", Fill: '#', Shape: Polygon{p(86, 20), p(89, 20), p(89, 23), p(86, 23)}, Layer: 1},
		},
		Lines: []Line{
			{Name: "Emmitsburg road", Glyph: '=', Path: Polyline{p(0, 20), p(60, 30), p(120, 60)}},
			{Name: "Plum Run", Glyph: '~', Path: Polyline{p(50, 80), p(55, 40), p(45, 0)}},
			{Name: "fence", Path: Polyline{p(80, 70), p(110, 70), p(110, 45)}},
		},
		Pieces: []Piece{
			{Letter: 'A', Name: "1st Minnesota", Bases: []Rect{inf(p(40, 30), North)}},
			{Letter: 'B', Name: "15th Alabama", Bases: []Rect{inf(p(70, 50), Deg(225))}},
			{Letter: 'C', Name: "Battery K (limbered)", Bases: []Rect{
				Base(p(20, 20), CM(3), MM(5), East),
				Base(Pt(MM(195)-MM(5), CM(21)), CM(1), CM(1), East),
				Base(Pt(MM(195)-MM(5), CM(19)), CM(1), CM(1), East),
			}},
			{Letter: 'D', Name: "2nd US Cavalry", Bases: []Rect{Base(p(90, 60), MM(35), CM(1), West)}},
			{Letter: 'E', Name: "20th Maine", Bases: []Rect{inf(p(41, 35), Deg(45))}},
		},
		Labels: []Label{{At: p(84, 76), Text: "Peach Orchard"}, {At: p(2, 6), Text: "Union baseline"}},
	}
}

// gmbScene is a 72 × 48 inch GMB table with brigades on 6" × 2" bases.
func gmbScene() Scene {
	in := func(x, y int64) Point { return Pt(Inch(x), Inch(y)) }
	brigade := func(front Point, facing Angle) Rect { return Base(front, Inch(6), Inch(2), facing) }
	return Scene{
		Width: Inch(72), Height: Inch(48),
		Areas: []Area{
			{Name: "woods", Fill: 'T', Shape: Polygon{in(8, 30), in(17, 30), in(17, 34), in(8, 34)}},
			{Name: "rough ground (field)", Fill: ',', Shape: Polygon{in(40, 12), in(52, 12), in(52, 18), in(40, 18)}},
			{Name: "hill", Fill: ':', Shape: Polygon{in(24, 20), in(32, 18), in(36, 24), in(30, 28), in(22, 26)}},
			{Name: "town", Fill: '#', Shape: Polygon{in(60, 40), in(64, 40), in(64, 44), in(60, 44)}},
		},
		Lines: []Line{
			{Name: "river", Glyph: '~', Path: Polyline{in(0, 38), in(20, 40), in(44, 36), in(72, 41)}},
			{Name: "road", Glyph: '=', Path: Polyline{in(36, 0), in(36, 24), in(50, 37), in(62, 42), in(72, 42)}},
			{Name: "stone wall", Glyph: '%', Path: Polyline{in(40, 18), in(52, 18)}},
		},
		Pieces: []Piece{
			{Letter: 'A', Name: "Armistead's brigade", Bases: []Rect{brigade(in(30, 30), South)}},
			{Letter: 'W', Name: "Ward's brigade", Bases: []Rect{brigade(in(30, 14), North)}},
			{Letter: 'K', Name: "Kershaw's brigade", Bases: []Rect{brigade(in(46, 22), Deg(135))}},
			{Letter: 'R', Name: "1st Rhode Island battery", Bases: []Rect{Base(in(58, 24), Inch(3), Inch(2), West)}},
		},
		Labels: []Label{{At: in(55, 46), Text: "Gettysburg"}},
	}
}

func TestRenderGolden(t *testing.T) {
	hra, gmb := hraScene(), gmbScene()
	tests := []struct {
		name   string
		scene  Scene
		view   View
		window bool // must fit in a mail body
	}{
		{"hra_whole", hra, hra.WholeTable(ScaleCM(2, 4)), true},
		{"hra_window", hra, hra.Window(ScaleCM(1, 2), MailWidth, 20, p(40, 30), p(70, 50)), true},
		{"hra_corner", hra, hra.Window(ScaleCM(1, 2), MailWidth, 12, p(119, 1)), true},
		{"gmb_whole", gmb, gmb.WholeTable(ScaleInch(1, 2)), false},
		{"gmb_window", gmb, gmb.Window(ScaleInch(1, 2), MailWidth, 16, Pt(Inch(30), Inch(14)), Pt(Inch(46), Inch(22))), true},
		{"empty", Scene{Width: CM(30), Height: CM(20)}, Scene{Width: CM(30), Height: CM(20)}.WholeTable(ScaleCM(1, 2)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.scene.Render(tt.view)
			checkText(t, got, tt.window)
			golden.CheckString(t, tt.name+".golden", got)
		})
	}
}

// checkText checks the mail rules: ASCII, no trailing spaces, a final
// newline, and (for a window) at most 78 columns.
func checkText(t *testing.T, s string, window bool) {
	t.Helper()
	if !strings.HasSuffix(s, "\n") {
		t.Error("no final newline")
	}
	for i, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("line %d has trailing spaces: %q", i+1, line)
		}
		if window && len(line) > MailWidth {
			t.Errorf("line %d is %d columns wide: %q", i+1, len(line), line)
		}
		for _, r := range line {
			if r < ' ' || r > '~' {
				t.Errorf("line %d has a non-ASCII character %q", i+1, r)
			}
		}
	}
}

func TestWindowCoversFocus(t *testing.T) {
	s := gmbScene()
	for _, f := range []Point{Pt(0, 0), Pt(Inch(72), Inch(48)), Pt(Inch(36), Inch(24)), Pt(Inch(70), 0)} {
		v := s.Window(ScaleInch(1, 2), MailWidth, 10, f)
		right, bottom := v.Left+Length(v.Cols)*v.Scale.Col, v.Top-Length(v.Rows)*v.Scale.Row
		if f.X < v.Left || f.X > right || f.Y > v.Top || f.Y < bottom {
			t.Errorf("window %+v misses focus %v", v, f)
		}
		if v.Left < 0 || right > roundUp(s.Width, v.Scale.Col) || bottom < 0 || v.Top > roundUp(s.Height, v.Scale.Row) {
			t.Errorf("window %+v leaves the table", v)
		}
		checkText(t, s.Render(v), true)
	}
	// A table narrower than the window is shown whole.
	small := Scene{Width: CM(20), Height: CM(10)}
	if v := small.Window(ScaleCM(1, 2), MailWidth, 30); v.Cols != 20 || v.Rows != 5 || v.Left != 0 || v.Top != CM(10) {
		t.Errorf("small table window %+v", v)
	}
}

func TestFacingMark(t *testing.T) {
	tests := []struct {
		a    Angle
		want byte
	}{
		{0, '^'}, {Deg(45), '9'}, {Deg(90), '>'}, {Deg(135), '3'}, {Deg(180), 'v'},
		{Deg(225), '1'}, {Deg(270), '<'}, {Deg(315), '7'}, {Deg(359), '^'},
		{22499, '^'}, {22500, '9'}, {Deg(-90), '<'}, {Deg(360), '^'},
	}
	for _, tt := range tests {
		if got := FacingMark(tt.a); got != tt.want {
			t.Errorf("FacingMark(%v) = %c; want %c", tt.a, got, tt.want)
		}
	}
}

func TestRenderEdgeCases(t *testing.T) {
	s := Scene{
		Width: CM(20), Height: CM(10),
		Areas:  []Area{{Name: "pond", Fill: '\t', Shape: Polygon{p(1, 1), p(2, 1), p(2, 2)}}}, // tiny, bad glyph
		Lines:  []Line{{Name: "", Path: Polyline{p(0, 0), p(20, 10)}}},
		Pieces: []Piece{{Letter: 'Z', Name: "off table", Bases: []Rect{inf(p(500, 500), North)}}, {Letter: 'Y'}},
		Labels: []Label{{At: p(19, 9), Text: "a label far too long for this small table"}, {At: p(90, 90), Text: "gone"}},
	}
	got := s.Render(s.WholeTable(ScaleCM(1, 2)))
	checkText(t, got, true)
	if !strings.Contains(got, "? pond") || strings.Contains(got, "off table") || strings.Contains(got, "gone") {
		t.Errorf("edge cases:\n%s", got)
	}
	if s.Render(View{}) != "" {
		t.Error("empty view draws something")
	}
}

// A label is never overprinted by a piece nor by another label:
// it moves to a neighbouring row, or is written short and explained in
// the legend.
func TestRenderLabelsNeverOverprinted(t *testing.T) {
	s := Scene{
		Width: CM(40), Height: CM(10),
		Pieces: []Piece{
			{Letter: 'A', Name: "on the point", Bases: []Rect{Base(p(14, 6), CM(12), CM(2), North)}},
			{Letter: 'B', Name: "south", Bases: []Rect{Base(p(20, 4), CM(40), CM(4), North)}},
			{Letter: 'C', Name: "north", Bases: []Rect{Base(p(20, 10), CM(40), CM(2), North)}},
		},
		Labels: []Label{
			{At: p(10, 5), Text: "@Kettle Mill"},
			{At: p(10, 5), Text: "@Crossroads"},
		},
	}
	got := s.Render(s.WholeTable(ScaleCM(1, 2)))
	checkText(t, got, true)
	map1, legend, _ := strings.Cut(got, "\n\n")
	short := 0
	for _, l := range []struct{ full, short, rest string }{{"@Kettle Mill", "@KM", "Kettle Mill"}, {"@Crossroads", "@C", "Crossroads"}} {
		switch {
		case strings.Contains(map1, l.full):
		case strings.Contains(map1, l.short) && strings.Contains(legend, l.short+" "+l.rest):
			short++
		default:
			t.Errorf("%s is neither on the map nor written short and explained:\n%s", l.full, got)
		}
		for _, line := range strings.Split(map1, "\n") {
			if strings.Contains(line, l.full[:3]) && !strings.Contains(line, l.full) {
				t.Errorf("%s cut short: %q", l.full, line)
			}
		}
	}
	if short != 1 {
		t.Errorf("%d labels written short, want 1 (one has no room):\n%s", short, got)
	}
}
