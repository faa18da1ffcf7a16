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

// A long example order is broken at spaces, each continuation indented
// four spaces (an indented line continues the order, docs/ORDERS.md);
// short lines and a line with nowhere to break stay as they are.
func TestContinueLong(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"A: MOVE 0101 0102", 74, "A: MOVE 0101 0102"},
		{"A: MOVE 0101 0102 0103", 12, "A: MOVE 0101\n    0102\n    0103"},
		{"A: MOVE 0101 0102\nB: FIRE AT 0304", 13, "A: MOVE 0101\n    0102\nB: FIRE AT\n    0304"},
		{"ABCDEFGHIJKLMNOP", 6, "ABCDEFGHIJKLMNOP"},
		{"7th Virginia Cavalry: MOVE 0809 0808 0708 0608 0508 0507 0506 0605 0705 0805", ExampleWidth,
			"7th Virginia Cavalry: MOVE 0809 0808 0708 0608 0508 0507 0506 0605 0705\n    0805"},
		{"Pérez: MOVE é è ê", 14, "Pérez: MOVE é\n    è ê"}, // runes, not bytes
	} {
		if got := ContinueLong(tc.in, tc.width); got != tc.want {
			t.Errorf("ContinueLong(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

func TestIndentWidth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"A: MOVE", 0}, {"    0805", 4}, {"\t0805", 8}, {"  \t0805", 8}, {"\t  x", 10}, {"   ", 3}, {"", 0},
	} {
		if got := IndentWidth(tc.in); got != tc.want {
			t.Errorf("IndentWidth(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
