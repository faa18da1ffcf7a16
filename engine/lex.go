package engine

import (
	"errors"
	"unicode"
)

// Lexer splits one line of a scenario file (or of an order) into words,
// the same way for every rule system that reads its lines with it: words
// are separated by blanks, double-quoted text is one word, and the
// options say what else a line of that system's files holds.
type Lexer struct {
	Commas      bool // a comma separates words as a blank does
	CurlyQuotes bool // “ and ” quote as " does (any of the three closes)
	Punct       bool // ; : = < <= > >= are words of their own
	Comments    bool // a # outside quotes ends the line
	// UnicodeSpace makes every Unicode space a blank; otherwise only a
	// space, a tab and a carriage return are.
	UnicodeSpace bool
}

// Token is one word of a line, with its 1-based column in runes.
type Token struct {
	Text   string
	Col    int
	Quoted bool // written in quotes
	Punct  bool // one of the Lexer's punctuation words
}

// ErrUnclosedQuote is Lexer.Line's error for a line whose quoted text
// does not end.
var ErrUnclosedQuote = errors.New("a quoted text is not closed")

// Line splits line into tokens, or returns ErrUnclosedQuote with the
// tokens before the open quote.
func (l Lexer) Line(line string) ([]Token, error) {
	rs := []rune(line)
	var out []Token
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case l.blank(r) || l.Commas && r == ',':
			i++
		case l.Comments && r == '#':
			return out, nil
		case l.quote(r):
			j := i + 1
			for j < len(rs) && !l.quote(rs[j]) {
				j++
			}
			if j >= len(rs) {
				return out, ErrUnclosedQuote
			}
			out = append(out, Token{Text: string(rs[i+1 : j]), Col: i + 1, Quoted: true})
			i = j + 1
		case l.punct(r):
			n := 1
			if (r == '<' || r == '>') && i+1 < len(rs) && rs[i+1] == '=' {
				n = 2
			}
			out = append(out, Token{Text: string(rs[i : i+n]), Col: i + 1, Punct: true})
			i += n
		default:
			j := i
			for j < len(rs) && !l.blank(rs[j]) && !(l.Commas && rs[j] == ',') && !l.quote(rs[j]) && !l.punct(rs[j]) && !(l.Comments && rs[j] == '#') {
				j++
			}
			out = append(out, Token{Text: string(rs[i:j]), Col: i + 1})
			i = j
		}
	}
	return out, nil
}

// Words is Line's tokens' texts.
func (l Lexer) Words(line string) ([]string, error) {
	toks, err := l.Line(line)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out, nil
}

func (l Lexer) blank(r rune) bool {
	if l.UnicodeSpace {
		return unicode.IsSpace(r)
	}
	return r == ' ' || r == '\t' || r == '\r'
}

func (l Lexer) quote(r rune) bool {
	return r == '"' || l.CurlyQuotes && (r == '“' || r == '”')
}

func (l Lexer) punct(r rune) bool {
	return l.Punct && (r == ';' || r == ':' || r == '=' || r == '<' || r == '>')
}
