package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// playedDemo runs 'pbem demo' with args on contentBin (what these tests
// check is what the game says and mails: see contentBin), checks what
// every demo must show (a verified log; every mail line fits 78 columns),
// and returns its output, the game's log as 'pbem log' prints it, and each
// player's mails as received over IMAP. A whole game by mail keeps a core
// busy for a while, so each demo is played once for the test binary, by
// whichever test asks first: the tests that look at the same game for
// different things share it (its data directory stays until the binary
// ends, for them to read).
func playedDemo(t *testing.T, args ...string) (out, log string, byPlayer map[string]string) {
	t.Helper()
	return playedDemoOn(t, contentBin, args...)
}

func playedDemoOn(t *testing.T, bin string, args ...string) (out, log string, byPlayer map[string]string) {
	t.Helper()
	key := bin + " " + strings.Join(args, " ")
	demosMu.Lock()
	d := demos[key]
	if d == nil {
		d = &demoRun{bin: bin}
		demos[key] = d
	}
	demosMu.Unlock()
	d.once.Do(func() {
		// A CPU slot only while it plays: a test waiting for another's game
		// keeps no core from the rest.
		cpuSlots <- struct{}{}
		defer func() { <-cpuSlots }()
		d.play(args)
	})
	if d.err != "" {
		t.Fatal(d.err)
	}
	for _, name := range []string{"Anna", "Taro"} {
		// Every board in a mail body fits a 78-column mail client.
		for _, l := range strings.Split(d.byPlayer[name], "\n") {
			if len([]rune(l)) > 78 && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, ">>>") {
				t.Errorf("%s got a line of %d columns: %q", name, len([]rune(l)), l)
				break
			}
		}
	}
	checkRejections(t, demoRuleset(args), d.out)
	checkDiceAddUp(t, demoRuleset(args), d.out)
	checkPlainWords(t, d.out)
	checkSentencesStartInCapitals(t, d.out)
	return d.out, d.log, d.byPlayer
}

// A demoRun is one 'pbem demo' played for the tests: what it printed, its
// log, its data directory, and err if it failed.
type demoRun struct {
	bin                string // the pbem binary it runs
	once               sync.Once
	out, log, dir, err string
	byPlayer           map[string]string
}

var (
	demosMu sync.Mutex
	demos   = map[string]*demoRun{} // by the binary and the demo's arguments
	// demoTmp holds the demos' data directories (a short path: each holds
	// its control socket, whose path a unix socket limits to 108 bytes);
	// TestMain removes it.
	demoTmp string
)

// play runs 'pbem demo' with args, with the binary on the PATH as a
// player who installed it has it (the demo's closing hint then says
// "pbem"), verifies the log and reads it.
func (d *demoRun) play(args []string) {
	tmp, err := os.MkdirTemp(demoTmp, "d")
	if err != nil {
		d.err = err.Error()
		return
	}
	out, errOut, code := runShared(d.bin, demoEnv(d.bin, tmp), append([]string{"demo"}, args...)...)
	if code != 0 {
		d.err = fmt.Sprintf("demo %v: exit %d\n%s\n%s", args, code, tail(out, 40), tail(errOut, 40))
		return
	}
	dir := regexp.MustCompile(`pbem --data-dir (\S+) verify demo`).FindStringSubmatch(out)
	if dir == nil {
		d.err = fmt.Sprintf("demo %v did not say where its log is:\n%s", args, tail(out, 10))
		return
	}
	vout, verr, vcode := runShared(d.bin, nil, "--data-dir", dir[1], "verify", "demo")
	if vcode != 0 || !strings.Contains(vout, "intact") || !strings.Contains(vout, "rolls verify") {
		d.err = fmt.Sprintf("verify after the demo %v: %d %s %s", args, vcode, vout, verr)
		return
	}
	d.out, d.dir = out, dir[1]
	d.log, _, _ = runShared(d.bin, nil, "--data-dir", dir[1], "log", "demo")
	d.byPlayer = map[string]string{}
	mails, _, _ := strings.Cut(out, "\nThe game's log stays in") // the demo's own last words are no mail
	for _, m := range strings.Split(mails, "=== mail to ")[1:] {
		name, _, _ := strings.Cut(m, " ")
		d.byPlayer[name] += m
	}
}

