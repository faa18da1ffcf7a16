package compose_test

import (
	"strings"
	"testing"

	"pbem/mail/compose"
)

// Every mail with a board carries it drawn too (a placeholder
// the outbox draws as a PNG) until the game's images setting is off; then the
// ASCII board alone, and the mails are otherwise the same.
func TestImagesSettingOff(t *testing.T) {
	m := newInMemory(t, newComposer(t))
	drawn := func(from int) (boards, svgs int) {
		for _, s := range mailsIn(t, m.log[from:]) {
			if boardHeading.MatchString(s.m.Body) {
				boards++
			}
			for _, a := range s.m.Attachments {
				if compose.IsDrawn(a) {
					svgs++
				}
			}
		}
		return
	}
	n := len(m.log)
	m.send("north", false, "ROLL")
	if b, s := drawn(n); b == 0 || s != b {
		t.Fatalf("with images on: %d boards, %d drawn", b, s)
	}
	m.send("umpire", true, "SETTING images off")
	n = len(m.log)
	m.send("south", false, "ADD 2")
	if b, s := drawn(n); b == 0 || s != 0 {
		t.Fatalf("with images off: %d boards, %d drawn", b, s)
	}
	m.send("umpire", true, "SETTING images maybe")
	if last := mailsIn(t, m.log[len(m.log)-1:]); len(last) != 1 || !strings.Contains(last[0].m.Body, "want on or off") {
		t.Fatalf("a bad images value is not refused with the values it takes")
	}
}
