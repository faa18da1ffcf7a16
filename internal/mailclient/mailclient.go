// Package mailclient is the few mail client steps the benchmarks and the
// end-to-end tests take as a player would: mail an order over SMTP, read
// a mailbox over IMAP.
package mailclient

import (
	"fmt"
	"strings"

	"github.com/emersion/go-smtp"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Order mails text from from to to over SMTP at addr (no AUTH: the
// host is the game domain's inbound server).
func Order(addr, from, to, id, text string) error {
	domain := from[strings.Index(from, "@")+1:]
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: your move\r\nMessage-ID: <%s@%s>\r\nContent-Type: text/plain\r\n\r\n%s\r\n", from, to, id, domain, text)
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello(domain); err != nil {
		return err
	}
	if err := c.SendMail(from, []string{to}, strings.NewReader(msg)); err != nil {
		return fmt.Errorf("mailing %s: %w", id, err)
	}
	return c.Quit()
}

// Inbox returns every mail in user's INBOX on the IMAP server at
// addr (nil if it cannot be read).
func Inbox(addr, user, password string) [][]byte {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		return nil
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		return nil
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.SeqSet{imap.SeqRange{Start: 1, Stop: sel.NumMessages}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil
	}
	out := make([][]byte, len(msgs))
	for i, m := range msgs {
		out[i] = m.FindBodySection(section)
	}
	return out
}
