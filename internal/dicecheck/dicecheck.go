// Package dicecheck checks that the die lines a player reads add up: every
// "rolls" or "rolled" followed by a number must have the one shape all
// rule systems write (the dice, their sum, each modifier with its source,
// the result), and its sums must be right:
//
//	<who> rolls D[ + D ...][ = SUM][, +K source words (rule)]...[ = RESULT]<rest>
//
// With more than one die " = SUM" follows (the dice added); with any
// modifier " = RESULT" follows (the sum, or the single die, plus the
// modifiers). A source holds no "," and no "=". A pool of dice counted for
// successes is written "<who> rolls N dice[, +K source]...[ = M dice]<rest>",
// and M must be N plus the modifiers.
//
// It is used by the tests that read every demo's mails, so that no die
// line a player reads hides a modifier or a sum.
package dicecheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Problem is a die line that does not add up, or does not have the shape.
type Problem struct {
	Line string // the die line, from its "rolls" to the end of its sentence
	Why  string
}

func (p Problem) String() string { return fmt.Sprintf("%s: %q", p.Why, p.Line) }

var (
	// start finds a roll: "rolls" or "rolled" and the first number.
	start = regexp.MustCompile(`\brol(?:ls|led) (\d+)`)
	// more is another die: " + 3".
	more = regexp.MustCompile(`^ \+ (\d+)`)
	// equals is " = 8".
	equals = regexp.MustCompile(`^ = (-?\d+)`)
	// modifier is ", +1 cavalry leader (5.1.2)": a sign, a number, and a
	// source of words that holds no "," or "=".
	modifier = regexp.MustCompile(`^, ([+-])(\d+) ([^,=]*[^,=\s])`)
	// bare is a modifier written without its source: " +1 = 6", " -2".
	bare = regexp.MustCompile(`^ ?[+-] ?\d`)
	// pool is " dice" after the count of a pool.
	pool = regexp.MustCompile(`^ dice\b`)
)

// Check reads text (whole mails: lines may be wrapped, as mails wrap them)
// and returns every die line that does not add up.
func Check(text string) []Problem {
	text = strings.Join(strings.Fields(text), " ")
	var out []Problem
	for _, loc := range start.FindAllStringSubmatchIndex(text, -1) {
		if p, bad := checkAt(text, loc); bad {
			out = append(out, p)
		}
	}
	return out
}

// checkAt checks the roll found at loc (start's match) in text.
func checkAt(text string, loc []int) (Problem, bool) {
	line := sentence(text[loc[0]:])
	fail := func(format string, args ...any) (Problem, bool) {
		return Problem{Line: line, Why: fmt.Sprintf(format, args...)}, true
	}
	first, _ := strconv.Atoi(text[loc[2]:loc[3]])
	rest := text[loc[1]:]
	dice := []int{first}
	isPool := false
	if pool.MatchString(rest) {
		isPool = true
		rest = rest[len(" dice"):]
	}
	for !isPool {
		m := more.FindStringSubmatch(rest)
		if m == nil {
			break
		}
		d, _ := strconv.Atoi(m[1])
		dice = append(dice, d)
		rest = rest[len(m[0]):]
	}
	sum := 0
	for _, d := range dice {
		sum += d
	}
	if len(dice) > 1 {
		m := equals.FindStringSubmatch(rest)
		if m == nil {
			return fail("%d dice without their sum (\" = SUM\")", len(dice))
		}
		if got, _ := strconv.Atoi(m[1]); got != sum {
			return fail("the dice add up to %d, not %d", sum, got)
		}
		rest = rest[len(m[0]):]
	}
	total, mods := sum, 0
	for {
		m := modifier.FindStringSubmatch(rest)
		if m == nil {
			break
		}
		k, _ := strconv.Atoi(m[2])
		if m[1] == "-" {
			k = -k
		}
		total += k
		mods++
		rest = rest[len(m[0]):]
	}
	if bare.MatchString(rest) {
		return fail("a modifier without its source (\", +K source\")")
	}
	m := equals.FindStringSubmatch(rest)
	switch {
	case m == nil && mods > 0:
		return fail("modifiers without the result (\" = RESULT\")")
	case m == nil:
		return Problem{}, false
	}
	got, _ := strconv.Atoi(m[1])
	if got != total {
		if mods == 0 {
			return fail("the roll is %d, not %d", total, got)
		}
		return fail("the roll and its modifiers make %d, not %d", total, got)
	}
	rest = rest[len(m[0]):]
	if isPool && !pool.MatchString(rest) {
		return fail("a pool's count of dice (\" = N dice\")")
	}
	return Problem{}, false
}

// sentence is text up to the end of its sentence (a full stop followed by
// a space, or the end), for the report.
func sentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		text = text[:i+1]
	}
	if len(text) > 160 {
		text = text[:160] + "…"
	}
	return text
}
