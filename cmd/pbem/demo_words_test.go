package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// forbidden are words no player or referee should read: the project's
// own reference ids (rule specifications' R-, H-, G-, B- and A- ids,
// bracketed paragraph ids, table columns by their internal names), ids
// joined with "|", raw fact names, and "(s)" plurals. Rule numbers as the
// rules number them ("GCACW 5.1.1", "HRA T2", "13.8b") are fine.
var forbidden = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`(?:^|[\s(;,])(?:R|H|G|B|A)\d{1,2}[a-z]?(?:[\s):;,.]|$)`), "a project reference id"},
	{regexp.MustCompile(`\[\d+(?:\.\d+)+\]`), "a bracketed paragraph id"},
	{regexp.MustCompile(`Ambiguity [A-Z]\d+`), "an ambiguity id"},
	{regexp.MustCompile(`column [A-Z]\d+-\d+`), "a table column by its internal name"},
	{regexp.MustCompile(`\b(?:USA|CSA|Union|Confederate)\|\S`), "a |-joined internal id"},
	{regexp.MustCompile(`(?:^|\s)(?:pbem\.)?[a-z_]+\.[a-z_]+ [a-z_]+=`), "a raw fact"},
	{regexp.MustCompile(`\bpbem\.[a-z_]+\.[a-z_]+\b|\bpbem\.(?:paused|resumed|extended|sealed|revealed|arrived)\b`), "a raw fact name"},
	{regexp.MustCompile(`\w\(s\)`), `a "(s)" plural`},
	{regexp.MustCompile(`(?i)(?:^|[^e] |[^c]e |[^i]ce |[^d]ice )seed\b`), `"seed" alone (say "the dice seed", or "the rules")`},
}

// checkPlainWords scans every mail of a demo for forbidden words and
// lines wider than 78 columns.
func checkPlainWords(t *testing.T, out string) {
	t.Helper()
	names, bodies := mailsOf(out)
	seen := map[string]bool{}
	for i, b := range bodies {
		for _, l := range strings.Split(b, "\n") {
			if n := len([]rune(l)); n > 78 {
				if k := "wide " + l; !seen[k] {
					seen[k] = true
					t.Errorf("%s got a line of %d columns: %q", names[i], n, l)
				}
			}
			for _, f := range forbidden {
				if loc := f.re.FindStringIndex(l); loc != nil {
					if k := f.why + " " + l; !seen[k] {
						seen[k] = true
						t.Errorf("%s read %s (%q): %q", names[i], f.why, strings.TrimSpace(l[loc[0]:loc[1]]), l)
					}
				}
			}
		}
	}
}

// lowerAfterStop is a sentence that starts in lower case after the one
// before it: a full stop, "!" or "?" after a word, a space, a small letter.
var lowerAfterStop = regexp.MustCompile(`[\w)\]"'’][.!?] +\p{Ll}`)

// notAStop are the words whose full stop ends no sentence.
var notAStop = regexp.MustCompile(`(?i)(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bno)\.$`)

// lowerCaseWords are the words that stay in lower case at a sentence's
// start: the program's name.
var lowerCaseWords = []string{"pbem"}

// prose reports whether a line of a mail is prose: at the margin or
// indented by two (the "What happened" lines), not an indented example or
// order (four spaces), a board's line (one space), a table's row (its
// columns two spaces apart) or a list's item.
func prose(l string) bool {
	t := strings.TrimLeft(l, " ")
	n := len(l) - len(t)
	return t != "" && (n == 0 || n == 2) && !strings.HasPrefix(t, "- ") && !strings.HasPrefix(t, "> ") && !strings.Contains(t, "  ")
}

// lowerCaseSentences are the sentences of body that start in lower case:
// after another sentence on the line, or at the start of a line of prose
// that begins a paragraph or follows a sentence's end. A board (a section
// whose heading names it) is not prose.
func lowerCaseSentences(body string) []string {
	var out []string
	lines := strings.Split(body, "\n")
	board, prev := false, ""
	for i, l := range lines {
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "---") && strings.Trim(lines[i+1], "-") == "" {
			board = strings.Contains(l, " board") // a section's heading
		}
		p := strings.TrimRight(prev, " ")
		prev = l
		if board || !prose(l) {
			continue
		}
		for _, loc := range lowerAfterStop.FindAllStringIndex(l, -1) {
			if !notAStop.MatchString(l[:loc[0]+2]) {
				out = append(out, l)
				break
			}
		}
		t := strings.TrimLeft(l, " ")
		lower := unicode.IsLower([]rune(t)[0])
		for _, w := range lowerCaseWords {
			lower = lower && t != w && !strings.HasPrefix(t, w+" ")
		}
		// A paragraph starts after a blank line or a heading's underline.
		start := strings.Trim(p, "-") == "" || prose(p) && strings.ContainsAny(p[len(p)-1:], ".!?")
		if lower && start && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// checkSentencesStartInCapitals scans every mail of a demo for sentences
// that start in lower case.
func checkSentencesStartInCapitals(t *testing.T, out string) {
	t.Helper()
	names, bodies := mailsOf(out)
	seen := map[string]bool{}
	for i, b := range bodies {
		for _, l := range lowerCaseSentences(b) {
			if !seen[l] {
				seen[l] = true
				t.Errorf("%s read a sentence that starts in lower case: %q", names[i], l)
			}
		}
	}
}

// The scan for sentences in lower case finds them after a full stop and
// at a paragraph's start, and leaves boards, examples, list items, the
// program's name and abbreviations alone.
func TestLowerCaseSentencesAreFound(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"after a full stop", "Game g1 is over: you won. the referee ruled it.", []string{"Game g1 is over: you won. the referee ruled it."}},
		{"a paragraph's start", "Anna,\n\nthe game waits.", []string{"the game waits."}},
		{"after a sentence's end, wrapped", "It is over.\nthe end.", []string{"the end."}},
		{"a wrapped sentence", "It is over, and\nthe end.", nil},
		{"a What happened line", "What happened\n-------------\n  the unit marches.", []string{"  the unit marches."}},
		{"the program's name", "pbem read them as:\n\n    read: PASS", nil},
		{"abbreviations", "Send an order, e.g. PASS, i.e. nothing.", nil},
		{"an example", "For example:\n\n    march Lyle 1605", nil},
		{"a list item", "Steps:\n- where a leader goes.", nil},
		{"a table", "Dice\n----\n  roll  die  result  for\n  #1    d6        2  initiative", nil},
		{"a signature", "Good luck.\n\npbem", nil},
		{"a board", "The board\n---------\n turn 1 of 3\ntable 48\" x 48\".\n\nscale: 1 column = 1in", nil},
		{"after the board", "The board\n---------\n turn 1\n\nYour move\n---------\nsend PASS.", []string{"send PASS."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := lowerCaseSentences(c.body); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
