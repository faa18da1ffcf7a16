package templates

import (
	"fmt"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"pbem/internal/plainwords"
)

// Width is the widest line a template writes (boards aside, which come
// pre-rendered to fit it).
const Width = 78

// funcs are the functions the templates may call.
var funcs = template.FuncMap{
	"wrap":      wrap,
	"heading":   heading,
	"indent":    indent,
	"caret":     caret,
	"untab":     untab,
	"plural":    plural,
	"sentence":  sentence,
	"capital":   capital,
	"para":      para,
	"multiline": multiline,
}

// para fills one paragraph of a rule system's section to 72 columns; a
// paragraph starting "- " is a list item, its next lines indented under
// its text.
func para(text string) string {
	if rest, ok := strings.CutPrefix(text, "- "); ok {
		return wrap(72, "- ", rest)
	}
	return wrap(72, "", text)
}

// multiline reports whether any of texts has more than one line.
func multiline(texts []string) bool {
	for _, t := range texts {
		if strings.Contains(t, "\n") {
			return true
		}
	}
	return false
}

// wrap fills text into lines (in plain words: plainwords.Text) of at most width columns, the first starting
// with prefix and the rest indented to line up under it. Each line of text
// is filled on its own; a word longer than a line stands alone.
func wrap(width int, prefix, text string) string {
	text = plainwords.Text(text)
	cont := strings.Repeat(" ", displayWidth(prefix))
	var out strings.Builder
	out.Grow(len(text) + len(text)/8 + len(prefix))
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			out.WriteByte('\n')
		}
		words := strings.Fields(para)
		if len(words) == 0 {
			continue
		}
		out.WriteString(prefix)
		n := displayWidth(prefix)
		fresh := true
		for _, w := range words {
			ww := displayWidth(w)
			if !fresh && n+1+ww > width {
				out.WriteByte('\n')
				out.WriteString(cont)
				n, fresh = len(cont), true
			}
			if !fresh {
				out.WriteByte(' ')
				n++
			}
			out.WriteString(w)
			n += ww
			fresh = false
		}
		prefix = cont
	}
	return out.String()
}

// heading underlines a title with dashes.
func heading(title string) string {
	return title + "\n" + strings.Repeat("-", displayWidth(title))
}

// indent puts prefix before every line of text that is not blank.
func indent(prefix, text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

// untab replaces tabs by single spaces, so a quoted line's characters and
// columns keep lining up with the caret under it.
func untab(s string) string { return strings.ReplaceAll(s, "\t", " ") }

// caret returns the line that puts a ^ under column col (1-based, in
// characters) of text as untab prints it: wide (East Asian) characters
// take two columns, combining marks none.
func caret(col int, text string) string {
	n := 0
	for i, r := range []rune(untab(text)) {
		if i >= col-1 {
			break
		}
		n += runeWidth(r)
	}
	if col-1 > utf8.RuneCountInString(text) {
		n += col - 1 - utf8.RuneCountInString(text)
	}
	return strings.Repeat(" ", n) + "^"
}

func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r < 0x300: // below the first combining mark: Latin, one column
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul),
		r >= 0xFF01 && r <= 0xFF60, // fullwidth forms
		r >= 0x3000 && r <= 0x303F: // CJK punctuation
		return 2
	}
	return 1
}

// sentence ends s with a full stop unless it ends with punctuation.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?:;") {
		return s
	}
	return s + "."
}

// capital starts s with a capital letter: a sentence of its own.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// plural picks one or many by n (any integer).
func plural(n any, one, many string) (string, error) {
	var v int64
	switch n := n.(type) {
	case int:
		v = int64(n)
	case int64:
		v = n
	case uint64:
		if n == 1 {
			v = 1
		} else {
			v = 2
		}
	default:
		return "", fmt.Errorf("plural: %T is not an integer", n)
	}
	if v == 1 {
		return one, nil
	}
	return many, nil
}
