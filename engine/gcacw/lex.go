package gcacw

import (
	"pbem/engine"
	"pbem/engine/names"
)

// token is one word of a line (engine.Token).
type token = engine.Token

// lineLexer reads a line of a scenario file or of an order: words
// separated by blanks or commas, double-quoted strings (curly quotes
// too), the punctuation ; : < <= > >= =, and a '#' outside quotes starts
// a comment. planLexer reads a plan the same way, with '#' a letter.
var (
	lineLexer = engine.Lexer{Commas: true, CurlyQuotes: true, Punct: true, Comments: true, UnicodeSpace: true}
	planLexer = engine.Lexer{Commas: true, CurlyQuotes: true, Punct: true, UnicodeSpace: true}
)

// The name-matching helpers are shared by every rule system
// (engine/names), so a name is read the same way in every game.
func normName(s string) string     { return names.Norm(s) }
func editDistance(a, b string) int { return names.Distance(a, b) }
