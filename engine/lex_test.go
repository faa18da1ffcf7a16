package engine

import (
	"errors"
	"slices"
	"testing"
)

func TestLexerLine(t *testing.T) {
	orders := Lexer{Commas: true, CurlyQuotes: true, Punct: true, Comments: true, UnicodeSpace: true}
	plain := Lexer{Commas: true, Comments: true}
	for _, c := range []struct {
		name string
		l    Lexer
		line string
		want []string
		err  error
	}{
		{"blanks and commas", plain, " a,b\tc\r", []string{"a", "b", "c"}, nil},
		{"quoted", plain, `x "two words" y`, []string{"x", "two words", "y"}, nil},
		{"comment", plain, "a b# c", []string{"a", "b"}, nil},
		{"hash in quotes", plain, `"a#b" c`, []string{"a#b", "c"}, nil},
		{"unclosed", plain, `a "b`, []string{"a"}, ErrUnclosedQuote},
		{"no-break space is a letter", plain, "a\u00a0b", []string{"a\u00a0b"}, nil},
		{"unicode space", orders, "a\u00a0b", []string{"a", "b"}, nil},
		{"punctuation", orders, "MA<=3;X:Y =", []string{"MA", "<=", "3", ";", "X", ":", "Y", "="}, nil},
		{"curly quotes", orders, "“two words” x", []string{"two words", "x"}, nil},
		{"hash a letter", Lexer{}, "a#b c", []string{"a#b", "c"}, nil},
		{"comma a letter", Lexer{}, "a,b c", []string{"a,b", "c"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			toks, err := c.l.Line(c.line)
			if !errors.Is(err, c.err) {
				t.Fatalf("Line(%q) error %v, want %v", c.line, err, c.err)
			}
			var got []string
			for _, tk := range toks {
				got = append(got, tk.Text)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("Line(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
	toks, _ := Lexer{Punct: true}.Line("ab >= c")
	if toks[1].Col != 4 || !toks[1].Punct || toks[2].Col != 7 {
		t.Errorf("columns and punctuation: %+v", toks)
	}
}
