// Package termsafe makes text from players, mail headers and other hostile
// input safe to print on an operator's terminal: a Writer shows control
// characters, bidirectional-text overrides and invalid UTF-8 escaped
// instead of passing them to the terminal, where an ESC or OSC sequence
// could move the cursor, rewrite the screen or the window title, and a
// U+202E could make a line read backwards.
//
// What is escaped, and how:
//   - C0 controls but tab and line feed, and DEL: \x1b; a CR is dropped
//     before a LF (a mail's CRLF prints as a line break) and shown as \r
//     elsewhere;
//   - C1 controls (U+0080–U+009F), the bidirectional controls (U+061C,
//     U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the line and
//     paragraph separators (U+2028, U+2029) and U+FEFF: \u202e;
//   - bytes that are not UTF-8: \xff.
//
// The escapes are also JSON string escapes for everything JSON does not
// escape itself, so a JSON document written through a Writer stays valid
// and means the same.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// unsafeRune reports whether r must be shown escaped.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20 && r != '\t' && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff:
		return true
	}
	return false
}

// String returns s with everything unsafe escaped.
func String(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	appendEscaped(&b, []byte(s), true)
	return b.String()
}

func needs(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			return true
		}
	}
	return false
}

// appendEscaped writes p to b escaped. Unless final, p is not expected to
// end inside a rune or on a CR (the Writer keeps those for the next write).
func appendEscaped(b *strings.Builder, p []byte, final bool) {
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(b, `\x%02x`, p[i])
		case r == '\r' && i+1 < len(p) && p[i+1] == '\n':
			// dropped: the LF that follows breaks the line
		case r == '\r':
			b.WriteString(`\r`)
		case !unsafeRune(r):
			b.Write(p[i : i+n])
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
		i += n
	}
}

// Writer escapes what is written to it before passing it on. It is safe
// for concurrent use (a command's output and its log may share it).
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // an incomplete rune, or a CR, at the end of the last write
}

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it; a rune split across writes, or a CR that
// may be followed by a LF, waits for the next write (or Flush).
func (s *Writer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := append(s.pending, p...)
	cut := len(buf)
	if cut > 0 && buf[cut-1] == '\r' {
		cut--
	}
	for i := max(0, cut-utf8.UTFMax+1); i < cut; i++ {
		if utf8.RuneStart(buf[i]) && !utf8.FullRune(buf[i:cut]) {
			cut = i
			break
		}
	}
	var b strings.Builder
	appendEscaped(&b, buf[:cut], false)
	s.pending = append(s.pending[:0:0], buf[cut:]...)
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a Write held back, escaped.
func (s *Writer) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	var b strings.Builder
	appendEscaped(&b, s.pending, true)
	s.pending = nil
	_, err := io.WriteString(s.w, b.String())
	return err
}
