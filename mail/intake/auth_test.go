package intake

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"pbem/events"
	"pbem/mail/token"
	"pbem/store"
)

// notices renders notices as the composer would, minus the templates:
// enough to see what a player is told, and where it goes.
type notices struct{}

func (notices) Notice(game string, n Notice, seq uint64) (*events.MailQueued, error) {
	return &events.MailQueued{MailID: fmt.Sprintf("<%s.%d@%s>", game, seq, domain), To: n.To, Subject: n.Title, Template: "notice",
		InReplyTo: n.InReplyTo, References: n.References,
		Body: n.What + "\n" + strings.Join(n.Quote, "\n") + "\n" + n.Code + "\n" + n.Do + "\n"}, nil
}

// clock is a settable intake clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newAuthIntake(st *store.Store, c *clock, cfg Config) *Intake {
	cfg.Local, cfg.Domain, cfg.Secret, cfg.Now, cfg.Notifier = "pbem", domain, secret, c.now, notices{}
	if cfg.RateBurst == 0 {
		cfg.RateBurst = 100
	}
	if cfg.Senders.ServID == "" {
		cfg.Senders.ServID = testServID
	}
	return New(cfg, st)
}

// testServID is the authserv-id of the receiving host in these tests.
const testServID = "mx.pbem.test"

// own is a player's own mail from addr as the receiving host delivers it
// after the player logged in to send it: the envelope and the host's
// Authentication-Results name addr.
func own(addr string, raw []byte) []byte {
	return envelope(addr, []byte("Authentication-Results: "+testServID+"; auth=pass smtp.auth="+addr+"\r\n"+string(raw)))
}

// envelope is a mail as the receiving host delivers it: Return-Path (the
// envelope sender) on top.
func envelope(returnPath string, raw []byte) []byte {
	return append([]byte("Return-Path: <"+returnPath+">\r\n"), raw...)
}

// logged returns the game's events after creation, decoded, with their types.
func logged(t *testing.T, st *store.Store) ([]events.Payload, string) {
	t.Helper()
	es, err := st.Events("g1", 2)
	if err != nil {
		t.Fatal(err)
	}
	var ps []events.Payload
	var types []string
	for i := range es {
		p, err := events.Decode(&es[i])
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
		types = append(types, strings.TrimSuffix(strings.TrimSuffix(es[i].Type, "/v1"), "/v2"))
	}
	return ps, strings.Join(types, " ")
}

func take(t *testing.T, in *Intake, raw []byte) {
	t.Helper()
	if err := in.Take(raw, "", store.Checkpoint{}); err != nil {
		t.Fatal(err)
	}
}

// Eve's mail with anna's From and anna's reply address
// (a forwarded mail leaks it) is not applied; the confirmation goes to
// anna's registered addresses, never to eve, and anna's answer with the
// code applies the order once.
func TestForgedEnvelopeIsHeldUntilTheRegisteredAddressConfirms(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{})
	forged := envelope("eve@evil.example", mail("Anna <anna@example.org>", reply("usa"), "Re: [pbem g1] Harrow Creek", "<f1@evil.example>",
		"Sender: eve@evil.example\r\n", "TRANSFER Hale TO Lyle\n"))
	take(t, in, forged)
	ps, types := logged(t, st)
	if types != "order.held mail.queued" {
		t.Fatalf("the forged mail became %q", types)
	}
	held := ps[0].(*events.OrderHeld)
	mq := ps[1].(*events.MailQueued)
	code := token.ConfirmCode(secret, "g1", "usa", "<f1@evil.example>")
	if held.Text != "TRANSFER Hale TO Lyle\n" || held.Sender != "eve@evil.example" || !strings.Contains(held.Reason, "envelope sender eve@evil.example") {
		t.Fatalf("held %+v", held)
	}
	if strings.Join(mq.To, ",") != "anna@example.org,anna@work.example" || !strings.Contains(mq.Body, "CONFIRM "+code) || !strings.Contains(mq.Body, "TRANSFER Hale TO Lyle") {
		t.Fatalf("the confirmation went to %v:\n%s", mq.To, mq.Body)
	}
	if raw, ok, _ := st.Raw("g1", 2); !ok || !bytes.Equal(raw, forged) {
		t.Fatal("the held mail is not kept as evidence")
	}

	// A guess, or the code sent to another mail, confirms nothing.
	c.t = c.t.Add(time.Hour)
	take(t, in, mail("anna@example.org", reply("usa"), "Re: Please confirm", "<c0@x>", "", "CONFIRM aaaa-bbbb\n"))
	_, types = logged(t, st)
	if types != "order.held mail.queued mail.refused mail.queued" {
		t.Fatalf("a wrong code: %q", types)
	}
	// Anna answers with the code, quoting the confirmation mail.
	take(t, in, mail("Anna <anna@example.org>", reply("usa"), "Re: Please confirm", "<c1@x>", "", "CONFIRM "+strings.ToUpper(code)+"\n\n> "+mq.Body))
	ps, types = logged(t, st)
	if types != "order.held mail.queued mail.refused mail.queued order.confirmed order.received" {
		t.Fatalf("after the confirmation: %q", types)
	}
	or := ps[5].(*events.OrderReceived)
	if or.Text != held.Text || or.MessageID != "<f1@evil.example>" || !strings.HasPrefix(or.Auth, "confirmed by code") || ps[4].(*events.OrderConfirmed).Held != 2 {
		t.Fatalf("the confirmed order: %+v %+v", or, ps[4])
	}
	// The code works once.
	take(t, in, mail("anna@example.org", reply("usa"), "Re: Please confirm", "<c2@x>", "", "CONFIRM "+code+"\n"))
	ps, types = logged(t, st)
	if !strings.HasSuffix(types, "order.received mail.refused mail.queued") || !strings.Contains(ps[len(ps)-1].(*events.MailQueued).Body, "confirmed and applied before") {
		t.Fatalf("a second confirmation: %q", types)
	}
}

