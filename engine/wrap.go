package engine

import (
	"strings"

	"pbem/internal/plainwords"
)

// WrapLines breaks each line longer than width runes at a space (at a
// rune where a line has no space past its fourth rune), the
// continuations indented three spaces: a board's header and roster lines
// kept within a mail's 78 columns, in plain words (plainwords.Text: a
// board is read by players).
func WrapLines(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		rs := []rune(plainwords.Text(l))
		for len(rs) > width {
			cut := width
			for cut > 4 && rs[cut] != ' ' {
				cut--
			}
			if cut <= 4 {
				cut = width
			}
			out = append(out, strings.TrimRight(string(rs[:cut]), " "))
			rs = append([]rune("   "), []rune(strings.TrimLeft(string(rs[cut:]), " "))...)
		}
		out = append(out, string(rs))
	}
	return out
}
