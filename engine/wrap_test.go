package engine

import (
	"slices"
	"testing"
)

func TestWrapLines(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"one two three four", 10, []string{"one two", "   three", "   four"}},
		{"abcdefghijklmnop", 6, []string{"abcdef", "   ghi", "   jkl", "   mno", "   p"}},
		{"é è ê ë à â î ï", 8, []string{"é è ê ë", "   à â î", "   ï"}}, // runes, not bytes
	} {
		if got := WrapLines([]string{tc.in}, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("WrapLines(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
