//go:build linux

package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/demo"
	"pbem/demo/servetest"
	"pbem/internal/waitfor"
)

// Referee, player and observer commands by mail, against a live 'pbem
// serve' whose mailbox is Dovecot, as referees, players and observers use
// it: deadlines and their defaults, pauses, an operator and players
// without a referee, answers to every mail, seats that change hands,
// rollbacks, messages and the referee's desk.

func secretOf(t *testing.T, welcome demo.Mail) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^    Secret: ([a-z2-7]+)$`).FindStringSubmatch(welcome.Body)
	if m == nil {
		t.Fatalf("the referee's welcome has no secret:\n%s", welcome.Body)
	}
	return m[1]
}

// nextWith waits for who's next mail whose body has want (the body's
// lines joined, as the text is wrapped).
func (g *mailGame) nextWith(who, want string) demo.Mail {
	g.t.Helper()
	return g.nextWhere(who, fmt.Sprintf("saying %q", want), func(m demo.Mail) bool { return strings.Contains(squeezed(m.Body), want) })
}

// quiet checks that who has no mail with want on its first line (its
// kind), or in its body when want starts with "body:": once every mail
// the server has queued so far is sent, one look at the mailbox shows
// all it was sent. What the server does next (its clock) is in the log
// by then when the test has applied it (tick).
func (g *mailGame) quiet(who, want string) {
	g.t.Helper()
	g.drained()
	ms, err := g.people[who].FetchNew()
	if err != nil {
		g.t.Fatal(err)
	}
	for _, m := range ms {
		g.last[who] = m
		if w, body := strings.CutPrefix(want, "body:"); body && strings.Contains(squeezed(m.Body), w) || !body && strings.Contains(strings.ToLower(m.Kind), strings.ToLower(want)) {
			g.t.Fatalf("%s got a mail with %q:\n%s\n%s", who, want, m.Kind, m.Body)
		}
	}
}

// drained waits until every mail queued in the game's log is sent (or
// failed for good): the mail host has every mail pbem meant to send.
func (g *mailGame) drained() {
	g.t.Helper()
	var log string
	if !waitfor.True(mailWait, func() bool { log = g.pbem("log", "g1"); return servetest.OutboxDrained(log) }) {
		g.t.Fatalf("mails queued are not all sent:\n%s", tail(log, 20))
	}
}

// tick applies the server's clock (pbem tick) once it shows at least at
// (what forward returned; the zero time: as it is), and returns when
// what the time meant for the game is decided and its mails queued.
func (g *mailGame) tick(at time.Time) {
	g.t.Helper()
	clock := regexp.MustCompile(`The clock \((\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC\)`)
	var out string
	if !waitfor.True(mailWait, func() bool {
		out = g.pbem("tick")
		m := clock.FindStringSubmatch(out)
		if m == nil {
			g.t.Fatalf("pbem tick says:\n%s", out)
		}
		now, err := time.Parse("2006-01-02 15:04:05", m[1])
		return err == nil && !now.Before(at.UTC().Truncate(time.Second))
	}) {
		g.t.Fatalf("the server's clock did not reach %v: %s", at.UTC(), out)
	}
}

func squeezed(s string) string { return strings.Join(strings.Fields(s), " ") }

// bodyHas checks that text has each of wants, showing text if not.
func bodyHas(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// welcomes reads the three welcomes and plays on until one player alone
// must act (in Harrow Creek both sides first transfer leaders at once),
// and says who that is, as the referee's desk (pbem games) shows it.
func (g *mailGame) welcomes() (secret, mover, idle string, refWelcome demo.Mail) {
	g.t.Helper()
	secret, refWelcome = g.welcomesOnly()
	mover, idle = g.soleMover()
	return secret, mover, idle, refWelcome
}

// welcomesOnly reads the three welcomes.
func (g *mailGame) welcomesOnly() (secret string, refWelcome demo.Mail) {
	g.t.Helper()
	refWelcome = g.next("carol", "welcome")
	g.next("anna", "welcome")
	g.next("taro", "welcome")
	return secretOf(g.t, refWelcome), refWelcome
}

// soleMover plays on until one player alone must act, once every mail
// sent so far is decided, and says who.
func (g *mailGame) soleMover() (mover, idle string) {
	g.t.Helper()
	one := regexp.MustCompile(`(?m)^    (?:USA|CSA) \((anna|taro)\) to move$`)
	for i := 0; i < 6; i++ {
		var desk string
		g.until("every mail sent is decided", func() bool {
			log := g.pbem("log", "g1")
			desk = g.pbem("games")
			return strings.Count(log, "order.received/")+strings.Count(log, "referee.command/") == g.n && !strings.Contains(desk, "not yet decided")
		})
		if m := one.FindStringSubmatch(desk); m != nil {
			mover, idle = m[1], "taro"
			if mover == "taro" {
				idle = "anna"
			}
			// Read the mail that asks the mover, so that what follows is new.
			g.newest("anna")
			g.newest("taro")
			return mover, idle
		}
		g.actions(1)
	}
	g.t.Fatalf("no single player to move:\n%s", g.pbem("games"))
	return
}

// command sends the referee's command (with the secret) and returns the
// referee's own mail about it: applied or rejected.
func (g *mailGame) command(welcome demo.Mail, secret, text string) demo.Mail {
	g.t.Helper()
	g.send("carol", welcome, text+"\nSecret: "+secret)
	return g.next("carol", "ruling")
}

// until waits for cond, saying what it waited for if it never holds.
func (g *mailGame) until(what string, cond func() bool) {
	g.t.Helper()
	waitfor.Until(g.t, mailWait, what, cond)
}

func (g *mailGame) count(what string) int {
	g.t.Helper()
	return strings.Count(g.pbem("log", "g1"), what)
}

func TestDeadlinesByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t)
	srv, forward := startServeClocked(t, g.dir, g.env...)
	defer stopServe(t, srv)
	secret, mover, idle, welcome := g.welcomes()

	// DEADLINE ALL gives a deadline to the player who must act only;
	// the echo says so, and at the deadline the default is applied for
	// that player alone.
	g.command(welcome, secret, "SETTING at-deadline PASS\nDEADLINE ALL 1h")
	m := g.next(idle, "referee changed the game")
	bodyHas(t, idle+"'s mail", squeezed(m.Body), "no deadline for "+idle+", not to act now", "orders due")
	at := forward(time.Hour)
	passed := g.nextWith(mover, "Your deadline passed without orders from you: they were due")
	bodyHas(t, mover+"'s mail", passed.Body, "The default order was applied: PASS")
	other := g.nextWith(idle, "passed without orders: they were due")
	if strings.Contains(other.Body, "Your deadline passed") {
		t.Fatalf("%s, not to act, was told their deadline passed:\n%s", idle, other.Body)
	}
	g.tick(at)
	g.quiet(idle, "body:Your deadline passed")
	if n := g.count("deadline.passed/v1"); n != 1 {
		t.Fatalf("%d deadlines passed, want 1", n)
	}

	// A deadline policy; the player to move is told their deadline.
	g.command(welcome, secret, "SETTING deadline 1d")
	g.actions(1)
	for _, who := range []string{"anna", "taro"} {
		if m := g.last[who]; len(demo.Offered(m.Body)) > 0 && !strings.Contains(squeezed(m.Body), "Answer by") {
			t.Fatalf("%s's 'your move' does not state the deadline:\n%s", who, m.Body)
		}
	}

	// Deadline none clears the running deadlines: no reminder, no
	// default applied.
	g.command(welcome, secret, "SETTING deadline 2h\nSETTING reminder 1h")
	m = g.command(welcome, secret, "SETTING deadline none")
	bodyHas(t, "the echo", squeezed(m.Body), "deadline cleared")
	passedBefore := g.count("deadline.passed/v1")
	g.tick(forward(3 * time.Hour)) // past the reminder and the deadline, were they not cleared
	for _, who := range []string{"anna", "taro"} {
		g.quiet(who, "reminder:")
	}
	if n := g.count("deadline.passed/v1"); n != passedBefore {
		t.Fatalf("a cleared deadline passed: %d → %d", passedBefore, n)
	}
	if audit := g.pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
		t.Fatalf("audit:\n%s", audit)
	}
}

func TestPausesAndResumesByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t, "deadline=1h", "pause-max=10m")
	srv, forward := startServeClocked(t, g.dir, g.env...)
	defer stopServe(t, srv)
	secret, welcome := g.welcomesOnly()
	forward(time.Hour)

	// The deadline passes (the referee decides); the referee pauses
	// and resumes: the deadline that passed does not pass again.
	// (Both sides transfer leaders first, so both deadlines pass.)
	g.next("carol", "referee: deadline passed")
	g.until("both deadlines passed", func() bool { return g.count("deadline.passed/v1") == 2 })
	passed := g.count("deadline.passed/v1")
	g.command(welcome, secret, "PAUSE lunch")
	g.command(welcome, secret, "RESUME")
	g.tick(time.Time{})
	g.quiet("carol", "deadline passed")
	if n := g.count("deadline.passed/v1"); n != passed || passed != 2 {
		t.Fatalf("%d deadline.passed after RESUME, %d before", n, passed)
	}

	// The players pause, each with a reason; the pause says when it
	// ends, and ends by itself after pause-max.
	g.send("anna", g.newest("anna"), "PAUSE family visit")
	g.nextWith("taro", "USA asks to pause the game")
	g.send("taro", g.newest("taro"), "PAUSE exams")
	m := g.nextWith("anna", "every side asked; the game is paused")
	bodyHas(t, "the pause", squeezed(m.Body), "USA: family visit; CSA: exams", "it ends by itself")
	if st := g.pbem("games"); !strings.Contains(st, "paused by the players") {
		t.Fatalf("pbem games:\n%s", st)
	}
	forward(10 * time.Minute)
	g.nextWith("anna", "The players' pause ran out")
	g.nextWith("taro", "The players' pause ran out")
	if n := g.count("pause.expired/v1"); n != 1 {
		t.Fatalf("%d pause.expired, want 1", n)
	}
}

func TestTheOperatorAndThePlayersOfAGameWithoutReferee(t *testing.T) {
	t.Parallel()
	g := newMailGameWith(t, false, "pause-max=none")
	// What is tested is what the operator and the players are told (content): served on contentBin.
	srv := startServeContent(t, g.dir, g.env...)
	defer stopServe(t, srv)
	g.next("anna", "welcome")
	g.next("taro", "welcome")
	// Both pause, one resumes: the game would stay paused for good.
	g.send("anna", g.newest("anna"), "PAUSE")
	g.nextWith("taro", "USA asks to pause the game")
	g.send("taro", g.newest("taro"), "PAUSE")
	g.nextWith("anna", "the game is paused")
	g.send("taro", g.newest("taro"), "RESUME")
	g.nextWith("anna", "CSA asks to resume the game")
	// The operator, on the server, with the flags after the game.
	out, errOut, code := pbem(t, g.env, "--data-dir", g.dir, "referee", "g1", "RESUME", "--as", "operator", "--reason", "stuck")
	if code != 0 || !strings.Contains(out, "accepted:") || !strings.Contains(out, "RESUME: the game resumes") {
		t.Fatalf("operator's RESUME: %d\n%s\n%s", code, out, errOut)
	}
	bodyHas(t, "Anna's mail", squeezed(g.nextWith("anna", "the operator changed the game").Body), "Reason: stuck")
	// A command the engine refuses says so, and why.
	out, _, code = pbem(t, g.env, "--data-dir", g.dir, "referee", "--as", "operator", "g1", "RESUME")
	if code == 0 || !strings.Contains(out, "rejected; nothing of it was applied") || !strings.Contains(out, "the game is not paused") {
		t.Fatalf("a refused RESUME: %d\n%s", code, out)
	}
	// Every player asks, by mail, for a referee; she is welcomed
	// with her secret, and commands the game with it.
	g.send("anna", g.newest("anna"), "REFEREE ADD dana@players.test NAME Dana")
	g.nextWith("taro", "REFEREE ADD dana@players.test NAME Dana")
	g.send("taro", g.newest("taro"), "referee add dana@players.test name Dana")
	w := g.next("dana", "welcome: you referee")
	bodyHas(t, "Dana's welcome", w.Body, "You join game g1", "Secret: ")
	g.send("dana", w, "ANNOUNCE Welcome to our game.\nSecret: "+secretOf(t, w))
	g.next("anna", "announcement from the referee")
}

func TestAnswersSeatsRollbacksAndTheDeskByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t)
	// What is tested is what the referee's commands answer (content): served on contentBin.
	srv := startServeContent(t, g.dir, g.env...)
	defer stopServe(t, srv)
	secret, welcome := g.welcomesOnly()

	// A referee's mail without its Secret line is answered, to the
	// referee's registered address, and nothing is applied.
	g.send("carol", welcome, "PAUSE")
	m := g.next("carol", "your mail was not applied: it has no Secret line")
	bodyHas(t, "the answer", squeezed(m.Body), `"Secret: …"`)
	if strings.Contains(g.pbem("games"), "\n    paused ") {
		t.Fatal("a PAUSE without a secret paused the game")
	}

	// The referee's desk, by mail and on the server; LOG by mail.
	g.send("carol", welcome, "GAMES")
	m = g.next("carol", "your games")
	bodyHas(t, "GAMES", squeezed(m.Body), "g1 gcacw harrow-creek", "to move")
	if out := g.pbem("games"); !strings.Contains(out, "1 game(s)") || !strings.Contains(out, "to move") {
		t.Fatalf("pbem games:\n%s", out)
	}
	g.actions(2)
	g.send("taro", g.newest("taro"), "LOG 5")
	bodyHas(t, "Taro's LOG", squeezed(g.next("taro", "log").Body), "The last 5 actions of game g1", "→ accepted")

	// A rollback, then a rollback into the closed branch: refused,
	// saying why.
	branchEnd := g.head()
	g.command(newMailTo(welcome), secret, "ROLLBACK 1 ACTION")
	m = g.command(welcome, secret, fmt.Sprintf("ROLLBACK TO %d", branchEnd))
	bodyHas(t, "the refusal", squeezed(m.Body), fmt.Sprintf("seq %d lies in a closed branch", branchEnd))

	// A player's message reaches the referees only; the referee's
	// answer that player only.
	g.send("taro", g.newest("taro"), "REFEREE May I cross at the mill?")
	bodyHas(t, "the message", g.next("carol", "message from Taro (CSA)").Body, "May I cross at the mill?")
	g.quiet("anna", "body:May I cross")
	g.send("carol", welcome, "MESSAGE taro Yes.\nSecret: "+secret)
	g.next("taro", "message from Carol (referee)")
	g.next("carol", "your message was sent")

	// An observer's reply gets a short answer.
	g.command(welcome, secret, "OBSERVER ADD kim@players.test")
	obs := g.next("kim", "the referee changed the game")
	g.send("kim", obs, "Go Anna!")
	bodyHas(t, "the observer's answer", squeezed(g.next("kim", "pbem takes no orders from observers").Body), "carol@players.test")

	// REPLACE gives the seat a new key: Bob is welcomed with it,
	// Anna is told, and her old reply address no longer works, from her
	// or from Bob.
	annaOld := g.newest("anna")
	g.command(welcome, secret, "REPLACE anna WITH bob@players.test NAME Bob")
	bw := g.next("bob", "welcome: you play USA")
	bodyHas(t, "Bob's welcome", squeezed(bw.Body), "You take over a seat in game g1 from Anna")
	bodyHas(t, "Anna's notice", squeezed(g.next("anna", "your seat has changed hands").Body), "no longer work")
	if bw.ReplyTo == annaOld.ReplyTo {
		t.Fatalf("Bob's Reply-To is Anna's: %s", bw.ReplyTo)
	}
	g.send("anna", annaOld, "STATUS")
	g.send("bob", annaOld, "STATUS")
	g.send("bob", bw, "STATUS")
	bodyHas(t, "Bob's status", g.next("bob", "status").Body, "You play    USA")
	var q string
	waitfor.True(20*time.Second, func() bool { // if not, the check below shows the quarantine
		q = g.pbem("quarantine")
		return strings.Count(q, "reply token does not match") == 2
	})
	if strings.Count(q, "reply token does not match") != 2 {
		t.Fatalf("the old key still works:\n%s", q)
	}
	if audit := g.pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
		t.Fatalf("audit:\n%s", audit)
	}
}

func TestAnAtDeadlineThatIsNoOrderIsRefusedAtNew(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost", "--player", "taro:CSA:taro@pbem.localhost", "--referee", "carol:carol@pbem.localhost",
		"--set", "deadline=1d", "--set", "at-deadline=FOO")
	if code != 1 || !strings.Contains(errOut, `at-deadline "FOO" is not an order USA could send`) {
		t.Fatalf("pbem new with at-deadline FOO: %d\n%s\n%s", code, out, errOut)
	}
	if out, _, _ := pbem(t, nil, "--data-dir", dir, "games"); !strings.Contains(out, "no games yet") {
		t.Fatalf("the game was created:\n%s", out)
	}
}
