package gcacw

import (
	"pbem/engine/names"
	"strings"
	"unicode"
)

// token is one word of a line, with its 1-based column in runes.
type token struct {
	Text   string
	Col    int
	Quoted bool // written in double quotes
	Punct  bool // one of ; : < <= > >= =
}

// lexLine splits a line into tokens: words separated by blanks or commas,
// double-quoted strings, and the punctuation ; : < <= > >= =. A '#'
// outside quotes starts a comment when comments is set. Columns are counted
// in runes from 1.
func lexLine(line string, comments bool) ([]token, string) {
	rs := []rune(line)
	var out []token
	i := 0
	for i < len(rs) {
		r := rs[i]
		switch {
		case unicode.IsSpace(r) || r == ',':
			i++
		case comments && r == '#':
			return out, ""
		case r == '"' || r == '“' || r == '”':
			j := i + 1
			for j < len(rs) && rs[j] != '"' && rs[j] != '”' && rs[j] != '“' {
				j++
			}
			if j >= len(rs) {
				return out, "a quoted text is not closed"
			}
			out = append(out, token{Text: string(rs[i+1 : j]), Col: i + 1, Quoted: true})
			i = j + 1
		case r == ';' || r == ':' || r == '=':
			out = append(out, token{Text: string(r), Col: i + 1, Punct: true})
			i++
		case r == '<' || r == '>':
			t := string(r)
			if i+1 < len(rs) && rs[i+1] == '=' {
				t += "="
			}
			out = append(out, token{Text: t, Col: i + 1, Punct: true})
			i += len([]rune(t))
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && !strings.ContainsRune(",;:<>=\"“”", rs[j]) && !(comments && rs[j] == '#') {
				j++
			}
			out = append(out, token{Text: string(rs[i:j]), Col: i + 1})
			i = j
		}
	}
	return out, ""
}

// The name-matching helpers are shared by every rule system
// (engine/names), so a name is read the same way in every game.
func normName(s string) string     { return names.Norm(s) }
func editDistance(a, b string) int { return names.Distance(a, b) }
