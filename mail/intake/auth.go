package intake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"

	"pbem/engine/play"
	"pbem/mail/parse"
)

// The sender-authentication modes of a game (the game setting
// "sender-auth", or AuthConfig.Mode for every game that has none).
const (
	// ModeStrict applies only mail whose sender is authenticated as the
	// player's own address.
	ModeStrict = "strict"
	// ModeConfirm, the default, applies mail whose sender is authenticated
	// as the player's own address; any other mail waits until the player
	// confirms it from the registered address.
	ModeConfirm = "confirm"
	// ModeLenient applies mail from a registered From address as it is.
	ModeLenient = "lenient"
)

// SettingSenderAuth is the game setting that chooses the mode (the
// engine validates it).
const SettingSenderAuth = play.SettingSenderAuth

// DefaultUserSigners are the mailbox providers whose DKIM signature
// names a user: they let a user send only as one of the user's own
// addresses, so a signature of theirs aligned with From authenticates the
// From address, not only the domain.
var DefaultUserSigners = []string{
	"gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com",
	"yahoo.com", "icloud.com", "me.com", "gmx.de", "gmx.net", "web.de",
	"proton.me", "protonmail.com", "fastmail.com", "aol.com", "yandex.ru",
	"mail.ru", "zoho.com",
}

// AuthConfig says how the intake authenticates senders.
type AuthConfig struct {
	// ServID is the authserv-id of the receiving mail host (RFC 8601):
	// the topmost Authentication-Results field with this id is trusted,
	// any other ignored. "" trusts none, and DKIM is checked here.
	ServID string
	// UserSigners are the DKIM signing domains that authenticate users
	// (nil: DefaultUserSigners). A signature of another domain, or of one
	// of these not matching From's domain, authenticates no player.
	UserSigners []string
	// NoDKIM turns off pbem's own DKIM check (for a host whose DNS pbem
	// cannot reach); then only a trusted Authentication-Results counts.
	NoDKIM bool
	// LookupTXT resolves DKIM keys (default: DNS, 5 s per lookup).
	LookupTXT func(domain string) ([]string, error)
	// Mode is the mode of games without a sender-auth setting (default
	// confirm).
	Mode string
	// ConfirmWithin is how long a held order waits for its confirmation
	// (default 48h).
	ConfirmWithin time.Duration
	// MaxHeld bounds the orders of one player waiting for confirmation;
	// more are quarantined (default 3).
	MaxHeld int
}

// userSigner reports whether d is a DKIM signer that authenticates users.
func (c AuthConfig) userSigner(d string) bool {
	list := c.UserSigners
	if list == nil {
		list = DefaultUserSigners
	}
	for _, s := range list {
		if strings.EqualFold(strings.TrimSpace(s), d) {
			return true
		}
	}
	return false
}

// ValidMode reports whether m names a sender-auth mode.
func ValidMode(m string) bool {
	switch m {
	case ModeStrict, ModeConfirm, ModeLenient:
		return true
	}
	return false
}

// senderAuth is what the intake could establish about who sent a mail.
type senderAuth struct {
	// how the sender was authenticated as the From address itself (see
	// the README's table): "smtp.auth anna@example.org" (the receiving
	// host's login), "spf anna@example.org" (an SPF pass for an envelope
	// that is From), "dkim anna@gmail.com" (a signature of a mailbox
	// provider that authenticates users, or whose i= is From); "" for
	// not at all.
	how string
	// domain is a pass that vouches only for From's domain ("dmarc
	// example.org", "dkim example.org"): any user of that domain could
	// have sent the mail, so it authenticates no player.
	domain string
	// why it was not, for the player and the log ("no DKIM signature",
	// "dmarc=fail from mx.example.org").
	why string
	// mismatch says how the envelope sender or Sender differs from From;
	// sender is that address.
	mismatch, sender string
	// failed is set when the mail failed a check it claims to pass: the
	// trusted host says dmarc=fail (or dkim=fail for the From domain), or
	// a DKIM signature of the From domain does not verify. Such a mail is
	// held like one whose envelope differs, whatever its envelope.
	failed string
}

// suspect says why a mail that is not authenticated is held, or "" for
// a mail authenticated as its From address.
func (a senderAuth) suspect() string {
	switch {
	case a.how != "":
		return ""
	case a.mismatch != "":
		return a.mismatch
	case a.failed != "":
		return a.failed
	case a.why != "":
		return a.why
	}
	return "no result names its From address"
}

