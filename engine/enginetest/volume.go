package enginetest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// Volumes plays s with a mail for every action (MAIL EVERY) and again
// with each other mail volume, from the same dice, and checks that each
// participant is told every fact and every die under the other volume
// that they were told under EVERY (in a report then, in a digest now, or
// held for their next mail when the script ends before it), with fewer
// mails or as many. Mails are rendered by mail.
func Volumes(t *testing.T, reg *engine.Registry, mail Mailer, s Script) {
	t.Helper()
	volumes(t, reg, mail, s, nil)
}

// volumes is Volumes; base, if not nil, is the game of the default volume
// played already (mailedPlay), which is not played again.
func volumes(t *testing.T, reg *engine.Registry, mail Mailer, s Script, base *Played) {
	t.Helper()
	// The game is played under each volume side by side, each on a store
	// of its own, from the leak test's dice (so that the default volume's
	// game is its base game), then compared with MAIL EVERY's.
	vols := []string{play.VolumeEvery, play.VolumeTurn, play.VolumeMove}
	played := make([]*Played, len(vols))
	t.Run("play", func(t *testing.T) {
		for i, vol := range vols {
			if vol == play.DefaultVolume && base != nil {
				played[i] = base
				continue
			}
			t.Run(vol, func(t *testing.T) {
				t.Parallel()
				played[i] = playScript(t, reg, s, playOptions{mail: mail, seed: mailedSeed(s), volume: vol})
			})
		}
	})
	if slices.Contains(played, nil) {
		t.FailNow() // a volume's game could not be played
	}
	want, wantN := toldEach(t, played[0].Log)
	for i, vol := range vols[1:] {
		p := played[i+1]
		got, gotN := toldEach(t, p.Log)
		// All a reader was told, as one text: a digest may wrap a line
		// where a report did not.
		all := map[string]string{}
		for to, lines := range got {
			all[to] = " " + strings.Join(lines, " ") + " "
		}
		// What is held when the script stops goes in the reader's next
		// mail: it is told, later.
		for _, h := range p.Game.Held {
			for _, ps := range [][]events.Player{s.Players, s.Referees} {
				for _, pl := range ps {
					if pl.ID == h.Reader {
						to := strings.Join(pl.Addresses, ", ")
						text, err := h.Text()
						if err != nil {
							t.Fatal(err)
						}
						all[to] += " " + strings.Join(toldIn(text), " ") + " "
					}
				}
			}
		}
		for reader, lines := range want {
			for _, l := range lines {
				if !strings.Contains(all[reader], " "+l+" ") {
					t.Errorf("MAIL %s: %s is never told %q, which MAIL EVERY told them", strings.ToUpper(vol), reader, l)
				}
			}
			if gotN[reader] > wantN[reader] {
				t.Errorf("MAIL %s: %s got %d mails, more than MAIL EVERY's %d", strings.ToUpper(vol), reader, gotN[reader], wantN[reader])
			}
		}
	}
}

// toldSection is a mail's "What happened" or "Dice" section.
var toldSection = regexp.MustCompile(`(?m)^(What happened|Dice)\n-+\n((?:.+\n)*)`)

// toldEach is what each address was told in the mails of log (every line
// of every "What happened" and "Dice" section, once), and how many mails
// it got.
func toldEach(t *testing.T, log []events.Envelope) (map[string][]string, map[string]int) {
	t.Helper()
	told, n := map[string][]string{}, map[string]int{}
	for i := range log {
		if log[i].Type != events.TypeMailQueued {
			continue
		}
		p, err := events.Decode(&log[i])
		if err != nil {
			t.Fatal(err)
		}
		m := p.(*events.MailQueued)
		to := strings.Join(m.To, ", ")
		n[to]++
		for _, l := range toldIn(m.Body) {
			if !slices.Contains(told[to], l) {
				told[to] = append(told[to], l)
			}
		}
	}
	return told, n
}

// seqOf is a seq as a mail names it ("rolled the game back to seq 33"):
// the mail volumes number the log differently (a held report takes a
// seq), so seqs are not compared.
var seqOf = regexp.MustCompile(`\bseq \d+`)

// toldIn are the lines of the "What happened" and "Dice" sections of a
// mail's text.
func toldIn(text string) []string {
	var out []string
	for _, sec := range toldSection.FindAllStringSubmatch(text, -1) {
		for _, l := range strings.Split(strings.TrimRight(sec[2], "\n"), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || l == "Nothing changed." || l == "No dice were rolled." || strings.HasPrefix(l, "roll  die") {
				continue
			}
			out = append(out, seqOf.ReplaceAllString(strings.Join(strings.Fields(l), " "), "seq N"))
		}
	}
	return out
}
