package engine

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestShippedListsAndReadsTheScenarioFiles(t *testing.T) {
	files := fstest.MapFS{
		"scenarios/b-run.txt":         {Data: []byte("scenario b")},
		"scenarios/a.txt":             {Data: []byte("scenario a")},
		"scenarios/a-run.txt":         {Data: []byte("scenario a-run")},
		"scenarios/sample-tables.txt": {Data: []byte("[fire]")},
		"scenarios/notes.md":          {Data: []byte("not a scenario")},
	}
	all := Shipped{Files: files, Dir: "scenarios"}
	if got, want := all.Names(), []string{"a", "a-run", "b-run", "sample-tables"}; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	scenarios := Shipped{Files: files, Dir: "scenarios", Skip: func(_ string, b []byte) bool {
		return !strings.HasPrefix(string(b), "scenario")
	}}
	if got, want := scenarios.Names(), []string{"a", "a-run", "b-run"}; !slices.Equal(got, want) {
		t.Errorf("Names skipping the tables = %q, want %q", got, want)
	}
	if b, err := scenarios.Read("a-run"); err != nil || string(b) != "scenario a-run" {
		t.Errorf("Read(a-run) = %q, %v", b, err)
	}
	if b, err := scenarios.Read("sample-tables"); err != nil || string(b) != "[fire]" {
		t.Errorf("Read of a skipped file = %q, %v", b, err)
	}
	for _, bad := range []string{"c", "../scenarios/a", "notes"} {
		if _, err := scenarios.Read(bad); err == nil {
			t.Errorf("Read(%q): no error", bad)
		}
	}
}
