package termsafe

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, ümlauts, 日本語, tabs\tand\nlines", "plain text, ümlauts, 日本語, tabs\tand\nlines"},
		{"title \x1b]0;pwned\x07 set", `title \x1b]0;pwned\x07 set`},
		{"cursor \x1b[2J\x1b[H", `cursor \x1b[2J\x1b[H`},
		{"gnp.exe\u202etxt.", `gnp.exe\u202etxt.`},
		{"isolate \u2066x\u2069 mark \u200f", `isolate \u2066x\u2069 mark \u200f`},
		{"C1 \u009b31m", `C1 \u009b31m`},
		{"crlf\r\nline", "crlf\nline"},
		{"lone\rcr", `lone\rcr`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
		{"del \x7f nul \x00", `del \x7f nul \x00`},
	}
	for _, tc := range tests {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Runes and CRLFs split across writes come out as if written at once.
func TestWriterAcrossWrites(t *testing.T) {
	in := []byte("a\u202eb日\r\nc\x1b\r")
	for split := range len(in) + 1 {
		var out bytes.Buffer
		w := NewWriter(&out)
		w.Write(in[:split])
		w.Write(in[split:])
		w.Flush()
		if want := `a\u202eb日` + "\nc" + `\x1b\r`; out.String() != want {
			t.Fatalf("split at %d: %q, want %q", split, out.String(), want)
		}
	}
}

// JSON written through a Writer stays valid and means the same.
func TestJSONStaysValid(t *testing.T) {
	v := map[string]string{"text": "PASS \u202e \u0085 \u2028 \\u202e \x1b"}
	b, _ := json.Marshal(v)
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write(b)
	w.Flush()
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["text"] != v["text"] {
		t.Fatalf("%s: %v %q", out.String(), err, back["text"])
	}
	if bytes.ContainsRune(out.Bytes(), 0x202e) {
		t.Fatal("the bidi override passed through")
	}
}
