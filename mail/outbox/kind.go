package outbox

import (
	"strings"

	"pbem/events"
	"pbem/templates"
)

// What a mail is shows in a message list without opening it, while every
// mail of a game to one reader stays in one thread: the subject never
// changes (Gmail threads by the normalised subject, so a kind in the
// subject would split the thread), and References root every mail in the
// reader's welcome. The kind goes in the From display name, which mutt's
// index, Thunderbird's Correspondents column and Gmail-style lists all
// show beside the subject, and which no client threads by: "Your move ·
// pbem", "Report · pbem", "Accepted · pbem", "Rejected · pbem". The kind comes first, so a
// narrow From column (mutt's is 15 characters) still shows it. The body's
// first line says the same at length ("Your move", "Order rejected"), and
// is what a list's preview shows.

// FromName is the display name of the From of mail q: its kind, then the
// configured name (or "pbem").
func FromName(configured string, q *events.MailQueued) string {
	if configured == "" {
		configured = "pbem"
	}
	k := Kind(q)
	if k == "" {
		return configured
	}
	return k + " · " + configured
}

// Kind is the short kind of mail q as its From shows it: "Your move",
// "Report", "Accepted", "Rejected", "Reminder", "Game over", "Welcome", "Answer",
// "Notice", "Announcement"; "" when the mail names no template.
func Kind(q *events.MailQueued) string {
	first, _, _ := strings.Cut(q.Body, "\n")
	first = strings.ToLower(first)
	switch q.Template {
	case templates.NameYourMove:
		return "Your move"
	case templates.NameReferee:
		if strings.Contains(first, "ruling needed") {
			return "Your move"
		}
		return "Report"
	case templates.NameReport:
		if strings.HasPrefix(first, "your orders were accepted") {
			return "Accepted"
		}
		return "Report"
	case templates.NameRejected:
		return "Rejected"
	case templates.NameReminder:
		return "Reminder"
	case templates.NameGameOver:
		return "Game over"
	case templates.NameWelcome:
		return "Welcome"
	case templates.NameAnnounce:
		return "Announcement"
	case templates.NameMessage:
		return "Message"
	case templates.NameHelp, templates.NameBoard, templates.NameStatus, templates.NameLog, templates.NameGames:
		return "Answer"
	case templates.NameNotice, templates.NameReplaced:
		return "Notice"
	}
	return ""
}