// demoEnv is the environment a demo on bin runs in: its temporary
// directory tmp, and bin on the PATH.
func demoEnv(bin, tmp string) []string {
	return []string{"TMPDIR=" + tmp, "PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// demoRuleset is the rule system a demo with args plays.
func demoRuleset(args []string) string {
	for i, a := range args {
		if a == "--ruleset" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return "gcacw"
}

// scriptedRejections are the rejected orders each demo's script means to
// show: Taro's typo (GCACW "Starlng", HRA "Stonewall Brigadier", GBACW
// "ALWAYZ"); GMB's script has none.
var scriptedRejections = map[string]int{"gcacw": 1, "hra": 1, "gbacw": 1, "gmb": 0}

// checkRejections checks a demo shows no rejected order but the ones its
// script means to: the scripted players answer only the newest mail, so
// none answers a mail that is no longer the question.
func checkRejections(t *testing.T, ruleset, out string) {
	t.Helper()
	var got []string
	for _, m := range strings.Split(out, "=== mail to ")[1:] {
		head, body, _ := strings.Cut(m, "\n\n")
		if strings.Contains(head, "\n=== Order rejected\n") {
			name, _, _ := strings.Cut(head, " ")
			_, line, _ := strings.Cut(body, "\n    ")
			line, _, _ = strings.Cut(line, "\n")
			got = append(got, name+": "+line)
		}
	}
	if want := scriptedRejections[ruleset]; len(got) != want {
		t.Errorf("the %s demo shows %d rejected orders, its script means %d:\n%s", ruleset, len(got), want, strings.Join(got, "\n"))
	}
}

func checkHas(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
}

// The README's main job: a whole GCACW game by mail over the built-in SMTP
// and IMAP servers, NATS and a bbolt file, every mail printed as received.
// It plays on the build that ships, as the other rule systems' demos do:
// its subject is what the mails say. A whole campaign by mail, its
// battles opened and carried back inside one server, runs race-built
// (TestLinkedBattleDemoCampaign).
func TestDemoPlaysAWholeGameByMail(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	out, log, byPlayer := playedDemo(t, "--max-orders", "400", "--timeout", "8m")
	// Every mail of the game has its one subject; what a mail
	// is stands on its first line.
	if subjects := regexp.MustCompile(`=== Subject: (.*)`).FindAllStringSubmatch(out, -1); len(subjects) < 10 {
		t.Errorf("only %d mails", len(subjects))
	} else {
		for _, s := range subjects {
			if s[1] != subjects[0][1] || !strings.HasPrefix(s[1], "[pbem demo] Harrow Creek") {
				t.Errorf("a mail's subject is %q, the first's %q", s[1], subjects[0][1])
				break
			}
		}
	}
	checkHas(t, "demo output", out,
		"=== Welcome: you play USA",
		"=== Welcome: you play CSA",
		"=== Your move",
		"=== Order rejected", // Taro's scripted typo
		`no unit is called "Starlng"`,
		"=== Referee: ruling needed",
		"=== Game over",
		"The game is over and every participant has the mail saying so.",
		// The boards drawn, inline in the mails.
		"The map is drawn in map-demo-", "shown in the mail (image/png")
	// GCACW: whole game turns by mail, each step of the turn
	// sequence in the log (GCACW 3, 4, 5.1, 5.2).
	checkHas(t, "the game's log", log, " transfer.done ", " initiative.rolled ", " initiative.taken ", " unit.marched ",
		" unit.fatigue_raised ", " leader.activated ", " reorganization.ended ", " turn.begun ", " game.ended ",
		// Taro's assault, which the referee rules by mail.
		" assault.declared ", " referee.pending step=assault ", " strength.lost unit=1OH ", " unit.advanced unit=STAR ",
		// The refereed scenario's victory conditions, which the referee
		// weighs at the end (R24), shown with the ruling.
		" victory.weighed ")
	// Both players' mails, as they received them.
	for _, name := range []string{"Anna", "Taro"} {
		checkHas(t, name+"'s mails", byPlayer[name],
			"=== Welcome: you play",
			"=== Your move",
			"For example, you could send:",
			"\nSince your last mail\n", // MAIL MOVE: what happened since, in the next mail
			"What happened",
			"Dice",
			"Key: ",
			"[attachment: map-demo-",
			"=== Game over")
		checkToldInWords(t, name, byPlayer[name], " for the initiative, ", " begins its march (", "'s fatigue rises from 0 to 1",
			"Turn 2 of 3 begins", "The scenario's victory conditions, which the referee weighed: ", "The game is over, ")
		checkHas(t, name+"'s mails", strings.Join(strings.Fields(byPlayer[name]), " "),
			"victory: the referee decides the result after turn 3, weighing the scenario's conditions: Ashford 1007 3 VP")
	}
}

// rawFact is a fact as pbem log writes it ("unit.marched unit=LYLE"),
// which players' mails never show.
var rawFact = regexp.MustCompile(`(^|\s)[a-z_]+\.[a-z_]+ [a-z_]+=|(^|\s)[a-z_]+=\S`)

// checkToldInWords checks every "What happened" section of a player's
// mails tells its facts in words, and that some GCACW sentences are
// among them.
func checkToldInWords(t *testing.T, name, mails string, wants ...string) {
	t.Helper()
	var told strings.Builder
	for _, sec := range strings.Split(mails, "\nWhat happened\n")[1:] {
		sec, _, _ = strings.Cut(sec, "\nDice\n")
		if l := rawFact.FindString(sec); l != "" {
			t.Errorf("%s's mail tells a fact raw (%q):\n%s", name, l, sec)
			return
		}
		told.WriteString(strings.Join(strings.Fields(sec), " ") + "\n")
	}
	checkHas(t, name+"'s \"What happened\"", told.String(), wants...)
}

// demoAloneArgs is the demo of GCACW without a referee, with the ASCII
// boards alone.
var demoAloneArgs = []string{"--no-referee", "--images", "off", "--max-orders", "600", "--timeout", "8m"}

// Two scripted players and no referee play a whole game of
// GCACW by mail, over the built-in SMTP and IMAP servers: 'pbem demo
// --no-referee' plays Harrow Creek as shipped, whose house rules play the
// Reorganization Phase (R14), the Cavalry Retreat (R9) and victory (R24);
// the cavalry's owner is asked by mail (GCACW 5.1.2), and no mail ever
// waits for a referee.
func TestDemoWithoutARefereePlaysToTheEnd(t *testing.T) {
	t.Parallel() // playedDemo takes a CPU slot while it plays
	// The drawn boards are shown by the demo above; this whole game, run
	// for its rules, is played with the ASCII boards alone (the game's
	// images setting), which keeps the suite's time down under -race.
	out, log, byPlayer := playedDemo(t, demoAloneArgs...)
	if strings.Contains(out, "shown in the mail (image/png") {
		t.Error("a mail carries a drawn board with the images setting off")
	}
	checkHas(t, "demo output", out,
		"Taro CSA, alone: no referee",
		"=== Welcome: you play USA",
		"=== Game over",
		"The game is over and every participant has the mail saying so.")
	for _, bad := range []string{"=== mail to Referee", "=== Referee", "Waiting for the referee"} {
		if strings.Contains(out, bad) {
			t.Errorf("a game without a referee shows %q", bad)
		}
	}
	checkHas(t, "the game's log", log, " transfer.done ", " cavalry_retreat.asked ", " reorganization.ended ", " turn.begun ",
		" victory.counted ", " game.ended ",
		// Taro's assault, resolved by the SAMPLE combat table.
		" assault.declared ", " assault.rolled ")
	for _, name := range []string{"Anna", "Taro"} {
		checkHas(t, name+"'s mails", byPlayer[name], "No step is left to a referee: two players can finish this game alone.",
			"Readings of the rules", "=== Game over")
		checkToldInWords(t, name, byPlayer[name], "'s march waits: ", " may retreat ", "Turn 2 of 3 begins",
			"Victory points: USA ", "The game is over, ")
	}
	// The 1st Ohio Squadron starts next to Starling: whichever marches
	// first, the other's owner gets a your-move mail asking.
	if !strings.Contains(byPlayer["Anna"]+byPlayer["Taro"], "next to your cavalry") {
		t.Error("no player was asked about a Cavalry Retreat by mail")
	}
}
