package names

import "testing"

func TestFoldNormAndDistance(t *testing.T) {
	for _, tc := range []struct{ in, fold, norm string }{
		{"Łukasz", "lukasz", "lukasz"},
		{"Pérez's", "perez's", "perez"},
		{"Stonewall Brigade", "stonewall brigade", "stonewallbrigade"},
		{"A.P. Hill", "a.p. hill", "aphill"},
		{"Straße", "strasse", "strasse"},
		{"1st-Ohio_Sq’s", "1st-ohio_sq's", "1stohiosq"},
	} {
		if got := Fold(tc.in); got != tc.fold {
			t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.fold)
		}
		if got := Norm(tc.in); got != tc.norm {
			t.Errorf("Norm(%q) = %q, want %q", tc.in, got, tc.norm)
		}
	}
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"starlng", "starling", 1}, {"deadlin", "deadline", 1}, {"kitten", "sitting", 3}, {"平山", "平川", 1}, {"abc", "", 3}} {
		if got := Distance(tc.a, tc.b); got != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
