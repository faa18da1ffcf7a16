// Package token makes and checks the reply tokens that bind a mail to a
// game and a player. Every mail pbem sends that expects an answer carries a
// per-player Reply-To such as pbem+g1.usa.k3v9x2m4q8r7t6w5@example.org (plus
// addressing, as GitHub and Discourse reply-by-email do). The token is an
// HMAC of the game and player under the server's secret, so it cannot be
// guessed or moved to another game or player; the sender's address must
// also match the player's registered addresses (checked by the intake).
//
// For clients that lose the Reply-To, the same token can stand on a line of
// its own in the body ("Key: k3v9x2m4q8r7t6w5") with the game in the
// subject tag ("[pbem g1]").
package token

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Len is the length of a token: 80 bits in lower-case base32.
const Len = 16

var enc = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Make returns the token binding game and player under secret.
func Make(secret []byte, game, player string) string { return MakeAt(secret, game, player, 0) }

// MakeAt returns the token of a seat at a key epoch: a seat that changed
// hands (REPLACE) is at a later epoch, and the token its old holder has
// no longer matches. Epoch 0 is the seat's first key, as Make gives it.
func MakeAt(secret []byte, game, player string, epoch uint64) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("pbem reply token\x00" + game + "\x00" + seat(player, epoch)))
	return enc.EncodeToString(m.Sum(nil)[:10])
}

// seat is what a key is made for: the player id, and after the seat
// changed hands the epoch too.
func seat(player string, epoch uint64) string {
	if epoch == 0 {
		return player
	}
	return player + "\x00" + strconv.FormatUint(epoch, 10)
}

// Valid reports whether tok is the token of game and player, in constant time.
func Valid(secret []byte, game, player, tok string) bool {
	return ValidAt(secret, game, player, 0, tok)
}

// ValidAt reports whether tok is the token of the seat at epoch.
func ValidAt(secret []byte, game, player string, epoch uint64, tok string) bool {
	return hmac.Equal([]byte(MakeAt(secret, game, player, epoch)), []byte(strings.ToLower(tok)))
}

// Address returns the reply address local+game.player.token@domain.
func Address(secret []byte, local, domain, game, player string) string {
	return AddressAt(secret, local, domain, game, player, 0)
}

// AddressAt is Address for the seat at a key epoch.
func AddressAt(secret []byte, local, domain, game, player string, epoch uint64) string {
	return local + "+" + game + "." + player + "." + MakeAt(secret, game, player, epoch) + "@" + domain
}

// Parsed is what a reply address says; the token is not yet checked.
type Parsed struct {
	Game, Player, Token string
}

// ParseAddress reads a reply address of the mailbox local@domain
// (case-insensitively). ok is false for any other address.
func ParseAddress(addr, local, domain string) (Parsed, bool) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || addr[at+1:] != strings.ToLower(domain) {
		return Parsed{}, false
	}
	lp := addr[:at]
	rest, ok := strings.CutPrefix(lp, strings.ToLower(local)+"+")
	if !ok {
		return Parsed{}, false
	}
	parts := strings.Split(rest, ".")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || len(parts[2]) != Len {
		return Parsed{}, false
	}
	return Parsed{Game: parts[0], Player: parts[1], Token: parts[2]}, true
}

var (
	keyLine    = regexp.MustCompile(`(?i)^\s*key:\s*([a-z2-7]{16})\s*$`)
	subjectTag = regexp.MustCompile(`(?i)\[pbem\s+([a-z0-9][a-z0-9-]{0,39})\]`)
)

// KeyLine returns the token on a "Key: …" line, if line is one.
func KeyLine(line string) (string, bool) {
	m := keyLine.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return strings.ToLower(m[1]), true
}

// SubjectGame returns the game named by a "[pbem GAME]" subject tag.
func SubjectGame(subject string) (string, bool) {
	m := subjectTag.FindStringSubmatch(subject)
	if m == nil {
		return "", false
	}
	return strings.ToLower(m[1]), true
}

// SubjectTag returns the tag to put in subjects of game's mails.
func SubjectTag(game string) string { return "[pbem " + game + "]" }

// RefereeSecret returns a referee's command secret for a game: a second
// HMAC, under another label, that the referee writes on a "Secret:" line
// of every mail that changes the game. The reply token only says which
// mailbox a mail came back to (it travels in every mail pbem sends, and a
// forwarded mail carries it); the secret is sent once, in the referee's
// welcome, so a leaked report or a spoofed sender cannot command the game.
func RefereeSecret(secret []byte, game, referee string) string {
	return RefereeSecretAt(secret, game, referee, 0)
}

// RefereeSecretAt is the secret of a referee's seat at a key epoch: when
// the seat changes hands, the old secret stops working.
func RefereeSecretAt(secret []byte, game, referee string, epoch uint64) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("pbem referee secret\x00" + game + "\x00" + seat(referee, epoch)))
	return enc.EncodeToString(m.Sum(nil)[:15])
}

