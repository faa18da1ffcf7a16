package intake

import (
	"context"
	"slices"
	"testing"
)

// The keys looked up ahead of a batch are those pbem will check: every
// signature's without mail.authserv_id; with it, only those of a mail
// without the receiving host's field on top (a host that writes none, or
// a field with its id below another's), never of a mail whose results
// the host gave.
func TestPrefetchLooksUpOnlyTheKeysPbemChecks(t *testing.T) {
	const servID = "mx.game.test"
	sig := func(d string) string {
		return "DKIM-Signature: v=1; a=ed25519-sha256; d=" + d + "; s=s1; h=from; bh=x; b=y\r\n"
	}
	host := "Authentication-Results: " + servID + "; spf=pass smtp.mailfrom=anna@example.org\r\n"
	other := "Authentication-Results: relay.example; dkim=pass header.d=example.org\r\n"
	for _, tc := range []struct {
		name, servID, header string
		lookedUp             bool
	}{
		{"no authserv_id", "", host + sig("a.example"), true},
		{"the host's field on top", servID, host + sig("a.example"), false},
		{"the host's field, its id in another case", servID, "Authentication-Results: MX.Game.Test; none\r\n" + sig("a.example"), false},
		{"no field", servID, sig("a.example"), true},
		{"the host's id below another field", servID, other + host + sig("a.example"), true},
		{"no signature", servID, other, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := make(chan string, 4)
			c := newKeyCache(func(ctx context.Context, name string) ([]string, error) {
				asked <- name
				return nil, context.DeadlineExceeded
			}, nil)
			c.prefetch([]byte(tc.header+"From: anna@example.org\r\n\r\nPASS\r\n"), tc.servID)
			c.mu.Lock()
			var names []string
			for n := range c.entries {
				names = append(names, n)
			}
			c.mu.Unlock()
			if want := tc.lookedUp; want != slices.Equal(names, []string{"s1._domainkey.a.example"}) || !want && len(names) > 0 {
				t.Fatalf("looked up %q, want the key looked up: %v", names, want)
			}
			if tc.lookedUp {
				if n := <-asked; n != "s1._domainkey.a.example" {
					t.Fatalf("asked the resolver for %q", n)
				}
			}
		})
	}
}
