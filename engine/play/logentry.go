package play

import (
	"fmt"
	"strings"
	"time"

	"pbem/events"
)

// LogEntry renders one event (its payload as the reader may see it, see
// CutLog) as pbem log prints it: a heading line, then indented details.
func LogEntry(e *events.Envelope, p events.Payload) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%5d  %s  %-19s", e.Seq, e.Time().Format("2006-01-02 15:04:05Z"), e.Type)
	detail := func(format string, v ...any) { fmt.Fprintf(&b, "\n%31s"+format, append([]any{""}, v...)...) }
	switch p := p.(type) {
	case *events.GameCreated:
		fmt.Fprintf(&b, " %s %s, scenario %s", p.Ruleset, p.RulesetVersion, p.ScenarioName)
		for _, pl := range p.Players {
			detail("player %s (%s) %s", pl.ID, pl.Side, strings.Join(pl.Addresses, ", "))
		}
		for _, r := range p.Referees {
			detail("referee %s %s", r.ID, strings.Join(r.Addresses, ", "))
		}
		for _, s := range p.Settings {
			detail("setting %s = %s", s.Key, s.Value)
		}
		detail("dice commitment %s", p.SeedCommitment.Hex())
	case *events.OrderReceived:
		fmt.Fprintf(&b, " from %s via %s %s", p.Player, p.Source, p.MessageID)
		if p.Source == "mail" && p.Text != "" {
			auth := p.Auth
			if auth == "" {
				auth = "none (the envelope agrees with From)"
			}
			detail("sender authenticated: %s", auth)
		}
		if p.Text == "" {
			detail("(the text is the sender's; the decision says what came of it)")
		}
		for _, l := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
			if l != "" || p.Text != "" {
				detail("| %s", l)
			}
		}
	case *events.OrderHeld:
		fmt.Fprintf(&b, " from %s %s: waits for confirmation until %s", p.Player, p.MessageID, time.Unix(0, p.Expires).UTC().Format(time.RFC3339))
		detail("why: %s", p.Reason)
		for _, l := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
			detail("| %s", l)
		}
	case *events.OrderConfirmed:
		fmt.Fprintf(&b, " by %s %s: the order held at seq %d", p.Player, p.MessageID, p.Held)
	case *events.MailRefused:
		fmt.Fprintf(&b, " from %s %s: %s", p.Player, p.MessageID, p.Kind)
		detail("why: %s", p.Reason)
		if p.Sender != "" {
			detail("envelope sender: %s", p.Sender)
		}
	case *events.OrderAccepted:
		fmt.Fprintf(&b, " input %d from %s (%s)", p.Input, p.Player, p.RulesetVersion)
		for i, l := range p.Echo {
			if v := p.EchoLineVis(i); !v.Public() {
				l += " " + v.String()
			}
			detail("echo: %s", l)
		}
		for _, d := range p.Dice {
			detail("die %s", d)
		}
		for _, f := range p.Facts {
			detail("%s", FactLine(f))
		}
	case *events.OrderRejected:
		fmt.Fprintf(&b, " input %d from %s (%s)", p.Input, p.Player, p.RulesetVersion)
		for _, q := range p.Problems {
			detail("%s", q)
		}
	case *events.RefereeCommand:
		fmt.Fprintf(&b, " from %s via %s %s", p.Referee, p.Source, p.MessageID)
		if p.Refused != "" {
			detail("refused by the intake: %s (nothing of it is applied)", p.Refused)
		}
		if p.Reason != "" {
			detail("reason: %s", p.Reason)
		}
		if p.Text == "" {
			detail("(the command is the referees'; the decision says what came of it)")
		}
		for _, l := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
			if l != "" || p.Text != "" {
				detail("| %s", l)
			}
		}
	case *events.DeadlineSet:
		fmt.Fprintf(&b, " %s by %s, then %s", p.Player, time.Unix(0, p.Due).UTC().Format(time.RFC3339), p.Default)
	case *events.DeadlinePassed:
		fmt.Fprintf(&b, " %s (was due %s): %s", p.Player, time.Unix(0, p.Due).UTC().Format(time.RFC3339), p.Default)
	case *events.PauseExpired:
		fmt.Fprintf(&b, " the players' pause of %s ran out at %s", time.Unix(0, p.At).UTC().Format(time.RFC3339), time.Unix(0, p.Due).UTC().Format(time.RFC3339))
	case *events.MailQueued:
		fmt.Fprintf(&b, " %s to %s: %s", p.MailID, strings.Join(p.To, ", "), p.Subject)
	case *events.MailHeld:
		if p.Told != "" {
			fmt.Fprintf(&b, " for %s: told in %s", p.Reader, p.Told)
		} else {
			fmt.Fprintf(&b, " for %s: %s (until their next mail)", p.Reader, p.Kind)
		}
	case *events.MailSent:
		fmt.Fprintf(&b, " %s attempt %d: %s", p.MailID, p.Attempt, p.Reply)
	case *events.MailFailed:
		fmt.Fprintf(&b, " %s attempt %d permanent=%v: %s", p.MailID, p.Attempt, p.Permanent, p.Error)
	case *events.GameEnded:
		fmt.Fprintf(&b, " %s; winner %q; seed revealed %x", p.Reason, p.Winner, p.Seed)
	}
	b.WriteString("\n")
	return b.String()
}