// hostAuth is what can be told of who sent msg without looking anything
// up: a trusted Authentication-Results (the host's login or an SPF pass
// for an envelope that is From, a DKIM pass that names From, or a pass
// for From's domain only) and whether the envelope sender (Return-Path)
// or Sender differ from From. trusted reports whether the receiving
// host's field was there.
func (in *Intake) hostAuth(msg *parse.Message) (a senderAuth, trusted bool) {
	from := strings.ToLower(msg.From.Addr)
	switch {
	case msg.ReturnPath != "" && !sameSender(msg.ReturnPath, from):
		a.sender = strings.ToLower(msg.ReturnPath)
		a.mismatch = fmt.Sprintf("its envelope sender %s is not its From address %s", a.sender, from)
	case msg.Sender.Addr != "" && !strings.EqualFold(msg.Sender.Addr, from):
		a.sender = strings.ToLower(msg.Sender.Addr)
		a.mismatch = fmt.Sprintf("its Sender %s is not its From address %s", a.sender, from)
	}
	if id := in.cfg.Senders.ServID; id != "" {
		// Only the topmost field can be the receiving host's: it adds its
		// own on top of what arrives and strips any with its id (RFC 8601
		// §5). A field with its id below another's was written before the
		// host, by whoever sent the mail; without the host's field on top
		// the mail is unauthenticated, and the operator warned.
		var servID string
		var results []authres.Result
		var err error
		if len(msg.AuthResults) > 0 {
			servID, results, err = authres.Parse(stripComments(msg.AuthResults[0]))
		}
		switch {
		case len(msg.AuthResults) == 0 || !strings.EqualFold(servID, id):
			in.missingHostField(id, msg)
		case err != nil:
			trusted = true
			a.why = "the receiving host's Authentication-Results could not be read"
			in.lg.Warn("unreadable Authentication-Results of the receiving host", "authserv_id", id, "err", err)
		default:
			trusted = true
			a.how, a.domain, a.why = in.fromResults(results, from, strings.ToLower(msg.ReturnPath), a.mismatch == "", id)
			// A failed DMARC (or DKIM of From's domain) outweighs any pass.
			if failedFor(results, domainOf(from)) {
				if a.how != "" {
					a.how, a.why = "", "the receiving host "+id+" says it failed DMARC or DKIM for "+domainOf(from)
				}
				a.failed = a.why
			}
		}
	}
	return a, trusted
}

// missingHostField counts a mail that arrived without the receiving host's
// field on top, and warns the operator of the first: the host named by
// mail.authserv_id seems not to add its Authentication-Results, so a
// sender could write one in its name.
func (in *Intake) missingHostField(id string, msg *parse.Message) {
	in.mu.Lock()
	in.noHostField++
	first := in.noHostField == 1
	in.noHostFieldLast = in.cfg.Now()
	in.mu.Unlock()
	if first {
		in.lg.Warn("a mail arrived without the receiving host's Authentication-Results on top: the host seems not to add its field, so pbem treats such mail as unauthenticated; make the host add its field to every mail and strip incoming ones with its id (see the README), or unset mail.authserv_id",
			"authserv_id", id, "message_id", msg.MessageID, "topmost", len(msg.AuthResults) > 0)
	}
}

// authenticate completes hostAuth's a (trusted: the receiving host's
// field was there) with a DKIM signature pbem verifies itself when the
// host said nothing.
func (in *Intake) authenticate(raw []byte, msg *parse.Message, a senderAuth, trusted bool) senderAuth {
	if !trusted && !in.cfg.Senders.NoDKIM && len(msg.DKIMSignatures) > 0 {
		a.how, a.domain, a.why, a.failed = in.verifyDKIM(raw, strings.ToLower(msg.From.Addr))
	}
	if a.how == "" && a.why == "" {
		a.why = "it carries no DKIM signature"
		if trusted {
			a.why = "the receiving host found nothing that names its sender"
		}
	}
	return a
}

