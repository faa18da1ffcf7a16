//go:build linux

package mailtrust

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"pbem/internal/waitfor"
)

// keyDNS is a DNS server on a loopback address of its own, port 53: it
// notes every question, answers those for the DKIM keys it was given,
// and none else (the key server of a signer that never answers).
type keyDNS struct {
	addr string
	keys map[string]string // a key's DNS name (lower case) → its TXT record
	mu   sync.Mutex
	seen []string // the raw questions
}

func startKeyDNS(t *testing.T, keys map[string]string) *keyDNS {
	t.Helper()
	var conn net.PacketConn
	for range 20 {
		// A resolv.conf names a nameserver without a port: 53, on an
		// address of 127/8 no other test picks.
		n, err := rand.Int(rand.Reader, big.NewInt(250*250))
		if err != nil {
			t.Fatal(err)
		}
		addr := fmt.Sprintf("127.53.%d.%d", 1+n.Int64()/250, 1+n.Int64()%250)
		if conn, err = net.ListenPacket("udp4", addr+":53"); err == nil {
			break
		}
	}
	if conn == nil {
		t.Fatal("no loopback address free for a DNS server on port 53")
	}
	t.Cleanup(func() { conn.Close() })
	d := &keyDNS{addr: conn.LocalAddr().(*net.UDPAddr).IP.String(), keys: keys}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := conn.ReadFrom(buf)
			if err != nil {
				return
			}
			q := append([]byte(nil), buf[:n]...)
			d.mu.Lock()
			d.seen = append(d.seen, string(q))
			d.mu.Unlock()
			if answer := d.answer(q); answer != nil {
				conn.WriteTo(answer, from)
			}
		}
	}()
	return d
}

// answer is the reply to the query q for a TXT record it has, else nil.
func (d *keyDNS) answer(q []byte) []byte {
	if len(q) < 12 {
		return nil
	}
	var labels []string
	i := 12
	for i < len(q) && q[i] != 0 {
		l := int(q[i])
		if i+1+l > len(q) {
			return nil
		}
		labels = append(labels, string(q[i+1:i+1+l]))
		i += 1 + l
	}
	end := i + 5                                     // the root label, QTYPE and QCLASS
	if end > len(q) || q[i+1] != 0 || q[i+2] != 16 { // TXT
		return nil
	}
	txt, ok := d.keys[strings.ToLower(strings.Join(labels, "."))]
	if !ok {
		return nil
	}
	r := append([]byte(nil), q[:2]...)                                     // the query's ID
	r = append(r, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0)                      // a response, recursion available; one question, one answer
	r = append(r, q[12:end]...)                                            // the question
	r = append(r, 0xc0, 12, 0, 16, 0, 1, 0, 0, 1, 0x2c)                    // its name, TXT, IN, TTL 300
	r = append(r, byte((len(txt)+1)>>8), byte(len(txt)+1), byte(len(txt))) // RDLENGTH, one string
	return append(r, txt...)
}

// asked reports whether a question for a name with label was received.
func (d *keyDNS) asked(label string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, q := range d.seen {
		if strings.Contains(q, label) {
			return true
		}
	}
	return false
}

