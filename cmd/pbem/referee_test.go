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
	"pbem/internal/dovecottest"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// Referees by mail: a game whose mailbox is Dovecot, players and a referee
// on a mail host of their own, everyone writing from an ordinary mail
// client (here: IMAP to read, an APPEND to the game mailbox to send).

// mailGame is a running game and its participants' mailboxes.
type mailGame struct {
	t      *testing.T
	dc     *dovecottest.Server
	env    []string
	dir    string
	people map[string]*demo.Mailbox
	last   map[string]demo.Mail // the newest mail each has read
	n      int
	// answered are the mails (by Message-ID) a player has answered.
	answered map[string]bool
}

// mailWait is how long a mail game's participant waits for a mail pbem
// owes them before the test fails: a bound reached only when something
// is wrong, so generous enough for a loaded two-core machine running the
// suite in parallel with -race.
const mailWait = 90 * time.Second

func newMailGame(t *testing.T, settings ...string) *mailGame {
	t.Helper()
	return newMailGameWith(t, true, settings...)
}

// newMailGameWith is newMailGame, with or without the referee Carol.
func newMailGameWith(t *testing.T, referee bool, settings ...string) *mailGame {
	t.Helper()
	dc := dovecottest.Start(t)
	host, err := mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	env := []string{"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_RATE_PER_HOUR=10000", "PBEM_ENGINE_CLOCK=100ms", "PBEM_MAIL_AUTHSERV_ID=" + testAuthservID,
		"PBEM_MAIL_IMAP_ADDR=" + dc.Addr, "PBEM_MAIL_IMAP_USERNAME=" + dovecottest.User, "PBEM_MAIL_IMAP_PASSWORD=" + dovecottest.Password,
		"PBEM_MAIL_SMTP_ADDR=" + host.SMTPAddr()}
	dir := t.TempDir()
	args := []string{"--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro",
		"--mail", "every"} // a mail for every action: these tests follow each one
	if referee {
		args = append(args, "--referee", "carol:carol@players.test:Carol")
	}
	for _, s := range settings {
		args = append(args, "--set", s)
	}
	if out, errOut, code := pbem(t, env, args...); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	g := &mailGame{t: t, dc: dc, env: env, dir: dir, people: servetest.Mailboxes(t, host, "anna", "taro", "carol", "mallory", "bob", "kim", "dana"), last: map[string]demo.Mail{}}
	return g
}

// next waits for who's next mail whose kind (its first line: the subject
// is the game's, the same for every mail) has want.
func (g *mailGame) next(who, want string) demo.Mail {
	g.t.Helper()
	return g.nextWhere(who, fmt.Sprintf("with %q on its first line", want), func(m demo.Mail) bool {
		return strings.Contains(strings.ToLower(m.Kind), strings.ToLower(want))
	})
}

// nextWhere waits for who's next mail that is as what says.
func (g *mailGame) nextWhere(who, what string, is func(demo.Mail) bool) demo.Mail {
	g.t.Helper()
	p := g.people[who]
	var got demo.Mail
	if waitfor.True(mailWait, func() bool {
		ms, err := p.FetchNew()
		if err != nil {
			g.t.Fatal(err)
		}
		for _, m := range ms {
			g.last[who] = m
			if is(m) {
				got = m
				return true
			}
		}
		return false
	}) {
		return got
	}
	g.t.Fatalf("%s got no mail %s", who, what)
	return demo.Mail{}
}

// send writes a mail from who to the game, answering m (its Reply-To).
func (g *mailGame) send(from string, m demo.Mail, body string) {
	g.t.Helper()
	g.n++
	raw := hostResult(from+"@players.test") + fmt.Sprintf("From: %s <%s@players.test>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s-%d@players.test>\r\nIn-Reply-To: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n> %s\r\n",
		from, from, m.ReplyTo, m.Subject, from, g.n, m.MessageID, strings.ReplaceAll(body, "\n", "\r\n"), m.Subject)
	c := g.dc.Dial(g.t, nil)
	defer c.Close()
	cmd := c.Append("INBOX", int64(len(raw)), nil)
	cmd.Write([]byte(raw))
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		g.t.Fatal(err)
	}
}

// newMailTo is m's reply address without m: a new mail written to the
// game, answering no mail of it.
func newMailTo(m demo.Mail) demo.Mail {
	m.MessageID = ""
	return m
}

// newest reads who's new mails and returns the newest mail they have.
func (g *mailGame) newest(who string) demo.Mail {
	g.t.Helper()
	ms, err := g.people[who].FetchNew()
	if err != nil {
		g.t.Fatal(err)
	}
	if len(ms) > 0 {
		g.last[who] = ms[len(ms)-1]
	}
	return g.last[who]
}

