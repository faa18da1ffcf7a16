package parse

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalise makes decoded text uniform: no byte order mark, "\n" line
// ends, and no control characters other than tab and line feed. A NUL
// becomes U+FFFD, the replacement character, as it reaches pbem from an
// IMAP server that stores an 8-bit body (Dovecot gives it as 0x80, which
// is no UTF-8): the same line whatever the transfer encoding, and a
// visible mark in the quoted line, never a word silently rejoined.
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
		case c == 0:
			b.WriteString("\uFFFD")
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
// numbered from 1 in the body, blank lines left out, and the quoted lines
// (their '>' marks removed, for a caller looking for a line the sender
// quoted instead of writing). from is the mail's sender: a name line under
// the orders is recognised by it. It drops:
//   - everything from the first signature separator ("-- ", or "--") on;
//   - everything from a forwarded or original message on: the
//     "-----Original Message-----" lines of some twenty-five languages
//     (lang.go), Apple Mail's "Begin forwarded message:", and the header
//     block Outlook and others put above an unquoted original ("From: …
//     Sent: …", "Von: … Gesendet: …", "差出人: … 送信日時: …") together
//     with the rule line above it;
//   - a mailing list's footer: a rule line followed by the list's name,
//     address or listinfo URL;
//   - quoted lines, those whose first non-blank character is '>';
//   - the lines mobile clients add, in their known shapes only ("Sent from
//     my iPhone", "Von meinem iPhone gesendet", "iPhoneから送信"; not "Sent
//     from my desk, which is easier");
//   - attribution lines ("On … wrote:", "Am … schrieb:", "W dniu … pisze:"
//     and the rest of lang.go's endings, and a line ending in a colon whose
//     next non-blank line is quoted), with the lines above them that start
//     the same attribution wrapped over up to four lines; when the original
//     below an attribution is not quoted, everything from the attribution
//     on;
//   - a greeting on the first line ("Hi,", "Hallo Schiri,");
//   - the sign-off under the orders: a closing line ("Thanks", "Cheers,
//     Anna", "Mit freundlichen Grüßen") and the few lines under it (a name,
//     a title, a phone number), or, without one, name lines that are the
//     sender's name ("Anna", "-- Anna", "A.").
func newText(text string, from Address) (kept, quoted []Line) {
	lines := splitLines(text)
	end := cutPoint(lines)
	drop := make([]bool, end)
	for i := 0; i < end; i++ {
		switch l := lines[i]; {
		case l == "":
			drop[i] = true
		case isQuoted(l):
			drop[i] = true
			if q := unquote(l); q != "" {
				quoted = append(quoted, Line{No: i + 1, Text: q})
			}
		case isTrailer(l):
			drop[i] = true
		}
	}
	for i := 0; i < end; i++ {
		if drop[i] || !isAttribution(lines, i, end) {
			continue
		}
		drop[i] = true
		if start := attributionStart(lines, drop, i); start >= 0 {
			for j := start; j < i; j++ {
				drop[j] = true
			}
		}
	}
	var idx []int // the lines kept so far
	for i := 0; i < end; i++ {
		if !drop[i] {
			idx = append(idx, i)
		}
	}
	if len(idx) > 0 && isGreeting(lines[idx[0]]) {
		idx = idx[1:]
	}
	idx = dropSignOff(lines, idx, from)
	for _, i := range idx {
		kept = append(kept, Line{No: i + 1, Text: lines[i]})
	}
	return kept, quoted
}

func isQuoted(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, ">")
}

// unquote removes a quoted line's marks ("> > Key: x" is "Key: x").
func unquote(line string) string {
	t := strings.TrimSpace(line)
	for strings.HasPrefix(t, ">") {
		t = strings.TrimSpace(t[1:])
	}
	return t
}

