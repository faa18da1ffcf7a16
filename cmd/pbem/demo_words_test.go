package main

import (
	"regexp"
	"strings"
	"testing"
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