// resolvConf writes a resolv.conf naming only d.
func (d *keyDNS) resolvConf(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "resolv.conf")
	if err := os.WriteFile(p, []byte("nameserver "+d.addr+"\noptions timeout:5 attempts:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// signed is raw with a DKIM signature of domain by key, on behalf of
// user (if set).
func signed(t *testing.T, key ed25519.PrivateKey, domain, user, raw string) string {
	t.Helper()
	var b bytes.Buffer
	if err := dkim.Sign(&b, strings.NewReader(raw), &dkim.SignOptions{Domain: domain, Selector: "s1", Identifier: user, Signer: key}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func newKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// Mails whose DKIM keys never answer (the signers' DNS server on
// loopback takes the questions and answers none) do not hold up another
// game's mail: bob's order to g2, sent right after four such mails to
// g1, is answered within one key lookup's time limit (2 s) of how soon
// it is answered with none in the way, measured in the same run. The
// players are asked about the mails in their names in words (the
// signature could not be checked), never with the resolver's address or
// a Go error, in lines of at most 78 columns.
//
// Both where pbem checks every mail's signatures (no mail.authserv_id)
// and where mail.authserv_id is set but the slow mails came without the
// host's field (a host that writes none, which the operator is warned
// of): pbem checks their signatures itself.
func TestSlowDKIMKeysDoNotDelayAnotherGamesReply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		authservID bool
	}{
		{"pbem checks every signature", false},
		{"the host's field is missing on the slow mails", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			slowDKIMKeys(t, tc.authservID)
		})
	}
}

func slowDKIMKeys(t *testing.T, authservID bool) {
	// The players' provider signs their mail (its key is on the DNS
	// server); the slow signers' keys are not.
	players := newKey(t)
	dns := startKeyDNS(t, map[string]string{"s1._domainkey.players.test": "v=DKIM1; k=ed25519; p=" +
		base64.StdEncoding.EncodeToString(players.Public().(ed25519.PublicKey))})
	w := newRaceWorld(t, 100, "bob", "dan")
	if !authservID {
		// No receiving host's field: pbem checks DKIM signatures itself.
		w.Env = slices.DeleteFunc(w.Env, func(e string) bool { return strings.HasPrefix(e, "PBEM_MAIL_AUTHSERV_ID=") })
	}
	w.Pbem("new", "--game", "g2", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "bob:USA:bob@players.test:Bob", "--player", "dan:CSA:dan@players.test:Dan", "--mail", "every")
	w.Serve(dns.resolvConf(t))
	welcomes := map[string]gotMail{"anna": w.Next("anna", "Welcome: you play USA"), "taro": w.Next("taro", "Welcome: you play CSA")}
	bobWelcome := w.Next("bob", "Welcome: you play USA")

	// How long bob waits for the answer to a STATUS of his.
	status := func() time.Duration {
		t.Helper()
		mail := signed(t, players, "players.test", "bob@players.test", w.Reply("bob", bobWelcome, "", fmt.Sprintf("STATUS\n# %d", w.N)))
		if authservID {
			w.Send("bob@players.test", bobWelcome.ReplyTo, mail) // the host's field: SPF passes for bob
		} else {
			w.SendWith("", "bob@players.test", bobWelcome.ReplyTo, mail)
		}
		start := time.Now()
		w.Take("bob", "g2", "Status")
		return time.Since(start)
	}
	base := max(status(), status())

	// Four mails in the names of g1's players, two each (fewer than the
	// orders a player may have waiting for confirmation), each signed by
	// a domain whose key server never answers; then bob's order at once.
	for i := 1; i <= 4; i++ {
		who := []string{"anna", "taro"}[i%2]
		w.SendWith("", who+"@players.test", welcomes[who].ReplyTo,
			signed(t, newKey(t), fmt.Sprintf("slow%d.example", i), "", w.Forge(who, welcomes[who], "", fmt.Sprintf("STATUS\n# slow %d", i))))
	}
	slowed := status()
	t.Logf("bob's answer: %v with four slow signatures in the way, %v without", slowed.Round(time.Millisecond), base.Round(time.Millisecond))
	// One key lookup's 2 s, and 2 s for a loaded machine's noise: with a
	// lookup after another, four slow mails cost 8 s.
	if slowed > base+2*time.Second+2*time.Second {
		t.Errorf("bob's answer took %v behind four mails with slow keys, %v without: more than one key lookup's 2 s", slowed, base)
	}

	// The slow signatures were asked for, and the players are asked about
	// each mail in their names in words.
	waitfor.Until(t, 10*time.Second, "the DKIM key questions at the silent DNS server", func() bool {
		for i := 1; i <= 4; i++ {
			if !dns.asked(fmt.Sprintf("slow%d", i)) {
				return false
			}
		}
		return true
	})
	for i := range 4 {
		m := w.Take([]string{"anna", "taro"}[i%2], "g1", "Please confirm your orders")
		s := squeeze(m.Body)
		if !strings.Contains(s, "could not be checked: its key did not answer") {
			t.Errorf("the confirmation request does not say the signature could not be checked:\n%s", m.Body)
		}
		for _, raw := range []string{dns.addr, "lookup", "i/o timeout", "context deadline", "dkim:", "dial udp"} {
			if strings.Contains(m.Body, raw) {
				t.Errorf("the confirmation request quotes a raw error (%q):\n%s", raw, m.Body)
			}
		}
		for _, l := range strings.Split(m.Body, "\n") {
			if n := len([]rune(l)); n > 78 {
				t.Errorf("a line of %d columns in the confirmation request: %q", n, l)
			}
		}
	}
}
