package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/internal/waitfor"
)

// servedCampaign is a GCACW campaign whose every assault is fought out
// in Hair Roller Armies' Kettle Run, its result mapped by a table.
const servedCampaign = `scenario Served Fields (sample)
game SSR
turns 2
[map]
hexes 0101 1010
default clear
[units]
USA A "Able" inf XX str=6 tac=3 art=2 at=0505
CSA Y "Yoke" inf XX str=6 tac=2 art=1 at=0504
[leaders]
[battles]
# SAMPLE: a house rule
battle  default  hra  kettle-run  USA=Union  CSA=Confederate
forces  referee
result  winner=attacker  D2/Dr
result  winner=defender  A2
result  winner=draw      A1/D1
`

// pbem serve opens the battle a campaign's assault is fought out in as a
// game of its own, pbem games shows the family, the battle's end goes
// back into the campaign, and pbem verify checks the link: the whole
// path through a running server, its NATS bus and its bbolt file.
func TestLinkedBattleServedByPbemServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scen := filepath.Join(dir, "served-fields.txt")
	if err := os.WriteFile(scen, []byte(servedCampaign), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"PBEM_MAIL_BUILTIN_IMAP=" + freeAddr(t), "PBEM_MAIL_BUILTIN_SMTP=" + freeAddr(t), "PBEM_MAIL_RATE_PER_HOUR=100000"}
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := pbem(t, env, append([]string{"--data-dir", dir}, args...)...)
		if code != 0 {
			t.Fatalf("pbem %v: exit %d\n%s\n%s", args, code, out, errOut)
		}
		return out
	}
	run("new", "--game", "camp", "--ruleset", "gcacw", "--scenario-file", scen,
		"--player", "anna:USA:anna@pbem.localhost:Anna", "--player", "taro:CSA:taro@pbem.localhost:Taro", "--referee", "carol:carol@pbem.localhost:Carol")
	srv := startServe(t, dir, env...)
	defer stopServe(t, srv)
	run("order", "camp", "--player", "anna", "PASS")
	run("order", "camp", "--player", "taro", "PASS")
	// The initiative dice say who acts first: a refused order exits 1,
	// so the other side is tried without failing.
	try := func(args ...string) string {
		t.Helper()
		out, errOut, _ := pbem(t, env, append([]string{"--data-dir", dir}, args...)...)
		return out + errOut
	}
	defender := "taro"
	if out := try("order", "camp", "--player", "anna", "ASSAULT Able ON 0504"); !strings.Contains(out, "accepted:") {
		defender = "anna"
		if out2 := try("order", "camp", "--player", "taro", "ASSAULT Yoke ON 0505"); !strings.Contains(out2, "accepted:") {
			t.Fatalf("neither side could assault:\n%s\n%s", out, out2)
		}
	}
	var battle string
	waitfor.Until(t, 30*time.Second, "pbem games to show the battle", func() bool {
		out := run("games")
		m := regexp.MustCompile(`waits on battle (\S+): the assault on \d{4}, fought out in hra kettle-run`).FindStringSubmatch(out)
		if m == nil || !strings.Contains(out, "battle: the assault on") || !strings.Contains(out, m[1]+" ") {
			return false
		}
		battle = m[1]
		return true
	})
	if out := run("order", battle, "--player", defender, "CONCEDE"); !strings.Contains(out, "accepted:") {
		t.Fatalf("the defender's CONCEDE:\n%s", out)
	}
	waitfor.Until(t, 30*time.Second, "the campaign to take the battle's result", func() bool {
		return !strings.Contains(run("games"), "waits on battle")
	})
	if out := run("verify", "camp"); !strings.Contains(out, "link: battle "+battle+": its final hash") {
		t.Errorf("verify the campaign:\n%s", out)
	}
	if out := run("verify", battle); !strings.Contains(out, "link: campaign camp (battle ") {
		t.Errorf("verify the battle:\n%s", out)
	}
}
