//go:build linux

package mailtrust

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"pbem/demo"
	"pbem/demo/servetest"
)

// pbemBin is the pbem binary built once by TestMain with the race
// detector when this test binary has it; cmdBin, built without it, runs
// the commands that do not serve (see World.CmdBin), and serves the tests
// whose subject is what the intake trusts and answers (newWorld). The
// test whose subject is concurrency, a slow DKIM key holding up no other
// game's reply, serves on pbemBin (newRaceWorld).
var pbemBin, cmdBin string

func TestMain(m *testing.M) {
	bin, remove, err := servetest.Build()
	if err != nil {
		panic(err)
	}
	pbemBin, cmdBin = bin, bin
	removeCmd := func() {}
	if servetest.Race {
		if cmdBin, removeCmd, err = servetest.BuildWithoutRace(); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	remove()
	removeCmd()
	os.Exit(code)
}

// authservID is the authserv-id of the host that receives the game's
// mail.
const authservID = servetest.AuthservID

// newWorld makes a game server behind a real Postfix and Dovecot, and
// game g1 (anna plays USA, taro CSA), with ratePerHour mails an hour
// taken from a sender; anna, taro, a forger (eve) and people have
// mailboxes on the players' host. More games are made with
// w.Pbem("new", ...) before w.Serve.
func newWorld(t *testing.T, ratePerHour int, people ...string) *servetest.World {
	t.Helper()
	return newWorldOn(t, cmdBin, ratePerHour, people...)
}

// newRaceWorld is newWorld serving on the race-built pbemBin.
func newRaceWorld(t *testing.T, ratePerHour int, people ...string) *servetest.World {
	t.Helper()
	return newWorldOn(t, pbemBin, ratePerHour, people...)
}

// newWorldOn is newWorld serving on the pbem binary bin; the commands the
// tests run against the server are cmdBin's.
func newWorldOn(t *testing.T, bin string, ratePerHour int, people ...string) *servetest.World {
	t.Helper()
	return servetest.NewWorld(t, bin, servetest.WorldConfig{RatePerHour: ratePerHour, CmdBin: cmdBin, People: append([]string{"anna", "taro", "eve"}, people...)})
}

var confirmLineRE = regexp.MustCompile(`(?m)^    (CONFIRM [a-z2-7]{4}-[a-z2-7]{4})$`)

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

func tail(s string, n int) string { return servetest.Tail(s, n) }

// gotMail is a mail as its reader sees it: the demo's reader.
type gotMail = demo.Mail
