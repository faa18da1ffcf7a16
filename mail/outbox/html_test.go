package outbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The HTML part puts what happened and what to do first, then the board,
// then the footer: the sections are found in the mails the templates
// write (their golden files), and a section after the board ("Your
// move") goes before it.
func TestMailSectionsPutWhatToDoBeforeTheBoard(t *testing.T) {
	golden := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "templates", "testdata", name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	yourMove := "Anna,\n\nWhat happened\n-------------\n  Lyle marched.\n\nThe board\n---------\n  /2314 \\\n  \\ NEWT /\n\n" +
		"Your move\n---------\nMARCH or PASS.\n\n" + footerRule + "\nKey: k1\n-- \npbem\n"
	for _, tc := range []struct {
		name, body              string
		topHas, boardHas        []string
		boardStarts, topLacking string
	}{
		{"report", golden("report-own"), []string{"Anna Lindqvist,", "What happened", "Who acts now"}, []string{"/2314 \\", "Newton (XX)", "map-mill-creek-7.txt"}, "The board\n", "/2314"},
		{"game over", golden("gameover-won"), []string{"The dice revealed"}, []string{"/2314 \\"}, "The final board\n", "/2314"},
		{"welcome", golden("welcome-first"), []string{"How to write orders", "The dice"}, []string{"/2314 \\"}, "The board\n", "/2314"},
		{"BOARD", golden("board"), []string{"The board of game mill-creek, as CSA sees it:"}, []string{"/2314 \\"}, "   _____", "/2314"},
		{"your move after the board", yourMove, []string{"Lyle marched.", "Your move\n---------\nMARCH or PASS."}, []string{"\\ NEWT /"}, "The board\n", "NEWT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top, board, foot := mailSections(tc.body)
			for _, w := range tc.topHas {
				if !strings.Contains(top, w) {
					t.Errorf("the top lacks %q:\n%s", w, top)
				}
			}
			for _, w := range tc.boardHas {
				if !strings.Contains(board, w) {
					t.Errorf("the board lacks %q:\n%s", w, board)
				}
			}
			if !strings.HasPrefix(board, tc.boardStarts) || strings.Contains(top, tc.topLacking) {
				t.Errorf("the board is not apart:\n--- top\n%s\n--- board\n%s", top, board)
			}
			if !strings.HasPrefix(foot, footerRule) || !strings.Contains(foot, "Key: k") || strings.Contains(top+board, "Key: k") {
				t.Errorf("the footer is not last and apart:\n%s", foot)
			}
			if top+board+foot == "" || strings.Count(top+board+foot, "\n") < strings.Count(strings.TrimRight(tc.body, "\n"), "\n")-4 {
				t.Errorf("lines were lost")
			}
		})
	}
}
