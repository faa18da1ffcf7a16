package table

import (
	"slices"
	"testing"
)

// rotations returns pg started at every vertex, in both windings.
func rotations(pg Polygon) []Polygon {
	var out []Polygon
	for _, q := range []Polygon{pg, reversed(pg)} {
		for i := range q {
			out = append(out, append(slices.Clone(q[i:]), q[:i]...))
		}
	}
	return out
}

// TestOrderIndependence shows that results do not depend on the order in
// which things are listed or computed.
func TestOrderIndependence(t *testing.T) {
	t.Run("scene order", func(t *testing.T) {
		s := hraScene()
		want := s.Render(s.WholeTable(ScaleCM(2, 4)))
		r := s
		r.Areas, r.Lines, r.Pieces, r.Labels = slices.Clone(s.Areas), slices.Clone(s.Lines), slices.Clone(s.Pieces), slices.Clone(s.Labels)
		slices.Reverse(r.Areas)
		slices.Reverse(r.Lines)
		slices.Reverse(r.Pieces)
		slices.Reverse(r.Labels)
		if got := r.Render(r.WholeTable(ScaleCM(2, 4))); got != want {
			t.Errorf("reversed scene draws differently:\n%s\nwant:\n%s", got, want)
		}
		// Rotate the slices too.
		r.Pieces = append(r.Pieces[2:], r.Pieces[:2]...)
		r.Areas = append(r.Areas[1:], r.Areas[:1]...)
		if got := r.Render(r.WholeTable(ScaleCM(2, 4))); got != want {
			t.Error("rotated scene draws differently")
		}
	})

	t.Run("pairwise gaps", func(t *testing.T) {
		bases := []Rect{
			inf(p(0, 0), North), inf(p(3, 9), Deg(135)), inf(p(-7, 4), Deg(359)),
			Base(p(12, -3), MM(35), CM(1), Deg(45)), Base(p(5, 5), CM(1), CM(2), Deg(90)),
		}
		gaps := func(order []int) map[[2]int]Length {
			out := map[[2]int]Length{}
			for _, i := range order {
				for _, j := range order {
					out[[2]int{i, j}] = Gap(bases[i], bases[j])
				}
			}
			return out
		}
		a, b := gaps([]int{0, 1, 2, 3, 4}), gaps([]int{4, 2, 0, 3, 1})
		for i := range bases {
			for j := range bases {
				k := [2]int{i, j}
				if a[k] != b[k] || a[k] != a[[2]int{j, i}] {
					t.Errorf("gap %d-%d: %v, %v, reversed %v", i, j, a[k], b[k], a[[2]int{j, i}])
				}
			}
		}
	})

	t.Run("moves", func(t *testing.T) {
		r := inf(p(10, 10), Deg(33))
		ds := []Length{CM(3), MM(17), -CM(2), UM(12345), CM(8)}
		want := r
		for _, d := range ds {
			want = want.Forward(d)
		}
		perm := []int{4, 0, 3, 1, 2}
		got := r
		for _, i := range perm {
			got = got.Forward(ds[i])
		}
		if got != want {
			t.Errorf("straight moves in another order: %v; want %v", got, want)
		}
		turns := []Angle{Deg(45), Deg(-90), 1234, Deg(180), Deg(359)}
		want, got = r, r
		for i := range turns {
			want = want.Pivot(turns[i])
			got = got.Pivot(turns[perm[i]])
		}
		if got != want {
			t.Errorf("pivots in another order: %v; want %v", got, want)
		}
	})

	t.Run("polygon vertex order", func(t *testing.T) {
		pg := Polygon{p(0, 0), p(10, 0), p(10, 10), p(7, 10), p(7, 3), p(3, 3), p(3, 10), p(0, 10)}
		segs := []Segment{Seg(p(0, 5), p(10, 5)), Seg(p(-1, -1), p(11, 11)), Seg(p(5, 12), p(5, -2)), Seg(p(3, 3), p(7, 3))}
		pts := []Point{p(5, 5), p(5, 2), p(3, 5), p(7, 10), p(11, 3)}
		base := inf(p(5, 1), North)
		var want []any
		for i, q := range rotations(pg) {
			var got []any
			for _, s := range segs {
				got = append(got, q.LengthInside(s), q.TouchesSegment(s))
			}
			for _, x := range pts {
				got = append(got, q.Contains(x), q.ContainsStrict(x))
			}
			got = append(got, base.TouchesPolygon(q), base.InPolygon(q), base.Sweep(ForwardMove(CM(5))).TouchesPolygon(q))
			if i == 0 {
				want = got
			} else if !slices.Equal(got, want) {
				t.Errorf("rotation %d: %v; want %v", i, got, want)
			}
		}
	})
}
