package parse

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
)

// Importing github.com/emersion/go-message/charset sets
// message.CharsetReader (for the whole program), so go-message converts a
// text part whose Content-Type names a charset golang.org/x/text knows. This
// file converts the rest: HTML whose charset only a <meta> element declares,
// RFC 2047 encoded words, text attachments sent as application/octet-stream,
// a part whose Content-Type go-message cannot parse, and labels go-message
// does not know.

// charsetAliases maps labels mail clients send that neither the WHATWG
// Encoding Standard nor the IANA registry has to one they have.
var charsetAliases = map[string]string{
	"ascii":         "us-ascii",
	"cp932":         "windows-31j",
	"iso-2022-jp-1": "iso-2022-jp", // x/text's decoder reads JIS X 0212 too (RFC 2237)
	"iso-2022-jp-2": "iso-2022-jp", // its Japanese part (RFC 1554)
	"latin9":        "iso-8859-15",
}

// decodeCharset converts b from charset label to valid UTF-8, invalid bytes
// becoming U+FFFD. An empty label means UTF-8, and so does US-ASCII (mail
// labelled us-ascii that is not is nearly always UTF-8, and go-message
// passes it through as is). The WHATWG Encoding Standard (htmlindex), which
// browsers and mail clients follow, is asked first, so ISO-8859-1 is read as
// windows-1252, its superset; then the IANA registry, through go-message's
// charset.Reader. ok is false when neither knows the label, and for the
// labels WHATWG decodes to a single U+FFFD (ISO-2022-KR, HZ-GB-2312, ...),
// whose ASCII is worth more than nothing; b is then read as UTF-8.
func decodeCharset(label string, b []byte) (s string, ok bool) {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	if a, found := charsetAliases[label]; found {
		label = a
	}
	if label == "" {
		return validUTF8(b), true
	}
	candidates := []string{label}
	if l := strings.ReplaceAll(label, "_", "-"); l != label {
		candidates = append(candidates, l) // euc_jp
	}
	for _, l := range candidates {
		if e, err := ianaindex.MIME.Encoding(l); err == nil && e != nil {
			if name, _ := ianaindex.MIME.Name(e); name == "US-ASCII" || name == "UTF-8" {
				return validUTF8(b), true
			}
		}
		e, err := htmlindex.Get(l)
		if err != nil {
			continue
		}
		switch name, _ := htmlindex.Name(e); name {
		case "utf-8":
			return validUTF8(b), true
		case "replacement":
			return validUTF8(b), false
		}
		if out, err := e.NewDecoder().Bytes(b); err == nil {
			return validUTF8(out), true
		}
		return validUTF8(b), false
	}
	// A label only IANA has, perhaps with its "cs" prefix left off, or
	// one registered with charset.RegisterEncoding.
	if r, err := charset.Reader(label, bytes.NewReader(b)); err == nil && r != nil {
		if out, err := io.ReadAll(r); err == nil {
			return validUTF8(out), true
		}
	}
	return validUTF8(b), false
}

// latin1AsWindows1252 undoes go-message reading a part labelled ISO-8859-1
// as that charset (IANA) rather than as windows-1252 (WHATWG, and what
// decodeCharset does): the C1 controls U+0080-U+009F it made of bytes
// 0x80-0x9F become the windows-1252 characters (€, curly quotes, ...) that
// clients which label windows-1252 as ISO-8859-1 meant. s is returned as is
// for any other label.
func latin1AsWindows1252(label, s string) string {
	enc, err := htmlindex.Get(label)
	if err != nil || enc != charmap.Windows1252 {
		return s
	}
	if !strings.ContainsFunc(s, isC1) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isC1(r) {
			return charmap.Windows1252.DecodeByte(byte(r))
		}
		return r
	}, s)
}

func isC1(r rune) bool { return 0x80 <= r && r <= 0x9f }

// wordCharsetReader is the CharsetReader of the mime.WordDecoder that
// decodes RFC 2047 encoded words in headers.
func wordCharsetReader(label string, r io.Reader) (io.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s encoded word: %w", label, err)
	}
	s, ok := decodeCharset(label, b)
	if !ok {
		return nil, fmt.Errorf("unknown charset %q", label)
	}
	return strings.NewReader(s), nil
}

// validUTF8 returns b as a string with each invalid byte sequence replaced
// by U+FFFD.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