func TestAHeldOrderExpires(t *testing.T) {
	st := newGame(t)
	c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	in := newAuthIntake(st, c, Config{Senders: AuthConfig{ConfirmWithin: 2 * time.Hour}})
	take(t, in, envelope("eve@evil.example", mail("anna@example.org", reply("usa"), "x", "<f1@x>", "", "PASS\n")))
	c.t = c.t.Add(3 * time.Hour)
	take(t, in, mail("anna@example.org", reply("usa"), "Re: x", "<c1@x>", "", "CONFIRM "+token.ConfirmCode(secret, "g1", "usa", "<f1@x>")+"\n"))
	ps, types := logged(t, st)
	if types != "order.held mail.queued mail.refused mail.queued" || !strings.Contains(ps[3].(*events.MailQueued).Body, "that time has passed") {
		t.Fatalf("a late confirmation: %q", types)
	}
}

func TestSenderAuthModes(t *testing.T) {
	forged := envelope("eve@evil.example", mail("anna@example.org", reply("usa"), "x", "<f1@x>", "", "PASS\n"))
	matching := envelope("anna@example.org", mail("anna@example.org", reply("usa"), "x", "<a1@x>", "", "PASS\n"))
	bounceAddr := envelope("anna+bounces=x@example.org", mail("anna@example.org", reply("usa"), "x", "<a2@x>", "", "PASS\n"))
	signedIn := own("anna@example.org", mail("anna@example.org", reply("usa"), "x", "<a3@x>", "", "PASS\n"))
	tests := []struct {
		mode  string
		raw   []byte
		types string
	}{
		{"confirm", forged, "order.held mail.queued"},
		// An envelope that agrees with From names nobody: anyone can write
		// it.
		{"confirm", matching, "order.held mail.queued"},
		{"confirm", bounceAddr, "order.held mail.queued"},
		{"confirm", signedIn, "order.received"},
		{"strict", signedIn, "order.received"},
		{"lenient", forged, "order.received"},
		{"strict", forged, "mail.refused mail.queued"},
		{"strict", matching, "mail.refused mail.queued"},
	}
	for _, tc := range tests {
		t.Run(tc.mode+" "+string(tc.raw[14:40]), func(t *testing.T) {
			st := newGame(t)
			c := &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
			// The game's setting overrides the server's default.
			in := newAuthIntake(st, c, Config{Senders: AuthConfig{Mode: ModeLenient}, Roster: func(string) (Seats, error) {
				gc, err := (&Intake{log: st, games: map[string]*events.GameCreated{}}).game("g1")
				if err != nil {
					return Seats{}, err
				}
				return Seats{Players: gc.Players, Referees: gc.Referees, Settings: []events.Setting{{Key: SettingSenderAuth, Value: tc.mode}}}, nil
			}})
			take(t, in, tc.raw)
			ps, types := logged(t, st)
			if types != tc.types {
				t.Fatalf("%s mode: %q, want %q", tc.mode, types, tc.types)
			}
			if tc.mode == "strict" && tc.types != "order.received" {
				if r := ps[0].(*events.MailRefused); r.Kind != events.RefusedUnauthorised || !strings.Contains(ps[1].(*events.MailQueued).Body, "only mail whose sender can be authenticated") {
					t.Fatalf("strict refusal: %+v", r)
				}
			}
		})
	}
}

// dkimKey is a signing key for example.org and the DNS record of it.
func dkimKey(t *testing.T) (ed25519.PrivateKey, func(string) ([]string, error)) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	return priv, func(domain string) ([]string, error) {
		if domain == "sel._domainkey.example.org" {
			return []string{rec}, nil
		}
		return nil, fmt.Errorf("no TXT for %s", domain)
	}
}

func sign(t *testing.T, key ed25519.PrivateKey, d string, raw []byte) []byte {
	t.Helper()
	return signAs(t, key, d, "", raw)
}

