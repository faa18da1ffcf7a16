// Package plainwords takes the project's own reference ids out of the
// texts players and referees read.
//
// The rule systems' facts, readings, notes and problems carry them for
// whoever reads the log (pbem log, the packages' docs): "(R14, house
// rule)", "(GCACW 5b, R10)", "Cavalry Retreat [7.7]", "Ambiguity A14",
// "(R9: the rule is not in the seed)". A player or a referee reads the
// rules' own numbers only ("GCACW 5.1.1", "HRA 12d", "13.8b"), so the
// mails (templates' wrap) and the boards' header lines (engine.WrapLines)
// pass their texts through Text. The log keeps the ids for the operator.
package plainwords

import (
	"regexp"
	"strings"
)

var (
	// refID is one of the project's reference ids: a rule system's
	// "referenced but not defined" (R), ambiguity (A, H, G, B) ids.
	refID = `(?:Ambiguity )?[RAHGB]\d{1,2}[a-z]?`
	// inParens is a parenthesis holding no other.
	inParens = regexp.MustCompile(`\(([^()]*)\)`)
	// idItem is an item of a parenthesis that is an id alone, an id and
	// what it says ("R9: the rule is not ..."), or what and the id
	// ("victory conditions: R24").
	idAlone = regexp.MustCompile(`^` + refID + `$`)
	idFirst = regexp.MustCompile(`^` + refID + `: `)
	idLast  = regexp.MustCompile(`: ` + refID + `$`)
	// paraID is a paragraph id in brackets, "[7.7]".
	paraID = regexp.MustCompile(` ?\[\d+(?:\.\d+)+\]`)
	// emColumn is a column of GCACW's Extended March Table by its id in
	// the scenario file ("column O1-4"), as a player reads its heading.
	emColumn = regexp.MustCompile(`\bcolumn ([OD])(\d+)-(\d+)\b`)
	// plurals is a count and a word whose plural is left open: "3 round(s)".
	plurals = regexp.MustCompile(`\b(\d+) ([A-Za-z]+)\(s\)`)
)

// Text returns text with the project's reference ids taken out,
// a table column said as its heading reads, "N word(s)" written as the
// number needs, and "not in the seed" said
// "not in the rules pbem has".
func Text(text string) string {
	// Each pattern runs only on a text that holds its fixed part: the
	// boards pass every line through here, and a regexp costs many times
	// a substring search on the lines (nearly all) that have none.
	if strings.Contains(text, "[") {
		text = paraID.ReplaceAllString(text, "")
	}
	if strings.Contains(text, "column ") {
		text = emColumn.ReplaceAllStringFunc(text, columnWords)
	}
	if strings.Contains(text, "(s)") {
		text = plurals.ReplaceAllStringFunc(text, pluralWords)
	}
	text = strings.ReplaceAll(text, "not in the seed", "not in the rules pbem has")
	if !strings.Contains(text, "(") {
		return text
	}
	return withoutIDs(text)
}

// columnWords is an Extended March Table column as a player reads it.
func columnWords(m string) string {
	s := emColumn.FindStringSubmatch(m)
	how := map[string]string{"O": "organized", "D": "disorganized"}[s[1]]
	return "the " + how + ", Manpower " + s[2] + "-" + s[3] + " column"
}

// pluralWords is a count and its word, plural or not: "3 rounds".
func pluralWords(m string) string {
	s := plurals.FindStringSubmatch(m)
	if s[1] == "1" {
		return s[1] + " " + s[2]
	}
	return s[1] + " " + s[2] + "s"
}

// withoutIDs takes the reference ids out of text's parentheses, and a
// parenthesis left empty with them.
func withoutIDs(text string) string {
	// Innermost parentheses first: "(GCACW 2.4c (Ambiguity A20), default)".
	var out strings.Builder
	for {
		locs := inParens.FindAllStringSubmatchIndex(text, -1)
		changed := false
		out.Reset()
		last := 0
		for _, l := range locs {
			inner := text[l[2]:l[3]]
			kept := keepItems(inner)
			if kept == inner {
				continue
			}
			changed = true
			start := l[0]
			if kept == "" && start > 0 && text[start-1] == ' ' {
				start-- // "rule each retreat (R9)." loses its space too
			}
			out.WriteString(text[last:start])
			if kept != "" {
				out.WriteString("(" + kept + ")")
			}
			last = l[1]
		}
		if !changed {
			return text
		}
		out.WriteString(text[last:])
		text = out.String()
	}
}

// keepItems is a parenthesis's content without its reference ids: its
// items are parted by ", " or "; ".
func keepItems(inner string) string {
	var kept []string
	var seps []string
	rest := inner
	for rest != "" {
		i := strings.IndexAny(rest, ",;")
		item, sep := rest, ""
		if i >= 0 && i+1 < len(rest) && rest[i+1] == ' ' {
			item, sep, rest = rest[:i], rest[i:i+2], rest[i+2:]
		} else if i >= 0 {
			item, sep, rest = rest[:i+1], "", rest[i+1:]
			kept = append(kept, item)
			seps = append(seps, sep)
			continue
		} else {
			rest = ""
		}
		switch {
		case !strings.ContainsAny(item, "RAHGB") || !strings.ContainsAny(item, "0123456789"):
			kept, seps = append(kept, item), append(seps, sep) // no id can be in it
		case idAlone.MatchString(item):
		case idFirst.MatchString(item):
			kept, seps = append(kept, idFirst.ReplaceAllString(item, "")), append(seps, sep)
		case idLast.MatchString(item):
			kept, seps = append(kept, idLast.ReplaceAllString(item, "")), append(seps, sep)
		default:
			kept, seps = append(kept, item), append(seps, sep)
		}
	}
	var b strings.Builder
	for i, k := range kept {
		b.WriteString(k)
		if i+1 < len(kept) {
			sep := seps[i]
			if sep == "" {
				sep = ", "
			}
			b.WriteString(sep)
		}
	}
	return b.String()
}