// fromResults reads the trusted results for a mail from the address
// from (agrees: its envelope and Sender are From): the host's login as
// From, an SPF pass for an envelope that is From (named by smtp.mailfrom,
// or, where the host names only its domain, as OpenDMARC does, the
// Return-Path at that domain), or a DKIM pass that
// names From authenticate it (how); a DMARC pass, or a DKIM pass aligned
// with From's domain, vouch only for the domain.
func (in *Intake) fromResults(results []authres.Result, from, envelope string, agrees bool, servID string) (how, domain, why string) {
	fromDomain := domainOf(from)
	var fails []string
	for _, r := range results {
		switch r := r.(type) {
		case *authres.AuthResult:
			if r.Value == authres.ResultPass && strings.EqualFold(r.Auth, from) && agrees {
				return "smtp.auth " + from, "", ""
			}
			if r.Value == authres.ResultPass && r.Auth != "" {
				fails = append(fails, "the host's user "+strings.ToLower(r.Auth)+" sent it, not "+from)
			}
		case *authres.SPFResult:
			mailfrom := strings.ToLower(r.From)
			if !strings.Contains(mailfrom, "@") && envelope != "" && mailfrom == domainOf(envelope) {
				mailfrom = envelope
			}
			if r.Value == authres.ResultPass && strings.Contains(mailfrom, "@") && sameSender(mailfrom, from) && agrees {
				return "spf " + from, "", ""
			}
			if r.Value != authres.ResultPass && r.Value != authres.ResultNone {
				fails = append(fails, "spf="+string(r.Value))
			}
		case *authres.DKIMResult:
			d := strings.ToLower(r.Domain)
			if d == "" && r.Identifier != "" {
				d = domainOf(r.Identifier)
			}
			switch {
			case r.Value == authres.ResultPass && d == fromDomain && (in.cfg.Senders.userSigner(d) || strings.EqualFold(r.Identifier, from)):
				return "dkim " + from, "", ""
			case r.Value == authres.ResultPass && aligned(d, fromDomain):
				if domain == "" {
					domain = "dkim " + d
				}
			case r.Value == authres.ResultPass:
				fails = append(fails, "dkim=pass for "+d+", not aligned with "+fromDomain)
			default:
				fails = append(fails, "dkim="+string(r.Value))
			}
		case *authres.DMARCResult:
			if r.Value == authres.ResultPass && (r.From == "" || strings.EqualFold(r.From, fromDomain)) {
				domain = "dmarc " + fromDomain
			} else {
				fails = append(fails, "dmarc="+string(r.Value))
			}
		}
	}
	switch {
	case domain != "":
		return "", domain, "the receiving host " + servID + " vouches only for the domain " + fromDomain + " (" + strings.Fields(domain)[0] + "=pass), not for the address " + from
	case len(fails) == 0:
		return "", "", "the receiving host " + servID + " found nothing that names its sender"
	}
	return "", "", "the receiving host " + servID + " says " + strings.Join(fails, ", ")
}

// failedFor reports whether trusted results say the mail failed DMARC, or
// failed DKIM for a domain aligned with From.
func failedFor(results []authres.Result, fromDomain string) bool {
	for _, r := range results {
		switch r := r.(type) {
		case *authres.DMARCResult:
			if r.Value == authres.ResultFail {
				return true
			}
		case *authres.DKIMResult:
			if r.Value == authres.ResultFail && aligned(strings.ToLower(r.Domain), fromDomain) {
				return true
			}
		}
	}
	return false
}

// maxDKIMSignatures bounds the signatures verified per mail.
const maxDKIMSignatures = 4

// verifyDKIM verifies the mail's DKIM signatures: a valid one of From's
// domain by a signer that authenticates users, or whose i= is From,
// authenticates it (how); one only aligned with From's domain vouches for
// the domain.
func (in *Intake) verifyDKIM(raw []byte, from string) (how, domain, why, failed string) {
	fromDomain := domainOf(from)
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: in.keys.LookupTXT, MaxVerifications: maxDKIMSignatures})
	if err != nil && len(vs) == 0 {
		in.lg.Info("DKIM signature not checked", "from_domain", fromDomain, "err", err)
		return "", "", "its DKIM signature could not be read", ""
	}
	var fails []string
	for _, v := range vs {
		d := strings.ToLower(v.Domain)
		switch {
		case v.Err == nil && d == fromDomain && (in.cfg.Senders.userSigner(d) || strings.EqualFold(v.Identifier, from)):
			return "dkim " + from, "", "", ""
		case v.Err == nil && aligned(d, fromDomain):
			if domain == "" {
				domain = "dkim " + d
			}
		case v.Err == nil:
			fails = append(fails, "a valid DKIM signature of "+d+", which is not the From domain "+fromDomain)
		default:
			// Said in words for the player; the error itself (a resolver
			// address, a Go error) only reaches the operator's log.
			in.lg.Info("DKIM signature does not verify", "domain", d, "err", v.Err)
			fails = append(fails, dkimFailure(d, v.Err))
			// A signature of the From domain that fails (not one that
			// could not be checked for now) is a mail altered or forged.
			if aligned(d, fromDomain) && !dkim.IsTempFail(v.Err) {
				failed = "a DKIM signature of " + d + " does not verify"
			}
		}
	}
	if domain != "" {
		fails = append([]string{"its DKIM signature vouches only for the domain " + domainOf(from) + ", not for the address " + from}, fails...)
	}
	return "", domain, strings.Join(fails, "; "), failed
}

