package intake

import (
	"crypto/ed25519"
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// TestWhoSentItTable checks the README's table "Who sent it" row by row
// (the rows carry the README's names): what each result means, and what
// each mode does with it. anna@example.org and anna@work.example are the
// player's addresses; work.example is added to the user signers as a
// club whose server lets no user send as another.
func TestWhoSentItTable(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup := func(string) ([]string, error) { return []string{rec}, nil }
	const (
		applied = "order.received"
		held    = "order.held mail.queued"
		refused = "mail.refused mail.queued"
	)
	anna := func(from, extra string) []byte {
		return mail(from, reply("usa"), "x", "<w1@x>", extra, "PASS\n")
	}
	host := func(envelopeFrom, results, extra string) []byte {
		return envelope(envelopeFrom, []byte("Authentication-Results: "+testServID+"; "+results+"\r\n"+string(anna("anna@example.org", extra))))
	}
	broken := strings.Replace(string(sign(t, key, "example.org", anna("anna@example.org", ""))), "PASS", "TRANSFER Hale TO Lyle", 1)
	tests := []struct {
		row                      string
		raw                      []byte
		confirm, strict, lenient string
	}{
		{"host login", host("anna@example.org", "auth=pass smtp.auth=anna@example.org", ""), applied, applied, applied},
		{"host login, another envelope", host("eve@evil.example", "auth=pass smtp.auth=anna@example.org", ""), held, refused, applied},
		{"host login of another user", host("anna@example.org", "auth=pass smtp.auth=bob@example.org", ""), held, refused, applied},
		{"spf pass for From", host("anna@example.org", "spf=pass smtp.mailfrom=anna@example.org", ""), applied, applied, applied},
		{"spf pass for From's domain, envelope From", host("anna@example.org", "spf=pass smtp.mailfrom=example.org", ""), applied, applied, applied},
		{"spf pass for another user", host("bob@example.org", "spf=pass smtp.mailfrom=bob@example.org", ""), held, refused, applied},
		{"dkim of a user signer", envelope("anna@work.example", signAs(t, key, "work.example", "", anna("anna@work.example", ""))), applied, applied, applied},
		{"dkim naming the address", envelope("anna@example.org", signAs(t, key, "example.org", "anna@example.org", anna("anna@example.org", ""))), applied, applied, applied},
		{"dkim for the domain only", envelope("anna@example.org", sign(t, key, "example.org", anna("anna@example.org", ""))), held, refused, applied},
		{"dmarc pass for the domain only", host("anna@example.org", "dkim=pass header.d=example.org; dmarc=pass header.from=example.org", ""), held, refused, applied},
		{"dmarc pass, envelope another user", host("bob@example.org", "spf=pass smtp.mailfrom=bob@example.org; dkim=pass header.d=example.org; dmarc=pass header.from=example.org", ""), held, refused, applied},
		{"envelope agrees, nothing else", envelope("anna@example.org", anna("anna@example.org", "")), held, refused, applied},
		{"envelope differs", envelope("eve@evil.example", anna("anna@example.org", "")), held, refused, applied},
		{"sender differs", host("anna@example.org", "auth=pass smtp.auth=anna@example.org", "Sender: eve@evil.example\r\n"), held, refused, applied},
		{"dmarc fail", host("anna@example.org", "spf=pass smtp.mailfrom=example.org; dmarc=fail header.from=example.org", ""), held, refused, applied},
		{"dkim of From does not verify", envelope("anna@example.org", []byte(broken)), held, refused, applied},
		{"another host's pass", envelope("anna@example.org", []byte("Authentication-Results: mx.evil.example; auth=pass smtp.auth=anna@example.org\r\n"+string(anna("anna@example.org", "")))), held, refused, applied},
	}
	for _, tc := range tests {
		for _, m := range []struct{ mode, want string }{{ModeConfirm, tc.confirm}, {ModeStrict, tc.strict}, {ModeLenient, tc.lenient}} {
			t.Run(tc.row+"/"+m.mode, func(t *testing.T) {
				st := newGame(t)
				in := newAuthIntake(st, &clock{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, Config{Senders: AuthConfig{
					Mode: m.mode, LookupTXT: lookup, UserSigners: append(append([]string{}, DefaultUserSigners...), "work.example")}})
				take(t, in, tc.raw)
				if _, types := logged(t, st); types != m.want {
					t.Fatalf("%q, want %q", types, m.want)
				}
			})
		}
	}
}
