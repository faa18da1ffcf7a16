package engine

import (
	"slices"
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
		out = append(out, breakLine([]rune(plainwords.Text(l)), width, "   ", 4, 4, true)...)
	}
	return out
}

// breakLine breaks rs into lines of at most width runes at its last
// space within each, the lines after the first starting with cont. A
// space is a place to break only past the line's first restMin runes
// (firstMin on the first line); where there is none, the line is cut at
// width when cutWords is set, else left whole from there on.
func breakLine(rs []rune, width int, cont string, firstMin, restMin int, cutWords bool) []string {
	var out []string
	for floor := firstMin; len(rs) > width; floor = restMin {
		cut := width
		for cut > floor && rs[cut] != ' ' {
			cut--
		}
		if cut <= floor {
			if !cutWords {
				break
			}
			cut = width
		}
		out = append(out, strings.TrimRight(string(rs[:cut]), " "))
		rs = append([]rune(cont), []rune(strings.TrimLeft(string(rs[cut:]), " "))...)
	}
	return append(out, string(rs))
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
	lines := strings.Split(text, "\n")
	if !slices.ContainsFunc(lines, func(l string) bool { return len(l) > width }) {
		return text // no line has more bytes, so none more runes, than width
	}
	var out []string
	for _, l := range lines {
		out = append(out, breakLine([]rune(l), width, "    ", 0, 4, false)...)
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
