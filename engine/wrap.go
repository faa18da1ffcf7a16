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

// ExampleWidth is the widest line of an example order: the mail indents
// examples four spaces, and a mail's lines fit 78 columns.
const ExampleWidth = 74

// ContinueLong breaks each line of text longer than width runes at spaces,
// its continuations indented four spaces, for the rule systems whose
// order language reads an indented line as continuing the order above it
// (docs/ORDERS.md "One order a line"): an example order of a long path
// still fits a phone's mail and still parses as the one order it was.
// A line with no space to break at stays whole.
func ContinueLong(text string, width int) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		rs := []rune(l)
		for first := true; len(rs) > width; first = false {
			start := 0
			if !first {
				start = 4
			}
			cut := width
			for cut > start && rs[cut] != ' ' {
				cut--
			}
			if cut <= start {
				break
			}
			out = append(out, strings.TrimRight(string(rs[:cut]), " "))
			rs = append([]rune("    "), []rune(strings.TrimLeft(string(rs[cut:]), " "))...)
		}
		out = append(out, string(rs))
	}
	return strings.Join(out, "\n")
}

// IndentWidth is the columns of line's leading blanks, a tab to the next
// multiple of eight. An order language that reads an indented line as
// continuing the order above it compares the two lines' indents: a line
// continues an order only when indented further than the order's first
// line, so a block of orders copied from a mail, every line indented
// alike, reads as the orders it shows (docs/ORDERS.md).
func IndentWidth(line string) int {
	n := 0
	for _, r := range line {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		default:
			return n
		}
	}
	return n
}