// ValidRefereeSecret reports whether s is referee's secret for game
// (compared in constant time; case and spaces do not matter).
func ValidRefereeSecret(secret []byte, game, referee, s string) bool {
	return ValidRefereeSecretAt(secret, game, referee, 0, s)
}

// ValidRefereeSecretAt is ValidRefereeSecret for the seat at epoch.
func ValidRefereeSecretAt(secret []byte, game, referee string, epoch uint64, s string) bool {
	s = strings.ToLower(strings.Join(strings.Fields(s), ""))
	return hmac.Equal([]byte(s), []byte(RefereeSecretAt(secret, game, referee, epoch)))
}

var secretLineRE = regexp.MustCompile(`(?i)^\s*secret\s*:\s*([a-z2-7 ]{8,})\s*$`)

// SecretLine reports whether line is a "Secret: …" line, and its value.
func SecretLine(line string) (string, bool) {
	m := secretLineRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return strings.TrimSpace(m[1]), true
}

var reasonLineRE = regexp.MustCompile(`(?i)^\s*reason\s*:\s*(.*\S)\s*$`)

// ReasonLine reports whether line is a referee's "Reason: …" line.
func ReasonLine(line string) (string, bool) {
	m := reasonLineRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// ConfirmCode returns the one-time code that confirms the order a player's
// mail (by its Message-ID) brought and that was held because its sender
// could not be authenticated: a third HMAC, 40 bits, written as two groups
// of four ("k3v9-x2m4"). It is mailed only to the player's registered
// address, and is one-time because a held order is confirmed once.
func ConfirmCode(secret []byte, game, player, messageID string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("pbem confirm code\x00" + game + "\x00" + player + "\x00" + messageID))
	c := enc.EncodeToString(m.Sum(nil)[:5])
	return c[:4] + "-" + c[4:]
}

// ValidConfirmCode reports whether code (case, spaces and the dash aside)
// confirms the held mail, in constant time.
func ValidConfirmCode(secret []byte, game, player, messageID, code string) bool {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(s))
	}
	return hmac.Equal([]byte(norm(code)), []byte(norm(ConfirmCode(secret, game, player, messageID))))
}

// MailID is the Message-ID of the game's mail stored at seq:
// "<game.seq@domain>".
func MailID(game string, seq uint64, domain string) string {
	return fmt.Sprintf("<%s.%d@%s>", game, seq, domain)
}

// SeenMail reads, from the Message-IDs a reply names (In-Reply-To first,
// then References, without angle brackets), the seq of the game's mail
// it answers: the one In-Reply-To names, else the latest of References;
// 0 when it names none of the game's mails. It also returns the
// Message-ID (without angle brackets) that named the seq: the number in a
// mail's Message-ID is the seq the mail was composed for, and the log may
// hold it a few seqs later (see the intake), where it is found by that
// id. It says what the writer saw, never who wrote: a forged header only
// makes a relative ruling refused.
func SeenMail(game string, inReplyTo, references []string) (uint64, string) {
	of := func(id string) uint64 {
		id = strings.Trim(id, "<>")
		rest, ok := strings.CutPrefix(id, game+".")
		if !ok {
			return 0
		}
		num, _, ok := strings.Cut(rest, "@")
		if !ok {
			return 0
		}
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			return 0
		}
		return n
	}
	for _, id := range inReplyTo {
		if n := of(id); n > 0 {
			return n, strings.Trim(id, "<>")
		}
	}
	var best uint64
	var bestID string
	for _, id := range references {
		if n := of(id); n > best {
			best, bestID = n, strings.Trim(id, "<>")
		}
	}
	return best, bestID
}

// PageLen is the length of a page token: 128 bits in lower-case base32.
const PageLen = 26

// Page returns the token of a seat's live page (the per-player link of
// package web) at a key epoch: a third HMAC under its own label, so that
// neither the reply key nor the referee secret can be derived from the
// link, nor the link from them. A seat that changed hands (REPLACE, which
// the referee may also give to the same address to revoke a leaked link)
// is at a later epoch, and the old link no longer opens the page.
func Page(secret []byte, game, player string, epoch uint64) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("pbem page link\x00" + game + "\x00" + seat(player, epoch)))
	return enc.EncodeToString(m.Sum(nil)[:16])
}

// ValidPage reports whether tok is the page token of the seat at epoch,
// in constant time.
func ValidPage(secret []byte, game, player string, epoch uint64, tok string) bool {
	return hmac.Equal([]byte(Page(secret, game, player, epoch)), []byte(tok))
}

// PagePath is the path of a seat's page link at a key epoch:
// /p/<game>/<seat>/<token> (package web serves it).
func PagePath(secret []byte, game, player string, epoch uint64) string {
	return "/p/" + url.PathEscape(game) + "/" + url.PathEscape(player) + "/" + Page(secret, game, player, epoch)
}
