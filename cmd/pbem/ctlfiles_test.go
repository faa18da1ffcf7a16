package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The command line reads the files a command's flags name, in every
// spelling of the flag, and nothing after "--" (the order's own text).
func TestArgFilesReadsWhatTheFlagsNameWhereTheCommandIsTyped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "o.txt")
	os.WriteFile(path, []byte("MARCH Lyle 1605"), 0o600)
	tests := []struct {
		cmd  string
		args []string
		want map[string]string
		err  string
	}{
		{"order", []string{"g1", "--player", "anna", "--file", path}, map[string]string{path: "MARCH Lyle 1605"}, ""},
		{"order", []string{"g1", "-file=" + path, "--player", "anna"}, map[string]string{path: "MARCH Lyle 1605"}, ""},
		{"referee", []string{"g1", "--as", "operator", "--file", "-"}, map[string]string{"-": "PAUSE"}, ""},
		{"new", []string{"--game", "g", "--scenario-file", path}, map[string]string{path: "MARCH Lyle 1605"}, ""},
		{"order", []string{"g1", "--player", "anna", "--", "--file", path}, nil, ""},
		{"log", []string{"g1", "--file", path}, nil, ""},
		{"order", []string{"g1", "--file", filepath.Join(dir, "missing.txt")}, nil, "missing.txt"},
	}
	for _, tc := range tests {
		got, err := argFiles(tc.cmd, tc.args, strings.NewReader("PAUSE"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %v: error %v, want one naming %s", tc.cmd, tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%s %v: %v %v, want %v", tc.cmd, tc.args, got, err, tc.want)
			continue
		}
		for k, v := range tc.want {
			if string(got[k]) != v {
				t.Errorf("%s %v: %s is %q, want %q", tc.cmd, tc.args, k, got[k], v)
			}
		}
	}
}