// lower is s trimmed and in lower case, for comparing with the tables.
func lower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func in(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// cutPoint returns the index of the first line that starts what is not the
// sender's text to the end: a signature, an original or forwarded message,
// a mailing list's footer.
func cutPoint(lines []string) int {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, ">") {
			continue
		}
		if t == "--" || isSeparator(t) || in(lower(t), forwardLines) {
			return i
		}
		if isRule(t) && isListFooter(lines, i) {
			return i
		}
		if strings.HasPrefix(lower(t), "you received this message because you are subscribed") {
			return i
		}
		if endsAttribution(t) && !nextIsQuoted(lines, i, len(lines)) && hasMore(lines, i) {
			// The original follows unquoted: an attribution with no quote
			// under it. Take the first half of a wrapped one with it.
			if start := attributionStart(lines, make([]bool, len(lines)), i); start >= 0 {
				return start
			}
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

// hasMore reports whether a non-blank line follows lines[i].
func hasMore(lines []string, i int) bool {
	for _, l := range lines[i+1:] {
		if strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// isSeparator reports whether t (trimmed) is a line like
// "-----Original Message-----".
func isSeparator(t string) bool {
	if !strings.HasPrefix(t, "--") && !strings.HasPrefix(t, "__") && !strings.HasPrefix(t, "==") && !strings.HasPrefix(t, "—") {
		return false
	}
	core := lower(strings.Trim(t, "-_=*— \t"))
	return in(core, separatorWords)
}

// isRule reports whether t is a line drawn with one repeated character.
func isRule(t string) bool {
	if utf8.RuneCountInString(t) < 5 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(t)
	if !strings.ContainsRune("_-=─━*~", first) {
		return false
	}
	for _, r := range t {
		if r != first {
			return false
		}
	}
	return true
}

// isListFooter reports whether the rule at lines[i] starts a mailing
// list's footer: one of the next four non-blank lines names the list.
func isListFooter(lines []string, i int) bool {
	seen := 0
	for _, l := range lines[i+1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if seen++; seen > 4 {
			return false
		}
		t := lower(l)
		for _, w := range listFooterWords {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

// fieldLabel returns the lower-case label of a line like "From: …",
// "*Sent:* …" or "差出人： …", or "".
func fieldLabel(line string) string {
	t := strings.TrimLeft(strings.TrimSpace(line), "*\u200e\u200f\u202b\u202a")
	i := strings.IndexAny(t, ":：")
	if i <= 0 || i > 40 {
		return ""
	}
	return lower(strings.TrimRight(t[:i], "* "))
}

// isHeaderBlock reports whether lines[i] starts the header block Outlook
// and similar clients put above the original message: a From line and,
// within the next four non-blank lines, a Sent or Date line.
func isHeaderBlock(lines []string, i int) bool {
	if !in(fieldLabel(lines[i]), fromLabels) {
		return false
	}
	seen := 0
	for j := i + 1; j < len(lines) && seen < 4; j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		seen++
		if in(fieldLabel(lines[j]), dateLabels) {
			return true
		}
	}
	return false
}

// endsAttribution reports whether line ends as an attribution does
// ("wrote:", "schrieb:", "napisał(a):").
func endsAttribution(line string) bool {
	t := lower(line)
	for _, e := range attributionEnds {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// nextIsQuoted reports whether the next non-blank line after lines[i]
// (before end) is quoted.
func nextIsQuoted(lines []string, i, end int) bool {
	for j := i + 1; j < end; j++ {
		if strings.TrimSpace(lines[j]) != "" {
			return isQuoted(lines[j])
		}
	}
	return false
}

// isAttribution reports whether lines[i] (not blank, not quoted) is a
// client's attribution line.
func isAttribution(lines []string, i, end int) bool {
	if endsAttribution(lines[i]) {
		return true
	}
	t := strings.TrimSpace(lines[i])
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return false
	}
	return nextIsQuoted(lines, i, end)
}

// attributionStart returns the first line of the attribution that ends at
// lines[i], wrapped over up to four lines, or -1 when lines[i] holds it
// whole. The lines above must be contiguous and not dropped, and the first
// must start as an attribution does.
func attributionStart(lines []string, drop []bool, i int) int {
	start := i
	if !hasDate(lines[i]) || !startsAttribution(lines[i]) {
		for j := i - 1; j >= 0 && j >= i-3; j-- {
			if drop[j] || strings.TrimSpace(lines[j]) == "" {
				break
			}
			if startsAttribution(lines[j]) {
				start = j
				break
			}
		}
	}
	// An attribution names the sender by address: when the lines found do
	// not, the line above that does is its first half ("X <addr> ezt írta
	// (időpont:" / "2025. márc. 3., H, 14:02):").
	if j := start - 1; j >= 0 && !drop[j] && strings.Contains(lines[j], "@") {
		hasAddr := false
		for _, l := range lines[start : i+1] {
			hasAddr = hasAddr || strings.Contains(l, "@")
		}
		if !hasAddr {
			start = j
		}
	}
	if start == i {
		return -1
	}
	return start
}

// startsAttribution reports whether line can be the first part of an
// attribution wrapped over several lines: it has a date and starts with
// "On ", "Am ", "W dniu ", a weekday or a digit.
func startsAttribution(line string) bool {
	t := lower(line)
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
	return in(strings.TrimRight(word, ".,"), weekdays)
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

// isTrailer reports whether line is one a mobile client or a web mailer
// appends, in one of its known shapes.
func isTrailer(line string) bool {
	t := strings.TrimRight(lower(line), ".!")
	if utf8.RuneCountInString(t) > 60 || strings.ContainsAny(t, ",;:") {
		return false
	}
	rest, shaped := "", false
	for _, p := range trailerStarts {
		if r, ok := strings.CutPrefix(t, p); ok {
			rest, shaped = r, true
			break
		}
	}
	for _, e := range trailerEnds {
		if r, ok := strings.CutSuffix(t, e); ok {
			if shaped {
				rest = strings.TrimSuffix(rest, e)
			} else {
				rest, shaped = r, true
			}
			break
		}
	}
	if !shaped || len(strings.Fields(rest)) > 6 {
		return false
	}
	for _, w := range trailerThings {
		if strings.Contains(rest, w) {
			return true
		}
	}
	return false
}

// words splits a line into lower-case words, punctuation dropped.
func words(s string) []string {
	return strings.FieldsFunc(lower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '-'
	})
}

// isGreeting reports whether line is a greeting opening a mail: a known
// greeting, perhaps with a name, and nothing more ("Hi,", "Dear referee,",
// "Cześć!").
func isGreeting(line string) bool {
	t := lower(line)
	if utf8.RuneCountInString(t) > 40 {
		return false
	}
	t = strings.TrimRight(t, ",!.:;。、 ")
	for _, g := range greetings {
		if t == g || strings.HasPrefix(t, g+" ") && len(strings.Fields(t)) <= 4 {
			return true
		}
	}
	return false
}

// closingWords returns the closing phrase line starts with and what
// follows it ("Cheers, Anna": "cheers", "anna"), if line is a sign-off.
func isClosing(line string) (rest string, ok bool) {
	if line != strings.TrimLeft(line, " \t") {
		return "", false // an indented line continues an order
	}
	t := lower(line)
	if utf8.RuneCountInString(t) > 50 {
		return "", false
	}
	t = strings.TrimRight(t, ",!.:;~-。、 ")
	if in(t, closings) {
		return "", true
	}
	for _, c := range closings {
		if r, ok := strings.CutPrefix(t, c); ok && r != "" && strings.ContainsRune(", !", rune(r[0])) {
			r = strings.TrimLeft(r, ", !")
			if n := len(strings.Fields(r)); n >= 1 && n <= 3 {
				return r, true
			}
		}
	}
	return "", false
}

// maxSignOff bounds the lines a sign-off carries under its closing line.
const maxSignOff = 6

// dropSignOff removes the sign-off from the kept lines idx: from the last
// closing line with at most maxSignOff lines under it to the end, or else
// trailing lines that are the sender's name.
func dropSignOff(lines []string, idx []int, from Address) []int {
	idx = dropRemarks(lines, idx)
	for k := len(idx) - 1; k >= 0 && k >= len(idx)-1-maxSignOff; k-- {
		if _, ok := isClosing(lines[idx[k]]); ok {
			if !anyOrderLike(lines, idx[k+1:]) {
				return idx[:k]
			}
			// Orders under it: the closing line alone is a remark
			// ("Thanks!" between two orders), not the start of a
			// signature that would take the orders with it.
			return dropSignOff(lines, append(idx[:k:k], idx[k+1:]...), from)
		}
	}
	names := nameWords(from)
	for len(idx) > 0 && (isNameLine(lines[idx[len(idx)-1]], names) || isDashedName(lines[idx[len(idx)-1]])) {
		idx = idx[:len(idx)-1]
	}
	return idx
}

// dashedName is a name signed under a dash or tilde, whoever's it is
// (a nickname, a club name): "-Bob", "—Bob T.", "– Anna Hale", "~Taro".
// A hyphen must touch the name ("- Stonewall Brigade" is a list item); a
// name is one to three capitalised words, no digit.
var dashedName = regexp.MustCompile(`^(?:-|[–—~]\s*)\p{Lu}[\p{L}'’.]*(?:\s+\p{Lu}[\p{L}'’.]*){0,2}$`)

// isDashedName reports whether line is a name signed under a dash.
func isDashedName(line string) bool {
	return dashedName.MatchString(strings.TrimSpace(line))
}

// remarkStarts are the words that plainly begin a remark of thanks, not
// an order: "Thanks for the game!", "Cheers, and good luck".
var remarkStarts = []string{"thanks", "thank you", "many thanks", "cheers", "danke", "merci", "gracias", "grazie", "dzięki", "спасибо"}

// dropRemarks removes the lines of idx that are plainly remarks: a line
// starting with thanks and going on in words ("Thanks for the game!"),
// which no rule system reads as an order. (A closing alone on its line
// is dropSignOff's.)
func dropRemarks(lines []string, idx []int) []int {
	out := idx[:0:0]
	for _, i := range idx {
		l := lines[i]
		if _, closing := isClosing(l); !closing && l == strings.TrimLeft(l, " \t") && utf8.RuneCountInString(l) <= 80 {
			t := lower(l)
			remark := false
			for _, w := range remarkStarts {
				if r, ok := strings.CutPrefix(t, w); ok && r != "" && strings.ContainsRune(" ,!.", []rune(r)[0]) {
					remark = true
				}
			}
			if remark {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}

// anyOrderLike reports whether a line of idx looks like an order: it has
// a keyword, a word of four or more capital letters ("PASS", "MARCH",
// "ADVANCE"), which a name, a title or a phone number under a closing
// does not.
func anyOrderLike(lines []string, idx []int) bool {
	for _, i := range idx {
		for _, w := range strings.FieldsFunc(lines[i], func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len(w) >= 4 && strings.ToUpper(w) == w && strings.ToLower(w) != w {
				return true
			}
		}
	}
	return false
}

// nameWords are the words of the sender's display name and of the local
// part of their address ("Anna Kowalska <a.kowalska@…>": anna, kowalska,
// a), in lower case.
func nameWords(from Address) map[string]bool {
	set := map[string]bool{}
	for _, w := range words(from.Name) {
		set[w] = true
	}
	local, _, _ := strings.Cut(from.Addr, "@")
	for _, w := range strings.FieldsFunc(strings.ToLower(local), func(r rune) bool { return strings.ContainsRune("._-+0123456789", r) }) {
		if utf8.RuneCountInString(w) >= 2 {
			set[w] = true
		}
	}
	return set
}

// isNameLine reports whether line is the sender signing with their name:
// one to three words, each a word of their name or its initial ("Anna",
// "-Anna K.", "A.").
func isNameLine(line string, names map[string]bool) bool {
	if len(names) == 0 || line != strings.TrimLeft(line, " \t") {
		return false
	}
	t := strings.TrimLeft(strings.TrimSpace(line), "-–—~*/ ")
	ws := strings.Fields(t)
	if len(ws) == 0 || len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		w = strings.ToLower(strings.Trim(w, ".,!"))
		if names[w] {
			continue
		}
		initial := false
		if utf8.RuneCountInString(w) == 1 {
			for n := range names {
				if strings.HasPrefix(n, w) {
					initial = true
				}
			}
		}
		if !initial {
			return false
		}
	}
	return true
}