// actions plays n actions by mail: each time, a player whose newest mail
// offers orders (and is not answered yet) answers with its first example.
func (g *mailGame) actions(n int) {
	g.t.Helper()
	if g.answered == nil {
		g.answered = map[string]bool{}
	}
	for i := 0; i < n; i++ {
		sent := waitfor.True(mailWait, func() bool {
			for _, who := range []string{"anna", "taro"} {
				m := g.newest(who)
				if ex := demo.Offered(m.Body); len(ex) > 0 && !g.answered[m.MessageID] {
					g.answered[m.MessageID] = true
					g.send(who, m, ex[0])
					return true
				}
			}
			return false
		})
		if !sent {
			g.t.Fatalf("action %d: no player was asked to move", i+1)
		}
	}
	// Wait until the last action is decided: someone is asked again.
	waitfor.Until(g.t, mailWait, "the last action to be answered with a new move", func() bool {
		for _, who := range []string{"anna", "taro"} {
			if m := g.newest(who); len(demo.Offered(m.Body)) > 0 && !g.answered[m.MessageID] {
				return true
			}
		}
		return false
	})
}

func (g *mailGame) pbem(args ...string) string {
	g.t.Helper()
	out, errOut, code := pbem(g.t, g.env, append([]string{"--data-dir", g.dir}, args...)...)
	if code != 0 {
		g.t.Fatalf("pbem %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return out
}

func (g *mailGame) head() int {
	g.t.Helper()
	out := g.pbem("games")
	m := regexp.MustCompile(`(?m)^g1\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		g.t.Fatalf("games: %s", out)
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// boardOf is the board part of 'pbem replay' (after the heading lines).
func boardOf(replay string) string {
	_, b, _ := strings.Cut(replay, "\n\n")
	return b
}

func TestRefereeCorrectsAUnitAndRollsBackTwoActionsByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t)
	// What is tested is what the referee and the players are told of a correction and a rollback (content): served on contentBin.
	srv := startServeContent(t, g.dir, g.env...)
	defer stopServe(t, srv)

	// The referee's welcome carries the secret; the players' do not.
	welcome := g.next("carol", "welcome")
	secret := regexp.MustCompile(`(?m)^    Secret: ([a-z2-7]+)$`).FindStringSubmatch(welcome.Body)
	if secret == nil {
		t.Fatalf("the referee's welcome has no secret:\n%s", welcome.Body)
	}
	for _, p := range []string{"anna", "taro"} {
		if w := g.next(p, "welcome"); strings.Contains(w.Body, "Secret:") {
			t.Fatalf("%s's welcome shows a referee secret", p)
		}
	}

	// Four actions by mail.
	g.actions(4)

	// The referee corrects a unit, saying why.
	g.send("carol", welcome, "SET Lyle FATIGUE 3\nReason: Lyle force-marched off the map edge last turn\nSecret: "+secret[1])
	for _, p := range []string{"anna", "taro"} {
		m := g.next(p, "referee changed the game")
		for _, want := range []string{"Carol (referee) changed the game", "Reason: Lyle force-marched off the map edge last turn", "SET Lyle fatigue"} {
			if !strings.Contains(m.Body, want) {
				t.Errorf("%s's mail lacks %q:\n%s", p, want, m.Body)
			}
		}
		if strings.Contains(m.Body, secret[1]) {
			t.Errorf("%s's mail shows the referee's secret", p)
		}
	}
	if log := g.pbem("log", "g1"); !strings.Contains(log, "reason: Lyle force-marched") || strings.Contains(log, secret[1]) {
		t.Fatalf("the log should name the reason and never the secret:\n%s", tail(log, 40))
	}

	// Two more actions, then the referee rolls them back.
	before := g.pbem("replay", "g1")
	g.actions(2)
	branchEnd := g.head()
	// A new mail to the game (not a reply to an older one): a count in it
	// is from the game as it is now.
	g.send("carol", newMailTo(welcome), "ROLLBACK 2 ACTIONS\nReason: Anna's mail was sent to the wrong game\nSecret: "+secret[1])
	for _, p := range []string{"anna", "taro"} {
		m := g.next(p, "referee changed the game")
		body := strings.Join(strings.Fields(m.Body), " ") // the echo is wrapped
		if !strings.Contains(body, "ROLLBACK to seq") || !strings.Contains(body, "2 actions undone") || !strings.Contains(body, "Reason: Anna's mail was sent to the wrong game") {
			t.Errorf("%s's rollback mail:\n%s", p, m.Body)
		}
	}
	// The game is as it was before the two actions, and the replay shows
	// both the game now and the closed branch.
	if got := g.pbem("replay", "g1"); boardOf(got) != boardOf(before) {
		t.Fatalf("after the rollback the board differs from before the two actions:\n%s\n----\n%s", got, before)
	}
	inBranch := g.pbem("replay", "g1", "--at", fmt.Sprint(branchEnd))
	if !strings.Contains(inBranch, "lies in a closed branch") || boardOf(inBranch) == boardOf(before) {
		t.Fatalf("replay inside the closed branch:\n%s", inBranch)
	}
	log := g.pbem("log", "g1")
	if !strings.Contains(log, "a closed branch, rolled back at seq") || !strings.Contains(log, "end of the closed branch") {
		t.Fatalf("the log does not show the closed branch:\n%s", tail(log, 60))
	}

	// Impostors: the referee's address with a wrong secret, and a stranger
	// with the referee's reply address and the right secret. Neither
	// changes anything. The first is answered, to the referee's registered
	// address; the stranger is quarantined and hears nothing.
	before = boardOf(g.pbem("replay", "g1"))
	g.send("carol", welcome, "SET Lyle STRENGTH 1\nSecret: aaaaaaaaaaaaaaaaaaaaaaaa")
	g.send("mallory", welcome, "ROLLBACK 1 ACTION\nSecret: "+secret[1])
	if m := g.next("carol", "your mail was not applied: its Secret line is wrong"); !strings.Contains(squeezed(m.Body), "was not applied") {
		t.Fatalf("the referee's answer:\n%s", m.Body)
	}
	var q string
	waitfor.True(20*time.Second, func() bool { // if not, the check below shows the quarantine
		q = g.pbem("quarantine")
		return strings.Contains(q, "mallory@players.test is not registered")
	})
	if !strings.Contains(q, "mallory@players.test is not registered") || strings.Contains(q, "carol@players.test") {
		t.Fatalf("quarantine:\n%s", q)
	}
	if after := boardOf(g.pbem("replay", "g1")); after != before {
		t.Fatalf("an impostor's command changed the game:\n%s\n----\n%s", after, before)
	}
	if log := g.pbem("log", "g1"); strings.Contains(log, "aaaaaaaaaaaaaaaaaaaaaaaa") || strings.Contains(log, "from mallory") {
		t.Fatalf("the wrong secret or the stranger's mail reached the log:\n%s", tail(log, 30))
	}
	if ms, _ := g.people["mallory"].FetchNew(); len(ms) != 0 {
		t.Fatalf("the stranger got %d mails", len(ms))
	}

	// The audit re-decides everything, the correction and the rollback
	// included, with no difference.
	audit := g.pbem("audit", "g1")
	for _, want := range []string{"intact", "re-decided alike", "2 referee override(s) (1 rollback(s))", "OVERRIDE seq", "[closed branch: rolled back at seq"} {
		if !strings.Contains(audit, want) {
			t.Errorf("audit lacks %q:\n%s", want, tail(audit, 40))
		}
	}
}

func TestDeadlinePassesAppliesTheDefaultAndMailsBothPlayers(t *testing.T) {
	t.Parallel()
	g := newMailGame(t, "deadline=1h", "reminder=30m", "at-deadline=PASS")
	srv, forward := startServeClocked(t, g.dir, g.env...)
	g.next("anna", "welcome")
	g.next("taro", "welcome")
	// Anna sends nothing: first a reminder, then the deadline passes and
	// PASS is applied in her name; both players hear of it.
	forward(31 * time.Minute)
	rem := g.next("anna", "reminder")
	if !strings.Contains(rem.Body, "If none come by then, this order is applied for you: PASS") {
		t.Fatalf("reminder:\n%s", rem.Body)
	}
	forward(30 * time.Minute)
	passed := g.next("anna", "report")
	for _, want := range []string{"Your deadline passed", "The default order was applied: PASS"} {
		if !strings.Contains(passed.Body, want) {
			t.Errorf("Anna's mail lacks %q:\n%s", want, passed.Body)
		}
	}
	m := g.next("taro", "your move")
	if !strings.Contains(m.Body, "The deadline of Anna (USA) passed") {
		t.Errorf("Taro's mail:\n%s", m.Body)
	}
	at := fmt.Sprint(g.head())
	live := g.pbem("replay", "g1", "--at", at)
	stopServe(t, srv)
	// Replayed later, with no server and no clock, the game is the same
	// (but for the log's length, which the outbox kept growing).
	of := regexp.MustCompile(` of \d+,`)
	if later := g.pbem("replay", "g1", "--at", at); of.ReplaceAllString(later, "") != of.ReplaceAllString(live, "") {
		t.Fatalf("replay differs after the server stopped:\n%s\n----\n%s", live, later)
	}
	if log := g.pbem("log", "g1"); !strings.Contains(log, "deadline.passed/v1") {
		t.Fatalf("log:\n%s", tail(log, 30))
	}
	if audit := g.pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
		t.Fatalf("audit:\n%s", audit)
	}
}

// In Harrow Creek both sides first transfer leaders at once, so both
// deadlines pass in the same tick: each player's default is applied once,
// in their name, and every mail says so without contradiction; nobody is
// given a fresh deadline for it.
func TestTwoDeadlinesPassingTogetherEachApplyTheDefaultByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t, "deadline=1h", "at-deadline=PASS")
	srv, forward := startServeClocked(t, g.dir, g.env...)
	defer stopServe(t, srv)
	g.welcomesOnly()
	at := forward(time.Hour)
	g.until("both deadlines passed and were decided", func() bool {
		return g.count("deadline.passed/v1") == 2 && !strings.Contains(g.pbem("games"), "not yet decided")
	})
	// What each has been told of the two deadlines (the next are an hour
	// away): two mails each, and no stray one.
	told := map[string][]demo.Mail{}
	heard := func() bool {
		for _, who := range []string{"anna", "taro", "carol"} {
			n := 0
			for _, m := range told[who] {
				if strings.Contains(squeezed(m.Body), "passed without orders") {
					n++
				}
			}
			if n < 2 {
				return false
			}
		}
		return true
	}
	fetch := func() {
		for _, who := range []string{"anna", "taro", "carol"} {
			ms, err := g.people[who].FetchNew()
			if err != nil {
				t.Fatal(err)
			}
			told[who] = append(told[who], ms...)
		}
	}
	waitfor.True(mailWait, func() bool { fetch(); return heard() })
	// Any stray mail: the clock applied, every mail queued sent, one
	// more look.
	g.tick(at)
	g.drained()
	fetch()
	other := map[string]string{"anna": "Taro (CSA)", "taro": "Anna (USA)"}
	for _, who := range []string{"anna", "taro", "carol"} {
		own, of := 0, map[string]int{}
		for _, m := range told[who] {
			body := squeezed(m.Body)
			if strings.Contains(body, "no longer applies") || strings.Contains(body, "nothing applied") {
				t.Errorf("%s was told a deadline no longer applies:\n%s", who, m.Body)
			}
			if strings.Contains(body, "Your deadline passed") {
				own++
				bodyHas(t, who+"'s mail", body, "The default order was applied: PASS")
			}
			for _, p := range []string{"Anna (USA)", "Taro (CSA)"} {
				if strings.Contains(body, "The deadline of "+p+" passed") {
					of[p]++
					bodyHas(t, who+"'s mail", body, "The default order was applied: PASS")
				}
			}
		}
		switch who {
		case "carol":
			if of["Anna (USA)"] != 1 || of["Taro (CSA)"] != 1 {
				t.Errorf("the referee was told of the deadlines passing %v times, want once each", of)
			}
		default:
			if own != 1 || of[other[who]] != 1 {
				t.Errorf("%s was told of their own deadline passing %d times and of %s's %d times, want once each",
					who, own, other[who], of[other[who]])
			}
		}
	}
	if n := g.count("deadline.passed/v1"); n != 2 {
		t.Fatalf("%d deadlines passed, want 2", n)
	}
	if audit := g.pbem("audit", "g1"); !strings.Contains(audit, "re-decided alike") {
		t.Fatalf("audit:\n%s", audit)
	}
}

// An ABSENCE sent once the deadline has passed, inside its grace, says
// so: that deadline keeps its default, and the absence's start, asked in
// the past, is moved to now.
func TestAbsenceAfterTheDeadlineSaysItsDefaultStillAppliesByMail(t *testing.T) {
	t.Parallel()
	g := newMailGame(t, "deadline=1h", "grace=1h", "at-deadline=PASS")
	srv, forward := startServeClocked(t, g.dir, g.env...)
	defer stopServe(t, srv)
	g.next("carol", "welcome")
	welcome := g.next("anna", "welcome")
	g.next("taro", "welcome")
	forward(time.Hour + time.Minute) // past Anna's deadline, inside its grace
	now := time.Now().UTC()
	g.send("anna", welcome, fmt.Sprintf("ABSENCE %s %s", now.AddDate(0, 0, -1).Format("2006-01-02"), now.AddDate(0, 0, 3).Format("2006-01-02")))
	m := g.nextWith("anna", "ABSENCE: anna is away")
	body := squeezed(m.Body)
	bodyHas(t, "Anna's answer", body, "the absence starts now,", "an absence is never backdated",
		"anna's deadline of", "has passed and is in its grace until",
		"the absence does not move it, and its default still applies: PASS",
		"deadlines anna is given before")
	if strings.Contains(body, "stand still meanwhile") {
		t.Errorf("Anna's answer says her deadlines stand still:\n%s", m.Body)
	}
	for _, l := range strings.Split(m.Body, "\n") {
		if len(l) > 78 {
			t.Errorf("a line of %d columns: %q", len(l), l)
		}
	}
}
