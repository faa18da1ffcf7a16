package parse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalise makes decoded text uniform: no byte order mark, "\n" line
// ends, and no control characters other than tab and line feed.
func normalise(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f }) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c < 0x20 && c != '\t' && c != '\n', c == 0x7f:
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// splitLines splits normalised text into lines with trailing white space
// removed; a final line break does not start another line.
func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return lines
}

// allLines numbers the non-blank lines of s, dropping nothing else: the
// treatment of a text attachment, which is the player's file, not a reply.
func allLines(s string) []Line {
	var out []Line
	for i, l := range splitLines(s) {
		if l != "" {
			out = append(out, Line{No: i + 1, Text: l})
		}
	}
	return out
}

// newText returns the lines of a mail body that are the sender's new text,
// numbered from 1 in the body, blank lines left out. It drops:
//   - everything from the first signature separator ("-- ", or "--") on;
//   - everything from a forwarded or original message on: Outlook's
//     "-----Original Message-----" and the Polish and Japanese versions of
//     it, Thunderbird's "-------- Original Message --------", Gmail's
//     "---------- Forwarded message ---------", and Outlook's header block
//     ("From: … Sent: …", "Od: … Wysłano: …", "差出人: … 送信日時: …") together
//     with the rule line above it;
//   - quoted lines, those whose first non-blank character is '>';
//   - the lines mobile clients add ("Sent from my iPhone", "Wysłane z
//     iPhone'a", "iPhoneから送信", "Get Outlook for Android");
//   - attribution lines: a line ending as an attribution does ("wrote:",
//     "pisze:", "napisał(a):", "さんは書きました:" and others), and a line
//     ending in a colon whose next non-blank line is quoted (Japanese clients'
//     "<date> <name> <address>:"); when such a line has no date of its own,
//     the line above it that starts as an attribution does ("On …",
//     "W dniu …", a weekday or a date) is the first half of a wrapped
//     attribution and is dropped too.
func newText(text string) []Line {
	lines := splitLines(text)
	end := cutPoint(lines)
	drop := make([]bool, end)
	for i := 0; i < end; i++ {
		drop[i] = lines[i] == "" || isQuoted(lines[i]) || isTrailer(lines[i])
	}
	for i := 0; i < end; i++ {
		if drop[i] || !isAttribution(lines, i, end) {
			continue
		}
		drop[i] = true
		if i > 0 && !drop[i-1] && !hasDate(lines[i]) && startsAttribution(lines[i-1]) {
			drop[i-1] = true
		}
	}
	var out []Line
	for i := 0; i < end; i++ {
		if !drop[i] {
			out = append(out, Line{No: i + 1, Text: lines[i]})
		}
	}
	return out
}

func isQuoted(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, ">")
}

// cutPoint returns the index of the first line that starts what is not the
// sender's text to the end: a signature or an original message.
func cutPoint(lines []string) int {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, ">") {
			continue
		}
		if t == "--" || isSeparator(t) {
			return i
		}
		if isHeaderBlock(lines, i) {
			// Take the rule Outlook draws above the block with it.
			j := i
			for j > 0 && strings.TrimSpace(lines[j-1]) == "" {
				j--
			}
			if j > 0 && isRule(strings.TrimSpace(lines[j-1])) {
				return j - 1
			}
			return i
		}
	}
	return len(lines)
}

// separatorWords are what clients write, between dashes, before a
// forwarded or the original message.
var separatorWords = []string{
	"original message", "forwarded message", "original-nachricht",
	"ursprüngliche nachricht", "weitergeleitete nachricht",
	"message d'origine", "message transféré", "mensaje original",
	"wiadomość oryginalna", "oryginalna wiadomość", "wiadomość przekazana",
	"przekazana wiadomość", "przesłana wiadomość", "wiadomość przesłana",
	"元のメッセージ", "転送メッセージ", "転送されたメッセージ", "オリジナルメッセージ",
}

// isSeparator reports whether t (trimmed) is a line like
// "-----Original Message-----".
func isSeparator(t string) bool {
	if !strings.HasPrefix(t, "--") && !strings.HasPrefix(t, "__") && !strings.HasPrefix(t, "==") {
		return false
	}
	core := strings.ToLower(strings.Trim(t, "-_=* \t"))
	for _, w := range separatorWords {
		if core == w {
			return true
		}
	}
	return false
}