// aligned reports whether a DKIM domain d is aligned with the From domain
// (relaxed alignment, RFC 7489 §3.1.1: the same domain, or one a parent of
// the other, short of a top-level domain).
func aligned(d, from string) bool {
	if d == "" || from == "" {
		return false
	}
	if d == from {
		return true
	}
	parent, child := d, from
	if len(parent) > len(child) {
		parent, child = child, parent
	}
	return strings.Contains(parent, ".") && strings.HasSuffix(child, "."+parent)
}

func domainOf(addr string) string {
	_, d, _ := strings.Cut(strings.ToLower(strings.TrimSpace(addr)), "@")
	return strings.TrimSuffix(d, ".")
}

// sameSender reports whether an envelope sender is the From address:
// the same address, or at the same domain a bounce address that extends
// From's local part (anna+bounces@, anna=example.net@: VERP and the like).
func sameSender(envelope, from string) bool {
	envelope, from = strings.ToLower(envelope), strings.ToLower(from)
	if envelope == from {
		return true
	}
	el, ed, ok1 := strings.Cut(envelope, "@")
	fl, fd, ok2 := strings.Cut(from, "@")
	if !ok1 || !ok2 || ed != fd || fl == "" {
		return false
	}
	rest, ok := strings.CutPrefix(el, fl)
	return ok && rest != "" && strings.ContainsRune("+-=", rune(rest[0]))
}

// stripComments removes RFC 5322 comments "(…)" from a header value
// (Authentication-Results carry them: "dkim=pass (2048-bit key)").
func stripComments(v string) string {
	var b strings.Builder
	depth := 0
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			if depth == 0 {
				b.WriteByte(c)
				b.WriteByte(v[i+1])
			}
			i++
			continue
		case c == '"' && depth == 0:
			quoted = !quoted
		case c == '(' && !quoted:
			depth++
			continue
		case c == ')' && !quoted && depth > 0:
			depth--
			continue
		}
		if depth == 0 {
			b.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// fingerprints are the idempotency keys of a mail's content, besides its
// Message-ID: the same From, Date and body (its text, what it quotes and
// the mail it answers: two replies with the same orders in the same second
// to different mails differ), and each DKIM signature (b=). A mail sent
// again under a new Message-ID matches one of them.
func fingerprints(msg *parse.Message) []string {
	var keys []string
	if !msg.Date.IsZero() {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", strings.ToLower(msg.From.Addr), msg.Date.Unix(), strings.Join(msg.InReplyTo, " "))
		for _, t := range append([]parse.Text{msg.Body}, msg.Attachments...) {
			fmt.Fprintf(h, "%s\x00", t.Name)
			for _, l := range append(t.Lines, t.Quoted...) {
				fmt.Fprintf(h, "%d:%s\n", l.No, l.Text)
			}
		}
		keys = append(keys, "mail:"+hex.EncodeToString(h.Sum(nil))[:40])
	}
	for _, sig := range msg.DKIMSignatures {
		if b := dkimTag(sig, "b"); b != "" {
			sum := sha256.Sum256([]byte(b))
			keys = append(keys, "dkim:"+hex.EncodeToString(sum[:])[:40])
		}
	}
	return keys
}

// dkimTag returns a tag's value from a DKIM-Signature, white space removed.
func dkimTag(sig, tag string) string {
	for _, part := range strings.Split(sig, ";") {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.TrimSpace(k) == tag {
			return strings.Join(strings.Fields(v), "")
		}
	}
	return ""
}

// dkimFailure says in plain words why the signature of domain d did not
// verify.
func dkimFailure(d string, err error) string {
	switch msg := strings.ToLower(err.Error()); {
	case dkim.IsTempFail(err):
		return "the DKIM signature of " + d + " could not be checked: its key did not answer"
	case strings.Contains(msg, "key unavailable"), strings.Contains(msg, "no key"), strings.Contains(msg, "key syntax"), strings.Contains(msg, "no such host"):
		return "the DKIM signature of " + d + " could not be checked: " + d + " publishes no usable key for it"
	}
	return "the DKIM signature of " + d + " does not match the mail (it was changed on the way, or forged)"
}
