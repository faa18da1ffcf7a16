package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	message "github.com/emersion/go-message"
)

// want is what a testdata/*.want file expects of the .eml file beside it.
//
// A .want file holds '#' comments and lines "key: value":
//
//	from: Name <addr>      the From header (or just addr)
//	subject: …             the decoded Subject
//	recipient: addr        an address Recipients must return
//	auto: reason           Message.Auto; absent means a person's mail ("")
//	orders: body|<name>    where Orders takes the lines from
//	html: true             the body was converted from HTML
//	lines: ignored         do not compare lines (for classification only)
//	defect: substring      a Defects entry must contain it; absent means
//	                       Defects must be empty
//	N: text                a line Orders must return, with its number
//
// The lines Orders returns must be exactly the "N: text" lines, in order.
type want struct {
	from, subject, auto, orders string
	recipients, defects         []string
	html, ignoreLines           bool
	lines                       []Line
}

func readWant(t *testing.T, path string) want {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var w want
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			key, val, ok = strings.Cut(line, ":")
		}
		if !ok {
			t.Fatalf("%s:%d: want \"key: value\", got %q", path, n, line)
		}
		if no, err := strconv.Atoi(key); err == nil {
			w.lines = append(w.lines, Line{No: no, Text: val})
			continue
		}
		switch key {
		case "from":
			w.from = val
		case "subject":
			w.subject = val
		case "recipient":
			w.recipients = append(w.recipients, val)
		case "auto":
			w.auto = val
		case "orders":
			w.orders = val
		case "html":
			w.html = val == "true"
		case "lines":
			w.ignoreLines = val == "ignored"
		case "defect":
			w.defects = append(w.defects, val)
		default:
			t.Fatalf("%s:%d: unknown key %q", path, n, key)
		}
	}
	return w
}

func formatAddress(a Address) string {
	if a.Name == "" {
		return a.Addr
	}
	return a.Name + " <" + a.Addr + ">"
}

func formatLines(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%d: %s\n", l.No, l.Text)
	}
	return b.String()
}

func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.eml")
	}
	return files
}

// TestCorpus parses each testdata/*.eml and checks it against its .want.
func TestCorpus(t *testing.T) {
	wants, err := filepath.Glob(filepath.Join("testdata", "*.want"))
	if err != nil {
		t.Fatal(err)
	}
	for _, wf := range wants {
		if _, err := os.Stat(strings.TrimSuffix(wf, ".want") + ".eml"); err != nil {
			t.Errorf("%s has no .eml: %v", wf, err)
		}
	}
	for _, path := range corpusFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		t.Run(name, func(t *testing.T) {
			w := readWant(t, strings.TrimSuffix(path, ".eml")+".want")
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(raw, Limits{})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if w.from != "" && formatAddress(m.From) != w.from {
				t.Errorf("From = %q, want %q", formatAddress(m.From), w.from)
			}
			if w.subject != "" && m.Subject != w.subject {
				t.Errorf("Subject = %q, want %q", m.Subject, w.subject)
			}
			for _, r := range w.recipients {
				if !slices.Contains(m.Recipients(), r) {
					t.Errorf("Recipients() = %q, want it to hold %q", m.Recipients(), r)
				}
			}
			if m.Auto != w.auto {
				t.Errorf("Auto = %q, want %q", m.Auto, w.auto)
			}
			if len(w.defects) == 0 && len(m.Defects) > 0 {
				t.Errorf("Defects = %q, want none", m.Defects)
			}
			for _, d := range w.defects {
				if !slices.ContainsFunc(m.Defects, func(s string) bool { return strings.Contains(s, d) }) {
					t.Errorf("Defects = %q, want one containing %q", m.Defects, d)
				}
			}
			if w.ignoreLines {
				return
			}
			orders := m.Orders()
			source := orders.Name
			if source == "" {
				source = "body"
			}
			if w.orders != "" && source != w.orders {
				t.Errorf("Orders() comes from %q, want %q", source, w.orders)
			}
			if orders.HTML != w.html {
				t.Errorf("Orders().HTML = %v, want %v", orders.HTML, w.html)
			}
			if got, want := formatLines(orders.Lines), formatLines(w.lines); got != want {
				t.Errorf("Orders().Lines:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// htmlAlternative returns the text/html part of a multipart/alternative
// mail, decoded by go-message.
func htmlAlternative(t *testing.T, raw []byte) string {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	mr := e.MultipartReader()
	if mr == nil {
		t.Fatal("not multipart")
	}
	for {
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("no text/html part: %v", err)
		}
		if typ, _, _ := p.Header.ContentType(); typ == "text/html" {
			b, err := io.ReadAll(p.Body)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
}

// TestHTMLAlternativeAgrees checks that the HTML half of the corpus's
// multipart/alternative mails yields the same new text as the plain half
// Parse prefers.
func TestHTMLAlternativeAgrees(t *testing.T) {
	for _, name := range []string{"gmail_alternative", "outlook_alternative"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", name+".eml"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(raw, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			fromHTML, _ := newText(normalise(htmlToText(htmlAlternative(t, raw))), m.From)
			texts := func(ls []Line) []string {
				var out []string
				for _, l := range ls {
					out = append(out, l.Text)
				}
				return out
			}
			if got, want := texts(fromHTML), texts(m.Body.Lines); !slices.Equal(got, want) {
				t.Errorf("from the HTML part: %q\nfrom the plain part: %q", got, want)
			}
		})
	}
}
