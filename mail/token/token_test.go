package token

import (
	"strings"
	"testing"
)

func TestTokensBindGameAndPlayer(t *testing.T) {
	secret := []byte("server secret")
	tok := Make(secret, "g1", "usa")
	if len(tok) != Len || tok != Make(secret, "g1", "usa") {
		t.Fatalf("token %q", tok)
	}
	tests := []struct {
		name              string
		secret            []byte
		game, player, tok string
		want              bool
	}{
		{"right", secret, "g1", "usa", tok, true},
		{"upper case from a client", secret, "g1", "usa", "K" + tok[1:], tok[0] == 'k'},
		{"other player", secret, "g1", "csa", tok, false},
		{"other game", secret, "g2", "usa", tok, false},
		{"other server", []byte("x"), "g1", "usa", tok, false},
		{"truncated", secret, "g1", "usa", tok[:15], false},
	}
	for _, tc := range tests {
		if got := Valid(tc.secret, tc.game, tc.player, tc.tok); got != tc.want {
			t.Errorf("%s: Valid = %v", tc.name, got)
		}
	}
}

func TestAddressRoundTripAndRejects(t *testing.T) {
	secret := []byte("s")
	a := Address(secret, "pbem", "example.org", "g-1", "usa")
	p, ok := ParseAddress("  "+a+" ", "PBEM", "Example.ORG")
	if !ok || p.Game != "g-1" || p.Player != "usa" || !Valid(secret, p.Game, p.Player, p.Token) {
		t.Fatalf("%s → %+v %v", a, p, ok)
	}
	for _, bad := range []string{"pbem@example.org", "pbem+g1.usa@example.org", "other+g1.usa.abcdefghijklmnop@example.org",
		"pbem+g1.usa.abcdefghijklmnop@evil.org", "pbem+g1.usa.short@example.org", "pbem+a.b.c.abcdefghijklmnop@example.org"} {
		if _, ok := ParseAddress(bad, "pbem", "example.org"); ok {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestKeyLineAndSubjectTag(t *testing.T) {
	if tok, ok := KeyLine("  Key: ABCDEFGHIJKLMNOP "); !ok || tok != "abcdefghijklmnop" {
		t.Fatalf("key line: %q %v", tok, ok)
	}
	if _, ok := KeyLine("Key: abc"); ok {
		t.Fatal("short key accepted")
	}
	if g, ok := SubjectGame("Re: [pbem mill-creek] your move"); !ok || g != "mill-creek" {
		t.Fatalf("subject: %q", g)
	}
	if SubjectTag("g1") != "[pbem g1]" {
		t.Fatal("tag")
	}
}

// A seat that changed hands has a new key and secret; the old ones no
// longer match, and epoch 0 is the key the seat always had.
func TestKeyEpochsRotateTheSeatsKeyAndSecret(t *testing.T) {
	secret := []byte("server secret")
	if MakeAt(secret, "g1", "usa", 0) != Make(secret, "g1", "usa") || RefereeSecretAt(secret, "g1", "ref", 0) != RefereeSecret(secret, "g1", "ref") {
		t.Fatal("epoch 0 is not the seat's first key")
	}
	old, next := Make(secret, "g1", "usa"), MakeAt(secret, "g1", "usa", 1)
	if old == next || ValidAt(secret, "g1", "usa", 1, old) || !ValidAt(secret, "g1", "usa", 1, next) {
		t.Fatalf("epoch 1: %s %s", old, next)
	}
	if ValidRefereeSecretAt(secret, "g1", "ref", 1, RefereeSecret(secret, "g1", "ref")) {
		t.Fatal("the old referee secret works after the seat changed hands")
	}
	p, ok := ParseAddress(AddressAt(secret, "pbem", "x.org", "g1", "usa", 3), "pbem", "x.org")
	if !ok || p.Player != "usa" || !ValidAt(secret, "g1", "usa", 3, p.Token) {
		t.Fatalf("address at epoch 3: %+v", p)
	}
}

func TestConfirmCodeIsBoundToGamePlayerAndMail(t *testing.T) {
	s := []byte("secret")
	c := ConfirmCode(s, "g1", "usa", "<m1@x>")
	if len(c) != 9 || c[4] != '-' {
		t.Fatalf("code %q", c)
	}
	if !ValidConfirmCode(s, "g1", "usa", "<m1@x>", strings.ToUpper(strings.ReplaceAll(c, "-", " "))) {
		t.Fatal("the code in another case and spacing does not confirm")
	}
	for _, other := range [][3]string{{"g2", "usa", "<m1@x>"}, {"g1", "csa", "<m1@x>"}, {"g1", "usa", "<m2@x>"}} {
		if ValidConfirmCode(s, other[0], other[1], other[2], c) {
			t.Fatalf("the code confirms %v too", other)
		}
	}
	if ValidConfirmCode([]byte("other"), "g1", "usa", "<m1@x>", c) {
		t.Fatal("the code does not depend on the secret")
	}
}

func TestSeenMailReadsTheGamesMailAReplyAnswers(t *testing.T) {
	for _, tc := range []struct {
		name            string
		inReplyTo, refs []string
		want            uint64
	}{
		{"the mail answered", []string{"g1.41@pbem.example"}, []string{"g1.2@pbem.example", "g1.41@pbem.example"}, 41},
		{"with angle brackets", []string{"<g1.7@pbem.example>"}, nil, 7},
		{"In-Reply-To names another game's mail: the latest reference", []string{"g10.99@pbem.example"}, []string{"g1.3@pbem.example", "g1.12@pbem.example", "x@y"}, 12},
		{"a mail of another game only", []string{"g10.5@pbem.example"}, []string{"g10.4@pbem.example"}, 0},
		{"a client's own Message-ID", []string{"CAF=abc@mail.example"}, nil, 0},
		{"nothing named", nil, nil, 0},
		{"not a number", []string{"g1.x@pbem.example"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := SeenMail("g1", tc.inReplyTo, tc.refs); got != tc.want {
				t.Fatalf("SeenMail = %d, want %d", got, tc.want)
			}
		})
	}
	id := MailID("g1", 41, "pbem.example")
	if n, _ := SeenMail("g1", []string{id}, nil); n != 41 {
		t.Fatalf("SeenMail does not read MailID's %s", id)
	}
	if seq, id := SeenMail("g1", []string{"g10.5@pbem.example"}, []string{"<g1.3@pbem.example>", "g1.12@pbem.example"}); seq != 12 || id != "g1.12@pbem.example" {
		t.Fatalf("SeenMail = %d %q, want the latest reference's seq and id", seq, id)
	}
}

// A page link is bound to game, seat and key epoch, and is neither the
// reply key nor the referee secret: leaking one does not give the others.
func TestPageTokenBindsGameSeatAndEpoch(t *testing.T) {
	secret := []byte("server secret")
	tok := Page(secret, "g1", "anna", 0)
	if len(tok) != PageLen || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz234567") != "" {
		t.Fatalf("page token %q", tok)
	}
	if !ValidPage(secret, "g1", "anna", 0, tok) {
		t.Fatal("a seat's own page token is refused")
	}
	tests := []struct {
		name       string
		secret     []byte
		game, seat string
		epoch      uint64
		tok        string
	}{
		{"another game", secret, "g2", "anna", 0, tok},
		{"another seat", secret, "g1", "taro", 0, tok},
		{"a later epoch (REPLACE)", secret, "g1", "anna", 1, tok},
		{"another server", []byte("other"), "g1", "anna", 0, tok},
		{"upper case", secret, "g1", "anna", 0, strings.ToUpper(tok)},
		{"the reply key", secret, "g1", "anna", 0, Make(secret, "g1", "anna")},
	}
	for _, tc := range tests {
		if ValidPage(tc.secret, tc.game, tc.seat, tc.epoch, tc.tok) {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	for _, other := range []string{Make(secret, "g1", "anna"), RefereeSecret(secret, "g1", "anna")} {
		if strings.Contains(tok, other) || strings.Contains(other, tok[:Len]) {
			t.Fatalf("the page token %q overlaps another credential %q", tok, other)
		}
	}
	if p := PagePath(secret, "g1", "anna", 2); p != "/p/g1/anna/"+Page(secret, "g1", "anna", 2) {
		t.Fatalf("page path %q", p)
	}
}
