// Package templates holds the bodies of the mails pbem sends, as
// text/template files embedded in the binary (welcome, yourmove, report,
// rejected, referee, gameover, and the answers to HELP, BOARD and STATUS),
// and renders them for a plain-text mail client: monospace, no colour,
// lines of at most 78 columns (boards come pre-rendered to fit), no
// trailing spaces.
//
// An operator may replace any template with a file of the same name in a
// directory given to Load. The data each template receives is defined here
// as plain strings and slices, so that templates know nothing of the
// engine; the mail composer (pbem/mail/compose) fills them in.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var embedded embed.FS

const ext = ".tmpl"

// Set is a parsed set of templates, safe for concurrent use.
type Set struct {
	root  *template.Template
	names []string
	from  map[string]string // name → where it was read from
}

// Load parses the embedded templates, each replaced by the file of the
// same name in dir when there is one. dir "" means the embedded templates
// only. Any other file in dir (hidden files aside) is an error, so that a
// misspelt override is caught rather than silently ignored.
func Load(dir string) (*Set, error) {
	src := map[string][]byte{}
	from := map[string]string{}
	files, err := fs.Glob(embedded, "*"+ext)
	if err != nil {
		return nil, fmt.Errorf("templates: list embedded: %w", err)
	}
	for _, f := range files {
		b, err := embedded.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("templates: read embedded %s: %w", f, err)
		}
		name := strings.TrimSuffix(f, ext)
		src[name], from[name] = b, "embedded "+f
	}
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("templates: read override directory: %w", err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			name, ok := strings.CutSuffix(e.Name(), ext)
			if _, known := src[name]; !ok || !known || e.IsDir() {
				return nil, fmt.Errorf("templates: %s is not a template pbem knows; the names are %s", path, strings.Join(names, ext+", ")+ext)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("templates: read override: %w", err)
			}
			src[name], from[name] = b, path
		}
	}
	root := template.New("").Funcs(funcs).Option("missingkey=error")
	for _, n := range names {
		if _, err := root.New(n).Parse(string(src[n])); err != nil {
			return nil, fmt.Errorf("templates: parse %s: %w", from[n], err)
		}
	}
	return &Set{root: root, names: names, from: from}, nil
}

// Names lists the templates of the set, sorted.
func (s *Set) Names() []string { return append([]string(nil), s.names...) }

// Render executes the named template with data and returns the text ready
// for a mail body: trailing spaces removed from every line (but for the
// "-- " signature marker), no leading blank lines, one final newline.
func (s *Set) Render(name string, data any) (string, error) {
	t := s.root.Lookup(name)
	if t == nil || !s.has(name) {
		return "", fmt.Errorf("templates: no template %q", name)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("templates: render %s (%s): %w", name, s.from[name], err)
	}
	return tidy(b.String()), nil
}

func (s *Set) has(name string) bool {
	i := sort.SearchStrings(s.names, name)
	return i < len(s.names) && s.names[i] == name
}

// SignatureMarker is the line that starts a signature (RFC 3676 4.3); its
// trailing space is kept.
const SignatureMarker = "-- "

// tidy strips trailing white space from every line but the signature
// marker, drops leading blank lines and ends the text with one newline.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != SignatureMarker {
			lines[i] = strings.TrimRight(l, " \t\r")
		}
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n") + "\n"
}
