package compose_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/golden"
	"pbem/mail/token"
)

// TestGoldenShortGameByMove keeps every mail of the short game golden
// under the default volume (MOVE): a mail only when the reader must act,
// with what happened since their last mail folded in.
func TestGoldenShortGameByMove(t *testing.T) {
	m := shortGameVolume(t, "")
	got, err := transcript(m.log)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := transcript(shortGameVolume(t, "").log); again != got {
		t.Fatal("playing the same script twice gave different mails")
	}
	golden.CheckString(t, "short-game-move.golden", got)
	for _, s := range mailsIn(t, m.log) {
		tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
		irt := ""
		if strings.HasPrefix(s.m.InReplyTo, "<order-") {
			irt = s.m.InReplyTo
		}
		checkMail(t, s, tok.Player, irt)
	}
}

// told is what each reader was told of the game in the mails of log: every
// line under "What happened" and every die, in any mail to them.
func told(t *testing.T, log []events.Envelope) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, s := range mailsIn(t, log) {
		tok, _ := token.ParseAddress(s.m.ReplyTo, cfg.Local, cfg.Domain)
		for _, l := range toldLines(s.m.Body) {
			if !slices.Contains(out[tok.Player], l) {
				out[tok.Player] = append(out[tok.Player], l)
			}
		}
	}
	return out
}

var toldSection = regexp.MustCompile(`(?m)^(What happened|Dice)\n-+\n((?:.+\n)*)`)

func toldLines(body string) []string {
	var out []string
	for _, m := range toldSection.FindAllStringSubmatch(body, -1) {
		for _, l := range strings.Split(strings.TrimRight(m[2], "\n"), "\n") {
			if l = strings.TrimSpace(l); l != "" && l != "Nothing changed." && l != "No dice were rolled." && !strings.HasPrefix(l, "roll  die") {
				out = append(out, l)
			}
		}
	}
	return out
}

// TestEveryVolumeTellsEveryFact plays the short game under each volume and
// checks that each reader is told every fact and die they were told with a
// mail for every action: the digests lose nothing. And the fewer mails.
func TestEveryVolumeTellsEveryFact(t *testing.T) {
	every := shortGameVolume(t, play.VolumeEvery)
	want := told(t, every.log)
	if len(want["north"]) == 0 || len(want["south"]) == 0 || len(want["umpire"]) == 0 {
		t.Fatalf("the short game tells too little to compare: %v", want)
	}
	count := func(log []events.Envelope) int { return len(mailsIn(t, log)) }
	for _, vol := range []string{play.VolumeTurn, play.VolumeMove} {
		t.Run(vol, func(t *testing.T) {
			m := shortGameVolume(t, vol)
			got := told(t, m.log)
			for reader, lines := range want {
				for _, l := range lines {
					if !slices.Contains(got[reader], l) {
						t.Errorf("%s: %s was told %q with MAIL EVERY, never with MAIL %s", vol, reader, l, strings.ToUpper(vol))
					}
				}
			}
			if n, all := count(m.log), count(every.log); n >= all {
				t.Errorf("MAIL %s sent %d mails, MAIL EVERY %d: no fewer", strings.ToUpper(vol), n, all)
			}
			for _, e := range m.log {
				if e.Type == events.TypeMailHeld {
					return
				}
			}
			t.Errorf("MAIL %s held nothing: no digest was tested", strings.ToUpper(vol))
		})
	}
}
