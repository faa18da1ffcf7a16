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
	"strings"
	"syscall"
	"time"

	"pbem/internal/mailclient"
	"pbem/mail/mailhost"
)

// mailTakeover measures, end to end, the time from a node's death to its
// games answering mail again: 'pbem serve' nodes run as processes (exe)
// on the NATS cluster at urls, all reading one game mailbox on a mail
// host in this process. One node (the victim) owns every game; it is
// killed with SIGKILL, and at once one order is mailed to each game; the
// figures are the time until the first game's player has the reply to
// it, and until every game's has.
func mailTakeover(exe string, urls []string, dir string, games int, lease time.Duration) (first, all time.Duration, err error) {
	host, err := mailhost.Start(mailhost.Config{Domain: "bench.invalid", OpenDelivery: true})
	if err != nil {
		return 0, 0, err
	}
	defer host.Close()
	users := []string{"pbem"}
	for g := range games {
		users = append(users, fmt.Sprintf("a%d", g), fmt.Sprintf("b%d", g))
	}
	for _, u := range users {
		if err := host.AddUser(u, "pw"); err != nil {
			return 0, 0, err
		}
	}
	env := append(os.Environ(), "PBEM_NATS_URLS="+strings.Join(urls, ","), "PBEM_CLUSTER_LEASE="+lease.String(),
		"PBEM_MAIL_DOMAIN=bench.invalid", "PBEM_MAIL_RATE_PER_HOUR=100000", "PBEM_LOG_LEVEL=warn",
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
		return 0, 0, err
	}
	// The victim is the only node: every new game goes to it.
	for g := range games {
		out, err := exec.Command(exe, "--data-dir", vdir, "new", "--game", fmt.Sprintf("g%d-%s", g, tag), "--ruleset", "gcacw",
			"--scenario", "harrow-creek", "--player", fmt.Sprintf("a%d:USA:a%d@bench.invalid:A", g, g),
			"--player", fmt.Sprintf("b%d:CSA:b%d@bench.invalid:B", g, g)).CombinedOutput()
		if err != nil {
			return 0, 0, fmt.Errorf("new game: %v: %s", err, out)
		}
	}
	for _, n := range []string{"survivor1", "survivor2"} {
		if _, _, err := start(n); err != nil {
			return 0, 0, err
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
				return 0, 0, fmt.Errorf("no welcome mail for game %d", g)
			}
		}
	}
	victim.Process.Signal(syscall.SIGKILL)
	victim.Wait()
	died := time.Now()
	for g := range games {
		if err := mailclient.Order(host.SMTPAddr(), fmt.Sprintf("a%d@bench.invalid", g), to[g], fmt.Sprintf("after-death-%d-%s", g, tag), "STATUS"); err != nil {
			return 0, 0, err
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
					if first == 0 {
						first = time.Since(died)
					}
					break
				}
			}
		}
		if ctx.Err() != nil {
			return first, 0, fmt.Errorf("%d of %d games did not answer mail within %v of their node's death%s", left, games, time.Since(died).Round(time.Second), nodeLogs())
		}
	}
	return first, time.Since(died), nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
