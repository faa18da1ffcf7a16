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
	// ModeStrict applies only mail whose sender is authenticated.
	ModeStrict = "strict"
	// ModeConfirm, the default, applies authenticated mail and mail whose
	// envelope sender and Sender agree with From; any other mail waits
	// until the player confirms it from the registered address.
	ModeConfirm = "confirm"
	// ModeLenient applies mail from a registered From address as it is.
	ModeLenient = "lenient"
)

// SettingSenderAuth is the game setting that chooses the mode (the
// engine validates it).
const SettingSenderAuth = play.SettingSenderAuth

// AuthConfig says how the intake authenticates senders.
type AuthConfig struct {
	// ServID is the authserv-id of the receiving mail host (RFC 8601):
	// the topmost Authentication-Results field with this id is trusted,
	// any other ignored. "" trusts none, and DKIM is checked here.
	ServID string
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
	// how the sender was authenticated: "dmarc example.org" or
	// "dkim example.org" (a pass aligned with From); "" for not at all.
	how string
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

// suspect says why a mail that is not authenticated is held, or "".
func (a senderAuth) suspect() string {
	switch {
	case a.how != "":
		return ""
	case a.mismatch != "":
		return a.mismatch
	}
	return a.failed
}

// hostAuth is what can be told of who sent msg without looking anything
// up: a trusted Authentication-Results (DMARC pass, or DKIM pass aligned
// with From) and whether the envelope sender (Return-Path) or Sender
// differ from From. trusted reports whether the receiving host's field
// was there.
func (in *Intake) hostAuth(msg *parse.Message) (a senderAuth, trusted bool) {
	fromDomain := domainOf(msg.From.Addr)
	if id := in.cfg.Senders.ServID; id != "" {
		for _, v := range msg.AuthResults {
			servID, results, err := authres.Parse(stripComments(v))
			if !strings.EqualFold(servID, id) {
				continue
			}
			// The topmost field with our id is the receiving host's own: a
			// host strips such fields from what arrives (RFC 8601 §5), and
			// any it did not were written below it, by the sender.
			trusted = true
			if err != nil {
				a.why = "the receiving host's Authentication-Results could not be read"
				in.lg.Warn("unreadable Authentication-Results of the receiving host", "authserv_id", id, "err", err)
				break
			}
			a.how, a.why = fromResults(results, fromDomain, id)
			if a.how == "" && failedFor(results, fromDomain) {
				a.failed = a.why
			}
			break
		}
	}
	from := strings.ToLower(msg.From.Addr)
	switch {
	case msg.ReturnPath != "" && !sameSender(msg.ReturnPath, from):
		a.sender = strings.ToLower(msg.ReturnPath)
		a.mismatch = fmt.Sprintf("its envelope sender %s is not its From address %s", a.sender, from)
	case msg.Sender.Addr != "" && !strings.EqualFold(msg.Sender.Addr, from):
		a.sender = strings.ToLower(msg.Sender.Addr)
		a.mismatch = fmt.Sprintf("its Sender %s is not its From address %s", a.sender, from)
	}
	return a, trusted
}

// authenticate completes hostAuth's a (trusted: the receiving host's
// field was there) with a DKIM signature pbem verifies itself when the
// host said nothing.
func (in *Intake) authenticate(raw []byte, msg *parse.Message, a senderAuth, trusted bool) senderAuth {
	if !trusted && !in.cfg.Senders.NoDKIM && len(msg.DKIMSignatures) > 0 {
		a.how, a.why, a.failed = in.verifyDKIM(raw, domainOf(msg.From.Addr))
	}
	if a.how == "" && a.why == "" {
		a.why = "it carries no DKIM signature"
		if trusted {
			a.why = "the receiving host found no DKIM or DMARC pass for it"
		}
	}
	return a
}

// fromResults reads the trusted results: DMARC pass for the From domain,
// or a DKIM pass whose domain is aligned with it.
func fromResults(results []authres.Result, fromDomain, servID string) (how, why string) {
	for _, r := range results {
		if r, ok := r.(*authres.DMARCResult); ok && r.Value == authres.ResultPass && (r.From == "" || strings.EqualFold(r.From, fromDomain)) {
			return "dmarc " + fromDomain, ""
		}
	}
	var fails []string
	for _, r := range results {
		switch r := r.(type) {
		case *authres.DMARCResult:
			fails = append(fails, "dmarc="+string(r.Value))
		case *authres.DKIMResult:
			d := strings.ToLower(r.Domain)
			if d == "" && r.Identifier != "" {
				d = domainOf(r.Identifier)
			}
			if r.Value == authres.ResultPass && aligned(d, fromDomain) {
				return "dkim " + d, ""
			}
			if r.Value == authres.ResultPass {
				fails = append(fails, "dkim=pass for "+d+", not aligned with "+fromDomain)
			} else {
				fails = append(fails, "dkim="+string(r.Value))
			}
		}
	}
	if len(fails) == 0 {
		return "", "the receiving host " + servID + " found no DKIM or DMARC pass for it"
	}
	return "", "the receiving host " + servID + " says " + strings.Join(fails, ", ")
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

// verifyDKIM verifies the mail's DKIM signatures: a valid one whose
// domain is aligned with From authenticates it.
func (in *Intake) verifyDKIM(raw []byte, fromDomain string) (how, why, failed string) {
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: in.keys.LookupTXT, MaxVerifications: maxDKIMSignatures})
	if err != nil && len(vs) == 0 {
		in.lg.Info("DKIM signature not checked", "from_domain", fromDomain, "err", err)
		return "", "its DKIM signature could not be read", ""
	}
	var fails []string
	for _, v := range vs {
		d := strings.ToLower(v.Domain)
		switch {
		case v.Err == nil && aligned(d, fromDomain):
			return "dkim " + d, "", ""
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
	return "", strings.Join(fails, "; "), failed
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
