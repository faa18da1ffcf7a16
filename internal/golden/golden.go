// Package golden compares test output with golden files under testdata/,
// and rewrites them when the test binary runs with -update. It is used
// only by tests; importing it registers the -update flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Updating reports whether the run rewrites golden files.
func Updating() bool { return *update }

// Check compares got with testdata/name, or writes it there with -update.
// A difference is reported with its first differing line.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it; review the diff): %s\n--- got\n%s",
			path, firstDifference(string(got), string(want)), got)
	}
}

// CheckString is Check for text.
func CheckString(t testing.TB, name, got string) { t.Helper(); Check(t, name, []byte(got)) }

func firstDifference(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g, w)
		}
	}
	return "same lines, different bytes"
}