// isRule reports whether t is a line drawn with one repeated character.
func isRule(t string) bool {
	if utf8.RuneCountInString(t) < 5 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(t)
	if !strings.ContainsRune("_-=─━*", first) {
		return false
	}
	for _, r := range t {
		if r != first {
			return false
		}
	}
	return true
}

var (
	fromLabels = []string{"from", "od", "差出人", "送信者", "von", "de"}
	dateLabels = []string{"sent", "date", "wysłano", "data", "送信日時", "送信日", "日付", "日時", "gesendet", "envoyé", "datum"}
)

// fieldLabel returns the lower-case label of a line like "From: …",
// "*Sent:* …" or "差出人： …", or "".
func fieldLabel(line string) string {
	t := strings.TrimLeft(strings.TrimSpace(line), "*")
	i := strings.IndexAny(t, ":：")
	if i <= 0 || i > 30 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(strings.TrimRight(t[:i], "* ")))
}

func labelIn(label string, set []string) bool {
	for _, s := range set {
		if label == s {
			return true
		}
	}
	return false
}

// isHeaderBlock reports whether lines[i] starts the header block Outlook
// and similar clients put above the original message: a From line and,
// within the next four non-blank lines, a Sent or Date line.
func isHeaderBlock(lines []string, i int) bool {
	if !labelIn(fieldLabel(lines[i]), fromLabels) {
		return false
	}
	seen := 0
	for j := i + 1; j < len(lines) && seen < 4; j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		seen++
		if labelIn(fieldLabel(lines[j]), dateLabels) {
			return true
		}
	}
	return false
}

// attributionEnds are the endings of attribution lines, in lower case.
var attributionEnds = []string{
	"wrote:", "writes:", "wrote :", "schrieb:", "a écrit :", "a écrit:",
	"escribió:", "pisze:", "napisał(a):", "napisał:", "napisała:",
	"napisał(-a):", "napisał/a:", "napisal(a):", "napisal:",
	"書きました:", "書きました：", "wrote：", "書き込みました:",
}

// isAttribution reports whether lines[i] (not blank, not quoted) is a
// client's attribution line.
func isAttribution(lines []string, i, end int) bool {
	t := strings.ToLower(strings.TrimSpace(lines[i]))
	for _, e := range attributionEnds {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return false
	}
	for j := i + 1; j < end; j++ {
		if strings.TrimSpace(lines[j]) != "" {
			return isQuoted(lines[j])
		}
	}
	return false
}

// attributionStarts begin the first line of an attribution.
var attributionStarts = []string{"on ", "w dniu ", "dnia ", "am ", "le ", "el ", "em ", "il "}

// weekdays, as English and Polish clients abbreviate them.
var weekdays = []string{
	"mon", "tue", "wed", "thu", "fri", "sat", "sun",
	"pon", "wt", "śr", "czw", "pt", "sob", "niedz", "nie", "ndz",
}

// startsAttribution reports whether line can be the first half of an
// attribution wrapped over two lines: it has a date and starts with "On ",
// "W dniu ", a weekday or a digit.
func startsAttribution(line string) bool {
	t := strings.ToLower(strings.TrimSpace(line))
	if !hasDate(t) {
		return false
	}
	for _, s := range attributionStarts {
		if strings.HasPrefix(t, s) {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(t)
	if unicode.IsDigit(r) {
		return true
	}
	word, _, _ := strings.Cut(t, " ")
	word = strings.TrimRight(word, ".,")
	for _, d := range weekdays {
		if word == d {
			return true
		}
	}
	return false
}

// hasDate reports whether s has a digit outside e-mail addresses (which
// often hold digits, as reply addresses with tokens do).
func hasDate(s string) bool {
	for _, w := range strings.Fields(s) {
		if strings.Contains(w, "@") {
			continue
		}
		if strings.ContainsFunc(w, unicode.IsDigit) {
			return true
		}
	}
	return false
}

// trailerPrefixes start the lines mobile clients append, in lower case.
var trailerPrefixes = []string{
	"sent from my ", "sent from outlook", "get outlook for ", "sent from mail for ",
	"sent from yahoo mail", "wysłane z ", "wysłano z ", "iphoneから送信",
	"ipadから送信", "android携帯からの送信",
}

// isTrailer reports whether line is one a mobile client appends.
func isTrailer(line string) bool {
	t := strings.ToLower(strings.TrimSpace(line))
	if len(t) > 60 {
		return false
	}
	for _, p := range trailerPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
