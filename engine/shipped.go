package engine

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Shipped is the scenario files a rule system ships, embedded in its
// binary: every Dir/NAME.txt in Files is the file of scenario NAME.
type Shipped struct {
	Files fs.FS
	Dir   string
	// Skip, when set, leaves a file out of Names (a tables file is read
	// by scenarios, and is not one).
	Skip func(name string, file []byte) bool
}

// Names lists the shipped scenarios, sorted.
func (s Shipped) Names() []string {
	ents, _ := fs.ReadDir(s.Files, s.Dir)
	var out []string
	for _, e := range ents {
		n, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok || e.IsDir() {
			continue
		}
		if s.Skip != nil {
			b, err := fs.ReadFile(s.Files, path.Join(s.Dir, e.Name()))
			if err != nil || s.Skip(n, b) {
				continue
			}
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Read returns the file of the shipped scenario name (also of one Names
// skips), or an error.
func (s Shipped) Read(name string) ([]byte, error) {
	return fs.ReadFile(s.Files, s.Dir+"/"+name+".txt")
}
