package main

import (
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbem/demo"
)

// demoPlayer is a person of an end-to-end test reading their mailbox over
// IMAP as the demo's participants do (package demo).
type demoPlayer struct {
	id, addr string
	c        *imapclient.Client
	lastUID  imap.UID
}

// demoMail is a mail as the person's client shows it (demo.Mail).
type demoMail struct {
	uid                           imap.UID
	from, subject, msgID, replyTo string
	kind                          string // the body's first line: what the mail is
	body                          string
	attachments                   []string
	date                          time.Time
}

func fromDemo(m demo.Mail) demoMail {
	return demoMail{uid: m.UID, from: m.From, subject: m.Subject, msgID: m.MessageID, replyTo: m.ReplyTo,
		kind: m.Kind, body: m.Body, attachments: m.Attachments, date: m.Date}
}

// fetchNew returns p's mails that arrived since the last look.
func (p *demoPlayer) fetchNew() ([]demoMail, error) {
	ms, err := demo.FetchNew(p.c, &p.lastUID)
	out := make([]demoMail, len(ms))
	for i := range ms {
		out[i] = fromDemo(ms[i])
	}
	return out, err
}

func readDemoMail(raw []byte) (demoMail, error) {
	m, err := demo.ReadMail(raw)
	return fromDemo(m), err
}

func offered(body string) []string { return demo.Offered(body) }
