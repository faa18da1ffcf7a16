package gcacw

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dieLineRe reads a die line in the shared shape: the dice, their sum,
// each modifier with its source, and the result.
var dieLineRe = regexp.MustCompile(`rolls (\d+(?: \+ \d+)*)(?: = (\d+))?((?:, [+-]\d+ [^,=]*[^,= ])*)(?: = (-?\d+))?`)

// checkDieLine checks the arithmetic of every die line in s, and returns
// how many it read and how many had modifiers.
func checkDieLine(t *testing.T, s string) (lines, modded int) {
	t.Helper()
	for _, m := range dieLineRe.FindAllStringSubmatch(s, -1) {
		lines++
		sum := 0
		dice := strings.Split(m[1], " + ")
		for _, d := range dice {
			n, _ := strconv.Atoi(d)
			sum += n
		}
		if len(dice) > 1 {
			if got, _ := strconv.Atoi(m[2]); m[2] == "" || got != sum {
				t.Errorf("dice %s do not add up to %q: %s", m[1], m[2], s)
			}
		} else if m[2] != "" {
			t.Errorf("one die with a sum: %s", s)
		}
		total := sum
		if m[3] != "" {
			modded++
			for _, mod := range strings.Split(strings.TrimPrefix(m[3], ", "), ", ") {
				k, err := strconv.Atoi(strings.Fields(mod)[0])
				if err != nil || !regexp.MustCompile(`\([^()]+\)$`).MatchString(mod) {
					t.Errorf("modifier %q names no source and rule: %s", mod, s)
				}
				total += k
			}
			if got, _ := strconv.Atoi(m[4]); m[4] == "" || got != total {
				t.Errorf("modified roll is %d, the line says %q: %s", total, m[4], s)
			}
		}
	}
	return lines, modded
}

// Every die line GCACW writes, in the players' mails (tell) and in the
// echo of the orders (echoLine), adds up: the dice, each modifier named
// with its source, and the result (issue: dice and costs told).
func TestDieLinesAddUp(t *testing.T) {
	t.Parallel()
	lines, modded := 0, 0
	kinds := map[string]bool{}
	for seed := range uint64(6) {
		st, fs := playRandom(t, seed)
		for _, f := range fs {
			for _, s := range []string{tell(st, f), echoLine(f)} {
				l, m := checkDieLine(t, s)
				lines, modded = lines+l, modded+m
				if m > 0 {
					kinds[f.Kind] = true
				}
			}
		}
	}
	for _, k := range []string{kMarchBegun, kUnitForceMarched, kLeaderMaRolled, kExtendedMarchResolved, kAssaultRolled} {
		if !kinds[k] {
			t.Errorf("no %s die line with a modifier was written in the random games (%d lines, %d with modifiers)", k, lines, modded)
		}
	}
}
