// Package names matches the names players write in orders (units,
// leaders, brigades, players) against the names a game knows: case and
// accent insensitive, tolerant of possessives and spacing, and with an
// edit distance for "did you mean …?" suggestions. Every rule system's
// order parser uses it, so a name is read the same way in every game.
package names

import "strings"

// Fold lower-cases s and removes accents from Latin letters, so that names
// match accent-insensitively ("Łukasz" ~ "lukasz", "Pérez" ~ "perez").
func Fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if a, ok := accents[r]; ok {
			b.WriteString(a)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var accents = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", '’': "'", '‘': "'"}
	groups := []struct{ to, from string }{
		{"a", "àáâãäåāăą"}, {"c", "çćĉċč"}, {"d", "ď"}, {"e", "èéêëēĕėęě"},
		{"g", "ĝğġģ"}, {"h", "ĥħ"}, {"i", "ìíîïĩīĭįı"}, {"j", "ĵ"}, {"k", "ķ"},
		{"l", "ĺļľŀ"}, {"n", "ñńņňŉ"}, {"o", "òóôõöōŏő"}, {"r", "ŕŗř"},
		{"s", "śŝşš"}, {"t", "ţťŧ"}, {"u", "ùúûüũūŭůűų"}, {"w", "ŵ"},
		{"y", "ýÿŷ"}, {"z", "źżž"},
	}
	for _, g := range groups {
		for _, r := range g.from {
			m[r] = g.to
		}
	}
	return m
}()

// Norm folds a name as typed or printed for matching: lower case, no
// accents, no trailing possessive ('s, ’s or a bare apostrophe), and no
// spaces, dots, hyphens or underscores.
func Norm(s string) string {
	s = Fold(strings.TrimSpace(s))
	for _, suf := range []string{"'s", "'"} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			s = strings.TrimSuffix(s, suf)
			break
		}
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '.' || r == '-' || r == '\'' || r == '_' {
			return -1
		}
		return r
	}, s)
}

// Distance is the Levenshtein distance between a and b, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
