package main

import (
	"strings"
	"testing"
)

// Every command's --help says how to call it, lists its own flags and
// the global flags it uses (pbem serve --help once showed only --node,
// though serve runs on the data directory and the configuration).
func TestHelpOfEveryCommandListsItsFlagsAndTheGlobalOnesItUses(t *testing.T) {
	t.Parallel()
	own := map[string][]string{
		"serve":     {"-node"},
		"order":     {"-player", "-file", "-referee", "-reason", "-wait"},
		"referee":   {"-as", "-reason", "-file", "-wait"},
		"scenarios": {"-long"},
		"new":       {"-game", "-ruleset", "-scenario", "-player", "-referee", "-set"},
		"demo":      {"-ruleset", "-max-orders", "-no-referee"},
	}
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := pbem(t, []string{"PBEM_DATA_DIR=" + t.TempDir()}, c.name, "--help")
			help := out + errOut
			if code != 0 || !strings.Contains(help, "usage: pbem ") || !strings.Contains(help, " "+c.name) {
				t.Fatalf("%s --help: exit %d\n%s", c.name, code, help)
			}
			var wants []string
			switch c.name {
			case "scenarios":
				wants = []string{"reads no configuration and no data directory"}
			case "demo", "bench":
				wants = []string{"global flags", "--config FILE", "pbem [--config FILE] " + c.name + " …"}
			default:
				wants = []string{"global flags", "--config FILE", "--data-dir DIR", "pbem [--config FILE] [--data-dir DIR] " + c.name + " …"}
			}
			for _, want := range append(wants, own[c.name]...) {
				if !strings.Contains(help, want) {
					t.Errorf("%s --help lacks %q:\n%s", c.name, want, help)
				}
			}
			if (c.name == "demo" || c.name == "bench" || c.name == "scenarios") && strings.Contains(help, "--data-dir") {
				t.Errorf("%s --help offers --data-dir, which it does not use:\n%s", c.name, help)
			}
		})
	}
}
