package bench

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"pbem/internal/mailclient"
	"pbem/mail/mailhost"
)

// mailFigures are mailTakeover's measurements.
type mailFigures struct {
	First, All time.Duration // a killed node's games' first and last reply
	// A healthy game's reply time: all nodes up (the median of three),
	// then with another node stopped (SIGSTOP), then killed (SIGKILL),
	// each time with an order to that node's game mailed just before.
	Normal, Paused, Dead time.Duration
}

// mailTakeover measures, end to end, the time from a node's death to its
// games answering mail again: 'pbem serve' nodes run as processes (exe)
// on the NATS cluster at urls, all reading one game mailbox on a mail
// host in this process. One node (the victim) owns every game; it is
// killed with SIGKILL, and at once one order is mailed to each game; the
// figures are the time until the first game's player has the reply to
// it, and until every game's has. Then, with a third node started, it
// measures how long a healthy game (of one survivor) takes to answer
// with all nodes up, and while the other survivor is stopped and then
// dead, an order to that survivor's game mailed first each time: that
// order waits for its game's takeover, the healthy game's must not.
func mailTakeover(exe string, urls []string, dir string, games int, lease time.Duration) (f mailFigures, err error) {
	host, err := mailhost.Start(mailhost.Config{Domain: "bench.invalid", OpenDelivery: true})
	if err != nil {
		return f, err
	}
	defer host.Close()
	users := []string{"pbem"}
	for g := range games {
		users = append(users, fmt.Sprintf("a%d", g), fmt.Sprintf("b%d", g))
	}
	for _, u := range users {
		if err := host.AddUser(u, "pw"); err != nil {
			return f, err
		}
	}
	env := append(os.Environ(), "PBEM_NATS_URLS="+strings.Join(urls, ","), "PBEM_CLUSTER_LEASE="+lease.String(),
		"PBEM_MAIL_DOMAIN=bench.invalid", "PBEM_MAIL_RATE_PER_HOUR=100000", "PBEM_LOG_LEVEL=warn",
		// Orders come through an open host that writes no login: taken as they are.
		"PBEM_MAIL_SENDER_AUTH=lenient",
		"PBEM_MAIL_IMAP_ADDR="+host.IMAPAddr(), "PBEM_MAIL_IMAP_USERNAME=pbem", "PBEM_MAIL_IMAP_PASSWORD=pw",
		"PBEM_MAIL_SMTP_ADDR="+host.SMTPAddr(), "PBEM_MAIL_SMTP_USERNAME=pbem", "PBEM_MAIL_SMTP_PASSWORD=pw")
	tag := fmt.Sprintf("%x", time.Now().UnixNano())
	var procs []*exec.Cmd
	var logs []*bytes.Buffer
	// nodeLogs is the nodes' warnings and errors, for a failure's message.
	nodeLogs := func() string {
		var b strings.Builder
		for i, l := range logs {
			fmt.Fprintf(&b, "\n--- node %d:\n%s", i, tail(l.String(), 15))
		}
		return b.String()
	}
	defer func() {
		for _, p := range procs {
			if p.ProcessState == nil {
				p.Process.Kill()
				p.Wait()
			}
		}
	}()
	start := func(name string) (*exec.Cmd, string, error) {
		d := filepath.Join(dir, name)
		cmd := exec.Command(exe, "--data-dir", d, "serve", "--node", name+"-"+tag)
		cmd.Env = env
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			return nil, "", err
		}
		procs = append(procs, cmd)
		logs = append(logs, &errOut)
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if c, err := net.Dial("unix", filepath.Join(d, "pbem.sock")); err == nil {
				c.Close()
				return cmd, d, nil
			}
			if time.Now().After(deadline) {
				return nil, "", fmt.Errorf("node %s did not start: %s", name, errOut.String())
			}
		}
	}
	victim, vdir, err := start("victim")
	if err != nil {
		return f, err
	}
	// The victim is the only node: every new game goes to it.
	for g := range games {
		out, err := exec.Command(exe, "--data-dir", vdir, "new", "--game", fmt.Sprintf("g%d-%s", g, tag), "--ruleset", "gcacw",
			"--scenario", "harrow-creek", "--player", fmt.Sprintf("a%d:USA:a%d@bench.invalid:A", g, g),
			"--player", fmt.Sprintf("b%d:CSA:b%d@bench.invalid:B", g, g)).CombinedOutput()
		if err != nil {
			return f, fmt.Errorf("new game: %v: %s", err, out)
		}
	}
	for _, n := range []string{"survivor1", "survivor2"} {
		if _, _, err := start(n); err != nil {
			return f, err
		}
	}
	// Every game's reply address, from its welcome mail.
	to := make([]string, games)
	for g := range games {
		re := regexp.MustCompile(`pbem\+g` + fmt.Sprint(g) + `-` + tag + `\.a` + fmt.Sprint(g) + `\.[a-z2-7]{16}@bench\.invalid`)
		for deadline := time.Now().Add(2 * time.Minute); to[g] == ""; time.Sleep(100 * time.Millisecond) {
			for _, m := range mailclient.Inbox(host.IMAPAddr(), fmt.Sprintf("a%d", g), "pw") {
				if a := re.Find(m); a != nil {
					to[g] = string(a)
				}
			}
			if to[g] == "" && time.Now().After(deadline) {
				return f, fmt.Errorf("no welcome mail for game %d", g)
			}
		}
	}
	victim.Process.Signal(syscall.SIGKILL)
	victim.Wait()
	died := time.Now()
	for g := range games {
		if err := mailclient.Order(host.SMTPAddr(), fmt.Sprintf("a%d@bench.invalid", g), to[g], fmt.Sprintf("after-death-%d-%s", g, tag), "STATUS"); err != nil {
			return f, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*lease+2*time.Minute)
	defer cancel()
	answered := make([]bool, games)
	for left := games; left > 0; time.Sleep(100 * time.Millisecond) {
		for g := range games {
			if answered[g] {
				continue
			}
			for _, m := range mailclient.Inbox(host.IMAPAddr(), fmt.Sprintf("a%d", g), "pw") {
				if bytes.Contains(m, []byte(fmt.Sprintf("<after-death-%d-%s@", g, tag))) {
					answered[g] = true
					left--
					if f.First == 0 {
						f.First = time.Since(died)
					}
					break
				}
			}
		}
		if ctx.Err() != nil {
			return f, fmt.Errorf("%d of %d games did not answer mail within %v of their node's death%s", left, games, time.Since(died).Round(time.Second), nodeLogs())
		}
	}
	f.All = time.Since(died)

	// A healthy game beside a dead or stopped node. A third node joins,
	// so that one node stays healthy while another is stopped, then
	// killed; the healthy game is one of the other survivor's.
	if _, _, err := start("spare"); err != nil {
		return f, err
	}
	// owners reads every game's owner, as survivor1 sees them.
	owners := func() (map[int]string, error) {
		out, err := exec.Command(exe, "--data-dir", filepath.Join(dir, "survivor1"), "games").CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("games: %v: %s", err, out)
		}
		owner := map[int]string{}
		for _, m := range benchOwnerRE.FindAllStringSubmatch(string(out), -1) {
			var g int
			if _, err := fmt.Sscanf(m[1], "g%d-", &g); err == nil {
				owner[g] = m[2]
			}
		}
		return owner, nil
	}
	// The faulty node is game 0's owner; the healthy game one of another
	// node's (one is moved to the other survivor if none is).
	healthy, faulty, faultyNode := -1, 0, ""
	for deadline := time.Now().Add(2 * time.Minute); healthy < 0; time.Sleep(time.Second) {
		owner, err := owners()
		if err != nil {
			return f, err
		}
		faultyNode = owner[0]
		for g := 1; g < games; g++ {
			if o := owner[g]; o != "" && o != faultyNode {
				healthy = g
			}
		}
		if healthy >= 0 {
			break
		}
		if time.Now().After(deadline) || games < 2 {
			return f, fmt.Errorf("no game of another node than %s beside it (owners %v)", faultyNode, owner)
		}
		other := "survivor1"
		if faultyNode == "survivor1-"+tag {
			other = "survivor2"
		}
		exec.Command(exe, "--data-dir", filepath.Join(dir, other), "move", fmt.Sprintf("g%d-%s", games-1, tag), "--to", other+"-"+tag).Run()
	}
	var victimProc *exec.Cmd
	for i, name := range []string{"victim", "survivor1", "survivor2"} {
		if faultyNode == name+"-"+tag {
			victimProc = procs[i]
		}
	}
	if victimProc == nil {
		return f, fmt.Errorf("game 0's owner %q is not a survivor", faultyNode)
	}
	// reply mails an order to game g and waits for its reply.
	n := 0
	reply := func(g int, within time.Duration) (time.Duration, error) {
		n++
		id := fmt.Sprintf("probe-%d-%d-%s", g, n, tag)
		sent := time.Now()
		if err := mailclient.Order(host.SMTPAddr(), fmt.Sprintf("a%d@bench.invalid", g), to[g], id, "STATUS"); err != nil {
			return 0, err
		}
		return waitReply(host.IMAPAddr(), fmt.Sprintf("a%d", g), id, sent, within)
	}
	var normal []time.Duration
	for range 3 {
		d, err := reply(healthy, 2*time.Minute)
		if err != nil {
			return f, fmt.Errorf("all nodes up: %w%s", err, nodeLogs())
		}
		normal = append(normal, d)
	}
	sort.Slice(normal, func(i, j int) bool { return normal[i] < normal[j] })
	f.Normal = normal[len(normal)/2]
	beside := func(sig syscall.Signal) (time.Duration, error) {
		if err := mailclient.Order(host.SMTPAddr(), fmt.Sprintf("a%d@bench.invalid", faulty), to[faulty], fmt.Sprintf("faulty-%d-%s", sig, tag), "STATUS"); err != nil {
			return 0, err
		}
		return reply(healthy, 10*lease+2*time.Minute)
	}
	s1 := victimProc
	s1.Process.Signal(syscall.SIGSTOP)
	f.Paused, err = beside(syscall.SIGSTOP)
	s1.Process.Signal(syscall.SIGCONT)
	if err != nil {
		return f, fmt.Errorf("beside a stopped node: %w%s", err, nodeLogs())
	}
	s1.Process.Signal(syscall.SIGKILL)
	s1.Wait()
	if f.Dead, err = beside(syscall.SIGKILL); err != nil {
		return f, fmt.Errorf("beside a dead node: %w%s", err, nodeLogs())
	}
	// The orders to the stopped, then dead node's game are answered too.
	for _, sig := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGKILL} {
		id := fmt.Sprintf("faulty-%d-%s", sig, tag)
		if _, err := waitReply(host.IMAPAddr(), fmt.Sprintf("a%d", faulty), id, time.Now(), 10*lease+2*time.Minute); err != nil {
			return f, fmt.Errorf("the faulty node's game: %w%s", err, nodeLogs())
		}
	}
	return f, nil
}

var benchOwnerRE = regexp.MustCompile(`(?m)^\s+(\S+)\s+owner (\S+)\s+epoch`)

// waitReply waits until user's inbox on the IMAP server at addr holds
// the reply to the order mail id, sent at sent, and returns how long
// after sent it was seen.
func waitReply(addr, user, id string, sent time.Time, within time.Duration) (time.Duration, error) {
	for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
		for _, m := range mailclient.Inbox(addr, user, "pw") {
			if bytes.Contains(m, []byte("<"+id+"@")) {
				return time.Since(sent), nil
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no reply to %s within %v", id, within)
		}
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
