package golden

import "testing"

func TestFirstDifference(t *testing.T) {
	tests := []struct{ got, want, diff string }{
		{"a\nb\n", "a\nc\n", `line 2: got "b", want "c"`},
		{"a\n", "a\nb\n", `line 2: got "", want "b"`},
	}
	for _, tc := range tests {
		if d := firstDifference(tc.got, tc.want); d != tc.diff {
			t.Errorf("%q vs %q: %s", tc.got, tc.want, d)
		}
	}
}