// signAs signs raw for the domain d on behalf of the user i (i=; "" for
// none, which means the domain).
func signAs(t *testing.T, key ed25519.PrivateKey, d, i string, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: d, Identifier: i, Selector: "sel", Signer: key}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A DKIM signature aligned with From authenticates a
// mail whatever its envelope; a signature of another domain, or one that
// no longer verifies, does not.
func TestDKIMAlignedWithFromAuthenticates(t *testing.T) {
	key, lookup := dkimKey(t)
	base := mail("anna@example.org", reply("usa"), "x", "<d1@x>", "", "PASS\n")
	signed := sign(t, key, "example.org", base)
	tampered := bytes.Replace(signed, []byte("PASS"), []byte("TRANSFER Hale TO Lyle"), 1)
	other := sign(t, key, "evil.example", base)
	tests := []struct {
		name, types, auth string
		raw               []byte
	}{
		{"signed by the From domain for anna, forwarded by eve", "order.received", "dkim anna@example.org", envelope("eve@evil.example", signAs(t, key, "example.org", "anna@example.org", base))},
		// A domain's signature names no user of it: any could have sent it.
		{"signed by the From domain only, forwarded by eve", "order.held mail.queued", "", envelope("eve@evil.example", signed)},
		{"signed by the From domain only, the envelope agrees", "order.held mail.queued", "", envelope("anna@example.org", signed)},
		{"altered after signing", "order.held mail.queued", "", envelope("eve@evil.example", tampered)},
		{"signed by another domain", "order.held mail.queued", "", envelope("eve@evil.example", other)},
		// A signature of the From domain that fails is a forgery or an
		// alteration, whatever the envelope says.
		{"altered, the envelope forged too", "order.held mail.queued", "", envelope("anna@example.org", tampered)},
		{"no signature, the envelope agrees", "order.held mail.queued", "", envelope("anna@example.org", base)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			in := newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{Senders: AuthConfig{LookupTXT: lookup}})
			take(t, in, tc.raw)
			ps, types := logged(t, st)
			if types != tc.types {
				t.Fatalf("%q, want %q", types, tc.types)
			}
			if or, ok := ps[0].(*events.OrderReceived); ok && or.Auth != tc.auth {
				t.Fatalf("auth %q, want %q", or.Auth, tc.auth)
			}
			if h, ok := ps[0].(*events.OrderHeld); ok && !strings.Contains(h.Reason, "DKIM signature") {
				t.Fatalf("held for %q", h.Reason)
			}
		})
	}
}

// Authentication-Results count only from the configured
// receiving host, and only its topmost field: one a sender wrote further
// down, even with the host's id, is not trusted.
func TestAuthenticationResultsOnlyFromTheConfiguredHost(t *testing.T) {
	forgedBy := func(ar ...string) []byte {
		h := ""
		for _, v := range ar {
			h += "Authentication-Results: " + v + "\r\n"
		}
		return envelope("eve@evil.example", []byte(h+string(mail("anna@example.org", reply("usa"), "x", "<a@x>", "", "PASS\n"))))
	}
	tests := []struct {
		name, types, auth string
		raw               []byte
	}{
		{"dmarc pass from the host", "order.held mail.queued", "",
			forgedBy("mx.pbem.test; dkim=pass (2048-bit key) header.d=example.org header.i=@example.org; dmarc=pass (p=none dis=none) header.from=example.org")},
		{"dkim pass aligned, no dmarc", "order.held mail.queued", "", forgedBy("mx.pbem.test; spf=fail smtp.mailfrom=evil.example; dkim=pass header.d=example.org")},
		{"dkim pass of another domain", "order.held mail.queued", "", forgedBy("mx.pbem.test; dkim=pass header.d=evil.example; dmarc=fail header.from=example.org")},
		{"another host's pass", "order.held mail.queued", "", forgedBy("mx.evil.example; dmarc=pass header.from=example.org")},
		{"a pass below the host's own fail", "order.held mail.queued", "",
			forgedBy("mx.pbem.test; dmarc=fail header.from=example.org", "mx.pbem.test; dmarc=pass header.from=example.org")},
	}
	// The host's dmarc=fail holds a mail whose envelope was forged to
	// agree with From; the host's plain none does not.
	agreeing := func(ar string) []byte {
		return envelope("anna@example.org", []byte("Authentication-Results: "+ar+"\r\n"+string(mail("anna@example.org", reply("usa"), "x", "<a@x>", "", "PASS\n"))))
	}
	tests = append(tests,
		struct {
			name, types, auth string
			raw               []byte
		}{"dmarc fail, the envelope forged too", "order.held mail.queued", "", agreeing("mx.pbem.test; spf=pass smtp.mailfrom=example.org; dmarc=fail header.from=example.org")},
		struct {
			name, types, auth string
			raw               []byte
		}{"no DKIM, the envelope agrees", "order.held mail.queued", "", agreeing("mx.pbem.test; dkim=none; dmarc=none header.from=example.org")})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newGame(t)
			in := newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{Senders: AuthConfig{ServID: "MX.pbem.test"}})
			take(t, in, tc.raw)
			ps, types := logged(t, st)
			if types != tc.types {
				t.Fatalf("%q, want %q", types, tc.types)
			}
			if or, ok := ps[0].(*events.OrderReceived); ok && or.Auth != tc.auth {
				t.Fatalf("auth %q, want %q", or.Auth, tc.auth)
			}
		})
	}
}
