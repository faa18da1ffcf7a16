package intake

import (
	"fmt"
	"strings"
	"time"

	"pbem/events"
)

// Notice is a mail the intake sends a registered player about a mail of
// theirs that was not applied as it came: what happened and what to do. It
// goes to the player's registered addresses, never to the mail's sender.
type Notice struct {
	Player string
	// To are the player's registered addresses.
	To []string
	// Kind is an events.Refused… constant, or NoticeHeld.
	Kind string
	// Title is the mail's kind, its first line ("Your mail was too large").
	Title string
	// What happened and what to do, in sentences.
	What, Do string
	// Quote is text of the player's mail shown in the notice (the held
	// order).
	Quote []string
	// Code is the line that confirms a held order ("CONFIRM abcd-efgh").
	Code string
	// InReplyTo and References thread the notice under the mail it is
	// about.
	InReplyTo  string
	References []string
}

// NoticeHeld is the Kind of the notice asking a player to confirm an
// order that was held.
const NoticeHeld = "held"

// Notifier renders a notice as the mail queued for it, to be stored at
// seq of game (its Message-ID is derived from it).
type Notifier interface {
	Notice(game string, n Notice, seq uint64) (*events.MailQueued, error)
}

// timeText prints an intake time for a notice.
func timeText(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }

// sizeText prints a mail's size.
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// mailName names the player's mail in a notice: its subject and when it
// came.
func mailName(subject string, at time.Time) string {
	if subject = strings.TrimSpace(subject); subject != "" {
		return fmt.Sprintf("Your mail %q, received %s,", subject, timeText(at))
	}
	return fmt.Sprintf("Your mail received %s", timeText(at))
}

const elseSomeone = "If you did not send it, someone may be sending mail in your name: tell the referee."
