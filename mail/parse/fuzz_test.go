package parse

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// fuzzLimits are small, so the fuzzer reaches the caps.
var fuzzLimits = Limits{MaxBytes: 64 << 10, MaxParts: 16, MaxTextBytes: 4 << 10}

// FuzzParse checks that Parse never panics, never returns more text than
// the caps allow, and returns valid UTF-8 lines. Its seeds are the
// testdata/*.eml corpus (and testdata/fuzz/FuzzParse, where regressions
// found by the fuzzer are kept).
func FuzzParse(f *testing.F) {
	for _, path := range corpusFiles(f) {
		raw, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parse(raw, fuzzLimits)
		var le *LimitError
		switch {
		case err == nil && m == nil:
			t.Fatal("nil Message without an error")
		case errors.As(err, &le):
			if m == nil {
				t.Fatalf("nil Message with %v", err)
			}
			if len(m.Body.Lines) > 0 || len(m.Attachments) > 0 {
				t.Fatalf("text returned with %v", err)
			}
		case err != nil:
			if m != nil {
				t.Fatalf("Message returned with %v", err)
			}
			return
		}
		checkHeaderText(t, "Subject", m.Subject)
		checkHeaderText(t, "Auto", m.Auto)
		checkHeaderText(t, "From.Name", m.From.Name)
		checkHeaderText(t, "From.Addr", m.From.Addr)
		checkHeaderText(t, "ReturnPath", m.ReturnPath)
		checkHeaderText(t, "MessageID", m.MessageID)
		for _, a := range m.Recipients() {
			checkHeaderText(t, "recipient", a)
		}
		for _, id := range append(append([]string{}, m.InReplyTo...), m.References...) {
			checkHeaderText(t, "message ID", id)
		}
		if len(m.Defects) > maxDefects {
			t.Fatalf("%d defects", len(m.Defects))
		}
		total := 0
		for _, text := range append([]Text{m.Body}, m.Attachments...) {
			prev := 0
			for _, l := range text.Lines {
				total += len(l.Text)
				if l.No <= prev {
					t.Fatalf("line numbers not increasing: %d after %d", l.No, prev)
				}
				prev = l.No
				if !utf8.ValidString(l.Text) {
					t.Fatalf("line %d is not valid UTF-8: %q", l.No, l.Text)
				}
				if l.Text == "" || strings.ContainsAny(l.Text, "\r\n") {
					t.Fatalf("line %d is blank or holds a line break: %q", l.No, l.Text)
				}
				if r, _ := utf8.DecodeLastRuneInString(l.Text); unicode.IsSpace(r) {
					t.Fatalf("line %d has trailing white space: %q", l.No, l.Text)
				}
			}
		}
		if total > fuzzLimits.MaxTextBytes {
			t.Fatalf("%d bytes of text returned, cap %d", total, fuzzLimits.MaxTextBytes)
		}
	})
}

func checkHeaderText(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s is not valid UTF-8: %q", what, s)
	}
}
